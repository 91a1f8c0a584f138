"""The copy-free U of a scored dataset: U without the spans replies and references copy from their inputs."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from ..metrics.copying import COPY_FREE_SUBTASKS, MIN_COPY, copy_free_scores, input_texts
from ..metrics.unified import ItemScore
from ..stats import subtask_interval

#: Bumped when what the copy-free score removes changes. 2: first and second person folded together when spans are
#: matched (an echo said back with 你 for 我 is a copy, metrics/copying.py PERSON_FOLD).
COPY_FREE_VERSION = 2


@dataclass
class CopyFree:
    """The copy-free scores of one dataset, or why it has none.

    Attributes:
        items: Per item, ``{'unified_nocopy': U of what is left (0-100), 'copied': % of the reply's word
            characters copied from its inputs}``; ``None`` when skipped.
        summary: ``{'score', 'ci_low', 'ci_high', 'copied', 'n'}`` (the interval ``None`` with a ``warning`` when
            there are too few units); ``None`` when skipped.
        meta: What ``meta.nocopy`` records: the version, ``min_copy`` and the rule, or ``{'skipped': why}``.
    """

    items: Optional[List[Dict[str, float]]] = None
    summary: Optional[Dict[str, Any]] = None
    meta: Dict[str, Any] = field(default_factory=dict)


def copy_free(predictions: Sequence[Any], references: Sequence[str], scored: Sequence[ItemScore], test_set, embedder,
              alpha: float, tokenizer: str, resamples: int, seed: int) -> CopyFree:
    """Scores every item with U after removing, from prediction and reference, the spans copied from its inputs.

    Args:
        predictions, references: What U scored, in test-set order.
        scored: U's items, reused where nothing is copied (only changed pairs are embedded again).
        test_set: The OpenCompass test set; it needs ``subtask`` and ``inputs`` (``data.loader.to_rows``).
        embedder, alpha, tokenizer: U's own settings, so the two scores differ only in what is removed.
        resamples, seed: The evaluator's bootstrap settings; the stream is ``<subtask>/nocopy``.

    Returns:
        The :class:`CopyFree`; a foreign dataset or a subtask whose task is to use its inputs is skipped with the
        reason (never scored 0).
    """
    columns = set(test_set.column_names) if test_set is not None else set()
    missing = [c for c in ('subtask', 'inputs') if c not in columns]
    if missing:
        return CopyFree(meta={'skipped': f'the dataset has no column {", ".join(missing)}: the copy-free score '
                                         f'reads each item\'s inputs'})
    subtasks = sorted(set(test_set['subtask']))
    other = [s for s in subtasks if s not in COPY_FREE_SUBTASKS]
    if other:
        return CopyFree(meta={'skipped': f'{", ".join(other)}: using the inputs is the task, so copying them is '
                                         f'not echoing (copy-free subtasks: {", ".join(COPY_FREE_SUBTASKS)})'})
    sources = [input_texts(json.loads(v) if isinstance(v, str) else (v or {})) for v in test_set['inputs']]
    nocopy, shares = copy_free_scores(predictions, references, sources, scored, embedder, alpha, tokenizer)
    items = [{'unified_nocopy': it.unified, 'copied': 100.0 * share} for it, share in zip(nocopy, shares)]
    chains = [c or None for c in test_set['chain']] if 'chain' in columns else None
    interval = subtask_interval([i['unified_nocopy'] for i in items], chains, resamples, seed,
                                stream=f'{subtasks[0] if subtasks else ""}/nocopy')
    summary: Dict[str, Any] = {'score': interval.estimate, 'ci_low': interval.low, 'ci_high': interval.high,
                               'copied': sum(i['copied'] for i in items) / len(items), 'n': len(items)}
    if interval.warning:
        summary['warning'] = interval.warning
    meta = {'version': COPY_FREE_VERSION, 'min_copy': MIN_COPY,
            'rule': f'spans of >= {MIN_COPY} word characters found verbatim in the item\'s inputs (first and second '
                    f'person pronouns folded together) are removed from prediction and reference before U'}
    return CopyFree(items, summary, meta)


def attach(result: Dict[str, Any], found: CopyFree) -> None:
    """Writes ``found`` into an evaluator's ``result``: ``nocopy``, ``meta.nocopy`` and the items'
    ``unified_nocopy``/``copied`` (never a key that U or its components are read from)."""
    result['meta']['nocopy'] = found.meta
    if found.items is None:
        return
    result['nocopy'] = found.summary
    for detail, item in zip(result['details'], found.items):
        detail.update(item)
