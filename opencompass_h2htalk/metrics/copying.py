"""Copy-free scoring: a reply's text without the spans it copies from its own inputs, so that echoing is not credit.

U rewards parroting (docs/validity.md): a reply that repeats the user's message shares many words with a reference
that, in the way Chinese comforting does, takes up the user's words. The copy-free variant removes, from the reply
**and** from the reference, every span of at least ``MIN_COPY`` word characters (letters or digits; punctuation and
spaces inside a span do not count towards it) that occurs verbatim in the record's inputs, and scores what is left
with the same U. A parrot keeps nothing and scores 0 (an empty reply); a reply that takes up two of the user's words
and then says something of its own is scored on what it says. Spans are matched with the first and second person
folded together (我/你/您/咱/俺 count as one character, :data:`PERSON_FOLD`; rule version 2), so that an echo said
back as 「你……」 for the user's 「我……」 is a copy too: the validity card found one such echo in ten slipping through
the verbatim rule of version 1.

It is meant for subtasks whose reply answers the user (``COPY_FREE_SUBTASKS``): where the task is to rewrite or
use the inputs (a memory rewritten in the first person, a schedule built from an overview), copying is the task and
this variant does not apply.

Pure: no OpenCompass import.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..audit.model import all_strings
from .embedding import Embedder
from .unified import DEFAULT_ALPHA, ItemScore, score_items

#: A copied span needs at least this many word characters: shorter shared strings are ordinary words and names
#: (「加班」「小雨」, four-character idioms); a run of six is a phrase taken from the input.
MIN_COPY = 6
#: Person pronouns folded together before spans are compared: an echo that turns the user's 我 into 你 (or 您) is
#: still a copy. One character for one, so that positions in the folded text are positions in the text.
PERSON_FOLD = str.maketrans({'你': '我', '您': '我', '咱': '我', '俺': '我'})
#: Subtasks whose reply answers the user, so that copying the inputs is echoing rather than the task.
COPY_FREE_SUBTASKS = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'itinerary_feedback', 'safety')


def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in 'LN'


def input_texts(inputs: Mapping[str, Any]) -> List[str]:
    """Every string a model sees from a record's inputs (messages, history turns of both roles, schedule
    activities, memories), in order; the user's name is left out (a name alone is not a copy)."""
    return [t for t in all_strings({k: v for k, v in inputs.items() if k != 'user_name'}) if t.strip()]


def copied_spans(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> List[Tuple[int, int]]:
    """The character ranges ``[start, end)`` of ``text`` that occur verbatim in one of ``sources`` and hold at
    least ``min_copy`` word characters, merged where they overlap or touch, in order. First and second person are
    one character for the comparison (:data:`PERSON_FOLD`)."""
    if min_copy < 1:
        raise ValueError(f'min_copy must be at least 1, got {min_copy}')
    text, sources = text.translate(PERSON_FOLD), [src.translate(PERSON_FOLD) for src in sources]
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


def copy_parts(text: Any, sources: Sequence[str], min_copy: int = MIN_COPY) -> Tuple[str, float]:
    """``text`` without its copied spans ('' when nothing of its own is left: only punctuation and spaces, or not a
    string) and the share of its word characters that lie in those spans, from one search for the spans."""
    if not isinstance(text, str):
        return '', 0.0
    spans = copied_spans(text, sources, min_copy)
    kept, last = [], 0
    for start, end in spans:
        kept.append(text[last:start])
        last = end
    kept.append(text[last:])
    out = ''.join(kept).strip()
    words = sum(_is_word_char(c) for c in text)
    copied = sum(sum(_is_word_char(c) for c in text[a:b]) for a, b in spans)
    return (out if any(_is_word_char(c) for c in out) else ''), (copied / words if words else 0.0)


def strip_copied(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> str:
    """``text`` without its copied spans (see :func:`copied_spans`); '' when nothing of its own is left (only
    punctuation and spaces)."""
    return copy_parts(text, sources, min_copy)[0]


def copied_share(text: str, sources: Sequence[str], min_copy: int = MIN_COPY) -> float:
    """The share of ``text``'s word characters that lie in copied spans (0 for a text without any)."""
    return copy_parts(text, sources, min_copy)[1]


def copy_free_pairs(predictions: Iterable[Any], references: Iterable[str], sources: Iterable[Sequence[str]],
                    min_copy: int = MIN_COPY) -> Tuple[List[str], List[str]]:
    """Each (prediction, reference) with the spans copied from its own inputs removed from both."""
    preds, refs = [], []
    for pred, ref, src in zip(predictions, references, sources):
        preds.append(strip_copied(pred, src, min_copy))
        refs.append(strip_copied(ref, src, min_copy))
    return preds, refs


def copy_free_scores(predictions: Sequence[Any], references: Sequence[str], sources: Sequence[Sequence[str]],
                     scored: Sequence[ItemScore], embedder: Optional[Embedder], alpha: float = DEFAULT_ALPHA,
                     tokenizer: str = 'jieba') -> Tuple[List[ItemScore], List[float]]:
    """The copy-free U of each (prediction, reference) and the share of each prediction copied from its inputs.

    Args:
        predictions, references, sources: One per item; ``sources`` are the item's input texts.
        scored: U's own :class:`ItemScore` of each item, reused where nothing was removed from either text, so that
            only changed pairs are embedded again.
        embedder, alpha, tokenizer: U's settings (the two scores differ only in what is removed).
    """
    preds, refs, shares, redo = [], [], [], []
    for i, (pred, ref, src) in enumerate(zip(predictions, references, sources)):
        p, share = copy_parts(pred, src)
        r = strip_copied(ref, src)
        preds.append(p)
        refs.append(r)
        shares.append(share)
        if isinstance(pred, str) and (p != pred.strip() or r != ref.strip()):
            redo.append(i)  # a non-string scored 0 under U and scores 0 here too
    out = list(scored)
    for i, item in zip(redo, score_items([preds[i] for i in redo], [refs[i] for i in redo], embedder, alpha=alpha,
                                         tokenizer=tokenizer)):
        out[i] = item
    return out, shares
