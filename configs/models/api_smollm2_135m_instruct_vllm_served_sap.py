# SmolLM2-135M-Instruct served by vLLM's OpenAI-compatible server, WITH the Secure Attachment Persona v1 (Chinese).
# Identical to its twin api_smollm2_135m_instruct_vllm_served_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .api_smollm2_135m_instruct_vllm_served_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='smollm2-135m-instruct-vllm-served@sap-v1', sap='v1', sap_language='zh')]
