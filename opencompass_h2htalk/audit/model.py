"""The two value types of the audit: a record as read from a file, and a finding about it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional


@dataclass(frozen=True)
class Finding:
    """One failed check. ``line`` is the 1-based line of the record, or 0 for a finding about a whole file."""

    path: str
    line: int
    check: str
    message: str

    def format(self) -> str:
        """``file:line:check: message`` — the form the CLI prints."""
        return f'{self.path}:{self.line}:{self.check}: {self.message}'


@dataclass
class Record:
    """One decoded scenario record with where it came from."""

    path: str
    line: int
    data: Dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.data.get('id', ''))

    @property
    def subtask(self) -> str:
        return str(self.data.get('subtask', ''))

    @property
    def persona(self) -> str:
        return str(self.data.get('persona', ''))

    @property
    def inputs(self) -> Dict[str, Any]:
        value = self.data.get('inputs')
        return value if isinstance(value, dict) else {}

    @property
    def reference(self) -> str:
        value = self.data.get('reference')
        return value if isinstance(value, str) else ''

    @property
    def tags(self) -> Dict[str, Any]:
        value = self.data.get('tags')
        return value if isinstance(value, dict) else {}

    @property
    def chain(self) -> Optional[str]:
        value = self.data.get('chain')
        return value if isinstance(value, str) and value else None

    @property
    def stage(self) -> Optional[int]:
        value = self.data.get('stage')
        return value if isinstance(value, int) else None

    def where(self) -> str:
        """``file:line (id)`` for messages that point at another record."""
        return f'{self.path}:{self.line} ({self.id})'

    def finding(self, check: str, message: str) -> Finding:
        return Finding(self.path, self.line, check, message)


def history(record: Record) -> List[Dict[str, str]]:
    """The record's history turns (well-formed ones only)."""
    turns = record.inputs.get('history') or []
    return [t for t in turns if isinstance(t, dict) and isinstance(t.get('content'), str)]


def user_turns(record: Record) -> List[str]:
    """Everything the user says in the record: user turns of the history, then the current message."""
    out = [t['content'] for t in history(record) if t.get('role') == 'user']
    msg = record.inputs.get('user_message')
    if isinstance(msg, str):
        out.append(msg)
    return out


def schedule(record: Record) -> List[Dict[str, str]]:
    """``today_schedule`` entries (well-formed ones only)."""
    entries = record.inputs.get('today_schedule') or []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get('time'), str)
            and isinstance(e.get('activity'), str)]


def all_strings(value: Any) -> Iterable[str]:
    """Every string inside a JSON value (a record's inputs: messages, memories, schedule entries...)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from all_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from all_strings(v)


def user_names(record: Record) -> List[str]:
    """How a reference may call the user: ``user_name`` and, for a name of three or more characters, its last two
    (the usual 称呼: 林小雨 -> 小雨); empty without a name."""
    name = record.inputs.get('user_name')
    if not isinstance(name, str) or not name:
        return []
    return [name, name[-2:]] if len(name) >= 3 else [name]
