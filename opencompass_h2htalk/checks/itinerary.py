"""Checks of the day plans: itinerary_basic, itinerary_middle, itinerary_advanced (pure)."""
from __future__ import annotations

from typing import List

from .base import CheckResult, Context


def _none(reply: str, ctx: Context) -> List[CheckResult]:
    return []


CHECKS = {'itinerary_basic': ((), _none), 'itinerary_middle': ((), _none), 'itinerary_advanced': ((), _none)}
