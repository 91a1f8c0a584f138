# meta-llama/Llama-3.3-70B-Instruct served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Tensor parallel 4: bf16 weights (~140 GB) need four 80 GB GPUs for weights + KV cache; run_cfg.num_gpus must
# equal tensor_parallel_size.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='llama-3.3-70b-instruct-vllm@nosap',
        path='meta-llama/Llama-3.3-70B-Instruct',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=4, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=4),
    )
]
