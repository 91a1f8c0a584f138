"""Prediction post-processing applied before scoring (pure functions, no OpenCompass import)."""
from __future__ import annotations

import re

_THINK_BLOCK = re.compile(r'<think>.*?</think>', flags=re.DOTALL | re.IGNORECASE)
_THINK_CLOSE = '</think>'


def strip_reasoning(text: str) -> str:
    """Removes reasoning blocks so only the answer is scored.

    * every complete ``<think>…</think>`` block is removed;
    * text up to a dangling ``</think>`` is removed (chat templates that open the block in the
      prompt leave only the closing tag in the output);
    * an unterminated ``<think>`` means the model never reached an answer: the result is ``''``,
      which the evaluator counts as empty rather than scoring the reasoning.

    Non-strings are returned unchanged, so the evaluator can count them as empty.
    """
    if not isinstance(text, str):
        return text
    out = _THINK_BLOCK.sub('', text)
    idx = out.lower().rfind(_THINK_CLOSE)
    if idx != -1:
        out = out[idx + len(_THINK_CLOSE):]
    if '<think>' in out.lower():
        return ''
    return out.strip()
