# GPT-4o through the OpenAI API (or any OpenAI-compatible endpoint: set openai_api_base).
# WITH the Secure Attachment Persona v1 (Chinese text); identical to api_openai_gpt_4o_nosap.py otherwise.
from mmengine.config import read_base

with read_base():
    from .api_openai_gpt_4o_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='gpt-4o-api@sap-v1', sap='v1', sap_language='zh')]
