"""stats.bootstrap on cases small enough to enumerate by hand."""
import math

import numpy as np
import pytest

from opencompass_h2htalk.stats import (Subtask, clusters_of, group_intervals, min_detectable_difference,
                                       paired_difference, replicates, subtask_interval, wilson)

Z80 = 1.959964 + 0.841621   # z_{0.975} + z_{0.80}


def test_three_items_bootstrap_distribution_matches_the_enumeration():
    # Scores 0, 0, 3: a resample's mean is (number of 3s drawn) out of 3 draws, Binomial(3, 1/3):
    # P(mean=0)=8/27, P(1)=12/27, P(2)=6/27, P(3)=1/27.
    reps = replicates([0, 0, 3], resamples=20000, seed=7, stream='t')
    values, counts = np.unique(reps, return_counts=True)
    assert values.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert (counts / reps.size).tolist() == pytest.approx([8 / 27, 12 / 27, 6 / 27, 1 / 27], abs=0.01)
    # 2.5 % quantile: P(0) = 0.296 already covers it -> 0; 97.5 %: P(<=2) = 26/27 = 0.963 < 0.975 -> 3.
    iv = subtask_interval([0, 0, 3], resamples=20000, seed=7, stream='t', min_units=1)
    assert (iv.estimate, iv.low, iv.high, iv.n, iv.n_units) == (1.0, 0.0, 3.0, 3, 3)


def test_same_seed_same_interval_other_seed_other_draws():
    scores = [float(i % 7) for i in range(40)]
    a = subtask_interval(scores, seed=3, stream='x')
    assert a == subtask_interval(scores, seed=3, stream='x')
    assert a.resamples == 1000 and a.seed == 3 and a.method.startswith('scenario bootstrap')
    assert a.low < a.estimate < a.high
    assert not np.array_equal(replicates(scores, seed=3, stream='x'), replicates(scores, seed=4, stream='x'))
    # The stream (subtask name) gives each subtask its own draws.
    assert not np.array_equal(replicates(scores, seed=3, stream='x'), replicates(scores, seed=3, stream='y'))


def test_chains_are_resampled_as_one_unit():
    assert [c.tolist() for c in clusters_of(['c', None, 'c', '']) ] == [[0, 2], [1], [3]]
    # Units: chain c = items 0, 10 (sum 10, size 2) and item 4 alone. Two draws: (c,c) -> 20/4 = 5,
    # (c,4) -> 14/3, (4,4) -> 4, with probabilities 1/4, 1/2, 1/4.
    reps = replicates([0, 10, 4], chains=['c', 'c', None], resamples=8000, seed=1)
    values, counts = np.unique(np.round(reps, 9), return_counts=True)
    assert values.tolist() == pytest.approx([4.0, 14 / 3, 5.0])
    assert (counts / reps.size).tolist() == pytest.approx([0.25, 0.5, 0.25], abs=0.02)
    assert subtask_interval([0, 10, 4], chains=['c', 'c', None], min_units=1).n_units == 2


def test_too_few_units_give_a_warning_not_a_number():
    iv = subtask_interval([1.0] * 9)
    assert iv.low is None and iv.high is None
    assert 'only 9 resampling unit(s)' in iv.warning and 'fewer than 10' in iv.warning
    # Ten items in five chains are five units: still too few.
    assert subtask_interval([1.0] * 10, chains=[str(i // 2) for i in range(10)]).warning is not None
    assert subtask_interval([1.0] * 10).warning is None


def test_bad_scores_are_refused():
    with pytest.raises(ValueError, match='no item scores'):
        subtask_interval([])
    with pytest.raises(ValueError, match='not a finite number'):
        subtask_interval([1.0, float('nan')] * 6)


def test_groups_recombine_each_subtasks_replicates_with_the_summary_weights():
    a, b = [float(i % 5) for i in range(20)], [float(10 + i % 3) for i in range(30)]
    groups = [dict(name='dim', subsets=[['a', 'score'], ['b', 'score']], weights={'a': 1, 'b': 3}),
              dict(name='overall', subsets=[['dim', 'score'], ['c', 'score']], weights={'dim': 1, 'c': 1})]
    out = group_intervals({'a': Subtask(a), 'b': Subtask(b)}, groups, seed=5)
    assert 'overall' not in out          # subset c is missing: no number for it
    assert out['dim'].estimate == pytest.approx((np.mean(a) + 3 * np.mean(b)) / 4)
    combined = (replicates(a, seed=5, stream='a') + 3 * replicates(b, seed=5, stream='b')) / 4
    low, high = np.quantile(combined, [0.025, 0.975], method='inverted_cdf')
    assert (out['dim'].low, out['dim'].high) == (low, high)
    assert out['dim'].n == 50 and out['a'] == subtask_interval(a, seed=5, stream='a')


def test_a_group_with_a_small_subtask_carries_its_warning():
    groups = [dict(name='dim', subsets=['a', 'b'])]
    out = group_intervals({'a': Subtask([1.0] * 20), 'b': Subtask([2.0] * 3)}, groups)
    assert out['dim'].low is None and out['dim'].estimate == pytest.approx(1.5)
    assert out['dim'].warning.startswith('b: only 3 resampling unit(s)')


def test_paired_difference_of_a_constant_shift():
    a = {f'i{k}': float(k) for k in range(12)}
    b = {k: v + 2.0 for k, v in a.items()}
    b['extra'] = 99.0                     # not in a: left out
    d = paired_difference(a, b, resamples=500, seed=0)
    assert (d.estimate, d.low, d.high, d.n, d.tie) == (2.0, 2.0, 2.0, 12, False)
    assert d.p_value == pytest.approx(2 / 501)   # no replicate <= 0: (0 + 1) / (R + 1), two-sided
    assert d.mde == 0.0


def test_paired_difference_with_no_real_difference_is_a_tie():
    a = {f'i{k}': 50.0 for k in range(20)}
    b = {f'i{k}': 50.0 + (1.0 if k % 2 else -1.0) for k in range(20)}
    d = paired_difference(a, b, seed=0)
    assert d.estimate == 0.0 and d.low < 0 < d.high and d.tie is True and d.p_value > 0.5
    assert paired_difference(a, b, seed=0) == d


def test_paired_difference_warns_when_too_few_common_items():
    d = paired_difference({'x': 1.0, 'y': 2.0}, {'x': 2.0, 'y': 2.0, 'z': 0.0})
    assert d.estimate == 0.5 and d.low is None and d.p_value is None and d.tie is None
    assert 'only 2 resampling unit(s)' in d.warning
    with pytest.raises(ValueError, match='no item in common'):
        paired_difference({'x': 1.0}, {'y': 1.0})


def test_min_detectable_difference_by_hand():
    # d = +1, -1 five times: s_d^2 = 10/9, SE = sqrt(10/9 / 10) = 1/3.
    assert min_detectable_difference([1.0, -1.0] * 5) == pytest.approx(Z80 / 3, rel=1e-5)
    # Two chains with sums +2 and -2, mean 0: SE = sqrt(2/1 * (4 + 4)) / 4 = 1.
    assert min_detectable_difference([1, 1, -1, -1], chains=['a', 'a', 'b', 'b']) == pytest.approx(Z80, rel=1e-5)


def test_wilson_by_hand():
    z2 = 1.959964 ** 2
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(z2 / (10 + z2), rel=1e-5)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError, match='3/2'):
        wilson(3, 2)
    assert not math.isnan(wilson(1, 1)[0])


def test_paired_groups_recombine_subtask_differences_with_the_weights():
    from opencompass_h2htalk.stats import paired_groups

    noisy = [(-1.0) ** k for k in range(12)]                  # mean 0, s_d^2 = 12/11
    diffs = {'a': Subtask([1.0] * 12), 'b': Subtask([3.0] * 20), 'c': Subtask(noisy), 'small': Subtask([1.0] * 3)}
    groups = [dict(name='ab', subsets=['a', 'b'], weights={'a': 1, 'b': 3}),
              dict(name='ac', subsets=['a', 'c']), dict(name='as', subsets=['a', 'small'])]
    out = paired_groups(diffs, groups, resamples=400, seed=2)
    ab = out['ab']
    assert (ab.estimate, ab.low, ab.high, ab.tie, ab.mde, ab.n) == (2.5, 2.5, 2.5, False, 0.0, 32)
    assert ab.p_value == pytest.approx(2 / 401)
    ac = out['ac']
    reps = (replicates([1.0] * 12, seed=2, stream='a', resamples=400)
            + replicates(noisy, seed=2, stream='c', resamples=400)) / 2
    assert (ac.low, ac.high) == tuple(np.quantile(reps, [0.025, 0.975], method='inverted_cdf'))
    # SE of the weighted mean: only c varies, SE_c = sqrt(12/11 / 12), halved by its weight 1/2.
    assert ac.mde == pytest.approx(Z80 * 0.5 * math.sqrt(1 / 11), rel=1e-5)
    assert out['as'].low is None and out['as'].warning.startswith('small: only 3 resampling unit(s)')
