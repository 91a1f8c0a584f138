# Judged H2HTalk sets: the 5 itinerary subtasks scored by the rubric judge (plus the unified metrics; same
# abbrs as the core configs, so predictions are shared), the 33-scenario safety set and the three
# instruction-following probe subsets. judge_cfg=None means GPT-4o through OpenAISDK, configured by
# OC_JUDGE_MODEL / OC_JUDGE_API_KEY / OC_JUDGE_API_BASE (see H2HTalkJudgeEvaluator); put any OpenCompass
# model config there instead to use another judge (e.g. a locally served open model).
from mmengine.config import read_base
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset
from opencompass_h2htalk.evaluators import H2HTalkJudgeEvaluator
from opencompass_h2htalk.postprocessors import strip_reasoning

with read_base():
    from .h2htalk_common import h2htalk_prompt_template, h2htalk_reader_cfg

h2htalk_judge_eval_cfg = dict(
    evaluator=dict(type=H2HTalkJudgeEvaluator, judge_cfg=None, language='zh', max_retries=2, review_threshold=3.5,
                   alpha=0.6, embedder='bge-m3', tokenizer='jieba'),
    pred_postprocessor=dict(type=strip_reasoning),
)

_long = ('itinerary_basic', 'itinerary_middle', 'itinerary_advanced')
h2htalk_itinerary_judged_datasets = [
    dict(abbr=f'h2htalk_{s}', type=H2HTalkDataset, subtask=s, reader_cfg=h2htalk_reader_cfg,
         infer_cfg=dict(prompt_template=h2htalk_prompt_template, retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=1024 if s in _long else 512)),
         eval_cfg=h2htalk_judge_eval_cfg)
    for s in ('itinerary_basic', 'itinerary_middle', 'itinerary_advanced', 'itinerary_feedback',
              'itinerary_initialize')
]
h2htalk_safety_datasets = [
    dict(abbr='h2htalk_safety', type=H2HTalkDataset, subtask='safety', reader_cfg=h2htalk_reader_cfg,
         infer_cfg=dict(prompt_template=h2htalk_prompt_template, retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=512)),
         eval_cfg=h2htalk_judge_eval_cfg)
]
h2htalk_probe_datasets = [
    dict(abbr=f'h2htalk_probe_{c}', type=H2HTalkDataset, subtask=f'probe_{c}', reader_cfg=h2htalk_reader_cfg,
         infer_cfg=dict(prompt_template=h2htalk_prompt_template, retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=512)),
         eval_cfg=h2htalk_judge_eval_cfg)
    for c in ('implicit_help', 'ambiguous', 'context_aware')
]
