# Qwen2.5-7B-Instruct through transformers (HuggingFacewithChatTemplate), one GPU.
from opencompass.models import HuggingFacewithChatTemplate

models = [
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='qwen2.5-7b-instruct-hf',
        path='Qwen/Qwen2.5-7B-Instruct',
        model_kwargs=dict(torch_dtype='bfloat16'),
        meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                  dict(role='BOT', api_role='BOT', generate=True)],
                           reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=16,
        run_cfg=dict(num_gpus=1),
    )
]
