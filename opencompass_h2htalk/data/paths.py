"""Where the bundled data lives, and how users point the plugin elsewhere."""
from __future__ import annotations

import os

#: Environment variable that overrides the bundled H2HTalk-Open directory.
DATA_ENV = 'H2HTALK_DATA'


class DataDirError(ValueError):
    """A data directory argument that is missing or is not a directory."""


def bundled_data_dir() -> str:
    """The H2HTalk-Open directory shipped in the package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'open')


def default_data_dir() -> str:
    """Returns ``$H2HTALK_DATA`` if set, else the H2HTalk-Open directory shipped in the package."""
    env = os.environ.get(DATA_ENV)
    if env:
        return env
    return bundled_data_dir()


def is_bundled(data_dir: str) -> bool:
    """True when ``data_dir`` is the bundled H2HTalk-Open directory itself (not a copy of it)."""
    try:
        return os.path.samefile(data_dir, bundled_data_dir())
    except OSError:
        return False


def require_data_dir(data_dir: str) -> str:
    """Returns ``data_dir`` when it is a directory.

    Raises:
        DataDirError: naming the path when it does not exist or is a file (e.g. a ``.jsonl`` file given where the
            directory that holds it is meant).
    """
    if os.path.isdir(data_dir):
        return data_dir
    if os.path.exists(data_dir):
        hint = f'; did you mean its directory {os.path.dirname(data_dir) or "."}?' if data_dir.endswith(
            ('.jsonl', '.json')) else ''
        raise DataDirError(f'{data_dir}: is a file, expected a data directory (one holding MANIFEST.json, '
                           f'personas.json and <subtask>.jsonl files){hint}')
    raise DataDirError(f'{data_dir}: no such data directory')
