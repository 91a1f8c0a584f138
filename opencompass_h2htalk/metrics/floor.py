"""Metric floor (pure): what the unified score gives a reference scored against another scenario's reference.

For each subtask, every reference is paired with the reference of a *different* scenario of the same subtask
(a seeded random derangement, repeated several times) and scored with the project's unified score. The mean
is the score a reply in the right format but about the wrong scenario already earns — the floor that a
model's score should be read against. No OpenCompass import.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence

import numpy as np

from .embedding import Embedder
from .unified import DEFAULT_ALPHA, aggregate, score_items

#: Aggregated keys reported as the floor, in print order (0–100 scale; ``score`` is U).
FLOOR_KEYS = ('bleu1', 'bleu2', 'bleu3', 'bleu4', 'rouge1', 'rougeL', 'cosine', 'score')

#: A function scoring predictions against references and returning aggregated values by key.
ScoreFn = Callable[[Sequence[str], Sequence[str]], Dict[str, float]]


class FloorError(ValueError):
    """A floor cannot be computed (too few distinct references to derange)."""


def derangement(keys: Sequence[Hashable], rng: random.Random, max_tries: int = 10000) -> List[int]:
    """A seeded random permutation ``p`` with ``keys[p[i]] != keys[i]`` for every ``i``.

    Keys are the texts, so duplicate references are never paired with themselves either. Rejection sampling
    first (uniform over valid permutations; about e tries when keys are distinct). When it finds none, because
    many positions share a key (recollection_synthesize holds ~90 identical 「无可记录的信息」), the last shuffle is
    repaired: each position that meets its own key swaps with a random position where the swap fixes both. The
    repaired permutation is valid and seeded, but not exactly uniform.

    Args:
        keys: One key per position (e.g. the reference text).
        rng: Seeded random source.
        max_tries: Rejection-sampling budget before the repair.

    Raises:
        FloorError: fewer than two positions, or one key holds more than half the positions (then no valid
            permutation exists).
    """
    n = len(keys)
    if n < 2:
        raise FloorError(f'need at least 2 references to derange, got {n}')
    key, top = Counter(keys).most_common(1)[0]
    if 2 * top > n:
        raise FloorError(f'no derangement of {n} references exists: {top} of them are identical '
                         f'({str(key)[:20]!r}; too many identical references)')
    order = list(range(n))
    for _ in range(max_tries):
        rng.shuffle(order)
        if all(keys[order[i]] != keys[i] for i in range(n)):
            return list(order)
    for i in range(n):
        if keys[order[i]] == keys[i]:
            # Swapping i and j fixes both when j's key and j's current partner's key differ from i's key.
            fixes = [j for j in range(n) if keys[j] != keys[i] and keys[order[j]] != keys[i]]
            if not fixes:
                raise FloorError(f'no derangement of {n} references found (too many identical references)')
            j = rng.choice(fixes)
            order[i], order[j] = order[j], order[i]
    return order


def _summary(values: Sequence[float]) -> Dict[str, float]:
    """Mean, sample standard deviation (0 for one value), min and max."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {'mean': mean, 'sd': sd, 'min': min(values), 'max': max(values)}


def metric_floor(references: Sequence[str], score_fn: ScoreFn, repeats: int = 5, seed: int = 0,
                 keys: Sequence[str] = FLOOR_KEYS) -> Dict[str, Any]:
    """Scores shuffled references of one subtask against the originals, ``repeats`` times.

    Args:
        references: The subtask's references, one per scenario.
        score_fn: ``score_fn(predictions, references) -> {key: value}`` (see :func:`unified_score_fn`).
        repeats: Number of independent derangements; the floor is their mean.
        seed: Seed of the derangements (same seed, same pairs).
        keys: Aggregated values to summarise.

    Returns:
        ``{'n': len(references), 'repeats': repeats, 'seed': seed, 'floor': {key: {mean, sd, min, max}}}``,
        where ``sd``/``min``/``max`` are over repeats.

    Raises:
        FloorError: fewer than two references, or ``repeats < 1``.
    """
    if repeats < 1:
        raise FloorError(f'repeats must be >= 1, got {repeats}')
    refs = [r.strip() for r in references]
    rng = random.Random(seed)
    runs = []
    for _ in range(repeats):
        perm = derangement(refs, rng)
        runs.append(score_fn([refs[j] for j in perm], refs))
    return {'n': len(refs), 'repeats': repeats, 'seed': seed,
            'floor': {k: _summary([run[k] for run in runs]) for k in keys}}


def unified_score_fn(embedder: Optional[Embedder], alpha: float = DEFAULT_ALPHA, tokenizer: str = 'jieba') -> ScoreFn:
    """The project's unified score as a :data:`ScoreFn` (means on a 0–100 scale, ``score`` = U)."""
    def fn(predictions: Sequence[str], references: Sequence[str]) -> Dict[str, float]:
        return aggregate(score_items(predictions, references, embedder, alpha=alpha, tokenizer=tokenizer))
    return fn


class _MemoEmbedder(Embedder):
    """An embedder that encodes each distinct text once: the derangements of a floor reuse the same references."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner.batch_size)
        self.inner, self.name, self.revision = inner, inner.name, inner.revision
        self._vectors: Dict[str, np.ndarray] = {}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if new:
            self._vectors.update(zip(new, self.inner.encode(new)))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])


#: Derangements and seed of the floor the evaluator records (``meta.floor``), as in bench/metric_floor.py.
RESULT_FLOOR_REPEATS, RESULT_FLOOR_SEED = 5, 0


def result_floor(references: Sequence[str], embedder: Optional[Embedder], alpha: float = DEFAULT_ALPHA,
                 tokenizer: str = 'jieba', repeats: int = RESULT_FLOOR_REPEATS,
                 seed: int = RESULT_FLOOR_SEED) -> Dict[str, Any]:
    """The floor of U over one result's own references, for its ``meta.floor`` (what the report marks).

    Same data, embedder, α and tokenizer as the score next to it, so the two can be read together.

    Returns:
        ``{'score': mean U, 'sd', 'n', 'repeats', 'seed'}``, or ``{'score': None, 'n', 'why'}`` when there is no
        floor (fewer than two references, too many identical ones): a missing floor is named, never 0.
    """
    memo = _MemoEmbedder(embedder) if embedder is not None else None
    try:
        found = metric_floor(references, unified_score_fn(memo, alpha, tokenizer), repeats=repeats, seed=seed,
                             keys=('score',))
    except FloorError as e:
        return {'score': None, 'n': len(references), 'why': str(e)}
    score = found['floor']['score']
    return {'score': score['mean'], 'sd': score['sd'], 'n': found['n'], 'repeats': repeats, 'seed': seed}
