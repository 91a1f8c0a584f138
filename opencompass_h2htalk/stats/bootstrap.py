"""Seeded scenario-level bootstrap intervals for subtask, weighted group and paired scores. Pure (numpy only).

Method (Miller 2024, "Adding Error Bars to Evals"): the unit of resampling is the scenario, or the linked
``chain`` when items carry one (items of one chain share a story, so they are drawn together). A subtask's
replicate is the mean item score of the drawn clusters (their item sum over their item count). A group
(dimension, overall) is the weighted mean of its subsets' replicates with the summary's weights, so every
subtask is resampled and the groups are recombined exactly as the summary combines the point scores. The
interval is the percentile interval of the replicates (``inverted_cdf`` quantiles: an endpoint is always a value
the bootstrap produced). Each subtask draws from its own random stream derived from ``(seed, subtask name)``, so
the same seed gives the same interval whatever other subtasks are in the run.

Limitation: a chain that spans subtasks is resampled independently in each subtask, so group intervals do not
carry the correlation between the stages of one chain.
"""
from __future__ import annotations

import zlib
from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Any, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple

import numpy as np

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 0
DEFAULT_LEVEL = 0.95
#: Fewer resampling units than this give a warning instead of an interval.
MIN_UNITS = 10
METHOD = 'scenario bootstrap, percentile'
PAIRED_METHOD = 'paired scenario bootstrap, percentile'


@dataclass
class Interval:
    """A point estimate with its bootstrap interval, or with a warning saying why there is none."""
    estimate: Optional[float]
    low: Optional[float]
    high: Optional[float]
    n: int
    n_units: int
    method: str
    seed: int
    resamples: int
    level: float = DEFAULT_LEVEL
    warning: Optional[str] = None

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)


def clusters_of(keys: Sequence[Optional[Hashable]]) -> List[np.ndarray]:
    """Index arrays, one per resampling unit: items sharing a non-empty key form one unit, the others one each.

    >>> [c.tolist() for c in clusters_of(['c1', None, 'c1', ''])]
    [[0, 2], [1], [3]]
    """
    units: Dict[Any, List[int]] = {}
    for i, key in enumerate(keys):
        units.setdefault(('chain', key) if key not in (None, '') else ('item', i), []).append(i)
    return [np.asarray(v, dtype=int) for v in units.values()]


def _rng(seed: int, stream: str) -> np.random.Generator:
    # crc32 is stable across processes (unlike hash()), so a stream name always gives the same draws.
    return np.random.default_rng([int(seed), zlib.crc32(stream.encode('utf-8'))])


def _check(scores: Sequence[float], name: str) -> np.ndarray:
    values = np.asarray(scores, dtype=float)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f'{name}: no item scores to resample')
    if not np.all(np.isfinite(values)):
        raise ValueError(f'{name}: an item score is not a finite number')
    return values


def replicates(scores: Sequence[float], chains: Optional[Sequence[Optional[Hashable]]] = None,
               resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, stream: str = '') -> np.ndarray:
    """Bootstrap replicates of the mean item score, resampling clusters (chains, else items) with replacement.

    Args:
        scores: One score per item.
        chains: One chain key per item (``None``/``''`` = not in a chain); ``None`` = no chains.
        resamples: Number of replicates.
        seed: Seed; with ``stream`` it fixes the draws.
        stream: Names the random stream (the subtask), so different subtasks draw independently.
    """
    values = _check(scores, stream or 'scores')
    if chains is not None and len(chains) != values.size:
        raise ValueError(f'{stream or "scores"}: {values.size} scores but {len(chains)} chain keys')
    units = clusters_of(chains if chains is not None else [None] * values.size)
    sums = np.array([values[u].sum() for u in units])
    sizes = np.array([u.size for u in units], dtype=float)
    draws = _rng(seed, stream).integers(0, len(units), size=(int(resamples), len(units)))
    return sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)


def percentile(reps: np.ndarray, level: float = DEFAULT_LEVEL) -> Tuple[float, float]:
    """The percentile interval of bootstrap replicates (endpoints are replicate values)."""
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(reps, [tail, 1.0 - tail], method='inverted_cdf')
    return float(low), float(high)


def _too_few(n_units: int, min_units: int) -> Optional[str]:
    if n_units < min_units:
        return (f'only {n_units} resampling unit(s) (scenarios or chains), fewer than {min_units}: '
                'too few to resample, no interval')
    return None


def subtask_interval(scores: Sequence[float], chains: Optional[Sequence[Optional[Hashable]]] = None,
                     resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, stream: str = '',
                     level: float = DEFAULT_LEVEL, min_units: int = MIN_UNITS) -> Interval:
    """Mean item score of one subtask with its bootstrap interval (a warning and no interval when too few units)."""
    values = _check(scores, stream or 'scores')
    n_units = len(clusters_of(chains if chains is not None else [None] * values.size))
    warning = _too_few(n_units, min_units)
    low = high = None
    if warning is None:
        low, high = percentile(replicates(values, chains, resamples, seed, stream), level)
    return Interval(float(values.mean()), low, high, int(values.size), n_units, METHOD, seed, resamples, level,
                    warning)


@dataclass
class Subtask:
    """One subtask's per-item scores (and chain keys) for :func:`group_intervals`.

    ``stream`` names its random stream (default: its key in the mapping); the evaluator uses the subtask name, so
    a summary that passes the same name reproduces the results file's interval exactly.
    """
    scores: Sequence[float]
    chains: Optional[Sequence[Optional[Hashable]]] = None
    stream: Optional[str] = None


def group_intervals(subtasks: Mapping[str, Subtask], groups: Sequence[Mapping[str, Any]],
                    resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = DEFAULT_LEVEL,
                    min_units: int = MIN_UNITS) -> Dict[str, Interval]:
    """Intervals for every subtask and every summary group whose subsets are all available.

    Args:
        subtasks: ``{dataset abbr: Subtask}``.
        groups: OpenCompass summary groups, in order (a group may use an earlier group): ``{'name', 'subsets':
            [abbr or [abbr, metric]], 'weights'?: {abbr: w}}``; no weights = equal weights. A subset whose
            weight is 0 is left out, as OpenCompass does.
        resamples, seed, level, min_units: as in :func:`subtask_interval`.

    Returns:
        ``{abbr: Interval}``. A group gets a warning and no interval when one of its subtasks has too few
        units; a group with a missing subset is left out (the summary shows ``-`` for it too).
    """
    reps: Dict[str, Optional[np.ndarray]] = {}
    out: Dict[str, Interval] = {}
    units: Dict[str, int] = {}
    sizes: Dict[str, int] = {}
    warnings: Dict[str, List[str]] = {}
    for name, sub in subtasks.items():
        stream = sub.stream or name
        out[name] = subtask_interval(sub.scores, sub.chains, resamples, seed, stream, level, min_units)
        units[name], sizes[name] = out[name].n_units, out[name].n
        reps[name] = None if out[name].warning else replicates(sub.scores, sub.chains, resamples, seed, stream)
        warnings[name] = [f'{name}: {out[name].warning}'] if out[name].warning else []
    for group in groups:
        names = [s if isinstance(s, str) else s[0] for s in group['subsets']]
        weights = group.get('weights') or {n: 1 for n in names}
        names = [n for n in names if weights.get(n, 0)]
        if not names or any(n not in out for n in names):
            continue
        total = float(sum(weights[n] for n in names))
        estimate = sum(weights[n] * out[n].estimate for n in names) / total
        found = [w for n in names for w in warnings[n]]
        low = high = None
        if not found:
            combined = sum(weights[n] * reps[n] for n in names) / total
            reps[group['name']] = combined
            low, high = percentile(combined, level)
        else:
            reps[group['name']] = None
        warnings[group['name']] = found
        out[group['name']] = Interval(estimate, low, high, sum(sizes[n] for n in names),
                                      sum(units[n] for n in names), METHOD, seed, resamples, level,
                                      '; '.join(found) or None)
        units[group['name']], sizes[group['name']] = out[group['name']].n_units, out[group['name']].n
    return out


@dataclass
class PairedDifference:
    """``b − a`` on the items both have: mean difference, interval, p-value and the smallest detectable difference."""
    estimate: Optional[float]
    low: Optional[float]
    high: Optional[float]
    p_value: Optional[float]
    mde: Optional[float]
    tie: Optional[bool]
    n: int
    n_units: int
    method: str
    seed: int
    resamples: int
    level: float = DEFAULT_LEVEL
    warning: Optional[str] = None

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)


def min_detectable_difference(diffs: Sequence[float], chains: Optional[Sequence[Optional[Hashable]]] = None,
                              alpha: float = 0.05, power: float = 0.8) -> float:
    """Smallest true mean difference a two-sided paired test at ``alpha`` detects with ``power``.

    ``MDE = (z_{1−α/2} + z_{power}) · SE``, with SE the standard error of the mean paired difference. Without
    chains SE = s_d / √n (s_d: sample standard deviation of the per-item differences). With chains SE is the
    cluster-robust one, ``√(G/(G−1) · Σ_c (D_c − n_c·d̄)²) / n`` over the G clusters (D_c: the cluster's sum of
    differences, n_c its size), which equals s_d / √n when every cluster is one item. At α 0.05 and 80 % power
    the factor is 1.960 + 0.842 = 2.802.
    """
    d = _check(diffs, 'differences')
    units = clusters_of(chains if chains is not None else [None] * d.size)
    if len(units) < 2:
        raise ValueError('differences: at least two resampling units are needed for a standard error')
    mean = d.mean()
    resid = np.array([d[u].sum() - u.size * mean for u in units])
    g = len(units)
    se = float(np.sqrt(g / (g - 1) * np.sum(resid ** 2)) / d.size)
    factor = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return factor * se


def paired_difference(a: Mapping[str, float], b: Mapping[str, float],
                      chains: Optional[Mapping[str, Optional[Hashable]]] = None,
                      resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, stream: str = '',
                      level: float = DEFAULT_LEVEL, min_units: int = MIN_UNITS) -> PairedDifference:
    """Paired bootstrap of ``mean(b) − mean(a)`` over the item ids both have.

    The p-value is two-sided, from the replicates: ``min(1, 2·min(#{r ≤ 0} + 1, #{r ≥ 0} + 1) / (R + 1))``.
    ``tie`` is true when the interval covers 0. With fewer than ``min_units`` units there is a warning and no
    interval, p-value or tie verdict (the estimate is still the observed mean difference).
    """
    common = [k for k in a if k in b]
    if not common:
        raise ValueError(f'{stream or "comparison"}: the two results have no item in common')
    diffs = np.array([float(b[k]) - float(a[k]) for k in common])
    keys = [chains.get(k) for k in common] if chains else None
    n_units = len(clusters_of(keys if keys is not None else [None] * len(common)))
    estimate = float(_check(diffs, stream or 'differences').mean())
    warning = _too_few(n_units, min_units)
    if warning:
        return PairedDifference(estimate, None, None, None, None, None, len(common), n_units, PAIRED_METHOD, seed,
                                resamples, level, warning)
    reps = replicates(diffs, keys, resamples, seed, stream)
    mde = min_detectable_difference(diffs, keys, alpha=1 - level)
    return _paired(reps, estimate, mde, len(common), n_units, seed, resamples, level)


def _paired(reps: np.ndarray, estimate: float, mde: float, n: int, n_units: int, seed: int, resamples: int,
            level: float) -> PairedDifference:
    low, high = percentile(reps, level)
    p = min(1.0, 2.0 * min(np.sum(reps <= 0) + 1, np.sum(reps >= 0) + 1) / (reps.size + 1))
    return PairedDifference(estimate, low, high, float(p), mde, bool(low <= 0 <= high), n, n_units,
                            PAIRED_METHOD, seed, resamples, level)


def paired_groups(diffs: Mapping[str, Subtask], groups: Sequence[Mapping[str, Any]],
                  resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, level: float = DEFAULT_LEVEL,
                  min_units: int = MIN_UNITS) -> Dict[str, PairedDifference]:
    """Paired differences of every subtask and summary group, from per-item differences ``b − a``.

    Each subtask's differences (on the items both models have) are resampled as in :func:`paired_difference`
    (stream = the subtask name); a group's replicate is the weighted mean of its subsets' replicates, as in
    :func:`group_intervals`. A group's smallest detectable difference uses the SE of that weighted mean,
    ``√Σ (w_i/W)² SE_i²`` (subtasks resampled independently), with the same factor as
    :func:`min_detectable_difference`. A group with a subtask that has too few units gets its warning and no
    interval; a group with a missing subset is left out.
    """
    factor = NormalDist().inv_cdf(1 - (1 - level) / 2) + NormalDist().inv_cdf(0.8)
    out: Dict[str, PairedDifference] = {}
    reps: Dict[str, Optional[np.ndarray]] = {}
    ses: Dict[str, Optional[float]] = {}
    for name, sub in diffs.items():
        keys = {str(i): c for i, c in enumerate(sub.chains)} if sub.chains is not None else None
        values = {str(i): float(v) for i, v in enumerate(sub.scores)}
        out[name] = paired_difference({k: 0.0 for k in values}, values, keys, resamples, seed, name, level, min_units)
        if out[name].warning is None:
            reps[name] = replicates(sub.scores, sub.chains, resamples, seed, name)
            ses[name] = out[name].mde / factor
        else:
            reps[name] = ses[name] = None
    for group in groups:
        names = [s if isinstance(s, str) else s[0] for s in group['subsets']]
        weights = group.get('weights') or {n: 1 for n in names}
        names = [n for n in names if weights.get(n, 0)]
        if not names or any(n not in out for n in names):
            continue
        total = float(sum(weights[n] for n in names))
        estimate = sum(weights[n] * out[n].estimate for n in names) / total
        n, n_units = sum(out[x].n for x in names), sum(out[x].n_units for x in names)
        found = [w for x in names for w in ([f'{x}: {out[x].warning}'] if out[x].warning else [])]
        if found:
            reps[group['name']] = ses[group['name']] = None
            out[group['name']] = PairedDifference(estimate, None, None, None, None, None, n, n_units, PAIRED_METHOD,
                                                  seed, resamples, level, '; '.join(found))
            continue
        reps[group['name']] = sum(weights[x] * reps[x] for x in names) / total
        ses[group['name']] = float(np.sqrt(sum((weights[x] / total) ** 2 * ses[x] ** 2 for x in names)))
        out[group['name']] = _paired(reps[group['name']], estimate, factor * ses[group['name']], n, n_units, seed,
                                     resamples, level)
    return out


def wilson(successes: int, n: int, level: float = DEFAULT_LEVEL) -> Tuple[float, float]:
    """Wilson score interval of a rate, as shares in [0, 1].

    ``(p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)``.

    Raises:
        ValueError: for ``n <= 0`` or ``successes`` outside ``0..n``.
    """
    if n <= 0 or not 0 <= successes <= n:
        raise ValueError(f'wilson: need 0 <= successes <= n and n > 0, got {successes}/{n}')
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    p = successes / n
    centre = p + z * z / (2 * n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    # At 0/n and n/n the bound is exactly 0 or 1; floating point would leave a residue such as 2e-17.
    low = 0.0 if successes == 0 else max(0.0, float((centre - half) / denom))
    high = 1.0 if successes == n else min(1.0, float((centre + half) / denom))
    return low, high


__all__ = ['DEFAULT_RESAMPLES', 'DEFAULT_SEED', 'Interval', 'METHOD', 'MIN_UNITS', 'PAIRED_METHOD',
           'PairedDifference', 'Subtask', 'clusters_of', 'group_intervals', 'min_detectable_difference',
           'paired_difference', 'paired_groups', 'percentile', 'replicates', 'subtask_interval', 'wilson']
