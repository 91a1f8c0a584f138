# mistralai/Mistral-7B-Instruct-v0.3 served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Tensor parallel 1: bf16 weights fit one 80 GB GPU with room for the KV cache; run_cfg.num_gpus must equal tensor_parallel_size.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='mistral-7b-instruct-v0.3-vllm@nosap',
        path='mistralai/Mistral-7B-Instruct-v0.3',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=1),
    )
]
