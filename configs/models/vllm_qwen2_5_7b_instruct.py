# Qwen2.5-7B-Instruct served in-process by vLLM (one 80 GB GPU).
# `path` may be a hub name or a local directory; on offline compute nodes use a local path.
from opencompass.models import VLLMwithChatTemplate

models = [
    dict(
        type=VLLMwithChatTemplate,
        abbr='qwen2.5-7b-instruct-vllm',
        path='Qwen/Qwen2.5-7B-Instruct',
        model_kwargs=dict(tensor_parallel_size=1, gpu_memory_utilization=0.9, max_model_len=8192),
        # Keep SYSTEM as a real system message (OpenCompass otherwise folds it into the user turn).
        meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                  dict(role='BOT', api_role='BOT', generate=True)],
                           reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=128,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=1),
    )
]
