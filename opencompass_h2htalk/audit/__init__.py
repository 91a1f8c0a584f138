"""Data-quality gate for H2HTalk scenario files (``h2htalk audit``): pure checks, no OpenCompass import.

Each check module holds small pure functions over decoded records that return :class:`Finding` objects;
:mod:`.runner` loads a data directory and runs them all; every threshold lives in :mod:`.thresholds`.
"""
from .model import Finding, Record
from .runner import AuditResult, run_audit

__all__ = ['AuditResult', 'Finding', 'Record', 'run_audit']
