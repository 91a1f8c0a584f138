"""The task checks of a scored dataset: per-item checks and pass rates from the predictions and the test set."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from ..checks import CHECKS_VERSION, SUBTASKS, Context, item_all, pass_rates, run_checks

#: The dataset columns a check reads (``data.loader.to_rows`` writes them); a dataset without one gets no checks.
COLUMNS = ('subtask', 'inputs', 'language', 'tags', 'persona_name', 'system_prompt', 'user_prompt')


@dataclass
class TaskChecks:
    """The checks of one dataset, or why it has none.

    Attributes:
        items: Per item, ``{check name: {'pass': True | False | None, 'reason': str}}``; ``None`` when skipped.
        rates: :func:`opencompass_h2htalk.checks.pass_rates` of the items (``'all'`` first); ``None`` when skipped.
        meta: What the result's ``meta.checks`` records: ``{'version': CHECKS_VERSION}``, ``{'skipped': why}``, or
            ``{'version': ..., 'error': what raised}``.
    """

    items: Optional[List[Dict[str, Dict[str, Any]]]] = None
    rates: Optional[Dict[str, Any]] = None
    meta: Dict[str, Any] = field(default_factory=dict)


def why_skipped(test_set) -> Optional[str]:
    """Why the checks cannot run on ``test_set`` (a foreign dataset, an unchecked subtask), or ``None``."""
    if test_set is None:
        return 'no test set: the checks read the record of each item'
    missing = [c for c in COLUMNS if c not in set(test_set.column_names)]
    if missing:
        return f'the dataset has no column {", ".join(missing)}: not an H2HTalk dataset the checks can read'
    unknown = sorted({s for s in test_set['subtask'] if s not in SUBTASKS})
    if unknown:
        return f'no task checks for subtask {", ".join(map(repr, unknown))}'
    return None


def contexts(test_set) -> List[Context]:
    """One :class:`~opencompass_h2htalk.checks.Context` per row of an H2HTalk test set."""
    columns = {c: test_set[c] for c in COLUMNS}
    return [Context.from_row({c: columns[c][i] for c in COLUMNS}) for i in range(len(test_set))]


def task_checks(predictions: Sequence[Any], test_set, resamples: int, seed: int) -> TaskChecks:
    """Runs every item's checks on its prediction (as post-processed for U) and their pass rates.

    Args:
        predictions: The predictions U scored, in test-set order.
        test_set: The OpenCompass test set (columns :data:`COLUMNS`, and ``chain`` where items are linked).
        resamples, seed: The evaluator's bootstrap settings; the stream is the subtask.

    Returns:
        The :class:`TaskChecks`; a dataset the checks cannot read is skipped with the reason, never scored 0. A check
        that raises (a bug) leaves the dataset without checks and ``meta['error']`` naming the exception.
    """
    why = why_skipped(test_set)
    if why:
        return TaskChecks(meta={'skipped': why})
    try:
        items = [{r.name: r.as_dict() for r in run_checks(p, ctx)}
                 for p, ctx in zip(predictions, contexts(test_set))]
    except Exception as e:  # noqa: BLE001 - a broken check must not cost the run its U: reported, not hidden
        return TaskChecks(meta={'version': CHECKS_VERSION, 'error': f'{type(e).__name__}: {e}'})
    chains = ([c or None for c in test_set['chain']] if 'chain' in set(test_set.column_names) else None)
    rates = pass_rates(items, chains, resamples, seed, stream=str(test_set['subtask'][0]) if len(test_set) else '')
    return TaskChecks(items, rates, {'version': CHECKS_VERSION})


def attach(result: Dict[str, Any], found: TaskChecks) -> None:
    """Writes ``found`` into an evaluator's ``result``: ``details[i].checks``/``checks_all``, ``checks`` and
    ``meta.checks`` (never a key that U or its components are read from)."""
    result['meta']['checks'] = found.meta
    if found.items is None:
        return
    result['checks'] = found.rates
    for detail, checks in zip(result['details'], found.items):
        detail['checks'] = checks
        detail['checks_all'] = item_all(checks)


__all__ = ['COLUMNS', 'TaskChecks', 'attach', 'contexts', 'task_checks', 'why_skipped']
