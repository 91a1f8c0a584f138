"""How inference is sharded over a GPU budget (pure arithmetic, no OpenCompass import).

Each model gets ``gpus // gpus_per_task`` workers, where ``gpus_per_task`` is the model's
``run_cfg.num_gpus`` (its tensor-parallel size for vLLM): with 64 GPUs a one-GPU 7B model gets 64
workers and an eight-GPU 72B model gets 8. API and CPU models (0 GPUs) get ``api_workers``.
Datasets larger than ``min_task_size`` are cut into as many chunks as the model has workers (each
chunk at least ``min_task_size`` items), and chunks are dealt round-robin to the workers — the same
rules as OpenCompass's ``NumWorkerPartitioner``, so the plan matches what runs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Sequence


@dataclass(frozen=True)
class ModelPlan:
    """The shards of one model."""

    model: str
    gpus_per_task: int
    workers: int
    tasks: int
    chunks: int
    items: int
    max_items_per_task: int

    @property
    def gpus_in_use(self) -> int:
        return self.tasks * self.gpus_per_task


def workers_for(gpus: int, gpus_per_task: int, api_workers: int = 8) -> int:
    """Number of parallel tasks a model gets from a GPU budget.

    Raises:
        ValueError: if the model needs more GPUs per task than the budget holds.
    """
    if gpus_per_task <= 0:
        return api_workers
    if gpus_per_task > gpus:
        raise ValueError(f'a task needs {gpus_per_task} GPUs but the budget is {gpus}')
    return gpus // gpus_per_task


def split_sizes(size: int, num_split: int, min_task_size: int) -> List[int]:
    """Chunk sizes for one dataset, as ``NumWorkerPartitioner.split_dataset`` cuts it."""
    if num_split <= 1 or size <= min_task_size:
        return [size]
    step = max(math.ceil(size / num_split), min_task_size)
    return [min(step, size - start) for start in range(0, size, step)]


def plan_model(model: str, gpus_per_task: int, dataset_sizes: Dict[str, int], gpus: int, min_task_size: int = 16,
               api_workers: int = 8) -> ModelPlan:
    """Plans one model's inference tasks over ``gpus``."""
    workers = workers_for(gpus, gpus_per_task, api_workers)
    chunks = [n for size in dataset_sizes.values() for n in split_sizes(size, workers, min_task_size)]
    buckets = [0] * workers
    for i, n in enumerate(chunks):
        buckets[i % workers] += n
    used = [b for b in buckets if b]
    return ModelPlan(model, gpus_per_task, workers, len(used), len(chunks), sum(chunks), max(used, default=0))


def format_plan(plans: Sequence[ModelPlan], gpus: int) -> str:
    """A fixed-width table of plans, one row per model, and the peak GPU demand."""
    head = f'{"model":40s} {"GPUs/task":>9s} {"workers":>7s} {"tasks":>5s} {"chunks":>6s} {"items":>6s} ' \
           f'{"max items/task":>14s} {"GPUs used":>9s}'
    lines = [f'GPU budget: {gpus}', head, '-' * len(head)]
    for p in plans:
        lines.append(f'{p.model:40s} {p.gpus_per_task:9d} {p.workers:7d} {p.tasks:5d} {p.chunks:6d} {p.items:6d} '
                     f'{p.max_items_per_task:14d} {p.gpus_in_use:9d}')
    lines.append(f'peak GPUs of the largest model: {max((p.gpus_in_use for p in plans), default=0)} of {gpus}; '
                 'models run one after another or side by side as Slurm schedules them')
    return '\n'.join(lines)
