# Qwen/Qwen3-8B served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# Qwen3 is a hybrid thinking model: its chat template opens a <think> block unless enable_thinking=False, which
# Qwen's model card gives for chat. Thinking on is the separate config vllm_qwen3_8b_thinking_nosap.py.
# Tensor parallel 1: bf16 weights (~16 GB) fit one 80 GB GPU with room for the KV cache. Greedy decoding like the
# rest of the zoo (the card suggests temperature 0.7, top_p 0.8 in non-thinking mode; scores here must reproduce).
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='qwen3-8b-vllm@nosap',
        path='Qwen/Qwen3-8B',
        sap=None,
        chat_template_kwargs=dict(enable_thinking=False),  # chat as the authors recommend: no <think> block
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=8192),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=1),
    )
]
