"""Data-quality gate for H2HTalk scenario files (``h2htalk audit``): pure checks, no OpenCompass import.

Each check module holds small pure functions over decoded records that return :class:`Finding` objects;
:mod:`.runner` loads a data directory and runs them all; every threshold lives in :mod:`.thresholds`.
"""
from .model import Finding, Record

__all__ = ['AuditResult', 'Finding', 'Record', 'run_audit']


def __getattr__(name: str):
    # The runner is imported on first use, not with the package: the task checks (checks/) reuse audit/text.py,
    # and the runner's instruction-shape check reuses checks/shape.py, so an eager import here would enter
    # checks/ half-initialised.
    if name in ('AuditResult', 'run_audit'):
        from . import runner
        return getattr(runner, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
