# deepseek-reasoner through its API, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin api_deepseek_v3_2_thinking_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .api_deepseek_v3_2_thinking_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='deepseek-v3.2-thinking-api@sap-v1', sap='v1', sap_language='zh')]
