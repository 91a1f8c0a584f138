"""OpenCompass evaluator adapters."""
from .judge import H2HTalkJudgeEvaluator
from .unified import H2HTalkUnifiedEvaluator

__all__ = ['H2HTalkJudgeEvaluator', 'H2HTalkUnifiedEvaluator']
