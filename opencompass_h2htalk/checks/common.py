"""Checks every subtask has: not empty, the scenario's language, no echo of the prompt, no role break (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context, ok

COMMON_NAMES = ('not_empty', 'language', 'no_echo', 'in_role')


def common_checks(reply: str, ctx: Context) -> List[CheckResult]:
    # STUB (helper fills in): every common check passes.
    return [ok(n, 'stub') for n in COMMON_NAMES]
