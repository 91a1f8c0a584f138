"""The H2HTalk unified score, as pure functions.

For one prediction ``p`` and reference ``r``::

    U = 100 · ( α · mean(BLEU-1, BLEU-2, BLEU-3, BLEU-4, ROUGE-1, ROUGE-L) + (1 − α) · max(0, cos(e(p), e(r))) )

with α = 0.6 by default. The paper names these ingredients; the exact functional form is not
published, and this is the form this project fixes (see docs/deviations.md). Empty or non-string
predictions score 0 on every component and are counted in ``empty_rate``.
"""
from __future__ import annotations

import unicodedata
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Optional, Sequence

from .embedding import Embedder, paired_cosine
from .lexical import bleu_scores, rouge_scores
from .tokenize import tokenize, tokenizer_info

DEFAULT_ALPHA = 0.6
#: The lexical components averaged in the unified score.
LEXICAL_KEYS = ('bleu1', 'bleu2', 'bleu3', 'bleu4', 'rouge1', 'rougeL')
#: Every per-item component, in report order.
COMPONENT_KEYS = ('bleu1', 'bleu2', 'bleu3', 'bleu4', 'rouge1', 'rouge2', 'rougeL', 'cosine')


@dataclass
class ItemScore:
    """All components for one (prediction, reference) pair; values in [0, 1] except ``unified`` (0–100)."""

    bleu1: float
    bleu2: float
    bleu3: float
    bleu4: float
    rouge1: float
    rouge2: float
    rougeL: float
    cosine: float
    unified: float
    empty: bool

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)


def unified_score(components: Dict[str, float], alpha: float = DEFAULT_ALPHA) -> float:
    """Combines components (each in [0, 1]; cosine may be negative) into U on a 0–100 scale."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f'alpha must be in [0, 1], got {alpha}')
    lexical = sum(components[k] for k in LEXICAL_KEYS) / len(LEXICAL_KEYS)
    return 100.0 * (alpha * lexical + (1.0 - alpha) * max(0.0, components['cosine']))


def is_empty(prediction: Any) -> bool:
    """True for predictions that cannot be scored: non-strings and strings with no visible character
    (only whitespace and format characters such as the zero-width space U+200B)."""
    return not isinstance(prediction, str) or all(c.isspace() or unicodedata.category(c) == 'Cf' for c in prediction)


def score_items(predictions: Sequence[Any], references: Sequence[str], embedder: Optional[Embedder],
                alpha: float = DEFAULT_ALPHA, tokenizer: str = 'jieba') -> List[ItemScore]:
    """Scores each prediction against its reference.

    Args:
        predictions: Model outputs; non-strings and blank strings score 0.
        references: One reference per prediction.
        embedder: Embedder for the semantic term; ``None`` is allowed only when ``alpha == 1``.
        alpha: Weight of the lexical mean.
        tokenizer: ``'jieba'`` or ``'char'``.

    Returns:
        One :class:`ItemScore` per pair, in input order.
    """
    if len(predictions) != len(references):
        raise ValueError(f'{len(predictions)} predictions but {len(references)} references')
    if embedder is None and alpha != 1.0:
        raise ValueError('an embedder is required unless alpha == 1')
    live = [i for i, p in enumerate(predictions) if not is_empty(p)]
    cosines = {}
    if embedder is not None and live:
        sims = paired_cosine(embedder, [predictions[i].strip() for i in live], [references[i].strip() for i in live])
        cosines = {i: float(s) for i, s in zip(live, sims)}
    out: List[ItemScore] = []
    for i, (pred, ref) in enumerate(zip(predictions, references)):
        if is_empty(pred):
            out.append(ItemScore(*([0.0] * 9), empty=True))
            continue
        hyp_tok, ref_tok = tokenize(pred.strip(), tokenizer), tokenize(ref.strip(), tokenizer)
        comp = {**bleu_scores(hyp_tok, ref_tok), **rouge_scores(hyp_tok, ref_tok), 'cosine': cosines.get(i, 0.0)}
        out.append(ItemScore(**comp, unified=unified_score(comp, alpha), empty=False))
    return out


def aggregate(items: Sequence[ItemScore]) -> Dict[str, float]:
    """Means over items on a 0–100 scale: ``score`` (mean U), each component, and ``empty_rate``."""
    n = len(items)
    if n == 0:
        raise ValueError('cannot aggregate zero items')
    out = {'score': sum(it.unified for it in items) / n}
    for key in COMPONENT_KEYS:
        out[key] = 100.0 * sum(getattr(it, key) for it in items) / n
    out['empty_rate'] = 100.0 * sum(it.empty for it in items) / n
    return out


def scoring_metadata(embedder: Optional[Embedder], alpha: float, tokenizer: str) -> Dict[str, Any]:
    """What a score depends on, for the results file."""
    return {'alpha': alpha, 'tokenizer': tokenizer_info(tokenizer),
            'embedder': embedder.describe() if embedder is not None else None,
            'formula': 'U=100*(alpha*mean(bleu1..4,rouge1,rougeL)+(1-alpha)*max(0,cos))'}
