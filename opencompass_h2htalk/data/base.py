"""What every data module shares: the languages, the error naming file and line, blank text and reading a JSON file.

It sits below :mod:`.schema` and :mod:`.personas`, which both use it, so that neither imports the other in a cycle.
"""
from __future__ import annotations

import json
import unicodedata
from typing import Any, Tuple

LANGUAGES: Tuple[str, ...] = ('zh', 'en')


class ScenarioError(ValueError):
    """A record (or file) that does not follow the schema.

    Attributes:
        path: File the record came from.
        line: 1-based line number (0 when the error concerns the whole file).
        field: Dotted path of the offending field ('' for the whole record).
    """

    def __init__(self, path: str, line: int, field: str, message: str):
        self.path, self.line, self.field, self.message = path, line, field, message
        where = f'{path}:{line}' if line else path
        what = f"field '{field}': " if field else ''
        super().__init__(f'{where}: {what}{message}')


#: Characters that print as nothing but are not whitespace to ``str.strip`` (Hangul fillers, braille blank).
_INVISIBLE = frozenset('\u115f\u1160\u2800\u3164\uffa0')


def is_blank(text: str) -> bool:
    """True when ``text`` shows nothing: only whitespace, format characters (category Cf: U+200B zero-width space,
    U+200D joiner, U+FEFF BOM, bidi marks ...) and fillers. A required text field must hold something readable."""
    return all(ch.isspace() or ch in _INVISIBLE or unicodedata.category(ch) == 'Cf' for ch in text)


def _open_bytes(path: str):
    """Opens a data file for reading bytes; a directory (or other unreadable path) is a ScenarioError naming it."""
    try:
        return open(path, 'rb')
    except IsADirectoryError:
        raise ScenarioError(path, 0, '', 'is a directory, expected a file') from None
    except NotADirectoryError:
        raise ScenarioError(path, 0, '', 'a parent of this path is a file, not a directory') from None
    except PermissionError as e:
        raise ScenarioError(path, 0, '', f'cannot read: {e.strerror}') from None


def read_json(path: str) -> Any:
    """Reads one JSON document (``personas.json``, ``frame.json``, ``rubrics.json``, ``MANIFEST.json``).

    Raises:
        FileNotFoundError: the file does not exist.
        ScenarioError: naming the file (and the line, for invalid JSON) when it is a directory, not UTF-8 or not JSON.
    """
    with _open_bytes(path) as f:
        data = f.read()
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError as e:
        raise ScenarioError(path, 0, '', f'not valid UTF-8 (byte {e.start}: {e.reason})') from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScenarioError(path, e.lineno, '', f'invalid JSON: {e.msg} (column {e.colno})') from None
