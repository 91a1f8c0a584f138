# google/gemma-2-27b-it served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Tensor parallel 2: bf16 weights (~65 GB) need two 80 GB GPUs for weights + KV cache; run_cfg.num_gpus must equal tensor_parallel_size.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='gemma-2-27b-it-vllm@nosap',
        path='google/gemma-2-27b-it',
        sap=None,
        fold_system=True,  # this chat template rejects a system role: system text goes into the first user turn
        model_kwargs=dict(tensor_parallel_size=2, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=2),
    )
]
