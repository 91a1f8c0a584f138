"""Length and sentence-count checks, with the bounds each subtask's instruction states (pure)."""
from __future__ import annotations

from typing import List

from . import thresholds as T
from .base import CheckResult, Context, fail, length, ok, sentences


def shape_names(subtask: str, language: str) -> List[str]:
    """The shape checks a subtask has in a language: ``length`` and/or ``sentences``."""
    names = []
    if subtask in T.LENGTH_BOUNDS.get(language, {}):
        names.append('length')
    if subtask in T.SENTENCE_BOUNDS:
        names.append('sentences')
    return names


def _bounds_text(low, high, unit: str) -> str:
    if low is None:
        return f'at most {high} {unit}'
    if high is None:
        return f'at least {low} {unit}'
    return f'{low}-{high} {unit}'


def check_length(reply: str, ctx: Context) -> CheckResult:
    """The reply's length is inside the instruction's bounds (characters but whitespace, or words)."""
    low, high = T.LENGTH_BOUNDS[ctx.language][ctx.subtask]
    unit = 'words' if ctx.language == 'en' else 'characters'
    n = length(reply, ctx.language)
    want = _bounds_text(low, high, unit)
    if (low is not None and n < low) or (high is not None and n > high):
        return fail('length', f'{n} {unit}; the instruction asks for {want}')
    return ok('length', f'{n} {unit} ({want})')


def check_sentences(reply: str, ctx: Context) -> CheckResult:
    """The reply has as many sentences as the instruction asks for (parenthesised actions not counted)."""
    low, high = T.SENTENCE_BOUNDS[ctx.subtask]
    n = len(sentences(reply))
    want = f'{low}' if low == high else f'{low}-{high}'
    if not low <= n <= high:
        return fail('sentences', f'{n} sentences; the instruction asks for {want}')
    return ok('sentences', f'{n} sentences ({want})')


def shape_checks(reply: str, ctx: Context) -> List[CheckResult]:
    out = []
    for name in shape_names(ctx.subtask, ctx.language):
        out.append(check_length(reply, ctx) if name == 'length' else check_sentences(reply, ctx))
    return out
