"""Summarizers for H2HTalk runs (OpenCompass adapters; the checks themselves live in :mod:`.run_check`)."""
from .h2htalk import H2HTalkSummarizer

__all__ = ['H2HTalkSummarizer']
