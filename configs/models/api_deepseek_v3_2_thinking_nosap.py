# THINKING ON: DeepSeek-V3.2 in thinking mode ('deepseek-reasoner'), the R1 line's successor. The API returns the
# reasoning as reasoning_content; OpenAISDK joins it to the reply with </think>, and the reasoning is stripped
# before scoring and judging (opencompass_h2htalk/postprocessors/reasoning.py). The reasoning counts towards
# max_out_len: a reply cut inside it counts as empty. Thinking off: api_deepseek_v3_2_chat_nosap.py.
# WITHOUT the Secure Attachment Persona (the ablation twin).
# The key is read in the task process from $DEEPSEEK_API_KEY (key='ENV:DEEPSEEK_API_KEY'); never write a key into a config.
# Token counting uses tiktoken's gpt-4 encoding unless tokenizer_path names a local HF tokenizer.
from opencompass_h2htalk.models import SAPOpenAISDK

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='deepseek-v3.2-thinking-api@nosap',
        path='deepseek-reasoner',
        sap=None,
        key='ENV:DEEPSEEK_API_KEY',
        openai_api_base='https://api.deepseek.com/v1/',
        query_per_second=2,
        retry=3,
        max_seq_len=16384,
        max_out_len=8192,
        batch_size=8,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
