# Test config: the Qwen2.5-Coder-0.5B-Instruct twins of configs/eval/h2htalk_qwen_coder.py (backend from
# $H2HTALK_QWEN_CODER_BACKEND, model from $H2HTALK_QWEN_CODER_DIR), on the first $H2HTALK_ITEMS scenarios of the
# comma-separated $H2HTALK_TEST_SUBTASKS (default: every subtask), without the retrieval baseline. The SAP twin
# carries SAP v1 in Chinese, as shipped; replies are cut at MAX_OUT_LEN tokens to keep CPU time down.
import os as __os

from mmengine.config import read_base

with read_base():
    from ....configs.eval.h2htalk_qwen_coder import datasets, eval, infer, models, summarizer

MAX_OUT_LEN = 32
_subtasks = [s for s in __os.environ.get('H2HTALK_TEST_SUBTASKS', '').split(',') if s]
datasets = [dict(d, infer_cfg=dict(d['infer_cfg'], inferencer=dict(d['infer_cfg']['inferencer'],
                                                                     max_out_len=MAX_OUT_LEN)))
            for d in datasets if not _subtasks or d['abbr'].removeprefix('h2htalk_') in _subtasks]
models = [dict(m, max_out_len=MAX_OUT_LEN) for m in models if 'qwen2.5-coder' in m['abbr']]
infer = dict(infer, partitioner=dict(infer['partitioner'], n=len(datasets)))
eval = dict(eval, partitioner=dict(eval['partitioner'], n=len(datasets)))
