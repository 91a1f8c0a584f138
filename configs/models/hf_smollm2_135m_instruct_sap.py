# SmolLM2-135M-Instruct through transformers on the CPU, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin hf_smollm2_135m_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .hf_smollm2_135m_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='smollm2-135m-instruct-hf@sap-v1', sap='v1', sap_language='zh')]
