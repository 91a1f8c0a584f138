"""Pure scoring functions (no OpenCompass import): tokenisation, BLEU/ROUGE, embeddings, unified score."""
from .lexical import bleu_scores, rouge_scores
from .tokenize import tokenize, tokenizer_info
from .unified import DEFAULT_ALPHA, ItemScore, aggregate, score_items, unified_score

__all__ = ['DEFAULT_ALPHA', 'ItemScore', 'aggregate', 'bleu_scores', 'rouge_scores', 'score_items', 'tokenize',
           'tokenizer_info', 'unified_score']
