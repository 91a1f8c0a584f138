# google/gemma-3-27b-it served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_gemma3_27b_it_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_gemma3_27b_it_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='gemma-3-27b-it-vllm@sap-v1', sap='v1', sap_language='zh')]
