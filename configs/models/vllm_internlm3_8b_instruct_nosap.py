# internlm/internlm3-8b-instruct served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Custom model code, trusted (OpenCompass loads vLLM models with trust_remote_code=True).
# Tensor parallel 1: bf16 weights (~18 GB) fit one 80 GB GPU with room for the KV cache.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='internlm3-8b-instruct-vllm@nosap',
        path='internlm/internlm3-8b-instruct',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=1),
    )
]
