"""OpenCompass dataset adapter for H2HTalk scenarios, and the prompt template of its chat rendering."""
from .chat_template import H2HTalkChatPromptTemplate
from .h2htalk import H2HTalkDataset

__all__ = ['H2HTalkChatPromptTemplate', 'H2HTalkDataset']
