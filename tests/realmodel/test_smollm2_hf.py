"""The real SmolLM2-135M-Instruct through SAPHuggingFacewithChatTemplate (transformers 4) in the main environment,
with the real ``opencompass`` CLI: SAP and no-SAP twins as shipped in configs/eval/h2htalk_smollm2.py, on one
scenario of one subtask per dimension (transformers on a CPU prefills slower than vLLM; the vLLM tests cover all 11)."""
import json

import pytest

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.prompts import CHAT_SUBTASKS
from opencompass_h2htalk.sap import detect_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs

SUBTASKS = ['dialogue_base', 'recollection_refine', 'itinerary_feedback']
TWINS = {'smollm2-135m-instruct-hf@nosap': [], 'smollm2-135m-instruct-hf@sap-v1': ['v1']}


@pytest.fixture(scope='module')
def hf_run(tmp_path_factory, smollm2_dir):
    cwd = tmp_path_factory.mktemp('smollm2-hf')
    run_opencompass(REPO / 'tests/pipeline/configs/smollm2_slice.py', cwd, timeout=1200,
                    env={'H2HTALK_SMOLLM2_DIR': str(smollm2_dir), 'H2HTALK_SMOLLM2_BACKEND': 'hf',
                         'H2HTALK_ITEMS': '1', 'H2HTALK_TEST_SUBTASKS': ','.join(SUBTASKS)})
    return run_dir(cwd)


@pytest.mark.parametrize('abbr', sorted(TWINS))
def test_hf_twins_end_to_end(hf_run, abbr):
    for subtask in SUBTASKS:
        res_path = hf_run / 'results' / abbr / f'h2htalk_{subtask}.json'
        assert res_path.exists(), task_logs(hf_run)
        result = load_json(res_path)
        assert 0.0 <= result['score'] <= 100.0 and result['meta'][0]['n'] == 1
        item = load_json(hf_run / 'predictions' / abbr / f'h2htalk_{subtask}.json')['0']
        assert detect_sap(item['origin_prompt']) == TWINS[abbr]
        # SYSTEM first, then one HUMAN turn (the block subtask) or the conversation's turns ending with HUMAN.
        roles = [turn['role'] for turn in item['origin_prompt']]
        expected = ([m['role'] for m in json.loads(load_rows(subtask, history_format='chat')[0]['messages'])]
                    if subtask in CHAT_SUBTASKS else ['SYSTEM', 'HUMAN'])
        assert roles == expected, subtask
        # The rebuilt tokenizer decodes real text: no byte-level markers, not empty.
        assert item['prediction'].strip() and 'Ġ' not in item['prediction'] and 'Ċ' not in item['prediction']
