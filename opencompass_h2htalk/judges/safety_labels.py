"""Labelled replies for the deterministic safety checks: loading them and measuring precision and recall."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

from ..data.schema import ScenarioError, iter_jsonl
from .safety_checks import CHECKED_ACTIONS, VIOLATION_TYPES, check_reply

#: Fields every label row must carry, with their types.
_FIELDS = {'id': str, 'split': str, 'batch': int, 'reply': str, 'required_actions': str, 'violations': list,
           'missing_actions': list}
SPLITS = ('dev', 'holdout')


class LabelError(ValueError):
    """A label row is malformed (the message names file, line and field)."""


def load_labels(path: str) -> List[Dict[str, Any]]:
    """Reads a labels JSONL file, validating each row.

    Raises:
        LabelError: naming ``path:line`` and the field for bad JSON, a missing or wrongly typed field,
            an unknown split/violation/action, or a duplicate id.
    """
    rows, seen = [], set()
    try:
        # The project's JSONL reader: blank lines skipped, bad UTF-8 or JSON reported as file:line.
        records = list(iter_jsonl(path))
    except ScenarioError as e:
        raise LabelError(f'{path}:{e.line}: {e.message}') from None
    for lineno, row in records:
        where = f'{path}:{lineno}'
        if not isinstance(row, dict):
            raise LabelError(f'{where}: expected an object')
        for field, typ in _FIELDS.items():
            if not isinstance(row.get(field), typ):
                raise LabelError(f'{where}: field {field!r} must be a {typ.__name__}')
        if row['split'] not in SPLITS:
            raise LabelError(f"{where}: field 'split' must be one of {list(SPLITS)}, got {row['split']!r}")
        if (row['batch'] == 0) != (row['split'] == 'dev') or row['batch'] < 0:
            raise LabelError(f"{where}: field 'batch' must be 0 for dev rows and >= 1 for holdout rows")
        bad = [v for v in row['violations'] if v not in VIOLATION_TYPES]
        if bad:
            raise LabelError(f"{where}: field 'violations' has unknown types {bad}")
        bad = [a for a in row['missing_actions'] if a not in CHECKED_ACTIONS]
        if bad:
            raise LabelError(f"{where}: field 'missing_actions' has unchecked actions {bad}")
        if bool(row['missing_actions']) != ('missing_escalation' in row['violations']):
            raise LabelError(f"{where}: field 'violations' must list missing_escalation exactly when "
                             "'missing_actions' is non-empty")
        if row['id'] in seen:
            raise LabelError(f"{where}: field 'id': duplicate id {row['id']!r}")
        seen.add(row['id'])
        rows.append(row)
    return rows


@dataclass
class PR:
    """Counts and rates for one label (or all labels pooled)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> Optional[float]:
        """``None`` when nothing was predicted: undefined, not 0 or 1."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> Optional[float]:
        """``None`` when nothing was expected."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    def add(self, expected: bool, predicted: bool) -> None:
        self.tp += expected and predicted
        self.fp += predicted and not expected
        self.fn += expected and not predicted


def measure(rows: Iterable[Dict[str, Any]], keys: Sequence[str], field: str,
            check: Callable[[str, str], Dict[str, List[str]]] = check_reply,
            errors: Optional[List[Dict[str, Any]]] = None) -> Dict[str, PR]:
    """Precision/recall of ``check`` on labelled rows, per key of ``field`` and pooled under ``'overall'``.

    Args:
        rows: Label rows (see :func:`load_labels`).
        keys: The labels to score, e.g. the violation types.
        field: ``'violations'`` or ``'missing_actions'``.
        check: The checker, ``check_reply`` by default.
        errors: If given, rows whose prediction differs from the label are appended with ``got``.
    """
    out = {k: PR() for k in (*keys, 'overall')}
    for row in rows:
        got = set(check(row['reply'], row['required_actions'])[field])
        want = set(row[field])
        for k in keys:
            out[k].add(k in want, k in got)
            out['overall'].add(k in want, k in got)
        if errors is not None and got & set(keys) != want & set(keys):
            errors.append({**row, 'got': sorted(got)})
    return out
