# Qwen2.5-Coder-0.5B-Instruct served by vLLM's OpenAI-compatible server, WITH the Secure Attachment Persona v1
# (Chinese). Identical to its twin api_qwen2_5_coder_0_5b_instruct_vllm_served_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .api_qwen2_5_coder_0_5b_instruct_vllm_served_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen2.5-coder-0.5b-instruct-vllm-served@sap-v1', sap='v1', sap_language='zh')]
