"""stats.agreement: weighted κ and Krippendorff's α on cases computed by hand, a published example, bootstrap."""
import numpy as np
import pytest

from opencompass_h2htalk.stats import (Agreement, AgreementUndefined, agreement, interval_alpha, krippendorff_alpha,
                                       weighted_kappa)
from opencompass_h2htalk.stats.agreement import to_category

# Four items, judge vs human: (1,1) (2,2) (3,3) (3,2).
JUDGE, HUMAN = [1, 2, 3, 3], [1, 2, 3, 2]


def test_perfect_agreement_is_one():
    scores = [1, 2, 3, 4, 5, 3]
    assert weighted_kappa(scores, scores) == 1.0
    assert interval_alpha(scores, scores) == 1.0


def test_weighted_kappa_of_a_small_table_by_hand():
    # Rows (judge) 1:1, 2:1, 3:2; columns (human) 1:1, 2:2, 3:1; n = 4; weights (i-j)².
    # Observed weighted disagreement: only (3,2), weight 1 -> 1.
    # Expected: sum over i != j of w_ij r_i c_j / n = (1·1·2 + 4·1·1 + 1·1·1 + 1·1·1 + 4·2·1 + 1·2·2) / 4
    #         = (2 + 4 + 1 + 1 + 8 + 4) / 4 = 20 / 4 = 5  ->  κ = 1 - 1/5 = 0.8.
    assert weighted_kappa(JUDGE, HUMAN) == pytest.approx(0.8, abs=1e-12)
    # A fractional judge score is binned to the nearest whole point first: 2.6 -> 3, 1.4 -> 1: the same table.
    assert weighted_kappa([1.4, 2.0, 3.0, 2.6], HUMAN) == pytest.approx(0.8, abs=1e-12)


def test_weighted_kappa_matches_scikit_learn():
    sklearn = pytest.importorskip('sklearn.metrics')
    rng = np.random.default_rng(5)
    judge, human = rng.integers(1, 6, 40), rng.integers(1, 6, 40)
    expected = sklearn.cohen_kappa_score(judge, human, weights='quadratic', labels=[1, 2, 3, 4, 5])
    assert weighted_kappa(judge.tolist(), human.tolist()) == pytest.approx(expected, abs=1e-12)


def test_binning_is_nearest_point_halves_up():
    assert [to_category(s) for s in (1, 1.49, 1.5, 2.5, 3.4, 4.5, 5)] == [1, 1, 2, 3, 3, 5, 5]
    for bad in (0.5, 5.5, float('nan'), True, '3'):
        with pytest.raises(ValueError, match='not a number in 1-5'):
            to_category(bad)


def test_interval_alpha_of_a_small_table_by_hand():
    # Pooled values 1,2,3,3,1,2,3,2 (n = 8): sum 17, sum of squares 41, SS = 41 - 17²/8 = 4.875.
    # Squared differences within items: only (3,2) -> 1. α = 1 - (n-1)·1 / (n·SS) = 1 - 7/39 = 32/39.
    assert interval_alpha(JUDGE, HUMAN) == pytest.approx(32 / 39, abs=1e-12)
    assert krippendorff_alpha(list(zip(JUDGE, HUMAN))) == pytest.approx(32 / 39, abs=1e-12)


def test_krippendorff_published_interval_example():
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 observers x 12 units example with
    # missing values: interval alpha = 0.849 (unit 12 has one value and is not pairable). Exactly 951/1120.
    N = None
    observers = [[1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
                 [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
                 [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
                 [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N]]
    units = [list(col) for col in zip(*observers)]
    alpha = krippendorff_alpha(units)
    assert round(alpha, 3) == 0.849 and alpha == pytest.approx(951 / 1120, abs=1e-12)


def test_undefined_cases_say_why_and_give_no_number():
    with pytest.raises(AgreementUndefined, match='only 1 item'):
        weighted_kappa([3], [3])
    with pytest.raises(AgreementUndefined, match='only 1 item'):
        agreement([3], [3], 'alpha')
    # A judge who puts every item in one category: κ would be 0 whatever the humans said.
    with pytest.raises(AgreementUndefined, match='the judge put every item in category 3'):
        weighted_kappa([3.0, 3.2, 2.8], [1, 4, 5])
    with pytest.raises(AgreementUndefined, match='the human reviewers put every item in category 5'):
        agreement([1, 2, 3], [5, 5, 5], 'kappa')
    with pytest.raises(AgreementUndefined, match='every rating is 4: no variation'):
        interval_alpha([4, 4, 4], [4, 4, 4])
    with pytest.raises(AgreementUndefined, match='only 1 unit'):
        krippendorff_alpha([[1, 2], [3, None]])
    # α stays defined when only one rater is constant: values 3,3,5,5, SS = 4, squared differences 4 + 4 = 8,
    # α = 1 - 3·8 / (4·4) = -0.5 (systematic disagreement).
    assert interval_alpha([3, 3], [5, 5]) == pytest.approx(-0.5)
    with pytest.raises(ValueError, match='2 judge scores but 3 human scores'):
        weighted_kappa([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match='unknown agreement statistic'):
        agreement(JUDGE, HUMAN, 'spearman')


def scores(n=30, seed=1):
    rng = np.random.default_rng(seed)
    human = rng.integers(1, 6, n).astype(float)
    judge = np.clip(human + rng.choice([-1, 0, 0, 0, 1], n), 1, 5)
    return judge.tolist(), human.tolist()


@pytest.mark.parametrize('statistic', ['kappa', 'alpha'])
def test_bootstrap_interval_is_reproducible_and_recorded(statistic):
    judge, human = scores()
    a = agreement(judge, human, statistic, resamples=500, seed=3, stream='itinerary')
    assert isinstance(a, Agreement) and a == agreement(judge, human, statistic, resamples=500, seed=3,
                                                       stream='itinerary')
    point = weighted_kappa(judge, human) if statistic == 'kappa' else interval_alpha(judge, human)
    assert a.estimate == point and a.low < a.estimate < a.high <= 1.0
    assert (a.n, a.n_units, a.seed, a.resamples, a.level, a.method) == (30, 30, 3, 500, 0.95,
                                                                        'item bootstrap, percentile')
    assert a.warning is None and a.undefined_replicates == 0
    assert (a.binning is not None) == (statistic == 'kappa')
    assert agreement(judge, human, statistic, resamples=500, seed=4, stream='itinerary') != a
    assert agreement(judge, human, statistic, resamples=500, seed=3, stream='safety') != a


def test_too_few_items_give_the_estimate_and_a_warning_not_an_interval():
    a = agreement(JUDGE, HUMAN, 'kappa')
    assert a.estimate == pytest.approx(0.8) and a.low is None and a.high is None
    assert 'only 4 resampling unit(s)' in a.warning and 'no interval' in a.warning
    # Chains are resampled as one unit: 12 items in 6 chains are too few units.
    judge, human = scores(12)
    a = agreement(judge, human, 'alpha', chains=[str(i // 2) for i in range(12)])
    assert a.n == 12 and a.n_units == 6 and a.low is None


def test_undefined_replicates_are_counted_and_too_many_withhold_the_interval():
    # One item in category 1 among eleven in category 3 for the judge: a resample without that item has a constant
    # judge (κ undefined). P(item absent from 12 draws) = (11/12)^12 ≈ 0.35, far above 5 %: no interval.
    judge, human = [1] + [3] * 11, [1] + [2, 3, 4] * 3 + [3, 3]
    a = agreement(judge, human, 'kappa', resamples=400, seed=0)
    assert a.low is None and a.high is None and a.estimate == weighted_kappa(judge, human)
    assert 100 < a.undefined_replicates < 200 and 'so no interval' in a.warning
    # α is defined on every resample of these items (the humans vary): an interval, nothing left out.
    b = agreement(judge, human, 'alpha', resamples=400, seed=0)
    assert b.low is not None and b.undefined_replicates == 0
