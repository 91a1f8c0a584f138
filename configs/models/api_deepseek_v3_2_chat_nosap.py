# DeepSeek-V3.2 (671 B parameters, 37 B active) through DeepSeek's API in non-thinking mode ('deepseek-chat').
# Its weights (~690 GB in FP8) do not fit one node of 8 x 80 GB GPUs, so this is the route that fits; on
# H200 nodes, or across two nodes, serve the open weights yourself (`vllm serve deepseek-ai/DeepSeek-V3.2-Exp
# --tensor-parallel-size 8`) and point openai_api_base at it. The hosted model changes under its name: record the
# date of a run (the results meta keeps it). Thinking on: api_deepseek_v3_2_thinking_nosap.py.
# WITHOUT the Secure Attachment Persona (the ablation twin).
# The key is read in the task process from $DEEPSEEK_API_KEY (key='ENV:DEEPSEEK_API_KEY'); never write a key into a config.
# Token counting uses tiktoken's gpt-4 encoding unless tokenizer_path names a local HF tokenizer.
from opencompass_h2htalk.models import SAPOpenAISDK

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='deepseek-v3.2-chat-api@nosap',
        path='deepseek-chat',
        sap=None,
        key='ENV:DEEPSEEK_API_KEY',
        openai_api_base='https://api.deepseek.com/v1/',
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=1024,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
