# DeepSeek-V2.5 through an OpenAI-compatible endpoint. The hosted deepseek-chat model has moved on to newer versions, so for the paper's model serve the open weights yourself, e.g. `vllm serve deepseek-ai/DeepSeek-V2.5 --tensor-parallel-size 8 --trust-remote-code`, and point openai_api_base at it.
# WITHOUT the Secure Attachment Persona (the ablation twin).
# The key is read in the task process from $DEEPSEEK_API_KEY (key='ENV:DEEPSEEK_API_KEY'); never write a key into a config.
# Token counting uses tiktoken's gpt-4 encoding unless tokenizer_path names a local HF tokenizer.
from opencompass_h2htalk.models import SAPOpenAISDK

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='deepseek-v2.5-api@nosap',
        path='deepseek-ai/DeepSeek-V2.5',
        sap=None,
        key='ENV:DEEPSEEK_API_KEY',
        openai_api_base='http://127.0.0.1:8000/v1',
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=1024,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
