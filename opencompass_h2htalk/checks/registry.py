"""Which checks each subtask has, and running them on one reply in a fixed order (pure)."""
from __future__ import annotations

from typing import Callable, Dict, List, Sequence, Tuple

from ..metrics.unified import is_empty
from .base import CheckResult, Context, fail
from .common import COMMON_NAMES, common_checks
from .shape import shape_checks, shape_names

#: A subtask's own checks: the names it returns, in order, and the function that returns them.
SubtaskChecks = Tuple[Tuple[str, ...], Callable[[str, Context], List[CheckResult]]]


def _subtask_table() -> Dict[str, SubtaskChecks]:
    from . import activity, dialogue, itinerary, recollection, safety
    table: Dict[str, SubtaskChecks] = {}
    for module in (dialogue, activity, recollection, itinerary, safety):
        clash = set(table) & set(module.CHECKS)
        if clash:
            raise ValueError(f'{module.__name__} registers checks for {sorted(clash)} a second time')
        table.update(module.CHECKS)
    return table


_TABLE = _subtask_table()
#: Subtasks the checks know.
SUBTASKS: Tuple[str, ...] = tuple(_TABLE)


def check_names(subtask: str, language: str = 'zh') -> List[str]:
    """Every check of ``subtask`` in the order :func:`run_checks` returns them."""
    if subtask not in _TABLE:
        raise ValueError(f'no task checks for subtask {subtask!r}; known: {sorted(_TABLE)}')
    return [*COMMON_NAMES, *shape_names(subtask, language), *_TABLE[subtask][0]]


def run_checks(reply: object, ctx: Context) -> List[CheckResult]:
    """Runs every check of ``ctx.subtask`` on ``reply``.

    An empty reply (not a string, or nothing visible) fails every check: a model that answers nothing must not
    pass a format check by saying nothing wrong.

    Raises:
        ValueError: for a subtask without checks, or (a bug in a check module) when the results do not match the
            declared names.
    """
    names = check_names(ctx.subtask, ctx.language)
    if is_empty(reply):
        return [fail(n, 'empty reply') for n in names]
    text = str(reply).strip()
    results = [*common_checks(text, ctx), *shape_checks(text, ctx), *_TABLE[ctx.subtask][1](text, ctx)]
    got = [r.name for r in results]
    if got != names:
        raise ValueError(f'checks for {ctx.subtask} returned {got}, declared {names}')
    return results


def all_passed(results: Sequence[CheckResult]) -> bool:
    """True when no applicable check failed (checks that do not apply are ignored)."""
    return all(r.passed is not False for r in results)
