# Judged H2HTalk sets: the 5 itinerary subtasks scored by the rubric judge (plus the unified metrics; same
# abbrs as the core configs, so predictions are shared), the 200-scenario safety set and the three
# instruction-following probe subsets (150 scenarios each). itinerary_feedback, the safety set and the probes
# continue a conversation and send its history as chat turns (history_format='chat', h2htalk_common.py); their block
# rendering, the paper's format, is h2htalk_block_gen.h2htalk_block_judged_datasets.
#
# The judge (h2htalk_judge_cfg): GPT-4o through OpenAISDK by default, set by environment variables read when the
# config is loaded:
#   OC_JUDGE_MODEL           model name (default gpt-4o-2024-08-06)
#   OC_JUDGE_API_BASE        OpenAI-compatible base URL (default $OPENAI_BASE_URL or https://api.openai.com/v1/)
#   OC_JUDGE_API_KEY         the key (default $OPENAI_API_KEY); only its variable NAME goes into the config
#                            ('ENV:OC_JUDGE_API_KEY'), the evaluator reads the value in the task process, so the
#                            config OpenCompass dumps into the run folder holds no key
#   OC_JUDGE_TOKENIZER_PATH  local tokenizer for token counting (otherwise tiktoken, which downloads once)
# The model name and base URL are recorded in the dumped config. To use another judge (e.g. an open model on your
# own vLLM server), set the variables, or replace h2htalk_judge_cfg with any OpenCompass model config. Note:
# OpenCompass 0.5.4's eval task reads judge_cfg.run_cfg, so judge_cfg must be a dict (None crashes the task).
import os as __os  # double underscore: mmengine keeps the module out of the dumped config

from mmengine.config import read_base
from opencompass.models import OpenAISDK
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

from opencompass_h2htalk.datasets import H2HTalkDataset
from opencompass_h2htalk.evaluators import H2HTalkJudgeEvaluator
from opencompass_h2htalk.postprocessors import strip_reasoning

with read_base():
    from .h2htalk_common import (h2htalk_chat_prompt_template, h2htalk_chat_reader_cfg, h2htalk_prompt_template,
                                 h2htalk_reader_cfg)

# Keep in step with opencompass_h2htalk.evaluators.judge.default_judge_cfg
# (tests/evaluators/test_judge_evaluator.py checks that the two agree).
h2htalk_judge_cfg = dict(
    type=OpenAISDK, abbr='judge', path=__os.environ.get('OC_JUDGE_MODEL', 'gpt-4o-2024-08-06'),
    key='ENV:OC_JUDGE_API_KEY' if __os.environ.get('OC_JUDGE_API_KEY') else 'ENV:OPENAI_API_KEY',
    openai_api_base=(__os.environ.get('OC_JUDGE_API_BASE')
                     or __os.environ.get('OPENAI_BASE_URL', 'https://api.openai.com/v1/')),
    tokenizer_path=__os.environ.get('OC_JUDGE_TOKENIZER_PATH') or None,
    meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)]),
    query_per_second=4, retry=3, timeout=120, temperature=0.0, max_seq_len=32768, max_out_len=1024,
    run_cfg=dict(num_gpus=0))

h2htalk_judge_eval_cfg = dict(
    evaluator=dict(type=H2HTalkJudgeEvaluator, judge_cfg=h2htalk_judge_cfg, language='zh', max_retries=2,
                   review_threshold=3.5, parse_rate_floor=0.9, alpha=0.6, embedder='bge-m3', tokenizer='jieba'),
    pred_postprocessor=dict(type=strip_reasoning),
)

_long = ('itinerary_basic', 'itinerary_middle', 'itinerary_advanced')
_chat = dict(history_format='chat', reader_cfg=h2htalk_chat_reader_cfg)
h2htalk_itinerary_judged_datasets = [
    dict(abbr=f'h2htalk_{s}', type=H2HTalkDataset, subtask=s,
         **(_chat if s == 'itinerary_feedback' else dict(reader_cfg=h2htalk_reader_cfg)),
         infer_cfg=dict(prompt_template=(h2htalk_chat_prompt_template if s == 'itinerary_feedback'
                                         else h2htalk_prompt_template),
                        retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=1024 if s in _long else 512)),
         eval_cfg=h2htalk_judge_eval_cfg)
    for s in ('itinerary_basic', 'itinerary_middle', 'itinerary_advanced', 'itinerary_feedback',
              'itinerary_initialize')
]
h2htalk_safety_datasets = [
    dict(abbr='h2htalk_safety', type=H2HTalkDataset, subtask='safety', **_chat,
         infer_cfg=dict(prompt_template=h2htalk_chat_prompt_template, retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=512)),
         eval_cfg=h2htalk_judge_eval_cfg)
]
h2htalk_probe_datasets = [
    dict(abbr=f'h2htalk_probe_{c}', type=H2HTalkDataset, subtask=f'probe_{c}', **_chat,
         infer_cfg=dict(prompt_template=h2htalk_chat_prompt_template, retriever=dict(type=ZeroRetriever),
                        inferencer=dict(type=GenInferencer, max_out_len=512)),
         eval_cfg=h2htalk_judge_eval_cfg)
    for c in ('implicit_help', 'ambiguous', 'context_aware')
]
