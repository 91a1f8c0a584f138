"""Prediction post-processing applied before scoring (pure functions, no OpenCompass import)."""
from __future__ import annotations

import re
import unicodedata

# Reasoning tags emitted by reasoning models: <think> (Qwen3, DeepSeek-R1) and <thinking>.
_TAG = r'think(?:ing)?'
_BLOCK = re.compile(rf'<({_TAG})>.*?</\1>', flags=re.DOTALL | re.IGNORECASE)
_CLOSE = re.compile(rf'</{_TAG}>', flags=re.IGNORECASE)
# An opening tag counts as unterminated reasoning only at the very start of the reply; elsewhere it is prose.
_LEADING_OPEN = re.compile(rf'^<{_TAG}>', flags=re.IGNORECASE)  # matched after stripping


def _strip_invisible(text: str) -> str:
    """Strips whitespace and format characters (zero-width space, BOM, ...) from both ends."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or unicodedata.category(text[start]) == 'Cf'):
        start += 1
    while end > start and (text[end - 1].isspace() or unicodedata.category(text[end - 1]) == 'Cf'):
        end -= 1
    return text[start:end]


def strip_reasoning(text: str) -> str:
    """Removes reasoning blocks so only the answer is scored.

    * every complete ``<think>…</think>`` or ``<thinking>…</thinking>`` block is removed;
    * text up to a dangling closing tag is removed (chat templates that open the block in the
      prompt leave only the closing tag in the output);
    * a reply that *starts* with an unterminated opening tag never reached an answer: the result is
      ``''``, which the evaluator counts as empty rather than scoring the reasoning. An opening tag
      further into the reply is prose (a reply may talk about the tag) and is kept;
    * whitespace and invisible format characters (such as U+200B) are stripped from both ends.

    Non-strings are returned unchanged, so the evaluator can count them as empty.
    """
    if not isinstance(text, str):
        return text
    out = _BLOCK.sub('', text)
    closes = list(_CLOSE.finditer(out))
    if closes:
        out = out[closes[-1].end():]
    out = _strip_invisible(out)
    return '' if _LEADING_OPEN.match(out) else out


def reasoning_text(text: str) -> str:
    """The reasoning :func:`strip_reasoning` removes from ``text`` (``''`` when it holds no reasoning tag): what a
    thinking model spent before its answer, for the report's cost table."""
    if not isinstance(text, str) or not (_CLOSE.search(text) or _LEADING_OPEN.match(_strip_invisible(text))):
        return ''
    answer = strip_reasoning(text)
    if not answer:
        return text
    end = text.rfind(answer)
    return text[:end] if end >= 0 else text
