"""Checks of the recollection subtasks (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context


def _none(reply: str, ctx: Context) -> List[CheckResult]:
    return []


CHECKS = {'recollection_synthesize': ((), _none), 'recollection_refine': ((), _none),
          'recollection_initialize': ((), _none)}
