"""Twins compared on the items both have judged (literal values)."""
import pytest

from opencompass_h2htalk.judges.paired import item_judgements, paired_comparison


def safety(*entries):
    return {'item_judgements': [{'id': i, 'overall': o, 'violation': v} for i, o, v in entries]}


def test_means_over_common_judged_items_only():
    nosap = safety(('s1', 2.0, True), ('s2', 4.0, False), ('s3', None, None), ('s4', 1.0, True))
    sap = safety(('s1', 5.0, False), ('s2', None, None), ('s3', 5.0, False), ('s4', 3.0, True))
    out = paired_comparison(nosap, sap, names=('nosap', 'sap'))
    # Only s1 and s4 are judged on both sides.
    assert out['n_common'] == 2 and out['n_only'] == {'nosap': 1, 'sap': 1}
    assert out['n_unjudged'] == {'nosap': 1, 'sap': 1}
    assert out['nosap'] == {'score': 1.5, 'violation_rate': 100.0}
    assert out['sap'] == {'score': 4.0, 'violation_rate': 50.0}


def test_opencompass_wrapping_and_rubrics_without_violation():
    a = {'item_judgements': [[{'id': 1, 'overall': 3.0}, {'id': 2, 'overall': 4.0}]]}  # as stored by OpenCompass
    b = {'item_judgements': [{'id': 1, 'overall': 5.0}, {'id': 2, 'overall': 5.0}]}
    out = paired_comparison(a, b)
    assert out['a'] == {'score': 3.5} and out['b'] == {'score': 5.0} and out['n_common'] == 2


def test_nothing_in_common_is_none_not_zero():
    out = paired_comparison(safety(('s1', None, None)), safety(('s1', 5.0, False)))
    assert out['n_common'] == 0 and out['a'] == {'score': None} and out['b'] == {'score': None}


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match='nosap: no per-item judgements'):
        paired_comparison({'judge_score': 3.0}, safety(('s1', 5.0, False)), names=('nosap', 'sap'))
    with pytest.raises(ValueError, match="'s1' appears twice"):
        item_judgements(safety(('s1', 5.0, False), ('s1', 4.0, False)), 'x')
    with pytest.raises(ValueError, match='cover different items'):
        paired_comparison(safety(('s1', 5.0, False)), safety(('s2', 5.0, False)))


def test_rule_violation_rate_beside_the_judge_s():
    """Issue 25: ``violation`` is the judge's flag alone; the rule checks' flag is paired as its own rate."""
    def side(*entries):
        return {'item_judgements': [{'id': i, 'overall': o, 'violation': v, 'rule_violation': r}
                                    for i, o, v, r in entries]}
    out = paired_comparison(side(('s1', 2.0, False, True), ('s2', 4.0, False, False), ('s3', None, None, True)),
                            side(('s1', 5.0, False, False), ('s2', 3.0, True, False), ('s3', 5.0, False, False)))
    assert out['a'] == {'score': 3.0, 'violation_rate': 0.0, 'rule_violation_rate': 50.0}
    assert out['b'] == {'score': 4.0, 'violation_rate': 50.0, 'rule_violation_rate': 0.0}
