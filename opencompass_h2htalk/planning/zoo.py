"""The zoo table: each model config pair with what it needs (GPUs, weights, node fit) and the cost model's load time
and rates for it (pure, no OpenCompass; ``h2htalk zoo`` feeds it the configs of configs/models/)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from .costmodel import ModelCost
from .nodes import NodeFitError, NodeSpec, check_fits_node


@dataclass(frozen=True)
class ZooRow:
    """One config pair (``<stem>_sap.py`` / ``<stem>_nosap.py``) of the zoo."""

    stem: str
    path: str
    backend: str              # vllm, hf or api
    gpus: int                 # per task (tensor-parallel width); 0 for API models
    weights_gb: Optional[float]
    load_s: Optional[float]
    decode_tps: Optional[float]  # output tokens/s of the whole task
    thinking: bool
    fit: str                  # 'one GPU', 'whole node', 'N GPUs', 'API', or why it does not fit


def zoo_rows(configs: Sequence[Tuple[str, Mapping, ModelCost, bool]], node: NodeSpec = NodeSpec()) -> List[ZooRow]:
    """Rows for the no-SAP twin of each pair.

    Args:
        configs: ``(file stem, model config, its cost-model view, thinks)`` per ``*_nosap`` config (the SAP twin
            differs only in ``sap`` and ``abbr``, so one row stands for the pair).
        node: The node the fit column is judged against.
    """
    rows = []
    for stem, model, cost, thinking in configs:
        backend = 'api' if cost.gpus == 0 else ('vllm' if 'vllm' in str(model.get('type', '')).lower() else 'hf')
        if cost.gpus == 0:
            fit = 'API'
        else:
            try:
                check_fits_node(cost.model, cost.gpus, cost.weights_gb, node)
                fit = ('whole node' if cost.gpus == node.gpus else
                       'one GPU' if cost.gpus == 1 else f'{cost.gpus} GPUs')
            except NodeFitError:
                fit = 'does not fit: ' + ('too wide' if cost.gpus > node.gpus else 'weights too large')
        gpu = cost.gpus > 0
        rows.append(ZooRow(stem.removesuffix('_nosap'), str(model.get('path', '')), backend, cost.gpus,
                           cost.weights_gb if gpu else None, cost.load_s if gpu else None,
                           cost.decode_tps if gpu else None, thinking, fit))
    return rows


def format_zoo(rows: Sequence[ZooRow], node: NodeSpec = NodeSpec()) -> str:
    """The zoo as a fixed-width table, GPU models first (widest first), then API models; a footer names the node."""
    order = sorted(rows, key=lambda r: (r.gpus == 0, -r.gpus, r.stem))
    head = (f'{"config (_sap / _nosap)":44s} {"backend":7s} {"GPUs":>4s} {"weights GB":>10s} {"load s":>6s} '
            f'{"decode tok/s":>12s} {"thinking":8s} fit')
    lines = [head, '-' * len(head)]
    for r in order:
        num = (lambda v, f: '-' if v is None else format(v, f))
        lines.append(f'{r.stem:44s} {r.backend:7s} {r.gpus:4d} {num(r.weights_gb, ".0f"):>10s} '
                     f'{num(r.load_s, ".0f"):>6s} {num(r.decode_tps, ".0f"):>12s} {"on" if r.thinking else "off":8s} '
                     f'{r.fit}')
    lines.append(f'node: {node.gpus} GPUs of {node.gpu_memory_gb:g} GB; load s and decode tok/s (whole task) are the '
                 'cost model\'s assumptions (planning/costmodel.py), not measurements')
    return '\n'.join(lines)


def pair_stems(stems: Sequence[str]) -> Dict[str, List[str]]:
    """``{no-SAP stem: [its SAP twin stem]}`` for the ``*_nosap`` stems of ``stems`` (the twin listed if present)."""
    have = set(stems)
    return {s: [s[:-len('_nosap')] + '_sap'] if s[:-len('_nosap')] + '_sap' in have else []
            for s in sorted(stems) if s.endswith('_nosap')}
