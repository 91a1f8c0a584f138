"""A tiny HF chat model, built locally at test time, through HuggingFacewithChatTemplate and the
SAP wrapper (with and without SAP), via the real CLI with runner subprocesses."""
import json

import pytest

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.sap import SEPARATOR, detect_sap, load_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from ..tiny_model import build_tiny_chat_model


def _roles(subtask, index):
    """The roles of the chat rendering of one scenario: SYSTEM, then the turns."""
    return [m['role'] for m in json.loads(load_rows(subtask, history_format='chat')[index]['messages'])]


@pytest.fixture(scope='module')
def tiny_run(tmp_path_factory):
    cwd = tmp_path_factory.mktemp('tiny-hf')
    build_tiny_chat_model(str(cwd / 'tiny-model'))  # the config reads ./tiny-model
    run_opencompass(REPO / 'tests/pipeline/configs/tiny_hf.py', cwd)
    return run_dir(cwd)


def test_tiny_hf_model_end_to_end(tiny_run):
    run = tiny_run
    for subtask in ('dialogue_base', 'itinerary_feedback'):
        res_path = run / 'results' / 'tiny-qwen2-random' / f'h2htalk_{subtask}.json'
        assert res_path.exists(), task_logs(run)
        result = load_json(res_path)
        preds = load_json(run / 'predictions' / 'tiny-qwen2-random' / f'h2htalk_{subtask}.json')
        assert len(preds) == 3 and len(result['details']) == 3
        # The chat template received a real system message carrying persona + instruction, then the conversation
        # as its turns (the shipped default for these subtasks), the latest user message last.
        prompt = preds['0']['origin_prompt']
        assert [turn['role'] for turn in prompt] == _roles(subtask, 0)
        assert prompt[0]['prompt'].startswith('【角色设定】') and '【任务】' in prompt[0]['prompt']
        assert '【对话记录】' not in json.dumps(prompt, ensure_ascii=False)
        assert isinstance(preds['0']['prediction'], str)
        # Random weights: low but well-defined scores.
        assert 0 <= result['score'] < 50
        assert result['meta'][0]['n'] == 3 and result['meta'][0]['sap'] is None


@pytest.mark.parametrize('abbr,expect_sap', [('tiny-qwen2-random@sap-v1', True), ('tiny-qwen2-random@nosap', False)])
def test_sap_wrapper_twins_end_to_end(tiny_run, abbr, expect_sap):
    """The SAP twin's prompts carry SAP exactly once, first in the system turn; the no-SAP twin's none."""
    run, sap = tiny_run, load_sap('v1', 'zh')
    res_path = run / 'results' / abbr / 'h2htalk_dialogue_base.json'
    assert res_path.exists(), task_logs(run)
    preds = load_json(run / 'predictions' / abbr / 'h2htalk_dialogue_base.json')
    for index, item in preds.items():
        prompt = item['origin_prompt']
        assert [t['role'] for t in prompt] == _roles('dialogue_base', int(index))
        assert detect_sap(prompt) == (['v1'] if expect_sap else [])
        assert prompt[0]['prompt'].startswith(sap.text + SEPARATOR + '【角色设定】') == expect_sap
    meta = load_json(res_path)['meta'][0]
    assert meta['sap'] == (['v1'] if expect_sap else None) and meta['sap_items'] == (3 if expect_sap else 0)
