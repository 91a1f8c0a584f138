# Qwen2.5-7B-Instruct through transformers, WITH the Secure Attachment Persona v1 (Chinese text).
from mmengine.config import read_base

with read_base():
    from .hf_qwen2_5_7b_instruct_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='qwen2.5-7b-instruct-hf@sap-v1', sap='v1', sap_language='zh')]
