# mistralai/Mistral-Small-3.1-24B-Instruct-2503 served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Tensor parallel 1: bf16 weights (~48 GB) fit one 80 GB GPU with ~24 GB left for the KV cache. Prompts are
# rendered with the Hugging Face tokenizer's chat template, as for every vLLM model here (Mistral's own docs also
# show tokenizer_mode='mistral'; the wrapper needs apply_chat_template). Mistral suggests temperature 0.15; the
# zoo decodes greedily.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='mistral-small-3.1-24b-instruct-2503-vllm@nosap',
        path='mistralai/Mistral-Small-3.1-24B-Instruct-2503',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=1),
    )
]
