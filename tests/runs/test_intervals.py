"""runs.intervals: per-item scores read from results files as OpenCompass stores them."""
import pytest

from opencompass_h2htalk.evaluators import H2HTalkUnifiedEvaluator
from opencompass_h2htalk.runs.intervals import item_scores, run_intervals


def test_the_summary_repeats_the_interval_of_the_results_file():
    from datasets import Dataset

    refs = [f'今天第{i}次去公园散步，心情{"很好" if i % 2 else "一般"}。' for i in range(14)]
    preds = [r if i % 3 else '我在家看书。' for i, r in enumerate(refs)]
    test_set = Dataset.from_list([{'id': f'x-{i}', 'reference': r, 'subtask': 'dialogue_base', 'chain': ''}
                                  for i, r in enumerate(refs)])
    result = H2HTalkUnifiedEvaluator(alpha=1.0).score(preds, refs, test_set)
    # As OpenCompass writes it: meta in a one-item list, each detail field a list of replicas.
    stored = dict(result, meta=[result['meta']],
                  details=[{k: [v] for k, v in d.items()} for d in result['details']])
    intervals, problems = run_intervals({'m': {'h2htalk_dialogue_base': stored}}, [])
    iv = intervals['m']['h2htalk_dialogue_base']
    assert problems == [] and (iv.low, iv.high) == (result['ci_low'], result['ci_high'])


def test_item_scores_reads_replicas_and_names_bad_details():
    stored = {'details': [{'id': ['a'], 'unified': [10.0, 20.0], 'chain': ['c']}, {'id': ['b'], 'unified': [1.0]}]}
    assert item_scores(stored) == {'a': (15.0, 'c'), 'b': (1.0, None)}
    with pytest.raises(ValueError, match="m × d: detail 0 has no id or no numeric 'unified'"):
        item_scores({'details': [{'id': ['a']}]}, 'm × d')
    with pytest.raises(ValueError, match='appears twice'):
        item_scores({'details': [{'id': ['a'], 'unified': [1.0]}] * 2})
    with pytest.raises(ValueError, match='no per-item details'):
        item_scores({'details': []})


SUBTASKS = [f'h2htalk_s{k}' for k in range(11)]
GROUPS = [dict(name='dim_a', subsets=SUBTASKS[:5]), dict(name='dim_b', subsets=SUBTASKS[5:]),
          dict(name='overall', subsets=['dim_a', 'dim_b'])]


def _few(n_items):
    details = [{'id': [f'x-{k}'], 'unified': [float(k)], 'chain': [None]} for k in range(n_items)]
    return {'details': details}


def test_no_interval_is_said_once_on_one_short_line_not_per_row():
    from opencompass_h2htalk.runs.intervals import render_intervals

    results = {m: {s: _few(5) for s in SUBTASKS} for m in ('model-a', 'model-b')}
    intervals, _ = run_intervals(results, GROUPS)
    text = render_intervals(intervals, ['model-a', 'model-b'], SUBTASKS + ['dim_a', 'dim_b', 'overall'])
    notes = [line for line in text.splitlines() if 'too few' in line]
    assert notes == ['* no interval for any of the 11 subtasks (only 5 resampling unit(s) each), nor for any of the '
                     '3 groups built on them: fewer than 10 scenarios or chains are too few to resample']
    assert text.count('resampling unit(s)') == 1


def test_no_interval_names_the_rows_and_models_concerned():
    from opencompass_h2htalk.runs.intervals import render_intervals

    results = {m: {s: _few(12) for s in SUBTASKS} for m in ('model-a', 'model-b')}
    results['model-a'][SUBTASKS[0]] = _few(4)     # one model, one subtask: named with the model
    for m in results:
        results[m][SUBTASKS[9]] = _few(3)          # both models: the row is named alone
    intervals, _ = run_intervals(results, GROUPS)
    text = render_intervals(intervals, ['model-a', 'model-b'], SUBTASKS + ['dim_a', 'dim_b', 'overall'])
    assert text.splitlines()[-1] == (
        '* no interval for model-a × h2htalk_s0 (only 4 resampling unit(s)), h2htalk_s9 (only 3 resampling unit(s)), '
        'nor for dim_a (model-a), dim_b, overall: fewer than 10 scenarios or chains are too few to resample')
