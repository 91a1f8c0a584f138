# The history as chat turns (history_format='chat', the default for the subtasks that continue a conversation;
# h2htalk_common.py). The block rendering, the paper's format: h2htalk_block_gen.py.
from mmengine.config import read_base
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset

with read_base():
    from .h2htalk_common import h2htalk_chat_prompt_template, h2htalk_chat_reader_cfg, h2htalk_eval_cfg

h2htalk_dialogue_base_datasets = [
    dict(
        abbr='h2htalk_dialogue_base',
        type=H2HTalkDataset,
        subtask='dialogue_base',
        history_format='chat',
        reader_cfg=h2htalk_chat_reader_cfg,
        infer_cfg=dict(prompt_template=h2htalk_chat_prompt_template, retriever=dict(type=ZeroRetriever),
                       inferencer=dict(type=GenInferencer, max_out_len=512)),
        eval_cfg=h2htalk_eval_cfg,
    )
]
