"""GPU-budget sharding: the printed plan matches what GPUBudgetPartitioner actually creates."""
from collections import Counter

import pytest
from mmengine.config import Config

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.scale import plan_model, split_sizes, workers_for

from .conftest import REPO


def test_workers_from_budget():
    assert workers_for(64, 1) == 64 and workers_for(64, 8) == 8 and workers_for(64, 4) == 16
    assert workers_for(64, 0, api_workers=8) == 8
    with pytest.raises(ValueError, match='needs 8 GPUs but the budget is 4'):
        workers_for(4, 8)


def test_split_sizes_match_numworker_rules():
    assert split_sizes(24, 64, 16) == [16, 8]  # chunks never smaller than min_task_size (except the tail)
    assert split_sizes(100, 4, 16) == [25, 25, 25, 25]
    assert split_sizes(10, 8, 16) == [10]  # small datasets are not split
    assert sum(split_sizes(1882, 64, 16)) == 1882 and len(split_sizes(1882, 64, 16)) == 63


@pytest.mark.parametrize('gpus', [64, 8])
def test_partitioner_creates_the_planned_tasks(workdir, gpus):
    from opencompass_h2htalk.partitioners import GPUBudgetPartitioner

    cfg = Config.fromfile(str(REPO / 'configs/eval/h2htalk_all.py'))
    cfg['work_dir'] = str(workdir / 'out')
    part = GPUBudgetPartitioner(out_dir=str(workdir / 'out/predictions'), gpus=gpus, min_task_size=16)
    tasks = part(cfg)
    per_model = Counter(t['models'][0]['abbr'] for t in tasks)
    sizes = {d['abbr']: 24 for d in cfg['datasets']}
    for model in cfg['models']:
        plan = plan_model(model['abbr'], model['run_cfg']['num_gpus'], sizes, gpus, 16)
        assert per_model[model['abbr']] == plan.tasks, model['abbr']
        items = sum(len(eval(f"range(24){d['reader_cfg'].get('test_range', '')}"))  # noqa: S307
                    for t in tasks if t['models'][0]['abbr'] == model['abbr'] for d in t['datasets'][0])
        assert items == plan.items == 264  # every item exactly once


def test_plan_command_for_all_config(capsys):
    assert main(['plan', str(REPO / 'configs/eval/h2htalk_all.py'), '--gpus', '64']) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if '@' in line.split()[0:1][0]}
    assert rows['qwen2.5-7b-instruct-vllm@sap-v1'][:2] == ['1', '64']    # GPUs/task, workers
    assert rows['qwen2.5-72b-instruct-vllm@sap-v1'][:2] == ['4', '16']
    assert '264 items per model' in out
