"""Task checks: deterministic, explainable pass/fail checks of what each subtask's instruction asks for (pure).

A second score beside U, never mixed into it. Each subtask has the common checks (:mod:`.common`), the length and
sentence bounds its instruction states (:mod:`.shape`) and its own checks (:mod:`.dialogue`,
:mod:`.recollection`, :mod:`.itinerary`, :mod:`.safety`); thresholds live in :mod:`.thresholds`. See
docs/checks.md.
"""
from __future__ import annotations

from .aggregate import ALL, item_all, pass_rates
from .base import CheckResult, Context
from .registry import SUBTASKS, all_passed, check_names, run_checks
from .thresholds import CHECKS_VERSION

__all__ = ['ALL', 'CHECKS_VERSION', 'CheckResult', 'Context', 'SUBTASKS', 'all_passed', 'check_names', 'item_all',
           'pass_rates', 'run_checks']
