"""OpenCompass model wrappers shipped by the plugin.

Importing this package imports OpenCompass's model classes (several seconds); vLLM itself is
only needed when a ``SAPVLLMwithChatTemplate`` is constructed.
"""
from .baseline import H2HTalkRetrievalBaseline
from .sap import SAPHuggingFacewithChatTemplate, SAPOpenAISDK, SAPVLLMwithChatTemplate

__all__ = ['H2HTalkRetrievalBaseline', 'SAPHuggingFacewithChatTemplate', 'SAPOpenAISDK', 'SAPVLLMwithChatTemplate']
