"""Metric floor core: seeded derangements that never pair a text with itself, and the per-repeat summary."""
import random

import pytest

from opencompass_h2htalk.metrics.floor import FloorError, _summary, derangement, metric_floor, unified_score_fn


def test_derangement_has_no_fixed_points_and_is_seeded():
    assert derangement(['a', 'b'], random.Random(0)) == [1, 0]
    for seed in range(50):
        p = derangement(list('abcdefghij'), random.Random(seed))
        assert sorted(p) == list(range(10)) and all(p[i] != i for i in range(10))
    assert derangement(list('abcdef'), random.Random(7)) == derangement(list('abcdef'), random.Random(7))


def test_derangement_never_pairs_identical_texts_and_fails_clearly():
    for seed in range(20):
        p = derangement(['x', 'x', 'y', 'y'], random.Random(seed))
        assert {p[0], p[1]} == {2, 3} and {p[2], p[3]} == {0, 1}
    with pytest.raises(FloorError, match='too many identical'):
        derangement(['x', 'x', 'y'], random.Random(0), max_tries=200)
    with pytest.raises(FloorError, match='at least 2'):
        derangement(['x'], random.Random(0))


def test_derangement_with_a_large_group_of_identical_texts():
    # Like recollection_synthesize: a fifth of the references are the same 「无可记录的信息」. Rejection sampling
    # almost never succeeds there; the repaired shuffle must still be a valid, seeded permutation.
    keys = ['none'] * 90 + [f'fact {i}' for i in range(360)]
    for seed in range(3):
        p = derangement(keys, random.Random(seed), max_tries=50)
        assert sorted(p) == list(range(450)) and all(keys[p[i]] != keys[i] for i in range(450))
    assert derangement(keys, random.Random(1), max_tries=50) == derangement(keys, random.Random(1), max_tries=50)
    # Exactly half identical still has a derangement (each 'x' takes a 'y' and back); one more has none.
    p = derangement(['x', 'x', 'y', 'y', 'x', 'y'], random.Random(0), max_tries=0)
    assert all(['x', 'x', 'y', 'y', 'x', 'y'][p[i]] != ['x', 'x', 'y', 'y', 'x', 'y'][i] for i in range(6))
    with pytest.raises(FloorError, match=r'exists: 4 of them are identical'):
        derangement(['x', 'x', 'x', 'x', 'y', 'z', 'w'], random.Random(0))


def test_summary_literal():
    assert _summary([1.0, 2.0, 3.0]) == {'mean': 2.0, 'sd': 1.0, 'min': 1.0, 'max': 3.0}
    assert _summary([4.0]) == {'mean': 4.0, 'sd': 0.0, 'min': 4.0, 'max': 4.0}


def test_metric_floor_aggregates_over_repeats():
    calls = []

    def fake(preds, refs):
        calls.append(list(preds))
        return {'self': 100.0 * sum(p == r for p, r in zip(preds, refs)) / len(refs),
                'first_len': float(len(preds[0]))}

    res = metric_floor([' a ', 'bb', 'ccc'], fake, repeats=6, seed=3, keys=('self', 'first_len'))
    assert res['n'] == 3 and res['repeats'] == 6 and len(calls) == 6
    assert res['floor']['self'] == {'mean': 0.0, 'sd': 0.0, 'min': 0.0, 'max': 0.0}  # never scored against itself
    firsts = [float(len(c[0])) for c in calls]
    assert set(firsts) <= {2.0, 3.0}  # position 0 ('a', stripped) gets 'bb' or 'ccc'
    assert res['floor']['first_len'] == _summary(firsts)
    assert metric_floor([' a ', 'bb', 'ccc'], fake, repeats=6, seed=3, keys=('first_len',))['floor'] == \
        {'first_len': res['floor']['first_len']}
    with pytest.raises(FloorError):
        metric_floor(['a', 'b'], fake, repeats=0)


def test_unified_score_fn_is_the_projects_score():
    fn = unified_score_fn(None, alpha=1.0, tokenizer='char')
    assert fn(['今天天气很好'], ['今天天气很好'])['score'] == pytest.approx(100.0)
    assert fn(['今天天气很好'], ['明年再说吧'])['score'] < 10.0
