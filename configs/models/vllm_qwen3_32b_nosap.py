# Qwen/Qwen3-32B served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Hybrid thinking model, run with thinking off (enable_thinking=False) as Qwen's model card gives for chat.
# Tensor parallel 2: bf16 weights (~65 GB) leave too little of one 80 GB GPU for the KV cache.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='qwen3-32b-vllm@nosap',
        path='Qwen/Qwen3-32B',
        sap=None,
        chat_template_kwargs=dict(enable_thinking=False),  # chat as the authors recommend: no <think> block
        model_kwargs=dict(tensor_parallel_size=2, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=2),
    )
]
