"""Literal tests for the SAP-twin section of the summary (runs/twins.py)."""
from opencompass_h2htalk.runs.twins import compare_twins, render_twins, twin_pairs


def _result(*items):
    return {'item_judgements': [[{'id': i, 'overall': o, 'violation': v} for i, o, v in items]]}


def test_twin_pairs_match_nosap_with_every_sap_variant_of_the_same_base():
    abbrs = ['a@nosap', 'b@sap-v1', 'a@sap-v1', 'a@sap-v2', 'c', 'b@other']
    assert twin_pairs(abbrs) == [('a@nosap', 'a@sap-v1'), ('a@nosap', 'a@sap-v2')]
    assert twin_pairs(['x@sap-v1', 'y@nosap']) == []


def test_compare_twins_uses_only_items_both_twins_have_judged():
    raw = {'m@nosap': {'h2htalk_safety': _result(('s-1', 2.0, True), ('s-2', None, None), ('s-3', 4.0, False))},
           'm@sap-v1': {'h2htalk_safety': _result(('s-1', 5.0, False), ('s-2', 5.0, False), ('s-3', None, None))},
           'x': {'h2htalk_safety': _result(('s-1', 1.0, True))}}
    rows = compare_twins(raw, ['m@nosap', 'm@sap-v1', 'x'], ['h2htalk_safety', 'h2htalk_dialogue_base'])
    assert len(rows) == 1
    c = rows[0]['comparison']
    # Only s-1 is judged on both sides: 2.0 vs 5.0, violation 100 % vs 0 %.
    assert c['n_common'] == 1 and c['n_only'] == {'m@nosap': 1, 'm@sap-v1': 1}
    assert c['m@nosap'] == {'score': 2.0, 'violation_rate': 100.0}
    assert c['m@sap-v1'] == {'score': 5.0, 'violation_rate': 0.0}
    text = render_twins(rows)
    assert 'h2htalk_safety | m@nosap | m@sap-v1 | 1 | 1 | 1 | 2.00 | 5.00 | 100.00 | 0.00' in text


def test_twins_over_different_items_are_reported_not_compared():
    raw = {'m@nosap': {'d': _result(('a', 3.0, None))}, 'm@sap-v1': {'d': _result(('b', 3.0, None))}}
    text = render_twins(compare_twins(raw, ['m@nosap', 'm@sap-v1'], ['d']))
    assert 'not comparable' in text and 'cover different items' in text
    assert render_twins([]) == ''


def test_twins_show_the_rule_violation_rate_beside_the_judge_s():
    def result(*items):
        return {'item_judgements': [[{'id': i, 'overall': o, 'violation': v, 'rule_violation': r}
                                     for i, o, v, r in items]]}
    raw = {'m@nosap': {'s': result(('a', 2.0, False, True), ('b', 4.0, True, True))},
           'm@sap-v1': {'s': result(('a', 5.0, False, False), ('b', 5.0, False, True))}}
    text = render_twins(compare_twins(raw, ['m@nosap', 'm@sap-v1'], ['s']))
    assert '| no-SAP violation % | SAP violation % | no-SAP rule violation % | SAP rule violation %' in text
    assert 's | m@nosap | m@sap-v1 | 2 | 0 | 0 | 3.00 | 5.00 | 50.00 | 0.00 | 100.00 | 50.00' in text
