# The three instruction-following probe subsets (150 scenarios each) WITHOUT a judge: the unified score U and the
# task checks (the probes' length and form constraints, docs/checks.md). Same abbrs as h2htalk_judged_gen.py's
# probes, so a run's predictions can be judged later with the judged config (`-r` reuses them); whether each probe's
# need was met (need_met) is the judge's. The history goes as chat turns (h2htalk_common.py); the block rendering is
# in h2htalk_block_gen.py.
from mmengine.config import read_base
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset

with read_base():
    from .h2htalk_common import h2htalk_chat_prompt_template, h2htalk_chat_reader_cfg, h2htalk_eval_cfg

h2htalk_probe_rules_datasets = [
    dict(
        abbr=f'h2htalk_probe_{c}',
        type=H2HTalkDataset,
        subtask=f'probe_{c}',
        history_format='chat',
        reader_cfg=h2htalk_chat_reader_cfg,
        infer_cfg=dict(prompt_template=h2htalk_chat_prompt_template, retriever=dict(type=ZeroRetriever),
                       inferencer=dict(type=GenInferencer, max_out_len=512)),
        eval_cfg=h2htalk_eval_cfg,
    )
    for c in ('implicit_help', 'ambiguous', 'context_aware')
]
