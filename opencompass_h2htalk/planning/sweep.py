"""Sweep planning: how many shards each model of a run gets so that the whole sweep ends soonest (pure, no OpenCompass).

The scheduler model is the one Slurm applies to the tasks ``SlurmRunner`` submits: tasks are taken in submission
order, and each starts as soon as as many GPUs as it needs (its TP width) are free (:func:`simulate`). The planner
(:func:`plan_sweep`) simulates two families of plans and keeps the shortest (ties: fewer GPU-seconds): even shards
sized to a target task length and ordered longest first (LPT), and slot-filling plans (:func:`fill_to_target`) that
cut each model by inference seconds where its GPUs reach a target makespan, starting from :func:`makespan_bound`, the
makespan no split of the items beats. No task keeps less inference than the load/inference floor allows.
``NumWorkerPartitioner``'s and ``GPUBudgetPartitioner``'s task shapes are reproduced by :func:`numworker_pieces` so
the bench can compare them under the same cost model.
"""
from __future__ import annotations

import bisect
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


def node_sizes(gpus: int, gpus_per_node: Optional[int] = None) -> List[int]:
    """The GPUs of each node of a budget: full nodes of ``gpus_per_node`` and the remainder; one pool if None."""
    if gpus < 1:
        raise ValueError(f'the GPU budget must be >= 1, got {gpus}')
    if gpus_per_node is None:
        return [gpus]
    if gpus_per_node < 1:
        raise ValueError(f'gpus_per_node must be >= 1, got {gpus_per_node}')
    return [gpus_per_node] * (gpus // gpus_per_node) + ([gpus % gpus_per_node] if gpus % gpus_per_node else [])


def simulate(tasks: Sequence[PlannedTask], gpus: int, gpus_per_node: Optional[int] = None) -> Schedule:
    """Runs ``tasks`` in order on ``gpus`` GPUs: each starts when its GPUs are free (0-GPU tasks are left out).

    With ``gpus_per_node`` the GPUs form nodes of that size and a task takes all its GPUs on one node (as
    ``srun -N1`` does): it starts on the node where its width of GPUs is free soonest (the first such node on a
    tie). Without, the budget is one pool.

    Raises:
        ValueError: a task needs more GPUs than the budget, or than a node.
    """
    nodes = [[0.0] * size for size in node_sizes(gpus, gpus_per_node)]
    widest = max(len(n) for n in nodes)
    starts, held, infer = [], 0.0, 0.0
    for task in tasks:
        if task.gpus == 0:
            starts.append(0.0)
            continue
        if task.gpus > gpus:
            raise ValueError(f'model {task.model!r}: a task needs {task.gpus} GPUs but the budget is {gpus}')
        if task.gpus > widest:
            raise ValueError(f'model {task.model!r}: a task needs {task.gpus} GPUs but a node has {widest}')
        best = None
        for node in nodes:
            if len(node) >= task.gpus:
                node.sort()
                begin = node[task.gpus - 1]  # the moment the task.gpus earliest-free GPUs of the node are all free
                if best is None or begin < best[0]:
                    best = (begin, node)
        start, node = best
        for i in range(task.gpus):
            node[i] = start + task.seconds
        starts.append(start)
        held += task.gpus * task.seconds
        infer += task.gpus * task.infer_s
    return Schedule(gpus, max(max(n) for n in nodes), tuple(starts), held, infer)


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


def makespan_bound(models: Sequence[Tuple[ModelCost, Sequence[DatasetLoad]]], gpus: int,
                   settings: CostSettings = CostSettings(), tol: float = 1e-6) -> float:
    """A lower bound on the makespan of ANY split of the models' items into tasks on ``gpus`` GPUs.

    For a makespan ``M`` every task of model ``m`` must fit in ``M``, so ``m`` needs at least
    ``s = ceil(infer_m / (M - fixed_m))`` tasks, which hold ``gpus_m x (s x fixed_m + infer_m)`` GPU-seconds; all of
    them must fit in ``gpus x M``. The smallest ``M`` where they do (bisection; the held area falls as ``M`` grows)
    bounds every partitioner from below, whatever its packing: items are treated as divisible and the packing as
    perfect. 0 when no model uses a GPU.
    """
    gpu_models = [(m, sum(item_seconds(m, d, settings) * d.items for d in ds)) for m, ds in models if m.gpus > 0]
    if not gpu_models:
        return 0.0
    if gpus < max(m.gpus for m, _ in gpu_models):
        raise ValueError(f'the GPU budget {gpus} is smaller than a task of the sweep')

    def fits(span: float) -> bool:
        area = 0.0
        for m, infer in gpu_models:
            room = span - m.fixed_s
            if room <= 0 and infer > 0:
                return False
            shards = max(1, math.ceil(infer / room - 1e-9)) if infer > 0 else 1
            area += m.gpus * (shards * m.fixed_s + infer)
        return area <= gpus * span * (1 + 1e-12)

    lo = max(m.fixed_s for m, _ in gpu_models)
    hi = max(m.fixed_s + infer for m, infer in gpu_models) + sum(m.gpus * (m.fixed_s + i) for m, i in gpu_models) / gpus
    if fits(lo):
        return lo
    while hi - lo > tol * hi:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return hi


class _Cutter:
    """Contiguous pieces of one model's items cut by inference seconds (the items of a dataset differ in length)."""

    def __init__(self, model: ModelCost, datasets: Sequence[DatasetLoad], settings: CostSettings):
        self.model, self.datasets = model, list(datasets)
        self.cum = [0.0]  # cum[k]: inference seconds of the first k items of the concatenated datasets
        for d in self.datasets:
            per = item_seconds(model, d, settings)
            for _ in range(d.items):
                self.cum.append(self.cum[-1] + per)
        self.n = len(self.cum) - 1

    def stop_for(self, start: int, seconds: float) -> int:
        """The first item boundary after ``start`` at which the piece holds at least ``seconds`` of inference."""
        stop = bisect.bisect_left(self.cum, self.cum[start] + seconds - 1e-9, lo=start + 1)
        return min(max(stop, start + 1), self.n)

    def task(self, start: int, stop: int) -> PlannedTask:
        piece, offset = [], 0
        for d in self.datasets:
            lo, hi = max(start - offset, 0), min(stop - offset, d.items)
            if lo < hi:
                piece.append((d.name, lo, hi))
            offset += d.items
        infer = self.cum[stop] - self.cum[start]
        return PlannedTask(self.model.model, self.model.gpus, tuple(piece), self.model.fixed_s + infer, infer)


def fill_to_target(cutters: Sequence[_Cutter], gpus: int, target: float,
                   min_infer_per_fixed: float = MIN_INFER_PER_FIXED, widest_first: bool = True) -> List[PlannedTask]:
    """Tasks in submission order that fill ``gpus`` GPUs up to ``target`` seconds, cutting models where a slot ends.

    Models are placed widest first (then longest, then by name), so wide tasks get their GPUs while all are free
    and narrow models fill what is left; with ``widest_first=False`` longest first (then widest, then by name). Each task goes where :func:`simulate` will start it (on its TP width's
    earliest-free GPUs) and takes as many items as end by ``target``; the rest of the model goes on to the next
    slot. A piece keeps at least ``min_infer_per_fixed`` x fixed seconds of inference, and so does the remainder it
    leaves; a slot with less room than that takes the model's whole remainder (the target was too short for it).
    Slots are those of one pool of GPUs; :func:`plan_sweep` then simulates the result node by node.
    """
    free = [0.0] * gpus
    def key(c: _Cutter):
        width, length = -c.model.gpus, -(c.model.fixed_s + c.cum[-1])
        return (width, length, c.model.model) if widest_first else (length, width, c.model.model)

    order = sorted(cutters, key=key)
    tasks: List[PlannedTask] = []
    for cut in order:
        m, start = cut.model, 0
        floor = min_infer_per_fixed * m.fixed_s
        while True:
            free.sort()
            begin = free[m.gpus - 1]
            room = target - begin - m.fixed_s
            left = cut.cum[-1] - cut.cum[start]
            if left <= room or room < floor or left < 2 * floor:
                stop = cut.n
            else:
                stop = cut.stop_for(start, max(room, floor))
                if cut.cum[-1] - cut.cum[stop] < floor:  # the remainder would not pay for its load
                    stop = cut.stop_for(start, left - floor)
                    stop = cut.n if cut.cum[stop] - cut.cum[start] < floor else stop
            task = cut.task(start, stop)
            for i in range(m.gpus):
                free[i] = begin + task.seconds
            tasks.append(task)
            start = stop
            if start >= cut.n:
                break
    return tasks


def plan_sweep(models: Sequence[Tuple[ModelCost, Sequence[DatasetLoad]]], gpus: int,
               settings: CostSettings = CostSettings(), min_infer_per_fixed: float = MIN_INFER_PER_FIXED,
               api_shards: int = 8, candidates: int = 60, gpus_per_node: Optional[int] = None) -> SweepPlan:
    """Shards per model that minimise the simulated makespan of the whole sweep on ``gpus`` GPUs.

    Two families of plans are simulated and the shortest wins (ties: fewer GPU-seconds, then the first found):

    * even splits: for each target task length, every model gets just enough equal-item shards to fit it (within
      :func:`max_shards`), all tasks longest first;
    * filled slots (:func:`fill_to_target`, models widest first and longest first): for each target makespan from
      :func:`makespan_bound` up, models are cut by inference seconds exactly where their GPUs' time runs out, so
      that narrow models fill the tails.

    Args:
        models: Every model of the run with the datasets it infers.
        gpus: The GPU budget of the whole sweep (shared by all models).
        min_infer_per_fixed: Floor on inference per task (see :func:`max_shards`).
        api_shards: Tasks for 0-GPU (API/CPU) models, which run beside the GPU plan.
        candidates: Targets tried per family (geometric grids).
        gpus_per_node: GPUs per node: every plan is simulated with each task on one node (None: one pool).

    Raises:
        ValueError: a model needs more GPUs per task than the budget (or a node), or a budget below 1.
    """
    widest = max(node_sizes(gpus, gpus_per_node))
    for model, _ in models:
        if model.gpus > gpus:
            raise ValueError(f'model {model.model!r}: a task needs {model.gpus} GPUs but the budget is {gpus}')
        if model.gpus > widest:
            raise ValueError(f'model {model.model!r}: a task needs {model.gpus} GPUs but a node has {widest}')
    gpu_models = [(m, ds) for m, ds in models if m.gpus > 0]
    infer = {m.model: sum(item_seconds(m, d, settings) * d.items for d in ds) for m, ds in gpu_models}
    caps = {m.model: max_shards(m, ds, gpus, settings, min_infer_per_fixed) for m, ds in gpu_models}
    fixed_tasks: List[PlannedTask] = []
    for m, ds in models:
        if m.gpus == 0:
            total = sum(d.items for d in ds)
            fixed_tasks += make_tasks(m, ds, split_even(ds, max(1, min(api_shards, total))), settings)

    api_counts = {m.model: sum(1 for t in fixed_tasks if t.model == m.model) for m, _ in models if m.gpus == 0}

    def finish(tasks: List[PlannedTask]) -> SweepPlan:
        ordered = tasks + fixed_tasks
        shards = {m.model: sum(1 for t in tasks if t.model == m.model) for m, _ in gpu_models}
        return SweepPlan(tuple(ordered), simulate(ordered, gpus, gpus_per_node), {**shards, **api_counts})

    if not gpu_models:
        return finish([])
    plans: List[SweepPlan] = []
    shortest = min(m.fixed_s + infer[m.model] / caps[m.model] for m, _ in gpu_models)
    longest = max(m.fixed_s + infer[m.model] for m, _ in gpu_models)
    for i in range(candidates):
        target = shortest * (longest / shortest) ** (i / max(candidates - 1, 1))
        tasks = []
        for m, ds in gpu_models:
            room = target - m.fixed_s
            need = math.ceil(infer[m.model] / room) if room > 0 else caps[m.model]
            tasks += make_tasks(m, ds, split_even(ds, max(1, min(need, caps[m.model]))), settings)
        plans.append(finish(_order_lpt(tasks)))
    if all(sum(d.items for d in ds) > 0 for _, ds in gpu_models):
        cutters = [_Cutter(m, ds, settings) for m, ds in gpu_models]
        bound = makespan_bound(gpu_models, gpus, settings)
        top = max(bound, min(p.schedule.makespan for p in plans))
        for widest_first in (True, False):
            for i in range(candidates):
                target = bound * (top / bound) ** (i / max(candidates - 1, 1)) if bound > 0 else top
                plans.append(finish(fill_to_target(cutters, gpus, target, min_infer_per_fixed, widest_first)))
    return min(plans, key=lambda p: (round(p.schedule.makespan, 6), p.schedule.gpu_seconds))


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
    lines = ['estimates (cost model of opencompass_h2htalk/planning/costmodel.py; its defaults are assumptions):', head,
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
