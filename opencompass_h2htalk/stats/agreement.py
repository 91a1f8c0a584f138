"""Judge–human agreement on the same items: quadratic-weighted Cohen's κ and Krippendorff's α (interval), with a
seeded bootstrap interval. Pure (numpy only).

κ is computed on the 1–5 scale as five categories. Judge overall scores (a rubric's mean, e.g. 3.4) and human
scores (half points allowed) can be fractional, so for κ each score is binned to the nearest whole point, halves up
(2.5 → 3, 3.4 → 3, 4.5 → 5). α uses the scores as they are (interval metric, squared difference), so it needs no
binning. The bootstrap follows :mod:`.bootstrap`: the item is the unit (or the ``chain`` where items carry one),
1,000 resamples and seed 0 by default, a random stream per name, percentile interval; fewer than ``MIN_UNITS``
units give the estimate with a warning and no interval.

A statistic that is undefined or says nothing is never returned as a number: :class:`AgreementUndefined` names the
reason (fewer than two items, no variation at all, or for κ a rater who put every item in one category, which makes
κ 0 whatever the other rater did). A bootstrap replicate that hits such a case is left out and counted
(``undefined_replicates``); when more than :data:`MAX_UNDEFINED_SHARE` of the replicates are left out there is no
interval.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Dict, Hashable, List, Optional, Sequence

import numpy as np

from .bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES, DEFAULT_SEED, MIN_UNITS, _rng, clusters_of, percentile

#: The rating scale of the rubrics and of human review.
SCALE = (1, 2, 3, 4, 5)
KAPPA = 'quadratic-weighted Cohen kappa'
ALPHA = 'Krippendorff alpha (interval)'
AGREEMENT_METHOD = 'item bootstrap, percentile'
#: Above this share of undefined bootstrap replicates the interval is withheld (the rest would be a biased subset).
MAX_UNDEFINED_SHARE = 0.05
BINNING = 'nearest whole point on 1-5, halves up'


class AgreementUndefined(ValueError):
    """The agreement statistic is undefined (or uninformative) for these ratings; the message says why."""


def to_category(score: float) -> int:
    """The 1–5 category of a score for κ: nearest whole point, halves up.

    >>> [to_category(s) for s in (1.0, 1.49, 2.5, 3.4, 4.5, 5.0)]
    [1, 1, 3, 3, 5, 5]

    Raises:
        ValueError: for a score that is not a finite number in 1–5.
    """
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score) \
            or not SCALE[0] <= score <= SCALE[-1]:
        raise ValueError(f'score {score!r} is not a number in {SCALE[0]}-{SCALE[-1]}')
    return int(math.floor(score + 0.5))


def _pairs(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    if len(a) != len(b):
        raise ValueError(f'{len(a)} judge scores but {len(b)} human scores: the ratings must be of the same items')
    if len(a) < 2:
        raise AgreementUndefined(f'only {len(a)} item(s) rated by both: agreement needs at least 2')
    values = np.asarray([[x, y] for x, y in zip(a, b)], dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError('a rating is not a finite number')
    return values


def _kappa_of(cats: np.ndarray) -> float:
    """κ of an ``(n, 2)`` array of categories 1–5 (checked by the caller)."""
    k = len(SCALE)
    observed = np.zeros((k, k))
    np.add.at(observed, (cats[:, 0] - 1, cats[:, 1] - 1), 1.0)
    n = cats.shape[0]
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / n
    idx = np.arange(k)
    weights = (idx[:, None] - idx[None, :]) ** 2.0  # (i − j)²; the usual 1/(k−1)² cancels in the ratio
    return float(1.0 - (weights * observed).sum() / (weights * expected).sum())


def _kappa_problem(cats: np.ndarray) -> Optional[str]:
    for col, who in ((0, 'the judge'), (1, 'the human reviewers')):
        values = np.unique(cats[:, col])
        if values.size == 1:
            return (f'{who} put every item in category {int(values[0])}: weighted kappa is 0 by construction '
                    'whatever the other rater did, so it measures nothing here')
    return None


def weighted_kappa(judge: Sequence[float], human: Sequence[float]) -> float:
    """Quadratic-weighted Cohen's κ between two raters of the same items on the 1–5 scale.

    ``κ_w = 1 − Σ w_ij O_ij / Σ w_ij E_ij`` with ``w_ij = (i − j)²``, ``O`` the 5×5 table of observed counts and
    ``E_ij = row_i · col_j / n`` the counts expected from the two raters' marginals. Scores are binned with
    :func:`to_category` first.

    Raises:
        AgreementUndefined: fewer than 2 items, or one rater used a single category.
        ValueError: different lengths, or a score outside 1–5.
    """
    values = _pairs(judge, human)
    cats = np.vectorize(to_category, otypes=[int])(values)
    problem = _kappa_problem(cats)
    if problem:
        raise AgreementUndefined(problem)
    return _kappa_of(cats)


def krippendorff_alpha(units: Sequence[Sequence[Optional[float]]]) -> float:
    """Krippendorff's α with the interval metric (δ² = (c − k)²) for reliability data.

    Args:
        units: One row per unit (item), one value per coder; ``None`` = that coder did not rate the unit. Units with
            fewer than two values are not pairable and are left out, as Krippendorff prescribes.

    ``α = 1 − D_o / D_e``. With ``m_u`` values in unit ``u`` and ``n = Σ m_u`` pairable values, the ordered pairs give
    ``D_o = (1/n) Σ_u 2 m_u SS_u / (m_u − 1)`` and ``D_e = 2 SS / (n − 1)``, where ``SS_u`` and ``SS`` are the sums
    of squared deviations within unit ``u`` and over all pairable values.

    Raises:
        AgreementUndefined: fewer than 2 pairable units, or every pairable value is the same (D_e = 0).
    """
    rows = [np.asarray([v for v in unit if v is not None], dtype=float) for unit in units]
    rows = [r for r in rows if r.size >= 2]
    if len(rows) < 2:
        raise AgreementUndefined(f'only {len(rows)} unit(s) rated by at least two raters: alpha needs at least 2')
    values = np.concatenate(rows)
    if not np.all(np.isfinite(values)):
        raise ValueError('a rating is not a finite number')
    return _alpha_of(rows, values)


def _alpha_of(rows: List[np.ndarray], values: np.ndarray) -> float:
    n = values.size
    total = float(((values - values.mean()) ** 2).sum())
    if total == 0.0:
        raise AgreementUndefined(f'every rating is {values[0]:g}: no variation, so alpha is undefined '
                                 '(agreement cannot be told from chance)')
    within = sum(r.size * float(((r - r.mean()) ** 2).sum()) / (r.size - 1) for r in rows)
    return 1.0 - (n - 1) * within / (n * total)


def _alpha_two(values: np.ndarray) -> float:
    """α of an ``(n, 2)`` array: the two-rater, no-missing case of :func:`krippendorff_alpha`."""
    total = float(((values - values.mean()) ** 2).sum())
    if total == 0.0:
        raise AgreementUndefined(f'every rating is {values[0, 0]:g}: no variation, so alpha is undefined '
                                 '(agreement cannot be told from chance)')
    n = values.size
    return 1.0 - (n - 1) * float(((values[:, 0] - values[:, 1]) ** 2).sum()) / (n * total)


def interval_alpha(judge: Sequence[float], human: Sequence[float]) -> float:
    """Krippendorff's α (interval) of two raters who both rated every item (see :func:`krippendorff_alpha`)."""
    return _alpha_two(_pairs(judge, human))


@dataclass
class Agreement:
    """An agreement statistic with its bootstrap interval (or a warning saying why there is none)."""
    statistic: str
    estimate: float
    low: Optional[float]
    high: Optional[float]
    n: int
    n_units: int
    method: str
    seed: int
    resamples: int
    level: float = DEFAULT_LEVEL
    undefined_replicates: int = 0
    binning: Optional[str] = None
    warning: Optional[str] = None

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)


def agreement(judge: Sequence[float], human: Sequence[float], statistic: str = 'kappa',
              chains: Optional[Sequence[Optional[Hashable]]] = None, resamples: int = DEFAULT_RESAMPLES,
              seed: int = DEFAULT_SEED, stream: str = '', level: float = DEFAULT_LEVEL,
              min_units: int = MIN_UNITS) -> Agreement:
    """Weighted κ (``statistic='kappa'``) or interval α (``'alpha'``) of judge and human scores of the same items,
    with a seeded bootstrap interval over items (over chains where ``chains`` names them).

    Args:
        judge, human: The two scores of each item, in the same order.
        statistic: ``'kappa'`` or ``'alpha'``.
        chains: A chain key per item (``None``/``''`` = not in a chain); items of one chain are drawn together.
        resamples, seed, level, min_units: As in :func:`opencompass_h2htalk.stats.subtask_interval`.
        stream: Names the random stream, so each dataset draws independently of the others.

    Raises:
        AgreementUndefined: when the statistic is undefined on the data itself (see :func:`weighted_kappa`,
            :func:`krippendorff_alpha`).
        ValueError: an unknown statistic, mismatched lengths or a score outside 1–5 (κ) / not finite.
    """
    if statistic not in ('kappa', 'alpha'):
        raise ValueError(f"unknown agreement statistic {statistic!r}: 'kappa' or 'alpha'")
    values = _pairs(judge, human)
    if statistic == 'kappa':
        data = np.vectorize(to_category, otypes=[int])(values)
        problem = _kappa_problem(data)
        if problem:
            raise AgreementUndefined(problem)

        def stat(x: np.ndarray) -> float:
            problem = _kappa_problem(x)
            if problem:
                raise AgreementUndefined(problem)
            return _kappa_of(x)
    else:
        data, stat = values, _alpha_two
    estimate = stat(data)
    if chains is not None and len(chains) != len(data):
        raise ValueError(f'{stream or "agreement"}: {len(data)} items but {len(chains)} chain keys')
    units = clusters_of(chains if chains is not None else [None] * len(data))
    name = KAPPA if statistic == 'kappa' else ALPHA
    binning = BINNING if statistic == 'kappa' else None
    if len(units) < min_units:
        return Agreement(name, estimate, None, None, len(data), len(units), AGREEMENT_METHOD, seed, resamples, level,
                         0, binning, f'only {len(units)} resampling unit(s) (items or chains), fewer than '
                                     f'{min_units}: too few to resample, no interval')
    draws = _rng(seed, f'{stream}:{statistic}').integers(0, len(units), size=(int(resamples), len(units)))
    reps, undefined = [], 0
    for row in draws:
        try:
            reps.append(stat(data[np.concatenate([units[i] for i in row])]))
        except AgreementUndefined:
            undefined += 1
    warning = None
    low = high = None
    if undefined > MAX_UNDEFINED_SHARE * resamples:
        warning = (f'{undefined} of {resamples} bootstrap resamples had no defined {name} (too little variation in '
                   f'the resampled items); more than {100 * MAX_UNDEFINED_SHARE:g} %, so no interval')
    else:
        low, high = percentile(np.asarray(reps), level)
        if undefined:
            warning = f'{undefined} of {resamples} bootstrap resamples had no defined {name} and were left out'
    return Agreement(name, estimate, low, high, len(data), len(units), AGREEMENT_METHOD, seed, resamples, level,
                     undefined, binning, warning)


__all__ = ['ALPHA', 'AGREEMENT_METHOD', 'Agreement', 'AgreementUndefined', 'BINNING', 'KAPPA', 'MAX_UNDEFINED_SHARE',
           'agreement', 'interval_alpha', 'krippendorff_alpha', 'to_category', 'weighted_kappa']
