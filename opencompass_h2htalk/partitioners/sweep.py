"""``SweepPartitioner``: shards all models of a run against ONE shared GPU budget (plan: :mod:`..planning.sweep`)."""
from __future__ import annotations

import copy
import os.path as osp
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from mmengine.config import Config, ConfigDict
from opencompass.partitioners import NumWorkerPartitioner
from opencompass.registry import PARTITIONERS
from opencompass.utils import (build_dataset_from_cfg, dataset_abbr_from_cfg, get_infer_output_path,
                               model_abbr_from_cfg)

from ..planning.costmodel import (CostError, CostSettings, DatasetLoad, ModelCost, load_cost_file, model_cost,
                                 settings_from, thinks)
from ..planning.nodes import GPU_MEMORY_GB, GPUS_PER_NODE, NodeFitError, NodeSpec, check_fits_node
from ..sap import load_sap
from ..planning.scale import check_unique_abbrs
from ..planning.sweep import MIN_INFER_PER_FIXED, SweepPlan, plan_sweep


def _type_name(t) -> str:
    return t if isinstance(t, str) else getattr(t, '__name__', str(t))


def model_label(model: Mapping) -> str:
    """A model config as an error message names it: its type and path."""
    return f"the model of type {_type_name(model.get('type', '?'))}, path {model.get('path', '?')!r}"


def added_prompt_text(model: Mapping) -> str:
    """The text a model wrapper adds to every prompt: the SAP text of an ``SAP*`` wrapper (``sap=None``: none)."""
    if not _type_name(model.get('type', '')).rsplit('.', 1)[-1].startswith('SAP'):
        return ''
    sap = model.get('sap', 'v1')  # the wrappers' default
    return load_sap(sap, model.get('sap_language', 'zh')).text if sap is not None else ''


def model_thinks(model: Mapping) -> bool:
    """Whether a model config reasons before replying: its ``chat_template_kwargs`` (in-process vLLM) or
    ``extra_body.chat_template_kwargs`` (a served model) switch, else its name (``planning.costmodel.thinks``)."""
    kwargs = dict(model.get('chat_template_kwargs') or {})
    kwargs.update((model.get('extra_body') or {}).get('chat_template_kwargs') or {})
    return thinks(str(model.get('path', '')), kwargs)


def cost_of_model(model: Mapping, settings: CostSettings = CostSettings()) -> ModelCost:
    """The cost-model view of an OpenCompass model config (backend from its type: vLLM, else transformers; the SAP
    text of an SAP wrapper counted as added input; weights' bytes from ``model_kwargs.quantization``; reasoning
    tokens when the model thinks, :func:`model_thinks`)."""
    gpus = int(model.get('run_cfg', {}).get('num_gpus', 0))
    backend = 'vllm' if 'vllm' in _type_name(model.get('type', '')).lower() else 'hf'
    return model_cost(model['abbr'], str(model.get('path', '')), gpus, int(model.get('max_out_len', 512)), backend,
                      settings, added_prompt_text(model), (model.get('model_kwargs') or {}).get('quantization'),
                      model_thinks(model))


def check_models_fit(models: Sequence[Mapping], node: NodeSpec, settings: CostSettings, where: str) -> None:
    """Refuses (ValueError, prefixed with ``where``) a model whose task cannot run on one node: more GPUs than a node,
    or weights larger than its GPUs hold (``planning.nodes``); a model whose size is unknown is checked for GPUs."""
    for model in models:
        gpus = int(model.get('run_cfg', {}).get('num_gpus', 0))
        if gpus <= 0:
            continue
        try:
            weights = cost_of_model(model, settings).weights_gb
        except CostError:
            weights = None  # size unknown: the GPU count is still checked; the cost model names what is missing
        try:
            check_fits_node(model['abbr'], gpus, weights, node)
        except NodeFitError as e:
            raise ValueError(f'{where}: {e}') from None


def dataset_load(dataset: Mapping) -> DatasetLoad:
    """Items and mean input/reference characters of a dataset config (built as the inference task builds it)."""
    ds = build_dataset_from_cfg(dataset).test
    n = len(ds)
    columns = ds.column_names
    inputs = [c for c in dataset['reader_cfg'].get('input_columns', []) if c in columns]
    output = dataset['reader_cfg'].get('output_column')
    in_chars = sum(len(str(v)) for c in inputs for v in ds[c]) / n if n else 0.0
    ref_chars = sum(len(str(v)) for v in ds[output]) / n if n and output in columns else 0.0
    return DatasetLoad(dataset_abbr_from_cfg(dataset), n, in_chars, ref_chars)


@PARTITIONERS.register_module()
class SweepPartitioner(NumWorkerPartitioner):
    """Chooses each model's shard count so that the whole run (all models, one GPU budget) ends soonest.

    Unlike ``GPUBudgetPartitioner`` (every model gets ``gpus // TP`` tasks, however few items that leaves each), the
    shard counts come from the cost model: cheap models run whole, long ones are split, and all tasks are emitted
    longest first so that Slurm fills the budget. Shard ``i`` of a dataset is the chunk ``<abbr>_<i>`` with a
    ``test_range`` as NumWorkerPartitioner writes it, so evaluation merges them as usual.

    Args:
        out_dir: Set by the CLI.
        gpus: The GPU budget of the whole run, shared by all its models.
        cost: Overrides of the cost model (``planning.costmodel.CostSettings`` fields; ``models`` maps a
            model abbr to its own ``params_b``, ``load_s``, ``decode_tps_per_gpu``, ``prefill_tps_per_gpu``,
            ``added_input_tokens``), or the
            path of a JSON file holding that dict (a calibration's ``cost.json``, bench/validate_costmodel.py).
        api_workers: Tasks for models with ``run_cfg.num_gpus == 0``.
        min_infer_per_fixed: Floor on items per task: inference seconds >= this x (load + job overhead) seconds.
        gpus_per_node, gpu_memory_gb: The cluster's nodes: every task runs on one node (``srun -N1``), so a model
            wider than a node, or whose weights its GPUs cannot hold, is refused; the plan places tasks node by node.
        dataset_size_path, keep_keys, force_rebuild: as in NumWorkerPartitioner.
    """

    def __init__(self, out_dir: str, gpus: int = 64, cost: Union[Dict, str, None] = None, api_workers: int = 8,
                 min_infer_per_fixed: float = MIN_INFER_PER_FIXED, gpus_per_node: int = GPUS_PER_NODE,
                 gpu_memory_gb: float = GPU_MEMORY_GB, **kwargs):
        for unused in ('num_worker', 'num_split', 'min_task_size', 'strategy'):
            kwargs.pop(unused, None)
        if gpus < 1 or api_workers < 1:
            raise ValueError(f'SweepPartitioner: gpus and api_workers must be >= 1, got gpus={gpus}, '
                             f'api_workers={api_workers}')
        try:
            self.settings = settings_from(load_cost_file(cost) if isinstance(cost, str) else cost)
            self.node = NodeSpec(int(gpus_per_node), float(gpu_memory_gb))
        except (CostError, ValueError) as e:
            raise ValueError(f'SweepPartitioner: {e}') from None
        super().__init__(out_dir=out_dir, num_worker=1, **kwargs)
        self.gpus, self.api_workers, self.min_infer_per_fixed = gpus, api_workers, min_infer_per_fixed
        self.last_plan: Optional[SweepPlan] = None

    def dataset_load(self, dataset: ConfigDict) -> DatasetLoad:
        """See :func:`dataset_load`."""
        return dataset_load(dataset)

    def plan(self, models: Sequence[ConfigDict], datasets: Sequence[ConfigDict]) -> SweepPlan:
        """The sweep plan of ``models`` x ``datasets`` for a fresh run (the pure planner on the cost model)."""
        check_models_fit(models, self.node, self.settings, 'SweepPartitioner')
        loads = [self.dataset_load(d) for d in datasets]
        try:
            costs = [cost_of_model(m, self.settings) for m in models]
            return plan_sweep([(c, loads) for c in costs], self.gpus, self.settings, self.min_infer_per_fixed,
                              self.api_workers, gpus_per_node=self.node.gpus)
        except (CostError, ValueError) as e:
            raise ValueError(f'SweepPartitioner: {e}') from None

    def partition(self, model_dataset_combinations: List[Dict[str, List]], work_dir: str, out_dir: str,
                  add_cfg: Dict = {}) -> List[ConfigDict]:  # noqa: B006 - mirrors the base signature
        pairs: List[Tuple[ConfigDict, List[ConfigDict]]] = []
        for comb in model_dataset_combinations:
            pairs += [(m, list(comb['datasets'])) for m in comb['models']]
        # One plan for all models, keyed by abbr: two models with one abbr would silently become one.
        check_unique_abbrs([(model_abbr_from_cfg(m), model_label(m)) for m, _ in pairs], 'SweepPartitioner')
        datasets = {dataset_abbr_from_cfg(d): d for _, ds in pairs for d in ds}
        models = {m['abbr']: m for m, _ in pairs}
        if any(len(ds) != len(datasets) for _, ds in pairs):
            raise ValueError('SweepPartitioner: every model must run the same datasets (one shared sweep plan)')
        plan = self.plan(list(models.values()), list(datasets.values()))
        self.last_plan = plan
        # Chunk numbers per (model, dataset): shards of a dataset in item order, so `<abbr>_<i>` merge in order.
        bounds: Dict[Tuple[str, str], List[Tuple[int, int]]] = {}
        for task in plan.tasks:
            for name, start, stop in task.slices:
                bounds.setdefault((task.model, name), []).append((start, stop))
        tasks = []
        for task in plan.tasks:
            model = models[task.model]
            chunks = []
            for name, start, stop in task.slices:
                chunk = self._chunk(model, datasets[name], sorted(bounds[(task.model, name)]), (start, stop), out_dir)
                if chunk is not None:
                    chunks.append(chunk)
            if chunks:
                tasks.append(Config({'models': [model], 'datasets': [chunks], 'work_dir': work_dir, **add_cfg}))
        return tasks

    def _chunk(self, model, dataset, all_bounds, bounds, out_dir) -> Optional[ConfigDict]:
        """The dataset config of one shard, or None when its predictions already exist (``-r``)."""
        filename = get_infer_output_path(model, dataset, out_dir)
        if osp.exists(filename):
            return None
        if len(all_bounds) == 1:  # whole dataset in one task: no suffix, no range
            return dataset
        part = all_bounds.index(bounds)
        root, ext = osp.splitext(filename)
        if osp.exists(f'{root}_{part}{ext}'):
            return None
        cfg = copy.deepcopy(dataset)
        cfg['abbr'] = f'{dataset_abbr_from_cfg(dataset)}_{part}'
        test_range = cfg['reader_cfg'].get('test_range', '')
        cfg['reader_cfg']['test_range'] = f'{test_range}[{bounds[0]}:{bounds[1]}]'
        return cfg
