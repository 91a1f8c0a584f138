# Qwen2.5-Coder-0.5B-Instruct through transformers on the CPU, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin hf_qwen2_5_coder_0_5b_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .hf_qwen2_5_coder_0_5b_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen2.5-coder-0.5b-instruct-hf@sap-v1', sap='v1', sap_language='zh')]
