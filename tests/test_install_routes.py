"""The install routes the docs give resolve: no extra that cannot coexist with the plugin's pins, and the documented
GPU vLLM environment's first step resolves to the versions docs/real_models.md names (``pip --dry-run --report``)."""
import json
import os
import re
import subprocess
import sys

import pytest

from .conftest import REPO

#: The GPU route's first step and what it must resolve to (docs/real_models.md).
GPU_STEP = ['vllm==0.33.0', 'ray']
EXPECTED = {'vllm': '0.33.0', 'torch': '2.14.0'}


def _setup_kwargs():
    """``install_requires`` and ``extras_require`` of setup.py, read without running it."""
    text = (REPO / 'setup.py').read_text(encoding='utf-8')
    requires = re.findall(r"'([^']+)'", text[text.index('INSTALL_REQUIRES = ['):text.index(']', text.index(
        'INSTALL_REQUIRES = ['))])
    extras_src = text[text.index('extras_require={'):text.index('},', text.index('extras_require={'))]
    extras = {name: re.findall(r"'([^']+)'", body) for name, body in re.findall(r"'(\w+)': \[([^\]]*)\]", extras_src)}
    return requires, extras


def test_no_extra_pulls_vllm_next_to_the_transformers_pin():
    """`pip install -e '.[vllm]'` could not resolve a current vLLM beside transformers<5 (issue 25)."""
    requires, extras = _setup_kwargs()
    assert any(r.startswith('transformers') and '<5' in r for r in requires), requires
    offenders = {name: deps for name, deps in extras.items() if any(re.match(r'vllm\b', d) for d in deps)}
    assert offenders == {}


def test_docs_give_the_gpu_route_this_test_resolves():
    text = (REPO / 'docs/real_models.md').read_text(encoding='utf-8')
    assert ".venv-vllm/bin/pip install 'vllm==0.33.0' ray" in text
    assert "'transformers>=5.16.1,<5.21'" in text


@pytest.mark.skipif(os.environ.get('H2HTALK_TEST_PIP_RESOLVE') != '1',
                    reason='downloads several GB of CUDA wheels to resolve; set H2HTALK_TEST_PIP_RESOLVE=1 to run')
def test_gpu_route_resolves_without_backtracking(tmp_path):
    report = tmp_path / 'report.json'
    proc = subprocess.run([sys.executable, '-m', 'pip', 'install', '--dry-run', '--ignore-installed',
                           '--only-binary=:all:', '--report', str(report), *GPU_STEP],
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    got = {item['metadata']['name'].lower(): item['metadata']['version']
           for item in json.loads(report.read_text())['install']}
    assert {k: got.get(k) for k in EXPECTED} == EXPECTED
    major, minor, patch = (int(x) for x in re.match(r'(\d+)\.(\d+)\.(\d+)', got['transformers']).groups())
    assert (5, 16, 1) <= (major, minor, patch) < (5, 21, 0), got['transformers']
