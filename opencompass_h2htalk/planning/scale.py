"""How inference is sharded over a GPU budget (pure arithmetic and tables, no OpenCompass import).

Each model gets ``gpus // gpus_per_task`` workers, where ``gpus_per_task`` is the model's
``run_cfg.num_gpus`` (its tensor-parallel size for vLLM): with 64 GPUs a one-GPU 7B model gets 64
workers and a four-GPU 72B model gets 16. API and CPU models (0 GPUs) get ``api_workers``.
:class:`~opencompass_h2htalk.partitioners.GPUBudgetPartitioner` uses :func:`workers_for`;
``h2htalk plan`` runs the config's own partitioner and summarises its tasks with :func:`summarize_tasks`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple


@dataclass(frozen=True)
class ModelPlan:
    """The inference tasks of one model, as the partitioner made them."""

    model: str
    gpus_per_task: int
    workers: Optional[int]  # None when the partitioner has no worker count
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
        ValueError: if a count is below 1, or the model needs more GPUs per task than the budget holds.
    """
    if api_workers < 1:
        raise ValueError(f'api_workers (tasks for models with run_cfg.num_gpus == 0) must be >= 1, got {api_workers}')
    if gpus < 1:
        raise ValueError(f'the GPU budget must be >= 1, got {gpus}')
    if gpus_per_task <= 0:
        return api_workers
    if gpus_per_task > gpus:
        raise ValueError(f'a task needs {gpus_per_task} GPUs but the budget is {gpus}')
    return gpus // gpus_per_task


def duplicate_abbrs(entries: Iterable[Tuple[str, str]]) -> Dict[str, List[str]]:
    """``{abbr: [labels]}`` for every abbr that more than one ``(abbr, label)`` entry uses (first-use order)."""
    labels: Dict[str, List[str]] = {}
    for abbr, label in entries:
        labels.setdefault(abbr, []).append(label)
    return {abbr: names for abbr, names in labels.items() if len(names) > 1}


def check_unique_abbrs(entries: Iterable[Tuple[str, str]], where: str) -> None:
    """Refuses models that share an abbr: OpenCompass writes a model's predictions and results to
    ``predictions/<abbr>/`` and ``results/<abbr>/``, so one would overwrite the other (or be skipped as already
    predicted), and a plan would count both as one model.

    Args:
        entries: ``(abbr, label)`` per model; the label names the model in the error (its config file, type, path).
        where: What the models come from (a config file, a partitioner), the start of the message.

    Raises:
        ValueError: naming every shared abbr and the labels of all the models that use it.
    """
    shared = duplicate_abbrs(entries)
    if shared:
        clashes = '; '.join(f"abbr {abbr!r} is used by {' and by '.join(labels)}" for abbr, labels in shared.items())
        raise ValueError(f'{where}: {clashes}. Each model writes predictions/<abbr>/ and results/<abbr>/, so these '
                         'would overwrite each other; give every model an abbr of its own')


#: One inference task: (model abbr, run_cfg.num_gpus, item count of each dataset chunk in the task).
TaskItems = Tuple[str, int, Sequence[int]]


def summarize_tasks(tasks: Sequence[TaskItems], workers: Optional[Dict[str, Optional[int]]] = None) -> List[ModelPlan]:
    """One :class:`ModelPlan` per model, in order of first appearance, from a partitioner's task list."""
    order: List[str] = []
    by_model: Dict[str, List[TaskItems]] = {}
    for task in tasks:
        if task[0] not in by_model:
            order.append(task[0])
            by_model[task[0]] = []
        by_model[task[0]].append(task)
    plans = []
    for model in order:
        mine = by_model[model]
        gpus_per_task = {t[1] for t in mine}
        if len(gpus_per_task) != 1:
            raise ValueError(f'model {model!r}: tasks disagree on GPUs per task: {sorted(gpus_per_task)}')
        per_task = [sum(t[2]) for t in mine]
        plans.append(ModelPlan(model, gpus_per_task.pop(), (workers or {}).get(model), len(mine),
                               sum(len(t[2]) for t in mine), sum(per_task), max(per_task)))
    return plans


def format_plan(plans: Sequence[ModelPlan]) -> str:
    """A fixed-width table of plans, one row per model, and the peak GPU demand."""
    head = f'{"model":40s} {"GPUs/task":>9s} {"workers":>7s} {"tasks":>5s} {"chunks":>6s} {"items":>6s} ' \
           f'{"max items/task":>14s} {"GPUs used":>9s}'
    lines = [head, '-' * len(head)]
    for p in plans:
        workers = '-' if p.workers is None else str(p.workers)
        lines.append(f'{p.model:40s} {p.gpus_per_task:9d} {workers:>7s} {p.tasks:5d} {p.chunks:6d} {p.items:6d} '
                     f'{p.max_items_per_task:14d} {p.gpus_in_use:9d}')
    lines.append(f'peak GPUs of the largest model: {max((p.gpus_in_use for p in plans), default=0)}; '
                 'models run one after another or side by side as the runner schedules them')
    return '\n'.join(lines)
