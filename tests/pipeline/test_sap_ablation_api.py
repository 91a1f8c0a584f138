"""Acceptance: the SAP ablation config, with an API model served on 127.0.0.1, runs end to end
(runner subprocesses) and its summary shows SAP and no-SAP columns side by side."""
import csv

import pytest

from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
from opencompass_h2htalk.sap import SEPARATOR, detect_sap, load_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from ..servers import RecordingChatServer
from ..tiny_model import build_tiny_chat_model

SAP = load_sap('v1', 'zh')
TWINS = ['local-companion@nosap', 'local-companion@sap-v1']


def reply(req):
    system = next((m['content'] for m in req['messages'] if m['role'] == 'system'), '')
    return '（认真地看着你）我在，慢慢说，我听着。' if detect_sap(system) else '嗯嗯，知道了。'


@pytest.fixture(scope='module')
def ablation(tmp_path_factory):
    cwd = tmp_path_factory.mktemp('ablation')
    build_tiny_chat_model(str(cwd / 'tiny-model'))  # tokenizer for OpenAISDK's token counting
    mp = pytest.MonkeyPatch()
    with RecordingChatServer(reply) as server:
        mp.setenv('H2HTALK_TEST_PORT', str(server.port))
        try:
            run_opencompass(REPO / 'tests/pipeline/configs/sap_ablation_api.py', cwd)
        finally:
            mp.undo()
    return run_dir(cwd), server.requests


def _one_system_then_turns(messages):
    """One system message first, then user/assistant turns that alternate and end with the user."""
    roles = [m['role'] for m in messages]
    return (roles[0] == 'system' and roles[-1] == 'user' and 'system' not in roles[1:]
            and all(a != b for a, b in zip(roles[1:], roles[2:])))


def test_server_received_sap_exactly_once_for_the_sap_twin_only(ablation):
    run, requests = ablation
    assert len(requests) == 2 * 2 * len(SUBTASKS), task_logs(run)
    with_sap = [r for r in requests if detect_sap(r['messages'])]
    without = [r for r in requests if not detect_sap(r['messages'])]
    assert len(with_sap) == len(without) == 2 * len(SUBTASKS)
    for req in with_sap:
        assert _one_system_then_turns(req['messages']) and detect_sap(req['messages']) == ['v1']
        assert req['messages'][0]['content'].startswith(SAP.text + SEPARATOR + '【角色设定】')
    for req in without:
        assert _one_system_then_turns(req['messages'])
        assert req['messages'][0]['content'].startswith('【角色设定】')
    # The conversation subtasks send their history as turns (the shipped default): both twins alike.
    multi_turn = [r for r in requests if 'assistant' in {m['role'] for m in r['messages']}]
    assert multi_turn and len([r for r in multi_turn if detect_sap(r['messages'])]) * 2 == len(multi_turn)
    assert {r['model'] for r in requests} == {'local-companion'} and all(r['temperature'] == 0.0 for r in requests)


def test_results_record_the_sap_the_model_received(ablation):
    run, _ = ablation
    for abbr, sap in zip(TWINS, (None, ['v1'])):
        meta = load_json(run / 'results' / abbr / 'h2htalk_dialogue_emotion.json')['meta'][0]
        assert meta['sap'] == sap


def test_summary_has_twins_side_by_side_with_table3_columns(ablation):
    run, _ = ablation
    csv_path = next((run / 'summary').glob('summary_*.csv'))
    with open(csv_path, encoding='utf-8') as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        rows = {r['dataset']: r for r in reader}
    assert header[-2:] == TWINS
    for name in ('h2htalk_overall_bleu4', 'h2htalk_overall_rougeL', 'h2htalk_overall', 'h2htalk_dialogue',
                 'h2htalk_itinerary_advanced'):
        values = [float(rows[name][t]) for t in TWINS]
        assert all(0 <= v <= 100 for v in values), (name, values)
    assert rows['h2htalk_overall']['metric'] == 'score' and rows['h2htalk_overall_bleu4']['metric'] == 'bleu4'
    # Different replies for the twins give different scores: the columns are not copies.
    assert rows['h2htalk_overall']['local-companion@nosap'] != rows['h2htalk_overall']['local-companion@sap-v1']


def test_compare_pairs_the_twins_of_the_real_run(ablation, capsys):
    from opencompass_h2htalk.cli import main

    run, _ = ablation
    assert main(['compare', str(run)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f'{TWINS[1]} − {TWINS[0]}: unified score U on the items both have')
    # Three blocks: U, the task checks, then the copy-free U of the subtasks that answer the user.
    u_block, rest = out.split(': task checks (pass rate', 1)
    checks_block, nocopy_block = rest.split(': copy-free U on the items both have', 1)
    rows = {ln.split(' | ')[0].strip(): ln.split(' | ') for ln in u_block.splitlines() if ' | ' in ln}
    for subtask in SUBTASKS:
        a, b = (load_json(run / 'results' / t / f'h2htalk_{subtask}.json')['details'] for t in TWINS)
        diff = sum(y['unified'][0] - x['unified'][0] for x, y in zip(a, b)) / len(a)
        row = rows[f'h2htalk_{subtask}']
        # A difference that rounds to zero prints as +0.00, never -0.00.
        assert row[1] == '2' and row[4] == f'{round(diff, 2) + 0.0:+.2f}' and row[-1] == 'no interval*', row
    # Dimensions and overall come from the run's own summarizer config (its weights).
    assert {'h2htalk_overall', 'h2htalk_dialogue', 'h2htalk_recollection', 'h2htalk_itinerary'} <= set(rows)
    # Said once per block, on one line, not once per row: the U block, then the task-checks block.
    notes = [line for line in u_block.splitlines() if 'too few to resample' in line]
    assert len(notes) == 1 and '(only 2 resampling unit(s) each)' in notes[0] and 'fewer than 10' in notes[0], notes
    assert sum('too few to resample' in line for line in checks_block.splitlines()) == 1
    assert 'h2htalk_itinerary_middle:checks_all' in checks_block
    nocopy_rows = {ln.split(' | ')[0].strip() for ln in nocopy_block.splitlines() if ' | ' in ln}
    assert {'h2htalk_dialogue_base', 'h2htalk_itinerary_feedback'} <= nocopy_rows
    assert 'h2htalk_itinerary_middle' not in nocopy_rows  # using its inputs is the task: no copy-free U


def test_summary_lists_intervals_or_says_why_not(ablation):
    run, _ = ablation
    txt = next((run / 'summary').glob('summary_*.txt')).read_text(encoding='utf-8')
    assert 'Score intervals (95 %, scenario bootstrap, percentile, 1000 resamples, seed 0' in txt
    with open(next((run / 'summary').glob('intervals_*.csv')), encoding='utf-8') as f:
        rows = {(r['dataset'], r['model']): r for r in csv.DictReader(f)}
    for name in ['h2htalk_overall'] + [f'h2htalk_{s}' for s in SUBTASKS]:
        for twin in TWINS:
            # Two scenarios per subtask: too few to resample, so a warning and no bounds (never a made-up number).
            assert rows[name, twin]['ci_low'] == '' and 'too few' in rows[name, twin]['warning'], (name, twin)
    meta = load_json(run / 'results' / TWINS[0] / 'h2htalk_dialogue_base.json')['meta'][0]
    assert meta['ci']['resamples'] == 1000 and 'ci_low' not in load_json(
        run / 'results' / TWINS[0] / 'h2htalk_dialogue_base.json')
