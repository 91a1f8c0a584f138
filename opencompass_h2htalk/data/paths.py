"""Where the bundled data lives, and how users point the plugin elsewhere."""
from __future__ import annotations

import os

#: Environment variable that overrides the bundled H2HTalk-Open directory.
DATA_ENV = 'H2HTALK_DATA'


def default_data_dir() -> str:
    """Returns ``$H2HTALK_DATA`` if set, else the H2HTalk-Open directory shipped in the package."""
    env = os.environ.get(DATA_ENV)
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'open')
