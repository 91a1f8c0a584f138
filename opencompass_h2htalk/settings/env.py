"""Numbers and choices that configs read from the environment, checked when the config is loaded. Pure (no OpenCompass import).

A config that did ``int(os.environ.get('H2HTALK_DEMO_ITEMS', '20'))`` failed with a traceback that did not name
the variable (``abc``), or loaded and failed much later (``0``: an empty test range). :func:`env_int` refuses
both at load time with one line naming the variable, the value and the config reading it.

The error is a ``SystemExit`` on purpose: ``opencompass CONFIG`` (and mmengine's ``Config.fromfile``) let it
through, so the run stops with that line and exit status 1 instead of a traceback; ``h2htalk plan`` catches it.
"""
from __future__ import annotations

import os
from typing import List, Optional, Sequence


class EnvSettingError(SystemExit):
    """A bad environment setting of a config; ``code`` is the message (``error: NAME=...``), printed as is."""

    def __str__(self) -> str:
        return str(self.code)


def env_int(name: str, default: Optional[int], minimum: int = 1, config: str = '', setting: str = '') -> Optional[int]:
    """The whole number in ``$name``, or ``default`` when it is unset or empty.

    Args:
        name: The environment variable.
        default: Returned when the variable is unset or empty (``None`` for "not set").
        minimum: The smallest value allowed.
        config: The config reading it, for the message (e.g. ``configs/eval/h2htalk_demo.py``).
        setting: What the config sets from it (e.g. ``api_workers``), for the message.

    Raises:
        EnvSettingError: the value is not a whole number or is below ``minimum`` (the message names the variable).
    """
    raw = os.environ.get(name, '')
    if not raw.strip():
        return default
    where = f' (read by {config}{" as " + setting if setting else ""})' if config else ''
    try:
        value = int(raw.strip())
    except ValueError:
        raise EnvSettingError(f'error: {name}={raw!r}{where}: not a whole number; set it to an integer >= {minimum} '
                              'or unset it') from None
    if value < minimum:
        raise EnvSettingError(f'error: {name}={value}{where}: must be >= {minimum}, got {value}; set it to an integer '
                              f'>= {minimum} or unset it')
    return value


def env_choices(name: str, choices: Sequence[str], config: str = '') -> List[str]:
    """The comma-separated names in ``$name``, each one of ``choices``, in the order of ``choices``; all of them when
    the variable is unset or empty.

    Args:
        name: The environment variable.
        choices: The allowed names, in the order the result keeps (a config's natural order, e.g. ladder rungs).
        config: The config reading it, for the message.

    Raises:
        EnvSettingError: a name that is not one of ``choices`` (the message names the variable and the choices).
    """
    raw = os.environ.get(name, '')
    wanted = [w.strip() for w in raw.split(',') if w.strip()]
    if not wanted:
        return list(choices)
    unknown = [w for w in wanted if w not in choices]
    if unknown:
        where = f' (read by {config})' if config else ''
        raise EnvSettingError(f'error: {name}={raw!r}{where}: unknown {", ".join(map(repr, unknown))}; choose a '
                              f'comma-separated list of {", ".join(choices)} or unset it for all')
    return [c for c in choices if c in wanted]


def env_choice(name: str, choices: Sequence[str], default: str, config: str = '', setting: str = '') -> str:
    """The value of ``$name`` if it is one of ``choices``, or ``default`` when it is unset or empty.

    Args:
        name: The environment variable.
        choices: The values allowed (compared after stripping whitespace; case matters).
        default: Returned when the variable is unset or empty.
        config: The config reading it, for the message.
        setting: What the config sets from it, for the message.

    Raises:
        EnvSettingError: any other value (the message names the variable, the value and the choices).
    """
    raw = os.environ.get(name, '')
    if not raw.strip():
        return default
    if raw.strip() not in choices:
        where = f' (read by {config}{" as " + setting if setting else ""})' if config else ''
        raise EnvSettingError(f'error: {name}={raw!r}{where}: choose one of {", ".join(choices)}, or unset it '
                              f'(default {default})')
    return raw.strip()


__all__ = ['EnvSettingError', 'env_choice', 'env_choices', 'env_int']
