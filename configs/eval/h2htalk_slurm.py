# H2HTalk on a Slurm cluster: the GPU model zoo (every vLLM GPU config of configs/models/ with SAP, docs/zoo.md),
# inference sharded over a GPU budget with vLLM workers, evaluation unsplit. H2HTALK_SLURM_MODELS picks other configs
# by name or pattern, e.g. vllm_qwen2_5_7b_instruct_sap,vllm_qwen2_5_72b_instruct_sap (`h2htalk zoo` lists them).
#
#   sbatch slurm/driver.sbatch configs/eval/h2htalk_slurm.py       # driver on a CPU node (recommended)
#   opencompass configs/eval/h2htalk_slurm.py                      # or from a login node
#   h2htalk plan configs/eval/h2htalk_slurm.py                     # check the sharding first (--gpus N to try a budget)
#
# Sharding maths (GPUBudgetPartitioner): each model gets  workers = GPUS // run_cfg.num_gpus  workers, so with
# 64 GPUs a TP=1 7B model has 64 workers, a TP=4 72B model 16 and a TP=8 model 8. Each dataset larger than
# min_task_size is cut into at most `workers` chunks of at least min_task_size items (the last may be smaller),
# and chunks are dealt round-robin to the workers: on the bundled data (11 x 24 items -> 22 chunks) the 7B model
# runs as 22 one-GPU tasks and the 72B model as 16 four-GPU tasks. Every task loads the model once, so a
# larger min_task_size trades parallelism for fewer model loads. API models (0 GPUs) get api_workers tasks.
# SlurmRunner (not SlurmSequentialRunner, which serialises tasks on vanilla Slurm) submits each task with
# `srun -p PARTITION --gres=gpu:N -N1 ...`; max_num_workers caps concurrent sruns, Slurm queues the rest.
# H2HTALK_PARTITIONER=sweep uses SweepPartitioner instead: ONE budget of `gpus` shared by all models, each model's
# shard count chosen from the cost model (opencompass_h2htalk/planning/costmodel.py) so that the whole sweep ends
# soonest; its cost overrides go into `cost` below. `h2htalk plan` prints either partitioner's tasks and estimates.
# Evaluation uses NaivePartitioner: split results would break the summary.
# The subtasks that continue a conversation send its history as chat turns (the shipped default, docs/validity.md);
# for the paper's block format swap in configs/datasets/h2htalk/h2htalk_block_gen.py's datasets by abbr.
import os as __os  # double underscore: read the environment at parse time, keep the module out of the dump

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import SlurmRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.partitioners import GPUBudgetPartitioner, SweepPartitioner

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..summarizers.h2htalk import h2htalk_summarizer

# Whole-number settings are checked at load (opencompass_h2htalk/settings/env.py): a bad value stops the run with one
# line naming the variable. __import__: mmengine turns an import statement into a lazy object that cannot be called.
__env_int = __import__('opencompass_h2htalk.settings.env', fromlist=['env_int']).env_int
__HERE = 'configs/eval/h2htalk_slurm.py'

# ----------------------------------------------------------------------------------------------------------
# Cluster specifics: edit here or override from the environment (H2HTALK_SLURM_*).
slurm = dict(
    partition=__os.environ.get('H2HTALK_SLURM_PARTITION', 'gpu'),
    eval_partition=__os.environ.get('H2HTALK_SLURM_EVAL_PARTITION', __os.environ.get('H2HTALK_SLURM_PARTITION', 'gpu')),
    gpus=__env_int('H2HTALK_SLURM_GPUS', 64, config=__HERE, setting='gpus'),  # GPU budget of one model's inference
    time=__os.environ.get('H2HTALK_SLURM_TIME', '04:00:00'),          # per task
    cpus_per_task=__env_int('H2HTALK_SLURM_CPUS_PER_TASK', 8, config=__HERE, setting='cpus_per_task'),
    account=__os.environ.get('H2HTALK_SLURM_ACCOUNT', ''),             # empty: no --account
    max_concurrent=__env_int('H2HTALK_SLURM_MAX_JOBS', 64, config=__HERE, setting='max_concurrent'),
    min_task_size=__env_int('H2HTALK_MIN_TASK_SIZE', 16, config=__HERE, setting='min_task_size'),
    api_workers=__env_int('H2HTALK_API_WORKERS', 8, config=__HERE, setting='api_workers'),  # tasks for API/CPU models
    embedder=__os.environ.get('H2HTALK_EMBEDDER', 'bge-m3'),            # e.g. bge-m3:/shared/models/bge-m3
    partitioner=__os.environ.get('H2HTALK_PARTITIONER', 'gpu_budget'),  # or 'sweep'
    gpus_per_node=__env_int('H2HTALK_SLURM_GPUS_PER_NODE', 8, config=__HERE, setting='gpus_per_node'),
    gpu_memory_gb=__env_int('H2HTALK_SLURM_GPU_MEMORY_GB', 80, config=__HERE, setting='gpu_memory_gb'),  # H200: 141
    # Comma-separated configs of configs/models/ (names without .py, patterns allowed) or 'zoo' (every vLLM GPU
    # config with SAP, the default).
    models=__os.environ.get('H2HTALK_SLURM_MODELS', '').strip() or 'zoo',
    cost=dict(),  # SweepPartitioner's cost overrides, e.g. dict(job_overhead_s=60, models={abbr: dict(load_s=90)})
)
# ----------------------------------------------------------------------------------------------------------
_extra = [f"--time={slurm['time']}", f"--cpus-per-task={slurm['cpus_per_task']}"] + (
    [f"--account={slurm['account']}"] if slurm['account'] else [])

datasets = [
    dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder=slurm['embedder'])))
    for d in h2htalk_datasets
]
# __file__: the model configs are found beside this folder wherever the repository (or slurm/sweep.sh's link) is.
models = __import__('opencompass_h2htalk.settings.models', fromlist=['select_models']).select_models(
    slurm['models'], __os.path.join(__os.path.dirname(__os.path.dirname(__os.path.abspath(__file__))), 'models'),
    config=__HERE)

_partitioners = dict(
    gpu_budget=dict(type=GPUBudgetPartitioner, gpus=slurm['gpus'], min_task_size=slurm['min_task_size'],
                    api_workers=slurm['api_workers'], gpus_per_node=slurm['gpus_per_node'],
                    gpu_memory_gb=slurm['gpu_memory_gb']),
    sweep=dict(type=SweepPartitioner, gpus=slurm['gpus'], api_workers=slurm['api_workers'], cost=slurm['cost'],
               gpus_per_node=slurm['gpus_per_node'], gpu_memory_gb=slurm['gpu_memory_gb']),
)
if slurm['partitioner'] not in _partitioners:
    raise ValueError(f"configs/eval/h2htalk_slurm.py: H2HTALK_PARTITIONER={slurm['partitioner']!r}; "
                     f'choose one of {sorted(_partitioners)}')
infer = dict(
    partitioner=_partitioners[slurm['partitioner']],
    runner=dict(type=SlurmRunner, partition=slurm['partition'], max_num_workers=slurm['max_concurrent'], retry=2,
                extra_command=_extra, task=dict(type=OpenICLInferTask)),
)
eval = dict(
    partitioner=dict(type=NaivePartitioner, n=len(datasets)),
    runner=dict(type=SlurmRunner, partition=slurm['eval_partition'], max_num_workers=16, retry=2,
                extra_command=_extra, task=dict(type=OpenICLEvalTask)),
)

summarizer = h2htalk_summarizer
work_dir = __os.environ.get('H2HTALK_WORK_DIR', 'outputs/h2htalk_slurm')
