"""Sentence-level BLEU-1..4 and ROUGE-1/2/L F1 on pre-tokenised text.

BLEU uses NLTK's ``sentence_bleu`` with smoothing method 1 (epsilon 0.1 for zero n-gram
matches) and the standard brevity penalty, as the upstream scorer does. ROUGE is computed
here (clipped n-gram overlap and LCS, F1 with beta = 1, no stemming or stop words) because
the ``rouge-score`` package drops all CJK characters with its default tokenizer.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Dict, Sequence, Tuple

#: Cumulative BLEU weights. BLEU-3 uses exact thirds; the upstream script used 0.33/0.33/0.34
#: (see ``UPSTREAM_BLEU_WEIGHTS``).
BLEU_WEIGHTS: Dict[int, Tuple[float, ...]] = {
    1: (1.0, 0.0, 0.0, 0.0),
    2: (0.5, 0.5, 0.0, 0.0),
    3: (1 / 3, 1 / 3, 1 / 3, 0.0),
    4: (0.25, 0.25, 0.25, 0.25),
}
UPSTREAM_BLEU_WEIGHTS: Dict[int, Tuple[float, ...]] = {**BLEU_WEIGHTS, 3: (0.33, 0.33, 0.34, 0.0)}


@lru_cache(maxsize=1)
def _nltk_bleu():
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    return sentence_bleu, SmoothingFunction().method1


def bleu_scores(hyp: Sequence[str], ref: Sequence[str],
                weights: Dict[int, Tuple[float, ...]] = BLEU_WEIGHTS) -> Dict[str, float]:
    """BLEU-1..4 of one hypothesis against one reference, each in [0, 1].

    An empty side scores 0. Identical non-empty token sequences score exactly 1 for every
    order: NLTK would otherwise smooth the missing 4-grams of a 3-token sentence into a
    penalty, which says nothing about quality.
    """
    if not hyp or not ref:
        return {f'bleu{n}': 0.0 for n in weights}
    if list(hyp) == list(ref):
        return {f'bleu{n}': 1.0 for n in weights}
    sentence_bleu, smooth = _nltk_bleu()
    return {f'bleu{n}': float(sentence_bleu([list(ref)], list(hyp), weights=w, smoothing_function=smooth))
            for n, w in weights.items()}


def _ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def _f1(overlap: float, n_hyp: int, n_ref: int) -> float:
    if overlap <= 0 or n_hyp == 0 or n_ref == 0:
        return 0.0
    p, r = overlap / n_hyp, overlap / n_ref
    return 2 * p * r / (p + r)


def rouge_n(hyp: Sequence[str], ref: Sequence[str], n: int) -> float:
    """ROUGE-N F1: clipped n-gram overlap; 0 when either side has fewer than ``n`` tokens."""
    h, r = _ngrams(hyp, n), _ngrams(ref, n)
    return _f1(sum((h & r).values()), sum(h.values()), sum(r.values()))


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence (O(len(a)·len(b)) time, O(len(b)) memory)."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, start=1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def rouge_l(hyp: Sequence[str], ref: Sequence[str]) -> float:
    """ROUGE-L F1 from the LCS of the two token sequences."""
    return _f1(lcs_length(hyp, ref), len(hyp), len(ref))


def rouge_scores(hyp: Sequence[str], ref: Sequence[str]) -> Dict[str, float]:
    """ROUGE-1, ROUGE-2 and ROUGE-L F1, each in [0, 1]."""
    return {'rouge1': rouge_n(hyp, ref, 1), 'rouge2': rouge_n(hyp, ref, 2), 'rougeL': rouge_l(hyp, ref)}
