"""OpenCompass model wrappers shipped by the plugin."""
from .baseline import H2HTalkRetrievalBaseline

__all__ = ['H2HTalkRetrievalBaseline']
