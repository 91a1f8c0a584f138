"""Fixtures shared by the pipeline tests: one real demo run per session, reused by every test that reads it."""
import pytest

from ..conftest import REPO, run_dir, run_opencompass

MINI_DATA = REPO / 'tests/fixtures/h2htalk_mini'


@pytest.fixture(scope='session')
def demo_run(tmp_path_factory):
    """``(run folder, CompletedProcess)`` of the real ``opencompass`` CLI on the demo config and the mini data.

    Session-scoped so that the demo tests and the browser test of its report share one run (~40 s).
    Tests must not change the run folder (write elsewhere, e.g. ``report -o tmp_path/...``).
    """
    cwd = tmp_path_factory.mktemp('demo')
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv('H2HTALK_DATA', str(MINI_DATA))
        proc = run_opencompass(REPO / 'configs/eval/h2htalk_demo.py', cwd)
    return run_dir(cwd), proc
