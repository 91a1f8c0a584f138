# mistralai/Mistral-Small-3.1-24B-Instruct-2503 served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_mistral_small_3_1_24b_instruct_2503_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_mistral_small_3_1_24b_instruct_2503_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='mistral-small-3.1-24b-instruct-2503-vllm@sap-v1', sap='v1', sap_language='zh')]
