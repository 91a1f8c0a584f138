"""OpenCompass partitioners shipped by the plugin."""
from .gpu_budget import GPUBudgetPartitioner
from .sweep import SweepPartitioner

__all__ = ['GPUBudgetPartitioner', 'SweepPartitioner']
