"""GPU-budget sharding: what GPUBudgetPartitioner really makes of configs/eval/h2htalk_slurm.py (item ids
included), and what `h2htalk plan` prints for the shipped configs."""
import copy
from collections import Counter

import pytest
from mmengine.config import Config

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.planning.scale import ModelPlan, format_plan, summarize_tasks, workers_for

from ..conftest import REPO

SLURM_CFG = REPO / 'configs/eval/h2htalk_slurm.py'
ALL_CFG = REPO / 'configs/eval/h2htalk_all.py'
QWEN_7B, QWEN_72B = 'qwen2.5-7b-instruct-vllm@sap-v1', 'qwen2.5-72b-instruct-vllm@sap-v1'
#: The literal task counts below are for two models (a TP-1 and a TP-4 one); the config's default is the whole zoo.
TWO_MODELS = 'vllm_qwen2_5_7b_instruct_sap,vllm_qwen2_5_72b_instruct_sap'


@pytest.fixture(autouse=True)
def two_models(monkeypatch):
    """h2htalk_slurm.py sweeps the whole zoo by default; these tests pin its two Qwen2.5 models (docs/slurm.md shows
    the same selection)."""
    monkeypatch.setenv('H2HTALK_SLURM_MODELS', TWO_MODELS)


def test_workers_from_budget():
    assert workers_for(64, 1) == 64 and workers_for(64, 8) == 8 and workers_for(64, 4) == 16
    assert workers_for(64, 0, api_workers=8) == 8
    with pytest.raises(ValueError, match='needs 8 GPUs but the budget is 4'):
        workers_for(4, 8)
    with pytest.raises(ValueError, match=r'api_workers .* must be >= 1, got 0'):
        workers_for(64, 1, api_workers=0)
    with pytest.raises(ValueError, match='budget must be >= 1, got 0'):
        workers_for(0, 1)


def test_summarize_tasks():
    tasks = [('a', 1, [16, 8]), ('b', 4, [24]), ('a', 1, [16]), ('b', 4, [10, 2, 2])]
    assert summarize_tasks(tasks, {'a': 64}) == [ModelPlan('a', 1, 64, 2, 3, 40, 24),
                                                 ModelPlan('b', 4, None, 2, 4, 38, 24)]
    table = format_plan(summarize_tasks(tasks, {'a': 64}))
    assert table.splitlines()[2].split() == ['a', '1', '64', '2', '3', '40', '24', '2']
    assert table.splitlines()[3].split() == ['b', '4', '-', '2', '4', '38', '24', '8']
    with pytest.raises(ValueError, match="model 'a': tasks disagree on GPUs per task"):
        summarize_tasks([('a', 1, [1]), ('a', 2, [1])])


@pytest.fixture
def data24(tmp_path, monkeypatch):
    """The bundled data cut to its first 24 records per file (264 core items), so the literal task counts below
    test the partitioner, not how far the data has grown."""
    import shutil

    from opencompass_h2htalk.data.loader import write_manifest
    from opencompass_h2htalk.data.paths import default_data_dir

    root = tmp_path / 'data24'
    shutil.copytree(default_data_dir(), root)
    for path in root.glob('*.jsonl'):
        lines = path.read_text(encoding='utf-8').splitlines(keepends=True)
        path.write_text(''.join(lines[:24]), encoding='utf-8')
    write_manifest(str(root))
    monkeypatch.setenv('H2HTALK_DATA', str(root))
    return root


def _partition(cfg_path, workdir, **overrides):
    """The inference tasks, built the way `opencompass` builds them (cli/main.py), without running anything."""
    from opencompass.registry import PARTITIONERS

    cfg = Config.fromfile(str(cfg_path))
    cfg['work_dir'] = str(workdir / 'out')
    part_cfg = copy.deepcopy(cfg.infer.partitioner)
    part_cfg.update(out_dir=str(workdir / 'out/predictions/'), **overrides)
    return cfg, PARTITIONERS.build(part_cfg)(cfg)


@pytest.mark.parametrize('gpus,expected_tasks', [(64, {QWEN_7B: 22, QWEN_72B: 16}), (8, {QWEN_7B: 8, QWEN_72B: 2})])
def test_gpu_budget_partitioner_shards_every_item_exactly_once(workdir, data24, gpus, expected_tasks):
    import datasets
    from opencompass.utils import build_dataset_from_cfg

    datasets.disable_progress_bars()
    cfg, tasks = _partition(SLURM_CFG, workdir, gpus=gpus)
    assert 'GPUBudgetPartitioner' in str(cfg.infer.partitioner.type)
    assert Counter(t['models'][0]['abbr'] for t in tasks) == expected_tasks
    every_id = Counter(row['id'] for d in cfg.datasets for row in load_rows(d['subtask']))
    assert len(every_id) == 264 and set(every_id.values()) == {1}
    for model in cfg.models:
        mine = [t for t in tasks if t['models'][0]['abbr'] == model['abbr']]
        workers = gpus // model['run_cfg']['num_gpus']
        assert len(mine) <= workers
        # The rows each task will read: its dataset chunks with their test_range, loaded as the task loads them.
        seen = Counter(i for t in mine for chunk in t['datasets'][0] for i in build_dataset_from_cfg(chunk).test['id'])
        assert seen == every_id, model['abbr']  # every item exactly once across the model's tasks
        for t in mine:
            ranges = [c['reader_cfg'].get('test_range') for c in t['datasets'][0]]
            assert all(r is None or r.startswith('[') for r in ranges), ranges


def _plan_rows(out):
    """The rows of the task table (the estimates table below it has rows per model too)."""
    tasks = out.split('\nestimates')[0]
    rows = [line.split() for line in tasks.splitlines()]
    return {row[0]: row[1:] for row in rows if row and '@' in row[0]}


def test_plan_uses_the_configs_own_partitioner(data24, capsys):
    # h2htalk_all.py: NumWorkerPartitioner(num_worker=8): 22 chunks per model dealt to 8 tasks.
    assert main(['plan', str(ALL_CFG)]) == 0
    out = capsys.readouterr().out
    assert 'NumWorkerPartitioner(num_worker=8, min_task_size=16)' in out
    rows = _plan_rows(out)
    #                  GPUs/task workers tasks chunks items max/task GPUs used
    assert rows[QWEN_7B] == ['1', '8', '8', '22', '264', '48', '8']
    assert rows[QWEN_72B] == ['4', '8', '8', '22', '264', '48', '32']
    assert rows['gpt-4o-api@sap-v1'][:3] == ['0', '8', '8']
    assert '264 items per model' in out


def test_plan_matches_what_the_partitioner_makes(workdir, data24, capsys):
    _, tasks = _partition(SLURM_CFG, workdir, gpus=64)
    assert main(['plan', str(SLURM_CFG)]) == 0
    rows = _plan_rows(capsys.readouterr().out)
    for model, count in Counter(t['models'][0]['abbr'] for t in tasks).items():
        assert int(rows[model][2]) == count
    assert rows[QWEN_7B] == ['1', '64', '22', '22', '264', '16', '22']
    assert rows[QWEN_72B] == ['4', '16', '16', '22', '264', '32', '64']


def test_plan_gpu_budget_precedence(capsys, monkeypatch):
    monkeypatch.setenv('H2HTALK_SLURM_GPUS', '16')
    assert main(['plan', str(SLURM_CFG)]) == 0
    out = capsys.readouterr().out
    assert 'GPU budget: 16 (from the config; H2HTALK_SLURM_GPUS=16 is set)' in out
    assert _plan_rows(out)[QWEN_7B][:2] == ['1', '16']
    assert main(['plan', str(SLURM_CFG), '--gpus', '8']) == 0
    out = capsys.readouterr().out
    assert "GPU budget: 8 (from --gpus, which overrides the config's 16; H2HTALK_SLURM_GPUS=16 is set)" in out
    assert _plan_rows(out)[QWEN_7B][:2] == ['1', '8']
    # --gpus means nothing to a partitioner without a GPU budget: say so instead of ignoring it.
    assert main(['plan', str(ALL_CFG), '--gpus', '8']) == 1
    assert '--gpus sets the budget of GPUBudgetPartitioner' in capsys.readouterr().err


def test_zero_api_workers_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setenv('H2HTALK_API_WORKERS', '0')
    assert main(['plan', str(SLURM_CFG)]) == 1
    err = capsys.readouterr().err
    assert 'api_workers' in err and 'must be >= 1, got 0' in err and 'H2HTALK_API_WORKERS' in err
    from opencompass_h2htalk.partitioners import GPUBudgetPartitioner

    with pytest.raises(ValueError, match='H2HTALK_API_WORKERS'):  # was a ZeroDivisionError at the first API model
        GPUBudgetPartitioner(out_dir='unused', gpus=8, api_workers=0)


def _readme():
    """README.md and the docs pages it links (the reference material moved there), as one text."""
    pages = [REPO / 'README.md', *sorted((REPO / 'docs').glob('*.md'))]
    return '\n\n'.join(p.read_text(encoding='utf-8') for p in pages)


def test_readme_plan_block_is_what_plan_prints(capsys, monkeypatch):
    monkeypatch.delenv('H2HTALK_SLURM_GPUS', raising=False)
    readme = _readme()
    start = readme.index('configs/eval/h2htalk_slurm.py: inference partitioner')
    block = readme[start:readme.index('```', start)].rstrip('\n').splitlines()
    assert main(['plan', str(SLURM_CFG)]) == 0
    printed = capsys.readouterr().out.replace(str(REPO) + '/', '').splitlines()
    assert block == printed[:len(block)]


def test_readme_describes_the_models_of_h2htalk_all(capsys):
    readme = _readme()
    start = readme.index('`configs/eval/h2htalk_all.py` runs all subtasks')
    paragraph = ' '.join(readme[start:readme.index('\n\n', start)].split())
    cfg = Config.fromfile(str(ALL_CFG))
    for model in cfg.models:
        if model.get('sap') is not None:
            assert model['abbr'].endswith('@sap-v1')
        tp = model.get('model_kwargs', {}).get('tensor_parallel_size')
        if tp:
            name = model['path'].rsplit('/', 1)[-1]
            assert f'{name} (TP {tp}' in paragraph, (name, tp)
    assert 'SAP v1 variants' in paragraph
    tasks = int(paragraph.split('shows ')[1].split(' tasks per model')[0])
    assert main(['plan', str(ALL_CFG)]) == 0
    assert {int(row[2]) for row in _plan_rows(capsys.readouterr().out).values()} == {tasks}


def test_models_sharing_an_abbr_are_refused_by_name():
    from opencompass_h2htalk.planning.scale import check_unique_abbrs, duplicate_abbrs

    entries = [('a', 'one.py'), ('b', 'two.py'), ('a', 'three.py'), ('b', 'four.py'), ('c', 'five.py')]
    assert duplicate_abbrs(entries) == {'a': ['one.py', 'three.py'], 'b': ['two.py', 'four.py']}
    check_unique_abbrs(entries[:2], 'cfg.py')  # distinct abbrs pass
    with pytest.raises(ValueError, match=r"^cfg.py: abbr 'a' is used by one.py and by three.py; abbr 'b' is used by "
                                         r"two.py and by four.py\. Each model writes predictions/<abbr>/"):
        check_unique_abbrs(entries, 'cfg.py')


_DUP_MODEL = '''from opencompass_h2htalk.models import H2HTalkRetrievalBaseline

models = [dict(type=H2HTalkRetrievalBaseline, abbr='same-baseline', path='{path}', max_out_len=512, batch_size=8,
               run_cfg=dict(num_gpus=0))]
'''
_DUP_EVAL = '''from mmengine.config import read_base

from opencompass_h2htalk.partitioners import {partitioner}

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..models.dup_first import models as first
    from ..models.dup_second import models as second

datasets = h2htalk_datasets
models = [*first, *second]
infer = dict(partitioner=dict(type={partitioner}, gpus=8, api_workers=8))
'''


@pytest.fixture
def dup_configs(tmp_path):
    """A copy of configs/ with an eval config whose two models, from two model configs, share one abbr."""
    import shutil

    root = tmp_path / 'configs'
    shutil.copytree(REPO / 'configs', root)
    for name in ('first', 'second'):
        (root / 'models' / f'dup_{name}.py').write_text(_DUP_MODEL.format(path=f'baseline-{name}'))
    for partitioner in ('GPUBudgetPartitioner', 'SweepPartitioner'):
        (root / 'eval' / f'dup_{partitioner}.py').write_text(_DUP_EVAL.format(partitioner=partitioner))
    return root


@pytest.mark.parametrize('partitioner', ['GPUBudgetPartitioner', 'SweepPartitioner'])
def test_plan_refuses_two_models_with_one_abbr(data24, dup_configs, partitioner, capsys, monkeypatch):
    # Issue 25: GPUBudgetPartitioner made 16 tasks that plan showed as one model row, exit 0 (and SweepPartitioner
    # kept one of the two models); both models would have written predictions/same-baseline/.
    monkeypatch.chdir(dup_configs.parent)
    assert main(['plan', f'configs/eval/dup_{partitioner}.py']) == 1
    captured = capsys.readouterr()
    assert captured.out == ''
    err = captured.err
    assert err.startswith(f"error: configs/eval/dup_{partitioner}.py: abbr 'same-baseline' is used by models[0] "
                          '(configs/models/dup_first.py: type H2HTalkRetrievalBaseline, '
                          "path 'baseline-first') and by models[1] (configs/models/dup_second.py"), err
    assert 'predictions/<abbr>/' in err and 'Traceback' not in err


@pytest.mark.parametrize('partitioner', ['GPUBudgetPartitioner', 'SweepPartitioner'])
def test_partitioners_refuse_two_models_with_one_abbr(workdir, data24, dup_configs, partitioner):
    # The partitioners refuse on their own too (an `opencompass` run never goes through `h2htalk plan`).
    from opencompass.registry import PARTITIONERS

    cfg = Config.fromfile(str(dup_configs / 'eval' / f'dup_{partitioner}.py'))
    cfg['work_dir'] = str(workdir / 'out')
    part_cfg = copy.deepcopy(cfg.infer.partitioner)
    part_cfg.update(out_dir=str(workdir / 'out/predictions/'), dataset_size_path='')
    build = PARTITIONERS.build(part_cfg)
    with pytest.raises(ValueError, match=rf"^{partitioner}: abbr 'same-baseline' is used by the model of type "
                                         r"H2HTalkRetrievalBaseline, path 'baseline-first' and by the model of type "
                                         r"H2HTalkRetrievalBaseline, path 'baseline-second'\."):
        build(cfg)


def test_plan_sweeps_the_whole_zoo_with_whole_node_models_kept_whole(data24, capsys, monkeypatch):
    # Issue 23: `h2htalk plan configs/eval/h2htalk_slurm.py` plans every GPU model of the zoo (its default); a model
    # that needs a whole node (TP 8) runs as few one-node tasks, each paying for its load (here, on 264 items, one).
    from opencompass_h2htalk.settings.models import select_models

    monkeypatch.delenv('H2HTALK_SLURM_MODELS')
    monkeypatch.setenv('H2HTALK_PARTITIONER', 'sweep')
    assert main(['plan', str(SLURM_CFG), '--gpus', '64']) == 0
    out = capsys.readouterr().out
    rows = _plan_rows(out)
    zoo = select_models('zoo', str(REPO / 'configs/models'))
    assert set(rows) == {m['abbr'] for m in zoo} and len(zoo) >= 20
    for abbr in ('qwen3-235b-a22b-instruct-2507-vllm@sap-v1', 'deepseek-v2.5-vllm@sap-v1'):
        assert rows[abbr][0] == '8' and rows[abbr][2] == '1', rows[abbr]
    assert 'qwen3-8b-thinking-vllm@sap-v1' in rows and 'sweep makespan' in out


_OVER_NODE = '''from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

models = [dict(type=SAPVLLMwithChatTemplate, abbr='deepseek-v3.1-vllm@nosap', path='deepseek-ai/DeepSeek-V3.1',
               sap=None, model_kwargs=dict(tensor_parallel_size={tp}), max_out_len=1024, batch_size=128,
               run_cfg=dict(num_gpus={tp}))]
'''


@pytest.mark.parametrize('partitioner', ['gpu_budget', 'sweep'])
def test_plan_refuses_a_model_that_does_not_fit_one_node(data24, tmp_path, partitioner, capsys, monkeypatch):
    import shutil

    root = tmp_path / 'configs'
    shutil.copytree(REPO / 'configs', root)
    for tp in (8, 16):
        (root / 'models' / f'vllm_deepseek_v3_1_tp{tp}_nosap.py').write_text(_OVER_NODE.format(tp=tp))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('H2HTALK_PARTITIONER', partitioner)
    monkeypatch.setenv('H2HTALK_SLURM_MODELS', 'vllm_deepseek_v3_1_tp16_nosap')
    assert main(['plan', 'configs/eval/h2htalk_slurm.py', '--gpus', '64']) == 1
    captured = capsys.readouterr()
    assert "model 'deepseek-v3.1-vllm@nosap' needs 16 GPUs per task" in captured.err and 'a node has 8' in captured.err
    assert 'SAPOpenAISDK' in captured.err and 'Traceback' not in captured.err and captured.out == ''
    # TP 8 fits a node's GPUs but not its memory: 671 GB of FP8 weights > 8 x 80 GB x 0.9 ...
    monkeypatch.setenv('H2HTALK_SLURM_MODELS', 'vllm_deepseek_v3_1_tp8_nosap')
    assert main(['plan', 'configs/eval/h2htalk_slurm.py', '--gpus', '64']) == 1
    assert 'its weights (about 671 GB) do not fit the 8 GPUs of its task' in capsys.readouterr().err
    # ... and fits a node of H200s.
    monkeypatch.setenv('H2HTALK_SLURM_GPU_MEMORY_GB', '141')
    assert main(['plan', 'configs/eval/h2htalk_slurm.py', '--gpus', '64']) == 0
    assert _plan_rows(capsys.readouterr().out)['deepseek-v3.1-vllm@nosap'][0] == '8'


def test_a_model_selection_that_matches_nothing_is_named(capsys, monkeypatch):
    monkeypatch.setenv('H2HTALK_SLURM_MODELS', 'vllm_qwen3_*_sap,vllm_qwen4_*')
    assert main(['plan', str(SLURM_CFG)]) == 1
    err = capsys.readouterr().err
    assert "error: H2HTALK_SLURM_MODELS='vllm_qwen3_*_sap,vllm_qwen4_*' (read by configs/eval/h2htalk_slurm.py): " \
           "'vllm_qwen4_*' matches no config" in err
