from mmengine.config import read_base
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset

with read_base():
    from .h2htalk_common import h2htalk_eval_cfg, h2htalk_prompt_template, h2htalk_reader_cfg

h2htalk_recollection_synthesize_datasets = [
    dict(
        abbr='h2htalk_recollection_synthesize',
        type=H2HTalkDataset,
        subtask='recollection_synthesize',
        reader_cfg=h2htalk_reader_cfg,
        infer_cfg=dict(prompt_template=h2htalk_prompt_template, retriever=dict(type=ZeroRetriever),
                       inferencer=dict(type=GenInferencer, max_out_len=512)),
        eval_cfg=h2htalk_eval_cfg,
    )
]
