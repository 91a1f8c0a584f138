"""Runs the task checks on a data set's own references, for ``h2htalk checks`` (pure)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ..data.loader import load_rows, read_manifest, to_rows
from ..data.personas import Persona
from ..data.schema import SUBTASKS as DATA_ORDER, Scenario
from .base import CheckResult, Context
from .registry import SUBTASKS, all_passed, run_checks


def context_for(scenario: Scenario, persona: Persona) -> Context:
    """The check context of a record: its dataset row (:func:`data.loader.to_rows`), as the evaluator reads it."""
    return Context.from_row(to_rows([scenario], {scenario.persona: persona})[0])


@dataclass
class SubtaskChecks:
    """The references of one subtask, checked: per item its id and check results."""

    subtask: str
    items: List[Tuple[str, List[CheckResult]]] = field(default_factory=list)

    def rates(self) -> Dict[str, Tuple[int, int]]:
        """``{check: (passed, applicable)}`` with ``'all'`` first; a check that applies to no item has ``(0, 0)``."""
        out: Dict[str, Tuple[int, int]] = {'all': (sum(all_passed(rs) for _, rs in self.items), len(self.items))}
        for _, results in self.items:
            for r in results:
                p, n = out.get(r.name, (0, 0))
                out[r.name] = (p, n) if r.passed is None else (p + bool(r.passed), n + 1)
        return out

    def failures(self) -> Dict[str, List[Tuple[str, str]]]:
        """``{check: [(item id, reason), ...]}`` of the failed checks."""
        out: Dict[str, List[Tuple[str, str]]] = {}
        for item_id, results in self.items:
            for r in results:
                if r.passed is False:
                    out.setdefault(r.name, []).append((item_id, r.reason))
        return out


def check_references(data_dir: Optional[str] = None, subtasks: Optional[Sequence[str]] = None,
                     verify: bool = True) -> List[SubtaskChecks]:
    """Scores every reference of ``data_dir`` (default: the bundled data) as if it were a model's reply.

    ``subtasks`` defaults to every subtask the data set's manifest lists.
    """
    if not subtasks:  # the subtasks the data set has: a user's data may hold only some of them
        listed = {e.get('subtask') for e in read_manifest(data_dir)['files'].values()}
        subtasks = [s for s in DATA_ORDER if s in SUBTASKS and s in listed]
    out = []
    for subtask in subtasks:
        checked = SubtaskChecks(subtask)
        for row in load_rows(subtask, data_dir, verify):  # the rows the evaluator reads
            checked.items.append((row['id'], run_checks(row['reference'], Context.from_row(row))))
        out.append(checked)
    return out


def overall(checked: Sequence[SubtaskChecks]) -> Tuple[int, int]:
    """(passed, applicable) over every check of every item: the share of all checks the references pass."""
    p = n = 0
    for sub in checked:
        for name, (a, b) in sub.rates().items():
            if name != 'all':
                p, n = p + a, n + b
    return p, n


def render(checked: Sequence[SubtaskChecks], show_failures: int = 5) -> str:
    """The ``h2htalk checks`` table: per subtask, items passing every check and each check's pass rate, then up to
    ``show_failures`` failing ids per check."""
    lines = []
    for sub in checked:
        rates = sub.rates()
        p, n = rates.pop('all')
        lines.append(f'{sub.subtask}: {n} references, {100.0 * p / n:.1f} % pass every check')
        for name, (a, b) in rates.items():
            lines.append(f'  {name:<22} {100.0 * a / b:6.1f} %  ({a}/{b})' if b else
                         f'  {name:<22}      -    (applies to no reference)')
        if show_failures:
            for name, fails in sub.failures().items():
                more = f', {len(fails) - show_failures} more not shown' if len(fails) > show_failures else ''
                lines.append(f'  failed {name} ({len(fails)}{more}):')
                lines.extend(f'    {i}: {r}' for i, r in fails[:show_failures])
    p, n = overall(checked)
    items = sum(len(s.items) for s in checked)
    every = sum(s.rates()['all'][0] for s in checked)
    lines.append(f'overall: references pass {100.0 * p / n:.2f} % of all checks ({p}/{n}); '
                 f'{100.0 * every / items:.1f} % of references ({every}/{items}) pass every check')
    return '\n'.join(lines)
