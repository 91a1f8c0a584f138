"""Interrupt a run during inference (kill the driver and its tasks), resume with -r, and get exactly
the results of an uninterrupted run: no item missing, none duplicated, finished items not re-requested.

The kill point is deterministic: the server answers the first KILL_AFTER requests and holds the next one, so the
driver is killed while exactly KILL_AFTER predictions are saved and one request is in flight."""
import hashlib
import json
import os
import signal
import subprocess
import sys

import pytest

from ..conftest import OFFLINE_ENV, REPO, load_json, run_dir, run_opencompass, task_logs
from ..servers import GateAfter, RecordingChatServer
from ..tiny_model import build_tiny_chat_model

CONFIG = REPO / 'tests/pipeline/configs/resume_api.py'
MODEL = 'local-companion@sap-v1'
REPLIES = ['（点点头）我在听，慢慢说。', '听起来真不容易，想先从哪儿说起？', '嗯！这个主意不错，要不要试试看？',
           '（笑）你这么说我都不好意思了。', '今天辛苦啦，早点休息好吗？']
N_ITEMS = 24
KILL_AFTER = 5   # answered before the kill, all in the first dataset (12 items)


def reply(req):
    """Deterministic: the same request always gets the same answer."""
    user = req['messages'][-1]['content']
    return REPLIES[int(hashlib.sha256(user.encode()).hexdigest(), 16) % len(REPLIES)]


def _snapshot(run):
    out = {}
    for ds in ('h2htalk_dialogue_base', 'h2htalk_itinerary_feedback'):
        preds = load_json(run / 'predictions' / MODEL / f'{ds}.json')
        result = load_json(run / 'results' / MODEL / f'{ds}.json')
        # The task checks' pass rates are nested: compared exactly (same predictions, same checks), not by approx.
        # The copy-free U is a nested dict of scores (one-item list as OpenCompass stores it): compared by approx.
        nocopy = result.get('nocopy')
        out[ds] = ({k: (v['prediction'], v['gold']) for k, v in preds.items()},
                   {k: v for k, v in result.items() if k not in ('details', 'meta', 'checks', 'nocopy')},
                   result.get('checks'), nocopy[0] if isinstance(nocopy, list) else nocopy)
    return out


@pytest.fixture
def cwd_with_model(tmp_path):
    build_tiny_chat_model(str(tmp_path / 'tiny-model'))
    return tmp_path


def test_interrupted_then_resumed_equals_uninterrupted(cwd_with_model, tmp_path_factory, monkeypatch):
    # 1. Reference: an uninterrupted run.
    ref_dir = tmp_path_factory.mktemp('uninterrupted')
    os.symlink(cwd_with_model / 'tiny-model', ref_dir / 'tiny-model')
    with RecordingChatServer(reply) as server:
        monkeypatch.setenv('H2HTALK_TEST_PORT', str(server.port))
        run_opencompass(CONFIG, ref_dir)
        assert len(server.requests) == N_ITEMS
    expected = _snapshot(run_dir(ref_dir))

    # 2. The same run, killed (driver and task processes) while request KILL_AFTER + 1 is held by the server.
    cwd = cwd_with_model
    gate = GateAfter(KILL_AFTER, reply)
    with RecordingChatServer(gate) as server:
        monkeypatch.setenv('H2HTALK_TEST_PORT', str(server.port))
        env = {**os.environ, **OFFLINE_ENV}
        driver = subprocess.Popen([sys.executable, '-m', 'opencompass.cli.main', str(CONFIG), '-w', str(cwd / 'out')],
                                  cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        try:
            assert gate.holding.wait(timeout=300), 'the run never reached the kill point'
            assert driver.poll() is None, 'the run ended before it could be interrupted'
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait(timeout=30)
        finally:
            gate.release()  # the held handler answers a dead socket and ends
        first = len(server.requests)
        assert (first, gate.answered) == (KILL_AFTER + 1, KILL_AFTER)
        run = run_dir(cwd)
        assert not (run / 'results').exists() and not (run / 'predictions' / MODEL / 'h2htalk_dialogue_base.json').exists()
        partial = list((run / 'predictions' / MODEL).glob('tmp_*'))
        assert len(partial) == 1, partial
        saved = [int(json.loads(line)['idx']) for line in partial[0].read_text(encoding='utf-8').splitlines()]
        assert saved == list(range(KILL_AFTER)), saved

        # 3. Resume.
        run_opencompass(CONFIG, cwd, '-r')
        resumed = len(server.requests) - first
    assert run_dir(cwd) == run, 'resume must reuse the interrupted run folder'
    # Exactly the unanswered items are requested again: the held one and everything after it.
    assert resumed == N_ITEMS - KILL_AFTER, (first, resumed)
    got = _snapshot(run)
    for ds, (preds, metrics, checks, nocopy) in expected.items():
        assert sorted(got[ds][0], key=int) == [str(i) for i in range(12)], task_logs(run)  # none missing or extra
        assert got[ds][0] == preds
        assert got[ds][1] == pytest.approx(metrics)
        assert checks is not None and got[ds][2] == checks
        assert isinstance(nocopy, dict) and got[ds][3] == pytest.approx(nocopy)  # both datasets answer the user
