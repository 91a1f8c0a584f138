# Test config: slurm_demo.py with SweepPartitioner instead of GPUBudgetPartitioner: the CPU baseline's 66 items
# (6 per subtask) become 2 tasks of 33 items, so one dataset is cut into shards <abbr>_0/<abbr>_1 that the
# evaluation must merge; every task is submitted with real `srun -p debug`.
from mmengine.config import read_base

from opencompass_h2htalk.partitioners import SweepPartitioner

with read_base():
    from .slurm_demo import datasets, eval, infer, models, summarizer  # noqa: F401

infer = dict(infer, partitioner=dict(type=SweepPartitioner, gpus=1, api_workers=2))
