# GPT-4.1 through the OpenAI API (or any OpenAI-compatible endpoint: set openai_api_base). A dated snapshot,
# so that a later run asks the same model.
# WITHOUT the Secure Attachment Persona (the ablation twin).
# The key is read in the task process from $OPENAI_API_KEY (key='ENV:OPENAI_API_KEY'); never write a key into a config.
# Token counting uses tiktoken's gpt-4 encoding unless tokenizer_path names a local HF tokenizer.
from opencompass_h2htalk.models import SAPOpenAISDK

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='gpt-4.1-api@nosap',
        path='gpt-4.1-2025-04-14',
        sap=None,
        key='ENV:OPENAI_API_KEY',
        openai_api_base='https://api.openai.com/v1/',
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=1024,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
