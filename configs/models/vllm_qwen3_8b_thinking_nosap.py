# Qwen/Qwen3-8B served in-process by vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# THINKING ON: the model reasons in <think>...</think> before each reply. The reasoning is stripped before scoring
# and judging (opencompass_h2htalk/postprocessors/reasoning.py); a reply whose thinking never closes within
# max_out_len counts as empty. Reasoning tokens make this config several times slower and costlier than its
# thinking-off sibling vllm_qwen3_8b_nosap.py (the cost model adds REASONING_TOKENS per reply). Sampling as Qwen's
# model card asks for thinking mode (greedy decoding repeats itself endlessly there), with a fixed seed.
# Tensor parallel 1: bf16 weights (~16 GB) on one 80 GB GPU; a longer context holds the reasoning.
# `path` may be a hub name or a local directory (use a local directory on offline compute nodes).
from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='qwen3-8b-thinking-vllm@nosap',
        path='Qwen/Qwen3-8B',
        sap=None,
        chat_template_kwargs=dict(enable_thinking=True),
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=16384),
        max_seq_len=16384,
        max_out_len=8192,
        batch_size=128,
        generation_kwargs=dict(temperature=0.6, top_p=0.95, top_k=20, seed=42),
        run_cfg=dict(num_gpus=1),
    )
]
