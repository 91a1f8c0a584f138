# DeepSeek-V2.5 through an OpenAI-compatible endpoint. The hosted deepseek-chat model has moved on to newer versions, so for the paper's model serve the open weights yourself, e.g. `vllm serve deepseek-ai/DeepSeek-V2.5 --tensor-parallel-size 8 --trust-remote-code`, and point openai_api_base at it.
# WITH the Secure Attachment Persona v1 (Chinese text); identical to api_deepseek_v2_5_chat_nosap.py otherwise.
from mmengine.config import read_base

with read_base():
    from .api_deepseek_v2_5_chat_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='deepseek-v2.5-api@sap-v1', sap='v1', sap_language='zh')]
