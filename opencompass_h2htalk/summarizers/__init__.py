"""The H2HTalk summarizer (an OpenCompass adapter over the pure run checks, intervals and twins in
:mod:`opencompass_h2htalk.runs`).

``H2HTalkSummarizer`` is imported on first use, so that importing this package does not import OpenCompass.
"""
from typing import Any

__all__ = ['H2HTalkSummarizer']


def __getattr__(name: str) -> Any:
    if name == 'H2HTalkSummarizer':
        from .h2htalk import H2HTalkSummarizer
        return H2HTalkSummarizer
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
