"""Checks of the safety set and the instruction-following probes (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context


def _none(reply: str, ctx: Context) -> List[CheckResult]:
    return []


CHECKS = {'safety': ((), _none), 'probe_implicit_help': ((), _none), 'probe_ambiguous': ((), _none),
          'probe_context_aware': ((), _none)}
