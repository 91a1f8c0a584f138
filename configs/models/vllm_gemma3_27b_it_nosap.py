# google/gemma-3-27b-it served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Gemma 3's chat template takes a system turn (it prepends it to the first user turn itself), so no fold_system.
# The checkpoint carries a vision tower that vLLM loads too; text-only prompts leave it idle.
# Tensor parallel 2: bf16 weights (~55 GB) leave too little of one 80 GB GPU for the KV cache.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='gemma-3-27b-it-vllm@nosap',
        path='google/gemma-3-27b-it',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=2, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=2),
    )
]
