# gpt-4.1-2025-04-14 through its API, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin api_openai_gpt_4_1_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .api_openai_gpt_4_1_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='gpt-4.1-api@sap-v1', sap='v1', sap_language='zh')]
