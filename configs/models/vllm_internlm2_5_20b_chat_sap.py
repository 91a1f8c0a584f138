# internlm/internlm2_5-20b-chat served in-process by vLLM, WITH the Secure Attachment Persona v1 (Chinese text).
# Identical to its twin vllm_internlm2_5_20b_chat_nosap.py except for `sap` and `abbr`.
from mmengine.config import read_base

with read_base():
    from .vllm_internlm2_5_20b_chat_nosap import models as nosap_models

models = [dict(nosap_models[0], abbr='internlm2.5-20b-chat-vllm@sap-v1', sap='v1', sap_language='zh')]
