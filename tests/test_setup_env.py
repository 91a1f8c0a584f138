"""scripts/setup_env.sh reinstalls whenever what it installs from changes, and can take a CPU torch index.

Runs the script against a fake venv whose `pip` only records its arguments (nothing is installed)."""
import os
import shutil
import subprocess

import pytest

from .conftest import REPO

CPU_INDEX = 'https://download.pytorch.org/whl/cpu'


@pytest.fixture
def fake_repo(tmp_path):
    repo = tmp_path / 'repo'
    (repo / 'scripts').mkdir(parents=True)
    shutil.copy(REPO / 'setup.py', repo / 'setup.py')
    shutil.copy(REPO / 'scripts/setup_env.sh', repo / 'scripts/setup_env.sh')
    venv = tmp_path / 'venv'
    (venv / 'bin').mkdir(parents=True)
    for name, body in [('python', 'exit 0'), ('pip', f'echo "$*" >> "{tmp_path}/pip.log"')]:
        (venv / 'bin' / name).write_text(f'#!/bin/sh\n{body}\n')
        (venv / 'bin' / name).chmod(0o755)
    (venv / 'bin/activate').write_text(f'PATH="{venv}/bin:$PATH"\n')
    return repo, venv, tmp_path / 'pip.log'


def _setup(repo, venv, log, **env):
    """Runs setup_env.sh; returns the pip command lines of this run."""
    before = log.read_text().splitlines() if log.exists() else []
    run_env = {k: v for k, v in os.environ.items() if k != 'H2HTALK_TORCH_INDEX_URL'}
    proc = subprocess.run(['bash', str(repo / 'scripts/setup_env.sh')], env={**run_env, 'VENV': str(venv), **env},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return (log.read_text().splitlines() if log.exists() else [])[len(before):]


def test_stamp_covers_setup_py_the_script_and_pin_files(fake_repo):
    repo, venv, log = fake_repo
    assert _setup(repo, venv, log) == ['install -q torch==2.13.0', f'install -q -e {repo}[test]', 'check']
    assert _setup(repo, venv, log) == []  # nothing changed: the venv is reused
    for changed in ('setup.py', 'scripts/setup_env.sh', 'constraints.txt'):
        with open(repo / changed, 'a', encoding='utf-8') as f:
            f.write('\n# changed\n')
        assert _setup(repo, venv, log) != [], f'a changed {changed} reused the old venv'
        assert _setup(repo, venv, log) == []


def test_cpu_torch_index_is_opt_in(fake_repo):
    repo, venv, log = fake_repo
    _setup(repo, venv, log)
    calls = _setup(repo, venv, log, H2HTALK_TORCH_INDEX_URL=CPU_INDEX)  # a different index: reinstall
    assert calls[0] == f'install -q torch==2.13.0 --index-url {CPU_INDEX}'
    assert _setup(repo, venv, log, H2HTALK_TORCH_INDEX_URL=CPU_INDEX) == []


@pytest.fixture
def fake_suite(tmp_path):
    """A copy of scripts/test.sh beside stubs: setup_env.sh activates a venv whose `python` takes 1 s and exits with
    $FAKE_PYTEST_RC for pytest (0 for the background fetch), setup_vllm_env.sh sleeps $FAKE_BUILD_S and records."""
    repo = tmp_path / 'repo'
    (repo / 'scripts').mkdir(parents=True)
    shutil.copy(REPO / 'scripts/test.sh', repo / 'scripts/test.sh')
    venv = tmp_path / 'venv'
    (venv / 'bin').mkdir(parents=True)
    (venv / 'bin/python').write_text('#!/bin/sh\n[ "$2" = pytest ] && sleep 1 && exit "$FAKE_PYTEST_RC"\nexit 0\n')
    (venv / 'bin/python').chmod(0o755)
    (repo / 'scripts/setup_env.sh').write_text(f'PATH="{venv}/bin:$PATH"\n')
    (repo / 'scripts/setup_vllm_env.sh').write_text(f'sleep "$FAKE_BUILD_S"; echo built >> "{tmp_path}/built"\n')
    return repo, tmp_path


@pytest.mark.parametrize('pytest_rc, build_s, expected', [(0, '0', 0), (3, '0', 3), (5, '0', 1), (0, '30', 0)])
def test_the_suite_exits_with_pytest_status_whatever_the_background_build_did(fake_suite, pytest_rc, build_s,
                                                                            expected):
    # Regression: the EXIT trap killed the finished background build's process group; under `set -e` the failed
    # `kill` became the exit status, so a green suite exited 1.
    repo, tmp = fake_suite
    env = {**os.environ, 'FAKE_PYTEST_RC': str(pytest_rc), 'FAKE_BUILD_S': build_s}
    proc = subprocess.run(['bash', str(repo / 'scripts/test.sh')], env=env, capture_output=True, text=True,
                          timeout=20)
    assert proc.returncode == expected, proc.stdout + proc.stderr
    # A build still running at the end is stopped with the suite (30 s sleep, but the suite returned within 20 s).
    assert (tmp / 'built').exists() == (build_s == '0')
