# zai-org/GLM-4.5-Air served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Mixture of experts, 106 B parameters, 12 B active; a hybrid thinking model run with thinking off
# (enable_thinking=False, Z.ai's switch for direct answers). Needs vLLM >= 0.10. Tensor parallel 4: bf16 weights
# (~212 GB) on four 80 GB GPUs (FP8: zai-org/GLM-4.5-Air-FP8 on two).
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='glm-4.5-air-vllm@nosap',
        path='zai-org/GLM-4.5-Air',
        sap=None,
        chat_template_kwargs=dict(enable_thinking=False),  # chat as the authors recommend: no <think> block
        model_kwargs=dict(tensor_parallel_size=4, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=4),
    )
]
