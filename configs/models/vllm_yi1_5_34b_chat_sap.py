# 01-ai/Yi-1.5-34B-Chat served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_yi1_5_34b_chat_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_yi1_5_34b_chat_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='yi-1.5-34b-chat-vllm@sap-v1', sap='v1', sap_language='zh')]
