# Qwen/Qwen3-8B served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_qwen3_8b_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_qwen3_8b_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen3-8b-vllm@sap-v1', sap='v1', sap_language='zh')]
