"""Copy-free scoring: a reply's text without the spans it copies from its own inputs, so that echoing is not credit.

U rewards parroting (docs/validity.md): a reply that repeats the user's message shares many words with a reference
that, in the way Chinese comforting does, takes up the user's words. The copy-free variant removes, from the reply
**and** from the reference, every span of at least ``MIN_COPY`` word characters (letters or digits; punctuation and
spaces inside a span do not count towards it) that occurs verbatim in the record's inputs, and scores what is left
with the same U. A parrot keeps nothing and scores 0 (an empty reply); a reply that takes up two of the user's words
and then says something of its own is scored on what it says.

It is meant for subtasks whose reply answers the user (``COPY_FREE_SUBTASKS``): where the task is to rewrite or
use the inputs (a memory rewritten in the first person, a schedule built from an overview), copying is the task and
this variant does not apply.

Pure: no OpenCompass import.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable, List, Mapping, Sequence, Tuple

#: A copied span needs at least this many word characters: shorter shared strings are ordinary words and names
#: (「加班」「小雨」, four-character idioms); a run of six is a phrase taken from the input.
MIN_COPY = 6
#: Subtasks whose reply answers the user, so that copying the inputs is echoing rather than the task.
COPY_FREE_SUBTASKS = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'itinerary_feedback', 'safety')


def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in 'LN'


def input_texts(inputs: Mapping[str, Any]) -> List[str]:
    """Every string a model sees from a record's inputs (messages, history turns of both roles, schedule
    activities, memories), in order; the user's name is left out (a name alone is not a copy)."""
    out: List[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value.strip():
                out.append(value)
        elif isinstance(value, Mapping):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for key, value in inputs.items():
        if key != 'user_name':
            walk(value)
    return out


def copied_spans(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> List[Tuple[int, int]]:
    """The character ranges ``[start, end)`` of ``text`` that occur verbatim in one of ``sources`` and hold at
    least ``min_copy`` word characters, merged where they overlap or touch, in order."""
    if min_copy < 1:
        raise ValueError(f'min_copy must be at least 1, got {min_copy}')
    spans: List[Tuple[int, int]] = []
    n = len(text)
    for i in range(n):
        if not _is_word_char(text[i]):
            continue  # a span starts at a word character, so that a shared comma does not start one
        best = 0
        for src in sources:
            length = best
            while i + length < n and text[i:i + length + 1] in src:
                length += 1
            best = max(best, length)
        if best and sum(_is_word_char(c) for c in text[i:i + best]) >= min_copy:
            spans.append((i, i + best))
    merged: List[Tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def strip_copied(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> str:
    """``text`` without its copied spans (see :func:`copied_spans`); '' when nothing of its own is left (only
    punctuation and spaces)."""
    if not isinstance(text, str):
        return ''
    kept, last = [], 0
    for start, end in copied_spans(text, sources, min_copy):
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    out = ''.join(kept).strip()
    return out if any(_is_word_char(c) for c in out) else ''


def copied_share(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> float:
    """The share of ``text``'s word characters that lie in copied spans (0 for a text without any)."""
    words = sum(_is_word_char(c) for c in text)
    if not words:
        return 0.0
    copied = sum(sum(_is_word_char(c) for c in text[a:b]) for a, b in copied_spans(text, sources, min_copy))
    return copied / words


def copy_free_pairs(predictions: Iterable[Any], references: Iterable[str], sources: Iterable[Sequence[str]],
                    min_copy: int = MIN_COPY) -> Tuple[List[str], List[str]]:
    """Each (prediction, reference) with the spans copied from its own inputs removed from both."""
    preds, refs = [], []
    for pred, ref, src in zip(predictions, references, sources):
        preds.append(strip_copied(pred, src, min_copy) if isinstance(pred, str) else '')
        refs.append(strip_copied(ref, src, min_copy))
    return preds, refs
