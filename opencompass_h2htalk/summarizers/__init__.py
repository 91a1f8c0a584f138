"""Summarizers for H2HTalk runs (OpenCompass adapters; the checks themselves live in :mod:`.run_check`).

``H2HTalkSummarizer`` is imported on first use, so the pure modules here (:mod:`.run_check`, :mod:`.twins`,
:mod:`.intervals`) can be used without importing OpenCompass (``h2htalk compare`` does).
"""
from typing import Any

__all__ = ['H2HTalkSummarizer']


def __getattr__(name: str) -> Any:
    if name == 'H2HTalkSummarizer':
        from .h2htalk import H2HTalkSummarizer
        return H2HTalkSummarizer
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
