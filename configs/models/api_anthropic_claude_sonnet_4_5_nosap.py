# Claude Sonnet 4.5 through Anthropic's OpenAI-compatible endpoint (a dated snapshot; extended thinking off, the
# endpoint's default).
# WITHOUT the Secure Attachment Persona (the ablation twin).
# The key is read in the task process from $ANTHROPIC_API_KEY (key='ENV:ANTHROPIC_API_KEY'); never write a key into a config.
# Token counting uses tiktoken's gpt-4 encoding unless tokenizer_path names a local HF tokenizer.
from opencompass_h2htalk.models import SAPOpenAISDK

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='claude-sonnet-4.5-api@nosap',
        path='claude-sonnet-4-5-20250929',
        sap=None,
        key='ENV:ANTHROPIC_API_KEY',
        openai_api_base='https://api.anthropic.com/v1/',
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=1024,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
