# deepseek-ai/DeepSeek-V2.5 served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_deepseek_v2_5_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_deepseek_v2_5_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='deepseek-v2.5-vllm@sap-v1', sap='v1', sap_language='zh')]
