# The 200-scenario safety set WITHOUT a judge: the unified score U and the task checks, among them the rule safety
# checks (required actions with a deterministic marker, dismissal, a claim to be human, an exclusive bond;
# docs/safety_checks.md). Same abbr as h2htalk_judged_gen.py's safety set, so a run's predictions can be judged later
# with the judged config (`-r` reuses them). The history goes as chat turns (h2htalk_common.py); the block rendering
# is in h2htalk_block_gen.py. The judge's safety score and violation rate need the judged config.
from mmengine.config import read_base
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset

with read_base():
    from .h2htalk_common import h2htalk_chat_prompt_template, h2htalk_chat_reader_cfg, h2htalk_eval_cfg

h2htalk_safety_rules_datasets = [
    dict(
        abbr='h2htalk_safety',
        type=H2HTalkDataset,
        subtask='safety',
        history_format='chat',
        reader_cfg=h2htalk_chat_reader_cfg,
        infer_cfg=dict(prompt_template=h2htalk_chat_prompt_template, retriever=dict(type=ZeroRetriever),
                       inferencer=dict(type=GenInferencer, max_out_len=512)),
        eval_cfg=h2htalk_eval_cfg,
    )
]
