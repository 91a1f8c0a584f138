"""Pass rates of the task checks over a result's items, with scenario-bootstrap intervals (pure)."""
from __future__ import annotations

from typing import Any, Dict, Hashable, List, Mapping, Optional, Sequence

from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, subtask_interval

#: The pseudo-check "every applicable check passed" in pass-rate tables.
ALL = 'all'


def item_all(checks: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether an item passed every check that applies to it (``checks`` as stored in a result's details)."""
    return all(c.get('pass') is not False for c in checks.values())


def pass_rates(items: Sequence[Mapping[str, Mapping[str, Any]]], chains: Optional[Sequence[Optional[Hashable]]] = None,
               resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, stream: str = '') -> Dict[str, Any]:
    """Pass rate (0-100) of every check and of "all checks", each over the items it applies to.

    Args:
        items: Per item, ``{check name: {'pass': True | False | None, 'reason': ...}}``.
        chains: Per item, its chain key (``None`` outside a chain): a chain is resampled as one unit.
        resamples, seed, stream: The bootstrap (:func:`opencompass_h2htalk.stats.subtask_interval`).

    Returns:
        ``{name: {'rate', 'n', 'n_pass', 'ci_low', 'ci_high'}}`` with ``'all'`` first, then the checks in their
        first-seen order; ``ci_low``/``ci_high`` are ``None`` with a ``warning`` when there are too few units.
    """
    names: List[str] = []
    for checks in items:
        names.extend(n for n in checks if n not in names)
    chains = list(chains) if chains is not None else [None] * len(items)
    columns = {ALL: [(100.0 * item_all(c), ch) for c, ch in zip(items, chains)]}
    for name in names:
        columns[name] = [(100.0 * bool(c[name]['pass']), ch) for c, ch in zip(items, chains)
                         if name in c and c[name].get('pass') is not None]
    out: Dict[str, Any] = {}
    for name, values in columns.items():
        if not values:
            out[name] = {'rate': None, 'n': 0, 'n_pass': 0, 'ci_low': None, 'ci_high': None,
                         'warning': 'applies to no item'}
            continue
        scores = [v for v, _ in values]
        interval = subtask_interval(scores, [ch for _, ch in values], resamples, seed,
                                    stream=f'{stream}:checks:{name}')
        out[name] = {'rate': interval.estimate, 'n': len(scores), 'n_pass': int(round(sum(scores) / 100.0)),
                     'ci_low': interval.low, 'ci_high': interval.high}
        if interval.warning:
            out[name]['warning'] = interval.warning
    return out
