# internlm/internlm3-8b-instruct served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_internlm3_8b_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_internlm3_8b_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='internlm3-8b-instruct-vllm@sap-v1', sap='v1', sap_language='zh')]
