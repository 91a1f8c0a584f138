"""``GPUBudgetPartitioner``: NumWorkerPartitioner with a per-model worker count from a GPU budget."""
from __future__ import annotations

from typing import Dict, List

from mmengine.config import ConfigDict
from opencompass.partitioners import NumWorkerPartitioner
from opencompass.registry import PARTITIONERS
from opencompass.utils import model_abbr_from_cfg

from ..planning.costmodel import CostSettings
from ..planning.nodes import GPU_MEMORY_GB, GPUS_PER_NODE, NodeSpec
from ..planning.scale import check_unique_abbrs, workers_for
from .sweep import check_models_fit, model_label


@PARTITIONERS.register_module()
class GPUBudgetPartitioner(NumWorkerPartitioner):
    """Shards each model's inference into ``gpus // run_cfg.num_gpus`` tasks.

    OpenCompass's ``NumWorkerPartitioner`` uses one worker count for every model, which either
    starves one-GPU models or over-splits eight-GPU ones. Here 64 GPUs give a TP=1 model 64 tasks
    and a TP=8 model 8 tasks; API/CPU models (0 GPUs) get ``api_workers`` tasks.

    Args:
        out_dir: Set by the CLI.
        gpus: The GPU budget of one model's inference.
        api_workers: Tasks for models with ``run_cfg.num_gpus == 0``.
        gpus_per_node, gpu_memory_gb: The cluster's nodes: a model wider than a node, or whose weights its GPUs
            cannot hold, is refused (``srun -N1`` starts every task on one node).
        min_task_size, strategy, dataset_size_path, keep_keys, force_rebuild: as in NumWorkerPartitioner.
    """

    def __init__(self, out_dir: str, gpus: int = 64, api_workers: int = 8, gpus_per_node: int = GPUS_PER_NODE,
                 gpu_memory_gb: float = GPU_MEMORY_GB, **kwargs):
        kwargs.pop('num_worker', None)
        kwargs.pop('num_split', None)
        try:
            workers_for(gpus, 0, api_workers)  # check both counts now, not at the first model (ZeroDivisionError)
            self.node = NodeSpec(int(gpus_per_node), float(gpu_memory_gb))
        except ValueError as e:
            raise ValueError(f'GPUBudgetPartitioner: {e} (configs/eval/h2htalk_slurm.py reads gpus from '
                             'H2HTALK_SLURM_GPUS, api_workers from H2HTALK_API_WORKERS, gpus_per_node from '
                             'H2HTALK_SLURM_GPUS_PER_NODE)') from None
        super().__init__(out_dir=out_dir, num_worker=1, **kwargs)
        self.gpus, self.api_workers = gpus, api_workers

    def workers(self, model: Dict) -> int:
        """Tasks for ``model``: ``gpus // run_cfg.num_gpus``, or ``api_workers`` for 0-GPU models."""
        gpus_per_task = int(model.get('run_cfg', {}).get('num_gpus', 0))
        try:
            return workers_for(self.gpus, gpus_per_task, self.api_workers)
        except ValueError as e:
            raise ValueError(f"GPUBudgetPartitioner, model {model.get('abbr')!r}: {e}") from None

    def partition(self, model_dataset_combinations: List[Dict[str, List]], work_dir: str, out_dir: str,
                  add_cfg: Dict = {}) -> List[ConfigDict]:  # noqa: B006 - mirrors the base signature
        tasks = []
        for comb in model_dataset_combinations:
            check_models_fit(comb['models'], self.node, CostSettings(), 'GPUBudgetPartitioner')
            # Both models' tasks would write predictions/<abbr>/, each skipping or overwriting the other's files.
            check_unique_abbrs([(model_abbr_from_cfg(m), model_label(m)) for m in comb['models']],
                               'GPUBudgetPartitioner')
            for model in comb['models']:
                self.num_worker = self.num_split = self.workers(model)
                tasks += super().partition([{'models': [model], 'datasets': comb['datasets']}], work_dir, out_dir,
                                           add_cfg)
        return tasks
