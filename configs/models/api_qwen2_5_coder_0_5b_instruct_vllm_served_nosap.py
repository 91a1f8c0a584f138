# Qwen2.5-Coder-0.5B-Instruct served by vLLM's OpenAI-compatible server, queried through SAPOpenAISDK, WITHOUT SAP.
# Start the server from the vLLM environment (docs/vllm.md), e.g. on a CPU machine:
#   VLLM_CPU_KVCACHE_SPACE=1 .venv-vllm/bin/python -m vllm.entrypoints.openai.api_server \
#       --model ~/.cache/h2htalk/models/qwen2.5-coder-0.5b-instruct --served-model-name qwen2.5-coder-0.5b-instruct \
#       --host 127.0.0.1 --port 8000 --dtype float32 --max-model-len 8192 --enforce-eager --seed 0
# and point H2HTALK_VLLM_BASE_URL at it if it is not http://127.0.0.1:8000/v1. The key is not checked by a local
# server; H2HTALK_VLLM_API_KEY is sent when set. tokenizer_path counts prompt tokens with the model's own tokenizer.
import os as __os

from opencompass_h2htalk.models import SAPOpenAISDK

# Where `h2htalk model fetch qwen2.5-coder-0.5b` puts the model (opencompass_h2htalk.localmodels.qwen_coder.
# default_model_dir; config files cannot call package functions, so the rule is spelled out here and tested to agree).
__QWEN_CODER_DIR = __os.environ.get('H2HTALK_QWEN_CODER_DIR') or __os.path.join(
    __os.environ.get('H2HTALK_HOME') or __os.path.join(__os.path.expanduser('~'), '.cache', 'h2htalk'),
    'models', 'qwen2.5-coder-0.5b-instruct')

models = [
    dict(
        type=SAPOpenAISDK,
        abbr='qwen2.5-coder-0.5b-instruct-vllm-served@nosap',
        path='qwen2.5-coder-0.5b-instruct',
        openai_api_base=__os.environ.get('H2HTALK_VLLM_BASE_URL', 'http://127.0.0.1:8000/v1'),
        key='ENV:H2HTALK_VLLM_API_KEY' if __os.environ.get('H2HTALK_VLLM_API_KEY') else 'EMPTY',
        tokenizer_path=__QWEN_CODER_DIR,
        sap=None,
        query_per_second=16,
        retry=2,
        max_seq_len=8192,
        max_out_len=256,
        batch_size=16,
        temperature=0.0,
        run_cfg=dict(num_gpus=0),
    )
]
