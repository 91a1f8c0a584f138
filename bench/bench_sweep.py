"""Simulated sweep of the model zoo: makespan and GPU efficiency of four partitioners under the cost model.

Every config of configs/models/ (the zoo) x the 11 core subtasks at the H2HTalk-Open 1.0 targets (4,650 items per
model; each subtask keeps the mean prompt and reference lengths of the bundled data) on a GPU budget (default 64).
Partitioners: OpenCompass's NumWorkerPartitioner (num_worker 8 and 64), GPUBudgetPartitioner, and SweepPartitioner.
All task lists run through the same scheduler (opencompass_h2htalk.planning.sweep.simulate, each task on one node of
--gpus-per-node GPUs, as srun -N1 places it) and cost model
(opencompass_h2htalk.planning.costmodel, whose defaults are assumptions, not measurements); the sensitivity rows
halve and double every load time. A last block measures what the whole-node models (TP 8: one task fills a node)
do to the sweep: SweepPartitioner with and without them. Each row breaks GPUs x makespan down into inference, model loads, job start and
end (Slurm job overhead + teardown) and idle GPUs; the bound line is opencompass_h2htalk.planning.sweep.makespan_bound,
which no partitioner beats. Goal (issue 13): SweepPartitioner efficiency >= 85 % and makespan <= 1/3 of
GPUBudgetPartitioner's.

    python bench/bench_sweep.py [--gpus 64] [--gpus-per-node 8] [--models N] [--items-scale 1.0]
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
from typing import List, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from opencompass_h2htalk.audit.report import TARGETS_1_0  # noqa: E402
from opencompass_h2htalk.planning.costmodel import CostSettings, DatasetLoad, ModelCost, with_load_scale  # noqa: E402
from opencompass_h2htalk.data.loader import load_rows  # noqa: E402
from opencompass_h2htalk.data.schema import SUBTASKS  # noqa: E402
from opencompass_h2htalk.planning.scale import workers_for  # noqa: E402
from opencompass_h2htalk.planning.sweep import (makespan_bound, make_tasks, numworker_pieces, plan_sweep,  # noqa: E402
                                                simulate)

CORE = [s for s in SUBTASKS if s in TARGETS_1_0 and not s.startswith(('safety', 'probe'))]


def zoo(limit: int = 0) -> List[dict]:
    """The model configs of configs/models/ (one dict per model), sorted by file name; ``limit``: GPU models only."""
    from mmengine.config import Config

    models = []
    for path in sorted(glob.glob(os.path.join(REPO, 'configs/models/*.py'))):
        models += list(Config.fromfile(path)['models'])
    if limit:  # the first `limit` GPU models (API/CPU models take no GPU: a sweep of them alone has no makespan)
        models = [m for m in models if int(m.get('run_cfg', {}).get('num_gpus', 0)) > 0][:limit]
    return models


def datasets(scale: float) -> List[DatasetLoad]:
    """The 11 core subtasks at the 1.0 targets x ``scale``, with the bundled data's mean lengths."""
    out = []
    for subtask in CORE:
        rows = load_rows(subtask)
        out.append(DatasetLoad(f'h2htalk_{subtask}', max(1, round(TARGETS_1_0[subtask] * scale)),
                               sum(len(r['system_prompt']) + len(r['user_prompt']) for r in rows) / len(rows),
                               sum(len(r['reference']) for r in rows) / len(rows)))
    return out


def run(models: List[dict], data: List[DatasetLoad], gpus: int, settings: CostSettings,
        gpus_per_node: int = 8) -> List[Tuple[str, object]]:
    from opencompass_h2htalk.partitioners.sweep import cost_of_model

    costs: List[ModelCost] = [cost_of_model(m, settings) for m in models]
    rows = []
    for name, pieces in [('NumWorkerPartitioner(num_worker=8)', lambda c: numworker_pieces(data, 8)),
                         ('NumWorkerPartitioner(num_worker=64)', lambda c: numworker_pieces(data, 64)),
                         (f'GPUBudgetPartitioner(gpus={gpus})',
                          lambda c: numworker_pieces(data, workers_for(gpus, c.gpus)))]:
        tasks = [t for c in costs for t in make_tasks(c, data, pieces(c), settings)]
        rows.append((name, tasks, simulate(tasks, gpus, gpus_per_node)))
    plan = plan_sweep([(c, data) for c in costs], gpus, settings, gpus_per_node=gpus_per_node)
    rows.append((f'SweepPartitioner(gpus={gpus})', list(plan.tasks), plan.schedule))
    return rows


def _ceiling(models: List[dict], data: List[DatasetLoad], settings: CostSettings) -> float:
    """Inference share of the GPU-seconds when no model is split: no partitioner beats it (each split adds a load)."""
    from opencompass_h2htalk.partitioners.sweep import cost_of_model

    tasks = [t for m in models for t in make_tasks(cost_of_model(m, settings), data,
                                                   [[(d.name, 0, d.items) for d in data]], settings) if t.gpus]
    return sum(t.gpus * t.infer_s for t in tasks) / sum(t.gpus * t.seconds for t in tasks)


def breakdown(tasks, sched, overhead_s: float) -> str:
    """Shares of GPUs x makespan: inference, model loads, job start and end (``overhead_s`` per task: Slurm job
    overhead + teardown), idle (GPUs held by no task)."""
    total = sched.gpus * sched.makespan
    infer = sched.infer_gpu_seconds
    overhead = sum(t.gpus * overhead_s for t in tasks if t.gpus)
    load = sched.gpu_seconds - infer - overhead
    idle = total - sched.gpu_seconds
    return ' '.join(f'{x / total:6.1%}' for x in (infer, load, overhead, idle))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--gpus', type=int, default=64)
    parser.add_argument('--gpus-per-node', type=int, default=8)
    parser.add_argument('--models', type=int, default=0, help='the first N GPU model configs only (0: all configs)')
    parser.add_argument('--items-scale', type=float, default=1.0, help='fraction of the 1.0 targets per subtask')
    args = parser.parse_args(argv)
    models = zoo(args.models)
    data = datasets(args.items_scale)
    from opencompass_h2htalk.partitioners.sweep import check_models_fit
    from opencompass_h2htalk.planning.nodes import NodeSpec

    check_models_fit(models, NodeSpec(args.gpus_per_node), CostSettings(), 'bench_sweep')  # as the partitioners do
    gpu_models = sum(1 for m in models if int(m.get('run_cfg', {}).get('num_gpus', 0)) > 0)
    print(f'{len(models)} model configs ({gpu_models} on GPUs; API/CPU models run beside the GPUs and are left out '
          f'of makespan and efficiency), {sum(d.items for d in data)} items per model, {args.gpus} GPUs in nodes of '
          f'{args.gpus_per_node}')
    print('cost model defaults are assumptions, not measurements (opencompass_h2htalk/planning/costmodel.py)\n')
    head = f'{"load time":9s} {"partitioner":38s} {"GPU tasks":>9s} {"makespan s":>10s} {"GPU-h":>7s} ' \
           f'{"efficiency":>10s} {"vs GPUBudget":>12s}   {"infer":>6s} {"load":>6s} {"job":>6s} {"idle":>6s}'
    print(head + '\n' + '-' * len(head))
    verdicts = []
    for label, scale in [('x1', 1.0), ('x0.5', 0.5), ('x2', 2.0)]:
        settings = with_load_scale(CostSettings(), scale)
        rows = run(models, data, args.gpus, settings, args.gpus_per_node)
        budget = rows[2][2].makespan
        for name, tasks, sched in rows:
            n = sum(1 for t in tasks if t.gpus)
            print(f'{label:9s} {name:38s} {n:9d} {sched.makespan:10.0f} {sched.gpu_seconds / 3600:7.2f} '
                  f'{sched.efficiency:10.1%} {sched.makespan / budget:12.2f}   '
                  f'{breakdown(tasks, sched, settings.job_overhead_s + settings.teardown_s)}')
        new = rows[3][2]
        if label == 'x1':
            sweep_x1 = rows[3][1:]  # the whole zoo's SweepPartitioner plan, reused for the whole-node block
        ceiling = _ceiling(models, data, with_load_scale(CostSettings(), scale))
        print(f'{label:9s} no-split ceiling: every GPU model as ONE task, perfectly packed: efficiency {ceiling:.1%} '
              '(unreachable when one whole task outlasts the GPUs\' share of the work)')
        from opencompass_h2htalk.partitioners.sweep import cost_of_model

        bound = makespan_bound([(cost_of_model(m, settings), data) for m in models], args.gpus, settings)
        infer = rows[3][2].infer_gpu_seconds
        print(f'{label:9s} bound for ANY partitioner: makespan >= {bound:.0f} s, efficiency <= '
              f'{infer / (args.gpus * bound):.1%} (every task fits the makespan, tasks pack perfectly)')
        verdicts.append(f'load {label}: SweepPartitioner efficiency {new.efficiency:.1%} '
                        f'({"meets" if new.efficiency >= 0.85 else "misses"} >= 85 %), makespan '
                        f'{new.makespan / budget:.2f} of GPUBudgetPartitioner\'s '
                        f'({"meets" if new.makespan <= budget / 3 else "misses"} <= 1/3)')
    print('\n' + '\n'.join(verdicts))
    print('\n' + whole_node_effect(models, data, args.gpus, args.gpus_per_node, *sweep_x1))
    return 0


def whole_node_effect(models: List[dict], data: List[DatasetLoad], gpus: int, gpus_per_node: int, tasks,
                      schedule) -> str:
    """SweepPartitioner's sweep with the models whose task fills a node (``tasks`` and ``schedule``: the x1 plan of
    the whole zoo, already made) and without them (planned here), at the default load times."""
    from opencompass_h2htalk.partitioners.sweep import cost_of_model

    costs = [cost_of_model(m, CostSettings()) for m in models]
    wide = [c for c in costs if c.gpus >= gpus_per_node]
    if not wide:
        return f'whole-node models: none in the zoo (no task of {gpus_per_node} GPUs)'
    lines = [f'whole-node models (a task of {gpus_per_node} GPUs fills a node), default load times:']
    for c in wide:
        mine = [t for t in tasks if t.model == c.model]
        lines.append(f'  {c.model:45s} {c.weights_gb:5.0f} GB weights, load {c.load_s:4.0f} s, {len(mine)} task(s), '
                     f'longest {max(t.seconds for t in mine):5.0f} s, {sum(t.gpus * t.seconds for t in mine) / 3600:5.2f} GPU-h')
    without = plan_sweep([(c, data) for c in costs if c.gpus < gpus_per_node], gpus, CostSettings(),
                         gpus_per_node=gpus_per_node).schedule
    for label, sched in (('with them', schedule), ('without them', without)):
        lines.append(f'  SweepPartitioner {label:13s} makespan {sched.makespan:5.0f} s, '
                     f'{sched.gpu_seconds / 3600:6.2f} GPU-h, efficiency {sched.efficiency:.1%}')
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.exit(main())
