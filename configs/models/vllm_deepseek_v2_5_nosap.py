# deepseek-ai/DeepSeek-V2.5 served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# WHOLE NODE. The paper's best model (overall 54.47), run locally from its open weights. Mixture of experts: 236 B
# parameters, 21 B active. Tensor parallel 8: bf16 weights (~472 GB) on 8 x 80 GB GPUs, ~100 GB left for the KV
# cache; its custom code is trusted (OpenCompass loads vLLM models with trust_remote_code=True). Served instead:
# api_deepseek_v2_5_chat_nosap.py.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='deepseek-v2.5-vllm@nosap',
        path='deepseek-ai/DeepSeek-V2.5',
        sap=None,
        model_kwargs=dict(tensor_parallel_size=8, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=8),
    )
]
