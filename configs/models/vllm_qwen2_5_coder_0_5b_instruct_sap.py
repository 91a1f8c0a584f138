# Qwen2.5-Coder-0.5B-Instruct in-process in vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_qwen2_5_coder_0_5b_instruct_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_qwen2_5_coder_0_5b_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen2.5-coder-0.5b-instruct-vllm@sap-v1', sap='v1', sap_language='zh')]
