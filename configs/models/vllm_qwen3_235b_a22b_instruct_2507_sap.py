# Qwen/Qwen3-235B-A22B-Instruct-2507 served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_qwen3_235b_a22b_instruct_2507_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_qwen3_235b_a22b_instruct_2507_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen3-235b-a22b-instruct-2507-vllm@sap-v1', sap='v1', sap_language='zh')]
