"""OpenCompass evaluator adapters."""
from .unified import H2HTalkUnifiedEvaluator

__all__ = ['H2HTalkUnifiedEvaluator']
