"""Checks of the subtasks where the companion says what it is doing now: dialogue_schedule, itinerary_feedback,
itinerary_initialize (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context


def _none(reply: str, ctx: Context) -> List[CheckResult]:
    return []


CHECKS = {'dialogue_schedule': ((), _none), 'itinerary_feedback': ((), _none), 'itinerary_initialize': ((), _none)}
