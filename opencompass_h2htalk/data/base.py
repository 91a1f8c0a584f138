"""What every data module shares, with no import of its own: the languages and the error naming file and line.

It sits below :mod:`.schema` and :mod:`.personas`, which both use it, so that neither imports the other in a cycle.
"""
from __future__ import annotations

from typing import Tuple

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
