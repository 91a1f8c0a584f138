# claude-sonnet-4-5-20250929 through its API, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin api_anthropic_claude_sonnet_4_5_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .api_anthropic_claude_sonnet_4_5_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='claude-sonnet-4.5-api@sap-v1', sap='v1', sap_language='zh')]
