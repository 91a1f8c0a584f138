# Claude 3.7 Sonnet through Anthropic's OpenAI-compatible endpoint.
# WITH the Secure Attachment Persona v1 (Chinese text); identical to api_anthropic_claude_3_7_sonnet_nosap.py otherwise.
from mmengine.config import read_base

with read_base():
    from .api_anthropic_claude_3_7_sonnet_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='claude-3.7-sonnet-api@sap-v1', sap='v1', sap_language='zh')]
