"""OpenCompass partitioners shipped by the plugin."""
from .gpu_budget import GPUBudgetPartitioner

__all__ = ['GPUBudgetPartitioner']
