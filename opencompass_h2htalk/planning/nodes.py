"""Whether a model's inference task fits one node: GPUs per task and weight memory (pure, no OpenCompass).

``SlurmRunner`` starts every task with ``srun -N1 --gres=gpu:N``: one task, one node. A vLLM model whose
``tensor_parallel_size`` (``run_cfg.num_gpus``) exceeds a node's GPUs cannot start there, and one whose weights do
not fit its GPUs' memory fails at load, after it has been queued and has read the weights. Both are refused before
anything is submitted, with the two ways out: a wider node (``gpus_per_node``/``gpu_memory_gb``) or serving the model
across nodes behind an OpenAI-compatible endpoint (``SAPOpenAISDK``, ``vllm serve`` with pipeline parallelism).
"""
from __future__ import annotations

from dataclasses import dataclass

#: GPUs per node of the clusters the project targets (8x H100/H800/A100). Set per cluster
#: (``H2HTALK_SLURM_GPUS_PER_NODE`` in configs/eval/h2htalk_slurm.py).
GPUS_PER_NODE = 8
#: Memory of one GPU in GB (H100/H800/A100 80 GB). H200: 141.
GPU_MEMORY_GB = 80.0
#: The share of GPU memory vLLM may use (the zoo's ``gpu_memory_utilization=0.9``); the weights must fit in it with
#: room left for the KV cache, which this check does not size (vLLM reports it at start-up).
GPU_MEMORY_UTILIZATION = 0.9


class NodeFitError(ValueError):
    """A model whose task cannot run on one node."""


@dataclass(frozen=True)
class NodeSpec:
    """One node of the cluster: its GPU count and the memory of each GPU."""

    gpus: int = GPUS_PER_NODE
    gpu_memory_gb: float = GPU_MEMORY_GB

    def __post_init__(self):
        if self.gpus < 1 or not self.gpu_memory_gb > 0:
            raise ValueError(f'a node needs >= 1 GPU and > 0 GB per GPU, got gpus={self.gpus}, '
                             f'gpu_memory_gb={self.gpu_memory_gb}')


def check_fits_node(abbr: str, gpus: int, weights_gb: float | None, node: NodeSpec = NodeSpec()) -> None:
    """Raises :class:`NodeFitError` unless a task of ``gpus`` GPUs holding ``weights_gb`` of weights runs on ``node``.

    Args:
        abbr: The model's abbr (named in the message).
        gpus: GPUs per task (``run_cfg.num_gpus``, the tensor-parallel width); 0 for API/CPU models (always fit).
        weights_gb: The model's weights in GB (``None``: unknown size, only the GPU count is checked).
        node: The cluster's node.
    """
    if gpus <= 0:
        return
    out = ('serve it across nodes behind an OpenAI-compatible endpoint (e.g. `vllm serve ... '
           '--tensor-parallel-size 8 --pipeline-parallel-size 2` on two nodes) and run it with SAPOpenAISDK '
           '(configs/models/api_*.py)')
    if gpus > node.gpus:
        raise NodeFitError(
            f'model {abbr!r} needs {gpus} GPUs per task (run_cfg.num_gpus / tensor_parallel_size) but a node has '
            f'{node.gpus}: SlurmRunner starts each task on one node (srun -N1), so it would never start. Lower '
            f'its tensor parallelism, set gpus_per_node if your nodes are wider, or {out}')
    if weights_gb is not None:
        room = gpus * node.gpu_memory_gb * GPU_MEMORY_UTILIZATION
        if weights_gb > room:
            raise NodeFitError(
                f'model {abbr!r}: its weights (about {weights_gb:.0f} GB) do not fit the {gpus} GPUs of its task '
                f'({gpus} x {node.gpu_memory_gb:g} GB x {GPU_MEMORY_UTILIZATION:g} usable = {room:.0f} GB), so it '
                f'would fail at load. Use more GPUs per task (up to a node, {node.gpus}), a quantised checkpoint '
                f'(FP8/AWQ), set gpu_memory_gb if your GPUs are larger, or {out}')
