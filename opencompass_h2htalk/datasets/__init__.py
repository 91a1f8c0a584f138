"""OpenCompass dataset adapter for H2HTalk scenarios."""
from .h2htalk import H2HTalkDataset

__all__ = ['H2HTalkDataset']
