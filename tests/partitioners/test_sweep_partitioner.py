"""SweepPartitioner on configs/eval/h2htalk_slurm.py (H2HTALK_PARTITIONER=sweep): its real tasks are the plan's,
every item runs exactly once, `-r` skips predicted shards, and `h2htalk plan` prints the estimates."""
import copy
from collections import Counter

import pytest
from mmengine.config import Config

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.loader import load_rows

from ..planning.test_scale import QWEN_7B, QWEN_72B, SLURM_CFG, _plan_rows, data24, two_models  # noqa: F401 - fixtures


@pytest.fixture
def sweep_env(monkeypatch):
    monkeypatch.setenv('H2HTALK_PARTITIONER', 'sweep')
    monkeypatch.delenv('H2HTALK_SLURM_GPUS', raising=False)


def _build(workdir, **overrides):
    from opencompass.registry import PARTITIONERS

    cfg = Config.fromfile(str(SLURM_CFG))
    cfg['work_dir'] = str(workdir / 'out')
    part_cfg = copy.deepcopy(cfg.infer.partitioner)
    part_cfg.update(out_dir=str(workdir / 'out/predictions/'), dataset_size_path='', **overrides)
    return cfg, PARTITIONERS.build(part_cfg)


def _rows(chunk):
    from opencompass.utils import build_dataset_from_cfg

    return list(build_dataset_from_cfg(chunk).test['id'])


def test_tasks_are_the_plan(workdir, data24, sweep_env):  # noqa: F811
    import datasets

    datasets.disable_progress_bars()
    # A cost model under which the 264 items are worth splitting: slow decode, cheap loads.
    cost = dict(job_overhead_s=1, models={QWEN_7B: dict(load_s=2, decode_tps_per_gpu=20),
                                          QWEN_72B: dict(load_s=4, decode_tps_per_gpu=5)})
    cfg, partitioner = _build(workdir, gpus=16, cost=cost)
    assert type(partitioner).__name__ == 'SweepPartitioner'
    tasks = partitioner(cfg)
    plan = partitioner.last_plan
    assert plan.shards[QWEN_72B] > 1 and plan.shards[QWEN_7B] > 1  # a small budget, and still both are split
    assert len(tasks) == len(plan.tasks) == sum(plan.shards.values())
    full = {d['abbr']: _rows(d) for d in cfg.datasets}  # ids in file order, as a task reads them
    every_id = Counter(i for ids in full.values() for i in ids)
    assert sum(every_id.values()) == 264 and set(every_id.values()) == {1}
    seen = {m['abbr']: Counter() for m in cfg.models}
    shards = {}
    for n, (task, planned) in enumerate(zip(tasks, plan.tasks)):
        assert task['models'][0]['abbr'] == planned.model
        got = []
        for chunk in task['datasets'][0]:
            base, rng = chunk['abbr'], chunk['reader_cfg'].get('test_range', '')
            if base not in full:
                base = base.rsplit('_', 1)[0]
            start, stop = (int(x) for x in rng.strip('[]').split(':')) if rng else (0, len(full[base]))
            ids = full[base][start:stop]
            if n == 0:  # the rows the task will really read (building every chunk would take a minute)
                assert _rows(chunk) == ids
            got.append((base, start, stop))
            seen[planned.model].update(ids)
        assert got == list(planned.slices)  # same datasets, same ranges, same sizes as the plan
        for chunk, (base, start, _) in zip(task['datasets'][0], got):
            shards.setdefault((planned.model, base), []).append((start, chunk['abbr']))
    for model in cfg.models:
        assert seen[model['abbr']] == every_id, model['abbr']  # every item exactly once per model
    # The evaluation merges <abbr>_0, <abbr>_1, ... in order: shard names are numbered by position, none repeated.
    split = {key: [abbr for _, abbr in sorted(v)] for key, v in shards.items() if len(v) > 1}
    assert split
    for (_, base), abbrs in split.items():
        assert abbrs == [f'{base}_{i}' for i in range(len(abbrs))], abbrs


def test_resume_skips_predicted_shards(workdir, data24, sweep_env):  # noqa: F811
    import datasets

    datasets.disable_progress_bars()
    cost = dict(models={QWEN_7B: dict(load_s=2, decode_tps_per_gpu=20), QWEN_72B: dict(load_s=4,
                                                                                        decode_tps_per_gpu=5)})
    cfg, partitioner = _build(workdir, gpus=16, cost=cost)
    tasks = partitioner(cfg)
    first = tasks[0]['datasets'][0][0]
    pred = workdir / 'out/predictions' / tasks[0]['models'][0]['abbr'] / f"{first['abbr']}.json"
    pred.parent.mkdir(parents=True)
    pred.write_text('{}')
    again = partitioner(cfg)
    abbrs = [(t['models'][0]['abbr'], c['abbr']) for t in again for c in t['datasets'][0]]
    assert (tasks[0]['models'][0]['abbr'], first['abbr']) not in abbrs
    assert len(abbrs) == sum(len(t['datasets'][0]) for t in tasks) - 1


def test_bad_cost_setting_is_a_clear_error(workdir, sweep_env):
    with pytest.raises(ValueError, match=r"SweepPartitioner: cost: unknown setting\(s\) \['load'\]"):
        _build(workdir, cost=dict(load=3))


def test_plan_prints_estimates(data24, sweep_env, capsys):  # noqa: F811
    assert main(['plan', str(SLURM_CFG), '--gpus', '16']) == 0
    out = capsys.readouterr().out
    assert 'inference partitioner SweepPartitioner(gpus=16' in out
    assert "GPU budget: 16 (from --gpus, which overrides the config's 64" in out
    assert 'sweep makespan' in out and 'GPU-h' in out and 'GPU efficiency' in out
    est = out[out.index('estimates'):]
    assert {line.split()[0] for line in est.splitlines() if '@' in line} == {QWEN_7B, QWEN_72B}
    rows = _plan_rows(out[:out.index('estimates')])
    assert set(rows) == {QWEN_7B, QWEN_72B}


def test_cost_of_model_counts_the_sap_text_of_sap_wrappers():
    from opencompass_h2htalk.planning.costmodel import text_tokens
    from opencompass_h2htalk.models import SAPVLLMwithChatTemplate
    from opencompass_h2htalk.partitioners.sweep import added_prompt_text, cost_of_model
    from opencompass_h2htalk.sap import load_sap

    base = dict(abbr='m', path='Qwen/Qwen2.5-7B-Instruct', max_out_len=512, run_cfg=dict(num_gpus=1))
    zh, en = load_sap('v1', 'zh').text, load_sap('v1', 'en').text
    # the class, its import path, the wrappers' default sap='v1' and language 'zh', and the twin without SAP
    assert added_prompt_text(dict(base, type=SAPVLLMwithChatTemplate, sap='v1')) == zh
    assert added_prompt_text(dict(base, type='opencompass_h2htalk.models.SAPVLLMwithChatTemplate')) == zh
    assert added_prompt_text(dict(base, type=SAPVLLMwithChatTemplate, sap='v1', sap_language='en')) == en
    assert added_prompt_text(dict(base, type=SAPVLLMwithChatTemplate, sap=None)) == ''
    assert added_prompt_text(dict(base, type='VLLMwithChatTemplate', sap='v1')) == ''  # not an SAP wrapper
    sap = cost_of_model(dict(base, type=SAPVLLMwithChatTemplate, sap='v1'))
    nosap = cost_of_model(dict(base, type=SAPVLLMwithChatTemplate, sap=None))
    assert sap.added_input_tokens == pytest.approx(text_tokens(zh)) and nosap.added_input_tokens == 0
    with pytest.raises(ValueError, match="unknown SAP language 'fr'"):
        cost_of_model(dict(base, type=SAPVLLMwithChatTemplate, sap='v1', sap_language='fr'))
