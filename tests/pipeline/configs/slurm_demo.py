# Test config: the demo (retrieval baseline, offline embedder) on 6 scenarios per subtask, inference sharded
# by GPUBudgetPartitioner into 2 tasks and evaluation in 1 task, all submitted with real `srun -p debug`.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import SlurmRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.partitioners import GPUBudgetPartitioner

with read_base():
    from ....configs.eval.h2htalk_demo import datasets as demo_datasets
    from ....configs.eval.h2htalk_demo import models, summarizer

datasets = [dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:6]')) for d in demo_datasets]

_srun = ['--cpus-per-task=1', '--time=00:20:00']
infer = dict(partitioner=dict(type=GPUBudgetPartitioner, gpus=1, api_workers=2, min_task_size=4),
             runner=dict(type=SlurmRunner, partition='debug', max_num_workers=2, retry=0, extra_command=_srun,
                         task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=SlurmRunner, partition='debug', max_num_workers=1, retry=0, extra_command=_srun,
                        task=dict(type=OpenICLEvalTask)))
