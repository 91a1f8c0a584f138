# SmolLM2-135M-Instruct through transformers (HuggingFacewithChatTemplate) on the CPU, WITHOUT SAP.
# Runs in the main environment (no vLLM needed). Build the model directory first: `h2htalk model fetch smollm2`.
import os as __os  # read the environment at parse time; double underscore keeps it out of the dump

from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate

# Where `h2htalk model fetch smollm2` puts the model (opencompass_h2htalk.localmodels.smollm2.default_model_dir;
# config files cannot call package functions, so the rule is spelled out here and tested to agree).
__SMOLLM2_DIR = __os.environ.get('H2HTALK_SMOLLM2_DIR') or __os.path.join(
    __os.environ.get('H2HTALK_HOME') or __os.path.join(__os.path.expanduser('~'), '.cache', 'h2htalk'),
    'models', 'smollm2-135m-instruct')

models = [
    dict(
        type=SAPHuggingFacewithChatTemplate,
        abbr='smollm2-135m-instruct-hf@nosap',
        path=__SMOLLM2_DIR,
        sap=None,
        model_kwargs=dict(device_map='cpu', torch_dtype='float32'),
        max_seq_len=8192,
        max_out_len=256,
        batch_size=4,
        generation_kwargs=dict(do_sample=False),
        run_cfg=dict(num_gpus=0),
    )
]
