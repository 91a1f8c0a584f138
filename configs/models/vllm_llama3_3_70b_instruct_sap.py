# meta-llama/Llama-3.3-70B-Instruct served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_llama3_3_70b_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_llama3_3_70b_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='llama-3.3-70b-instruct-vllm@sap-v1', sap='v1', sap_language='zh')]
