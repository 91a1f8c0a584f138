"""The ladder's reference points through the real ``opencompass`` CLI: each reply is what it claims to be, and the
references score U 100 against themselves (the top of the ladder is where the metric says it is)."""
import json

import pytest

from opencompass_h2htalk.metrics.validity import GENERIC_CARING, last_input_block

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from .conftest import MINI_DATA

CONFIG = REPO / 'tests/pipeline/configs/reference_points.py'
DATASETS = ('h2htalk_dialogue_emotion', 'h2htalk_itinerary_feedback', 'h2htalk_recollection_refine')


@pytest.fixture(scope='module')
def ladder_run(tmp_path_factory):
    cwd = tmp_path_factory.mktemp('reference-points')
    run_opencompass(CONFIG, cwd, env={'H2HTALK_DATA': str(MINI_DATA), 'H2HTALK_ITEMS': '2'})
    return run_dir(cwd)


def _records(dataset):
    subtask = dataset.removeprefix('h2htalk_')
    with open(MINI_DATA / f'{subtask}.jsonl', encoding='utf-8') as f:
        return [json.loads(line) for line in f][:2]


def _results(run, model, dataset):
    path = run / 'results' / model / f'{dataset}.json'
    assert path.exists(), f'{path} missing\n{task_logs(run)}'
    return load_json(path)


def test_each_reference_point_replies_what_it_claims(ladder_run):
    for dataset in DATASETS:
        records = _records(dataset)
        preds = {m: [v['prediction'] for v in load_json(ladder_run / 'predictions' / m / f'{dataset}.json').values()]
                 for m in ('h2htalk-constant-reply', 'h2htalk-parrot-reply', 'h2htalk-reference-reply')}
        assert preds['h2htalk-constant-reply'] == [GENERIC_CARING] * 2
        assert preds['h2htalk-parrot-reply'] == [last_input_block(r['inputs']) for r in records]
        assert preds['h2htalk-reference-reply'] == [r['reference'] for r in records]


def test_references_score_100_and_sit_above_the_other_points(ladder_run):
    for dataset in DATASETS:
        top = _results(ladder_run, 'h2htalk-reference-reply', dataset)
        assert top['score'] == pytest.approx(100.0, abs=1e-6), dataset
        for model in ('h2htalk-constant-reply', 'h2htalk-parrot-reply'):
            assert _results(ladder_run, model, dataset)['score'] < 100.0, (model, dataset)
    summary = next((ladder_run / 'summary').glob('summary_*.md')).read_text()
    assert 'h2htalk-parrot-reply' in summary


def test_h2htalk_ladder_reads_the_real_results(ladder_run, capsys):
    """``h2htalk ladder`` on results the real evaluator wrote (one-item lists, checks, copy-free U): every table is
    filled; with 2 scenarios per subtask there is no interval, so no neighbour comparison gets a verdict."""
    from opencompass_h2htalk.cli import main

    order = 'h2htalk-parrot-reply,h2htalk-constant-reply,h2htalk-reference-reply'
    assert main(['ladder', str(ladder_run), '--order', order, '--resamples', '50']) == 0
    out = capsys.readouterr().out
    u = next(ln for ln in out.splitlines() if ln.startswith('| dialogue_emotion |'))   # the U table comes first
    assert u.endswith('| 100.0 [no interval] |'), u
    comp = next(ln for ln in out.splitlines() if ln.startswith('| h2htalk-reference-reply | 3 |'))
    assert comp.split('|')[3:12] == [' 100.0 '] * 9                             # BLEU-1..ROUGE-L, cos, U
    assert '#### Copy-free U' in out and '| itinerary_feedback |' in out
    assert 'holds in 0 of 0 neighbour comparisons on U' in out
