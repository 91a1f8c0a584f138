# mistralai/Mistral-7B-Instruct-v0.3 served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_mistral_7b_instruct_v0_3_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_mistral_7b_instruct_v0_3_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='mistral-7b-instruct-v0.3-vllm@sap-v1', sap='v1', sap_language='zh')]
