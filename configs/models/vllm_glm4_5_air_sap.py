# zai-org/GLM-4.5-Air served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_glm4_5_air_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_glm4_5_air_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='glm-4.5-air-vllm@sap-v1', sap='v1', sap_language='zh')]
