# Qwen/Qwen3-235B-A22B-Instruct-2507 served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# WHOLE NODE. Mixture of experts, 235 B parameters of which 22 B are active per token; the 2507 Instruct release
# never thinks (no switch needed). Tensor parallel 8: bf16 weights (~470 GB) fill most of 8 x 80 GB GPUs and
# leave ~100 GB for the KV cache; one task is one node, so plan and SweepPartitioner keep it whole unless its
# items pay for another load (each load reads 470 GB). On 4 GPUs use Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 with
# tensor_parallel_size=4 (~235 GB).
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='qwen3-235b-a22b-instruct-2507-vllm@nosap',
        path='Qwen/Qwen3-235B-A22B-Instruct-2507',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=8, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=8),
    )
]
