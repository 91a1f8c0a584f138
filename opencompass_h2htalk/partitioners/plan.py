"""Dry run of a config's inference partitioner for ``h2htalk plan``: the tasks OpenCompass would create, no runs."""
from __future__ import annotations

import ast
import copy
import logging
import os
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..planning.scale import ModelPlan, TaskItems, check_unique_abbrs, summarize_tasks

#: The variable configs/eval/h2htalk_slurm.py reads its GPU budget from.
GPUS_ENV = 'H2HTALK_SLURM_GPUS'


@dataclass
class ConfigPlan:
    """What ``h2htalk plan`` prints for one config."""

    partitioner: str         # class name and the arguments that shape the tasks
    budget: Optional[str]    # the GPU budget and where it came from; None if the partitioner has none
    datasets: int
    items_per_model: int     # items of all datasets: what every model infers once
    models: List[ModelPlan]
    estimates: str           # the cost model's view of the same tasks (planning.sweep.format_estimates)
    #: (task abbr as in the task's name, e.g. ``[model/dataset_0,model/dataset2]``, its estimate) per task and model,
    #: in submission order; empty when the cost model could not estimate (``estimates`` says why).
    planned: List[Tuple[str, object]] = field(default_factory=list)
    schedule: Optional[object] = None  # the simulated schedule of ``planned`` (planning.sweep.Schedule)


def _type_name(t) -> str:
    return t if isinstance(t, str) else t.__name__


def _budget_line(config_gpus: int, cli_gpus: Optional[int]) -> str:
    env = os.environ.get(GPUS_ENV)
    from_env = f'{GPUS_ENV}={env} is set' if env is not None else f'{GPUS_ENV} is not set'
    if cli_gpus is None:
        return f'{config_gpus} (from the config; {from_env})'
    return f'{cli_gpus} (from --gpus, which overrides the config\'s {config_gpus}; {from_env})'


def load_eval_config(config: str):
    """``mmengine.Config`` of an OpenCompass eval config, with one-line errors for what is not one.

    Raises:
        ValueError: naming ``config`` when it is missing, a directory, not a ``.py`` file, has a syntax error (and
            its line), fails to load, or lacks ``models``, ``datasets`` or ``infer.partitioner``.
        opencompass_h2htalk.settings.env.EnvSettingError: a bad environment setting read by the config.
    """
    from mmengine.config import Config

    example = 'e.g. configs/eval/h2htalk_demo.py'
    if not os.path.exists(config):
        raise ValueError(f'{config}: no such config file ({example})')
    if os.path.isdir(config):
        raise ValueError(f'{config}: is a directory; expected an OpenCompass eval config file ({example})')
    if not config.endswith('.py'):
        raise ValueError(f'{config}: not a .py file; h2htalk plan reads OpenCompass Python configs ({example})')
    try:
        with open(config, 'rb') as f:
            compile(f.read(), config, 'exec')
    except SyntaxError as e:
        raise ValueError(f'{config}:{e.lineno}: syntax error: {e.msg}') from None
    except ValueError as e:  # e.g. a NUL byte
        raise ValueError(f'{config}: not Python source ({e})') from None
    try:
        cfg = Config.fromfile(config)
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception as e:  # noqa: BLE001 - whatever the config raises while loading, said in one line
        raise ValueError(f'{config}: could not be loaded: {type(e).__name__}: {e}') from None
    missing = [k for k in ('models', 'datasets', 'infer') if k not in cfg]
    if missing:
        raise ValueError(f'{config}: not an OpenCompass eval config: it defines no {", ".join(missing)} '
                         f'({example})')
    if not isinstance(cfg['infer'], dict) or 'partitioner' not in cfg['infer']:
        raise ValueError(f'{config}: infer has no partitioner, so there are no inference tasks to plan')
    return cfg


def _shown_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it, else as it is."""
    rel = os.path.relpath(path)
    return path if rel.startswith('..') else rel


def _read_base_sources(config: str) -> Dict[str, str]:
    """``{imported name: file}`` of the ``from X import name [as alias]`` lines inside ``with read_base():``."""
    with open(config, encoding='utf-8') as f:
        tree = ast.parse(f.read(), config)
    sources: Dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.With) and any(isinstance(i.context_expr, ast.Call)
                                                   and getattr(i.context_expr.func, 'id', None) == 'read_base'
                                                   for i in node.items)):
            continue
        for stmt in node.body:
            if not isinstance(stmt, ast.ImportFrom) or not stmt.module:
                continue
            if stmt.level:  # relative to the config's folder, as mmengine resolves it
                base = os.path.dirname(os.path.abspath(config))
                for _ in range(stmt.level - 1):
                    base = os.path.dirname(base)
                source = _shown_path(os.path.join(base, *stmt.module.split('.')) + '.py')
            else:
                source = stmt.module  # a package's config module
            for alias in stmt.names:
                sources[alias.asname or alias.name] = source
    return sources


def model_labels(config: str, cfg) -> List[str]:
    """One label per entry of ``cfg.models`` for messages: its position, the model config file it was imported
    from (``read_base``; the eval config itself when it is not an imported entry as it stands), type and path."""
    sources = _read_base_sources(config)
    labels = []
    for i, model in enumerate(cfg.get('models') or []):
        found = [src for name, src in sources.items()
                 if isinstance(cfg.get(name), (list, tuple)) and any(m == model for m in cfg[name])]
        where = found[0] if found else f'defined in {_shown_path(config)}'
        labels.append(f"models[{i}] ({where}: type {_type_name(model.get('type', '?'))}, "
                      f"path {model.get('path', '?')!r})")
    return labels


def plan_config(config: str, gpus: Optional[int] = None) -> ConfigPlan:
    """Builds ``infer.partitioner`` of ``config`` as ``opencompass`` does and lists the tasks it creates.

    The partitioner sees a fresh work dir, so this is the plan of a new run (``-r`` skips shards that are
    already predicted). Nothing is written outside a temporary directory.

    Args:
        config: An OpenCompass eval config.
        gpus: Overrides the partitioner's ``gpus`` (GPUBudgetPartitioner, SweepPartitioner); ``None`` keeps the
            config's.

    Raises:
        ValueError: ``gpus`` given for a partitioner without a GPU budget, a bad partitioner argument, or two
            models that share an abbr (both named).
    """
    import datasets as hf_datasets
    from opencompass.registry import PARTITIONERS
    from opencompass.utils import get_logger, model_abbr_from_cfg

    from . import GPUBudgetPartitioner, SweepPartitioner

    cfg = load_eval_config(config)
    models = cfg.get('models') or []
    check_unique_abbrs(zip((model_abbr_from_cfg(m) for m in models), model_labels(config, cfg)), config)
    part_cfg = copy.deepcopy(cfg['infer']['partitioner'])
    cls = PARTITIONERS.get(part_cfg['type']) if isinstance(part_cfg['type'], str) else part_cfg['type']
    budget = None
    if issubclass(cls, (GPUBudgetPartitioner, SweepPartitioner)):
        budget = _budget_line(int(part_cfg.get('gpus', 64)), gpus)
        if gpus is not None:
            part_cfg['gpus'] = gpus
    elif gpus is not None:
        raise ValueError(f'--gpus sets the budget of GPUBudgetPartitioner and SweepPartitioner, but {config} '
                         f'partitions inference with {cls.__name__}; drop --gpus to plan it as configured')
    hf_datasets.disable_progress_bars()  # one "Map" bar per dataset built below would drown the table
    logger = get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)  # keep "Partitioned into N tasks." out of the printed plan
    try:
        return _plan(config, cfg, part_cfg, cls, budget)
    finally:
        logger.setLevel(level)


def _plan(config: str, cfg, part_cfg, cls, budget: Optional[str]) -> ConfigPlan:
    """Runs the partitioner on a temporary work dir and counts the items of every task."""
    import datasets as hf_datasets
    from opencompass.openicl.icl_dataset_reader import load_partial_dataset
    from opencompass.partitioners import NumWorkerPartitioner
    from opencompass.registry import PARTITIONERS
    from opencompass.utils import build_dataset_from_cfg

    from . import GPUBudgetPartitioner, SweepPartitioner

    shown = {k: v for k, v in part_cfg.items() if k not in ('type', 'out_dir')}
    partitioner_desc = f'{cls.__name__}({", ".join(f"{k}={v!r}" for k, v in shown.items())})'
    full: Dict[str, object] = {}  # per dataset config (no abbr, no test_range): a Dataset of its row numbers
    sizes: Dict[Tuple[str, str], int] = {}

    def items(chunk) -> int:
        # The number of rows the inference task will read. A shard differs from its dataset only in abbr and
        # test_range, so the dataset (whole, no test_range) is built once and the range is applied to its row
        # numbers by OpenCompass's own load_partial_dataset, exactly as the task's DatasetReader applies it.
        test_range = chunk.get('reader_cfg', {}).get('test_range')
        key = (chunk['abbr'], repr(test_range))
        if key not in sizes:
            whole = copy.deepcopy(chunk)
            whole.pop('abbr', None)
            if 'reader_cfg' in whole:
                whole['reader_cfg'].pop('test_range', None)
            base = repr(whole)
            if base not in full:
                full[base] = hf_datasets.Dataset.from_dict(
                    {'row': list(range(len(build_dataset_from_cfg(whole).test)))})
            sizes[key] = len(load_partial_dataset(full[base], size=test_range))
        return sizes[key]

    with tempfile.TemporaryDirectory(prefix='h2htalk-plan-') as tmp:
        part_cfg['out_dir'] = os.path.join(tmp, 'predictions/')
        if issubclass(cls, NumWorkerPartitioner):
            part_cfg['dataset_size_path'] = ''  # no size cache: nothing read from or written to ./.cache
        partitioner = PARTITIONERS.build(part_cfg)
        run_cfg = copy.deepcopy(cfg)
        run_cfg['work_dir'] = tmp
        tasks = partitioner(run_cfg)
        task_items: List[TaskItems] = []
        for task in tasks:
            for model, chunks in zip(task['models'], task['datasets']):
                task_items.append((model['abbr'], int(model.get('run_cfg', {}).get('num_gpus', 0)),
                                   [items(c) for c in chunks]))
        workers: Dict[str, Optional[int]] = {}
        for model in cfg['models']:
            if isinstance(partitioner, SweepPartitioner):
                workers[model['abbr']] = partitioner.last_plan.shards.get(model['abbr'])
            elif isinstance(partitioner, GPUBudgetPartitioner):
                workers[model['abbr']] = partitioner.workers(model)
            elif isinstance(partitioner, NumWorkerPartitioner):
                workers[model['abbr']] = partitioner.num_worker
            else:
                workers[model['abbr']] = None
        total = sum(items(d) for d in cfg['datasets'])
        estimates, planned, schedule = _estimates(cfg, partitioner, tasks, items)
    return ConfigPlan(partitioner_desc, budget, len(cfg['datasets']), total, summarize_tasks(task_items, workers),
                      estimates, planned, schedule)


def _estimates(cfg, partitioner, tasks, items):
    """The cost model applied to the partitioner's real tasks, simulated in their submission order: the printed
    estimates, ``(task abbr, PlannedTask)`` per task and model, and the schedule (None without a GPU budget)."""
    from opencompass.utils import dataset_abbr_from_cfg, task_abbr_from_cfg

    from ..planning.costmodel import CostError, CostSettings
    from ..planning.sweep import PlannedTask, format_estimates, make_tasks, simulate
    from .sweep import cost_of_model, dataset_load

    settings = getattr(partitioner, 'settings', CostSettings())
    loads = {dataset_abbr_from_cfg(d): dataset_load(d) for d in cfg['datasets']}
    planned: List[PlannedTask] = []
    names: List[str] = []
    try:
        costs = {m['abbr']: cost_of_model(m, settings) for m in cfg['models']}
    except CostError as e:
        return f'estimates: none ({e})', [], None
    for task in tasks:
        for model, chunks in zip(task['models'], task['datasets']):
            slices = []
            for chunk in chunks:
                abbr = dataset_abbr_from_cfg(chunk)
                base = abbr if abbr in loads else abbr.rsplit('_', 1)[0]  # shard i of a dataset is <abbr>_<i>
                slices.append((base, 0, items(chunk)))
            planned += make_tasks(costs[model['abbr']], list(loads.values()), [slices], settings)
            names.append(task_abbr_from_cfg({'models': [model], 'datasets': [chunks]}))
    gpus = getattr(partitioner, 'gpus', None)
    try:
        node = getattr(partitioner, 'node', None)
        schedule = simulate(planned, gpus, node.gpus if node else None) if gpus else None
    except ValueError as e:
        return f'estimates: none ({e})', [], None
    return format_estimates(planned, schedule), list(zip(names, planned)), schedule
