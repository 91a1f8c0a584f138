"""Checks of dialogue_base and dialogue_emotion (dialogue_schedule is in :mod:`.activity`) (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context


def _none(reply: str, ctx: Context) -> List[CheckResult]:
    return []


CHECKS = {'dialogue_base': ((), _none), 'dialogue_emotion': ((), _none)}
