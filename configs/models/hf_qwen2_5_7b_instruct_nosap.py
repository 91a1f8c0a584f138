# Qwen2.5-7B-Instruct through transformers (HuggingFacewithChatTemplate), one GPU, WITHOUT SAP.
from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate

models = [
    dict(
        type=SAPHuggingFacewithChatTemplate,
        abbr='qwen2.5-7b-instruct-hf@nosap',
        path='Qwen/Qwen2.5-7B-Instruct',
        sap=None,
        model_kwargs=dict(torch_dtype='bfloat16'),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=16,
        run_cfg=dict(num_gpus=1),
    )
]
