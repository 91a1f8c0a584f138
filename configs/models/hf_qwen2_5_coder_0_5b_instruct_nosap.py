# Qwen2.5-Coder-0.5B-Instruct through transformers (HuggingFacewithChatTemplate) on the CPU, WITHOUT SAP.
# Runs in the main environment (no vLLM needed). Build the model directory first:
#   h2htalk model fetch qwen2.5-coder-0.5b
# bf16, as fetched: on 2 CPU cores it prefills ~465 and writes ~17 tokens/s (fp32: 171 and 8; issue 24).
import os as __os  # read the environment at parse time; double underscore keeps it out of the dump

from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate

# Where `h2htalk model fetch qwen2.5-coder-0.5b` puts the model (opencompass_h2htalk.localmodels.qwen_coder.
# default_model_dir; config files cannot call package functions, so the rule is spelled out here and tested to agree).
__QWEN_CODER_DIR = __os.environ.get('H2HTALK_QWEN_CODER_DIR') or __os.path.join(
    __os.environ.get('H2HTALK_HOME') or __os.path.join(__os.path.expanduser('~'), '.cache', 'h2htalk'),
    'models', 'qwen2.5-coder-0.5b-instruct')

models = [
    dict(
        type=SAPHuggingFacewithChatTemplate,
        abbr='qwen2.5-coder-0.5b-instruct-hf@nosap',
        path=__QWEN_CODER_DIR,
        sap=None,
        model_kwargs=dict(device_map='cpu', torch_dtype='bfloat16'),
        max_seq_len=8192,
        max_out_len=256,
        batch_size=4,
        generation_kwargs=dict(do_sample=False),
        run_cfg=dict(num_gpus=0),
    )
]
