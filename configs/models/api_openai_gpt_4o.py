# GPT-4o (or any OpenAI-compatible endpoint) through OpenAISDK.
# The key is read from $OPENAI_API_KEY (key='ENV'); the endpoint from $OPENAI_BASE_URL when set.
# For a local vLLM server: path='<served model name>', openai_api_base='http://HOST:PORT/v1', key='EMPTY',
# and tokenizer_path='<local tokenizer dir>' (token counting; otherwise tiktoken needs the network).
from opencompass.models import OpenAISDK

models = [
    dict(
        type=OpenAISDK,
        abbr='gpt-4o-api',
        path='gpt-4o-2024-08-06',
        key='ENV',
        meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                  dict(role='BOT', api_role='BOT', generate=True)],
                           reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=1024,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
