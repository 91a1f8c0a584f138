"""Prediction post-processing applied before scoring (pure functions, no OpenCompass import).

Configs name ``opencompass_h2htalk.postprocessors.strip_reasoning`` as a ``pred_postprocessor``.
"""
from .reasoning import strip_reasoning

__all__ = ['strip_reasoning']
