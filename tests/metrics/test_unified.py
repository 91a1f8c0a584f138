"""Unified score: U = 100·(α·mean(BLEU-1..4, ROUGE-1, ROUGE-L) + (1−α)·max(0, cos))."""
import math

import numpy as np
import pytest

from opencompass_h2htalk.metrics.embedding import Embedder, paired_cosine
from opencompass_h2htalk.metrics.unified import aggregate, score_items, unified_score


class TableEmbedder(Embedder):
    """Deterministic embedder: a fixed vector per known text, counting calls."""

    name, revision = 'table', 'test'

    def __init__(self, table, batch_size=64):
        super().__init__(batch_size)
        self.table, self.calls = table, 0

    def _encode(self, texts):
        self.calls += 1
        return np.array([self.table[t] for t in texts], dtype=np.float32)


EMB = TableEmbedder({
    '我今天很开心': [1.0, 0.0],
    '我今天很难过': [0.5, math.sqrt(3) / 2],  # cos = 0.5 with the line above
    '走开': [-1.0, 0.0],  # cos = -1 with 我今天很开心
})


def test_identical_text_scores_100():
    items = score_items(['我今天很开心'], ['我今天很开心'], EMB)
    assert items[0].unified == pytest.approx(100.0)
    assert aggregate(items)['score'] == pytest.approx(100.0)


@pytest.mark.parametrize('pred', ['', '   \n', None, 42])
def test_empty_or_non_string_scores_zero_and_is_counted(pred):
    items = score_items([pred, '我今天很开心'], ['我今天很开心', '我今天很开心'], EMB)
    assert items[0].empty and items[0].unified == 0.0 and items[0].cosine == 0.0
    agg = aggregate(items)
    assert agg['empty_rate'] == 50.0 and agg['score'] == pytest.approx(50.0)


def test_worked_chinese_pair():
    lexical = (0.75 + math.sqrt(0.5) + 0.25 ** (1 / 3) + 0.025 ** 0.25 + 0.75 + 0.75) / 6
    item = score_items(['我今天很开心'], ['我今天很难过'], EMB, alpha=0.6)[0]
    assert item.cosine == pytest.approx(0.5, abs=1e-6)
    assert item.unified == pytest.approx(100 * (0.6 * lexical + 0.4 * 0.5), abs=1e-4)
    assert item.unified == pytest.approx(59.847, abs=1e-3)


def test_negative_cosine_is_clipped_in_u_but_reported():
    item = score_items(['走开'], ['我今天很开心'], EMB)[0]
    assert item.cosine == pytest.approx(-1.0)
    assert item.unified == pytest.approx(100 * 0.6 * 0.0)


def test_alpha_bounds_and_alpha_one_needs_no_embedder():
    with pytest.raises(ValueError):
        unified_score({k: 0 for k in ('bleu1', 'bleu2', 'bleu3', 'bleu4', 'rouge1', 'rougeL', 'cosine')}, alpha=1.5)
    item = score_items(['我今天很开心'], ['我今天很难过'], None, alpha=1.0)[0]
    assert item.cosine == 0.0 and item.unified > 0
    with pytest.raises(ValueError, match='embedder is required'):
        score_items(['a'], ['b'], None, alpha=0.6)


def test_embedding_is_batched_and_deduplicated():
    emb = TableEmbedder(EMB.table, batch_size=64)
    sims = paired_cosine(emb, ['我今天很开心'] * 50, ['我今天很难过'] * 50)
    assert emb.calls == 1  # two distinct texts, one batch
    assert np.allclose(sims, 0.5, atol=1e-6)


def test_length_mismatch():
    with pytest.raises(ValueError, match='2 predictions but 1 references'):
        score_items(['a', 'b'], ['a'], EMB)
