"""OpenCompass model wrappers shipped by the plugin.

Importing this package imports OpenCompass's model classes (several seconds); vLLM itself is
only needed when a ``SAPVLLMwithChatTemplate`` is constructed.
"""
from .baseline import H2HTalkRetrievalBaseline
from .reference_points import H2HTalkReferencePoint
from .sap import SAPHuggingFacewithChatTemplate, SAPOpenAISDK, SAPVLLMwithChatTemplate

__all__ = ['H2HTalkReferencePoint', 'H2HTalkRetrievalBaseline', 'SAPHuggingFacewithChatTemplate', 'SAPOpenAISDK',
           'SAPVLLMwithChatTemplate']
