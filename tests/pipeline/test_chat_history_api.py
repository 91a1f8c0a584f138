"""The chat rendering through the real ``opencompass`` CLI: an OpenAI-compatible server on 127.0.0.1 receives the
system message, the history as alternating turns and the latest message last (SAP once, in the system message, for
the SAP twin), and the results are scored with ``history_format: chat`` in their meta."""
import json

import pytest

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.prompts import prompt_hash
from opencompass_h2htalk.sap import SEPARATOR, detect_sap, load_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from ..servers import RecordingChatServer
from ..tiny_model import build_tiny_chat_model

CONFIG = REPO / 'tests/pipeline/configs/chat_history_api.py'
REPLY = '（放下手里的书）听起来你今天挺累的，要不要先歇一会儿？'
SUBTASKS = ('dialogue_base', 'itinerary_feedback')
TWINS = ('local-companion@nosap', 'local-companion@sap-v1')
CHATML_ROLE = {'SYSTEM': 'system', 'HUMAN': 'user', 'BOT': 'assistant'}


@pytest.fixture(scope='module')
def chat_run(tmp_path_factory):
    cwd = tmp_path_factory.mktemp('chat')
    build_tiny_chat_model(str(cwd / 'tiny-model'))
    with RecordingChatServer(lambda req: REPLY) as server, pytest.MonkeyPatch.context() as mp:
        mp.setenv('H2HTALK_TEST_PORT', str(server.port))
        proc = run_opencompass(CONFIG, cwd)
    return run_dir(cwd), proc, server.requests


def expected_messages():
    """Every chat prompt the server should receive, without SAP."""
    out = []
    for subtask in SUBTASKS:
        for row in load_rows(subtask, history_format='chat')[:2]:
            out.append([{'role': CHATML_ROLE[m['role']], 'content': m['prompt']} for m in json.loads(row['messages'])])
    return out


def test_the_server_receives_system_alternating_turns_and_the_latest_message_last(chat_run):
    run, _, requests = chat_run
    sap = load_sap('v1', 'zh').text
    key = lambda msgs: json.dumps(msgs, ensure_ascii=False, sort_keys=True)  # noqa: E731
    plain = expected_messages()
    with_sap = [[dict(m[0], content=sap + SEPARATOR + m[0]['content'])] + m[1:] for m in plain]
    assert sorted(key(r['messages']) for r in requests) == sorted(map(key, plain + with_sap)), task_logs(run)
    multi_turn = 0
    for req in requests:
        messages = req['messages']
        roles = [m['role'] for m in messages]
        assert roles[0] == 'system' and roles[-1] == 'user' and 'system' not in roles[1:]
        assert all(a != b for a, b in zip(roles[1:], roles[2:])) and all(m['content'].strip() for m in messages)
        assert '【对话记录】' not in key(messages)
        found = detect_sap(messages)
        assert found in ([], ['v1']) and (not found or sap in messages[0]['content'])
        multi_turn += 'assistant' in roles
    assert multi_turn == 4  # both twins, both dialogue_base items: the history went as turns


def test_results_are_scored_with_history_format_chat(chat_run):
    run, proc, _ = chat_run
    for model in TWINS:
        for subtask in SUBTASKS:
            path = run / 'results' / model / f'h2htalk_{subtask}.json'
            assert path.exists(), task_logs(run)
            result = load_json(path)
            meta = result['meta'][0]
            assert meta['history_format'] == 'chat' and meta['prompt_hash'] == prompt_hash(['zh'], 'chat')
            assert meta['sap'] == (['v1'] if model.endswith('sap-v1') else None) and meta['n'] == 2
            assert [d['pred'] for d in result['details']] == [[REPLY], [REPLY]]  # OpenCompass wraps detail values
    assert 'Run check: all 4 results present and valid.' in proc.stdout
