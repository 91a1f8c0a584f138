"""Sweep planning: how many shards each model of a run gets so that the whole sweep ends soonest (pure, no OpenCompass).

The scheduler model is the one Slurm applies to the tasks ``SlurmRunner`` submits: tasks are taken in submission
order, and each starts as soon as as many GPUs as it needs (its TP width) are free (:func:`simulate`). The planner
(:func:`plan_sweep`) tries a range of target task lengths; for each it gives every model just enough shards to fit
its inference into that length (never fewer items per task than the load/inference floor allows), orders all tasks
longest first (LPT) and simulates; the plan with the shortest makespan wins (ties: fewer GPU-seconds).
``NumWorkerPartitioner``'s and ``GPUBudgetPartitioner``'s task shapes are reproduced by :func:`numworker_pieces` so
the bench can compare them under the same cost model.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .costmodel import CostSettings, DatasetLoad, ModelCost, item_seconds

#: One contiguous slice of a dataset: (dataset name, start, stop).
Slice = Tuple[str, int, int]

#: A task must spend at least this many seconds generating per second of fixed cost (load + job overhead); it sets
#: the floor of items per task. 1.0: a task computes at least as long as it starts up (a design choice).
MIN_INFER_PER_FIXED = 1.0


@dataclass(frozen=True)
class PlannedTask:
    """One inference task: a model, its GPUs, the dataset slices it runs and its estimated seconds."""

    model: str
    gpus: int
    slices: Tuple[Slice, ...]
    seconds: float      # wall seconds: overhead + load + inference
    infer_s: float      # the inference part

    @property
    def items(self) -> int:
        return sum(stop - start for _, start, stop in self.slices)


@dataclass(frozen=True)
class Schedule:
    """The simulated run of a task list on a GPU budget."""

    gpus: int
    makespan: float
    starts: Tuple[float, ...]   # start second of each task, in task order
    gpu_seconds: float          # GPUs x seconds held by tasks (loads included)
    infer_gpu_seconds: float    # GPUs x seconds spent generating

    @property
    def efficiency(self) -> float:
        """Inference GPU-seconds / (GPUs x makespan); a plan with no GPU task has no efficiency (ValueError)."""
        if self.makespan <= 0:
            raise ValueError('no GPU task: the efficiency of an empty GPU schedule is undefined')
        return self.infer_gpu_seconds / (self.gpus * self.makespan)


def split_even(datasets: Sequence[DatasetLoad], shards: int) -> List[List[Slice]]:
    """Cuts the concatenated items of ``datasets`` into ``shards`` contiguous pieces whose sizes differ by at most 1."""
    total = sum(d.items for d in datasets)
    if shards < 1 or shards > max(total, 1):
        raise ValueError(f'cannot cut {total} items into {shards} shards')
    bounds = [total * i // shards for i in range(shards + 1)]
    pieces: List[List[Slice]] = []
    for lo, hi in zip(bounds, bounds[1:]):
        piece, offset = [], 0
        for d in datasets:
            start, stop = max(lo - offset, 0), min(hi - offset, d.items)
            if start < stop:
                piece.append((d.name, start, stop))
            offset += d.items
        pieces.append(piece)
    return pieces


def numworker_pieces(datasets: Sequence[DatasetLoad], num_worker: int, min_task_size: int = 16) -> List[List[Slice]]:
    """The task shapes of OpenCompass's ``NumWorkerPartitioner`` (strategy 'heuristic'), for a fresh run.

    Each dataset larger than ``min_task_size`` is cut into chunks of ``max(ceil(n / num_worker), min_task_size)``
    items; chunks are dealt round-robin to ``num_worker`` buckets; empty buckets make no task.
    """
    chunks: List[Slice] = []
    for d in datasets:
        if num_worker <= 1 or d.items <= min_task_size:
            chunks.append((d.name, 0, d.items))
            continue
        step = max(math.ceil(d.items / num_worker), min_task_size)
        chunks += [(d.name, i, min(i + step, d.items)) for i in range(0, d.items, step)]
    buckets: List[List[Slice]] = [[] for _ in range(num_worker)]
    for i, chunk in enumerate(chunks):
        buckets[i % num_worker].append(chunk)
    return [b for b in buckets if b]


def make_tasks(model: ModelCost, datasets: Sequence[DatasetLoad], pieces: Sequence[Sequence[Slice]],
               settings: CostSettings = CostSettings()) -> List[PlannedTask]:
    """A :class:`PlannedTask` per piece, with its seconds from the cost model."""
    per_item = {d.name: item_seconds(model, d, settings) for d in datasets}
    tasks = []
    for piece in pieces:
        infer = sum(per_item[name] * (stop - start) for name, start, stop in piece)
        seconds = model.fixed_s + infer if model.gpus else 0.0
        tasks.append(PlannedTask(model.model, model.gpus, tuple(piece), seconds, infer))
    return tasks


def simulate(tasks: Sequence[PlannedTask], gpus: int) -> Schedule:
    """Runs ``tasks`` in order on ``gpus`` GPUs: each starts when its GPUs are free (0-GPU tasks are left out).

    Raises:
        ValueError: a task needs more GPUs than the budget.
    """
    if gpus < 1:
        raise ValueError(f'the GPU budget must be >= 1, got {gpus}')
    free = [0.0] * gpus
    starts, held, infer = [], 0.0, 0.0
    for task in tasks:
        if task.gpus == 0:
            starts.append(0.0)
            continue
        if task.gpus > gpus:
            raise ValueError(f'model {task.model!r}: a task needs {task.gpus} GPUs but the budget is {gpus}')
        free.sort()
        start = free[task.gpus - 1]  # the moment the task.gpus earliest-free GPUs are all free
        for i in range(task.gpus):
            free[i] = start + task.seconds
        starts.append(start)
        held += task.gpus * task.seconds
        infer += task.gpus * task.infer_s
    return Schedule(gpus, max(free), tuple(starts), held, infer)


@dataclass(frozen=True)
class SweepPlan:
    """The tasks of a sweep in submission order, and their simulated schedule."""

    tasks: Tuple[PlannedTask, ...]
    schedule: Schedule
    shards: Dict[str, int]


def max_shards(model: ModelCost, datasets: Sequence[DatasetLoad], gpus: int, settings: CostSettings = CostSettings(),
               min_infer_per_fixed: float = MIN_INFER_PER_FIXED) -> int:
    """The most shards a model may get: each task keeps at least the items whose inference pays for its fixed cost
    (``min_infer_per_fixed`` x fixed seconds), and no more shards than the budget runs at once or items exist."""
    total = sum(d.items for d in datasets)
    if model.gpus == 0 or total == 0:
        return 1
    infer = sum(item_seconds(model, d, settings) * d.items for d in datasets)
    per_item = infer / total
    min_items = max(1, math.ceil(min_infer_per_fixed * model.fixed_s / per_item)) if per_item > 0 else total
    return max(1, min(total // min_items, gpus // model.gpus, total))


def _order_lpt(tasks: List[PlannedTask]) -> List[PlannedTask]:
    # Longest first; wider first among equals so that wide tasks do not wait behind a wall of narrow ones.
    return sorted(tasks, key=lambda t: (-t.seconds, -t.gpus, t.model))


def plan_sweep(models: Sequence[Tuple[ModelCost, Sequence[DatasetLoad]]], gpus: int,
               settings: CostSettings = CostSettings(), min_infer_per_fixed: float = MIN_INFER_PER_FIXED,
               api_shards: int = 8, candidates: int = 60) -> SweepPlan:
    """Shards per model that minimise the simulated makespan of the whole sweep on ``gpus`` GPUs.

    Args:
        models: Every model of the run with the datasets it infers.
        gpus: The GPU budget of the whole sweep (shared by all models).
        min_infer_per_fixed: Floor on items per task (see :func:`max_shards`).
        api_shards: Tasks for 0-GPU (API/CPU) models, which run beside the GPU plan.
        candidates: Target task lengths tried (geometric grid between the shortest and the longest possible task).

    Raises:
        ValueError: a model needs more GPUs per task than the budget, or a budget below 1.
    """
    if gpus < 1:
        raise ValueError(f'the GPU budget must be >= 1, got {gpus}')
    for model, _ in models:
        if model.gpus > gpus:
            raise ValueError(f'model {model.model!r}: a task needs {model.gpus} GPUs but the budget is {gpus}')
    gpu_models = [(m, ds) for m, ds in models if m.gpus > 0]
    infer = {m.model: sum(item_seconds(m, d, settings) * d.items for d in ds) for m, ds in gpu_models}
    caps = {m.model: max_shards(m, ds, gpus, settings, min_infer_per_fixed) for m, ds in gpu_models}
    fixed_tasks: List[PlannedTask] = []
    for m, ds in models:
        if m.gpus == 0:
            total = sum(d.items for d in ds)
            fixed_tasks += make_tasks(m, ds, split_even(ds, max(1, min(api_shards, total))), settings)

    api_counts = {m.model: sum(1 for t in fixed_tasks if t.model == m.model) for m, _ in models if m.gpus == 0}

    def build(shards: Dict[str, int]) -> SweepPlan:
        tasks: List[PlannedTask] = []
        for m, ds in gpu_models:
            tasks += make_tasks(m, ds, split_even(ds, shards[m.model]), settings)
        ordered = _order_lpt(tasks) + fixed_tasks
        return SweepPlan(tuple(ordered), simulate(ordered, gpus), {**shards, **api_counts})

    if not gpu_models:
        return build({})
    shortest = min(m.fixed_s + infer[m.model] / caps[m.model] for m, _ in gpu_models)
    longest = max(m.fixed_s + infer[m.model] for m, _ in gpu_models)
    best = None
    for i in range(candidates):
        target = shortest * (longest / shortest) ** (i / max(candidates - 1, 1))
        shards = {}
        for m, _ in gpu_models:
            room = target - m.fixed_s
            need = math.ceil(infer[m.model] / room) if room > 0 else caps[m.model]
            shards[m.model] = max(1, min(need, caps[m.model]))
        plan = build(shards)
        key = (round(plan.schedule.makespan, 6), plan.schedule.gpu_seconds)
        if best is None or key < best[0]:
            best = (key, plan)
    return best[1]


def format_estimates(tasks: Sequence[PlannedTask], schedule: Optional[Schedule] = None) -> str:
    """Per model: tasks, items per task, GPUs per task, longest task, GPU-hours; then the sweep's makespan and
    GPU efficiency when a GPU budget is known (``schedule``)."""
    order: List[str] = []
    mine: Dict[str, List[PlannedTask]] = {}
    for t in tasks:
        if t.model not in mine:
            order.append(t.model)
            mine[t.model] = []
        mine[t.model].append(t)
    head = f'{"model":40s} {"tasks":>5s} {"items/task":>10s} {"GPUs/task":>9s} {"longest task s":>14s} {"GPU-h":>7s}'
    lines = ['estimates (cost model of opencompass_h2htalk/costmodel.py; its defaults are assumptions):', head,
             '-' * len(head)]
    for model in order:
        ts = mine[model]
        sizes = sorted(t.items for t in ts)
        items = str(sizes[0]) if sizes[0] == sizes[-1] else f'{sizes[0]}-{sizes[-1]}'
        if ts[0].gpus == 0:
            lines.append(f'{model:40s} {len(ts):5d} {items:>10s} {0:9d} {"-":>14s} {"-":>7s}  (API/CPU: not modelled)')
            continue
        lines.append(f'{model:40s} {len(ts):5d} {items:>10s} {ts[0].gpus:9d} {max(t.seconds for t in ts):14.0f} '
                     f'{sum(t.gpus * t.seconds for t in ts) / 3600:7.2f}')
    if schedule is None:
        lines.append('no GPU budget in this partitioner: no sweep makespan or efficiency')
    elif schedule.makespan > 0:
        lines.append(f'sweep makespan {schedule.makespan:.0f} s on {schedule.gpus} GPUs, '
                     f'{schedule.gpu_seconds / 3600:.2f} GPU-h, GPU efficiency {schedule.efficiency:.1%} '
                     '(inference GPU-s / (GPUs x makespan))')
    else:
        lines.append('no GPU task: no sweep makespan or efficiency')
    return '\n'.join(lines)
