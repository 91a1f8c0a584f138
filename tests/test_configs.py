"""Every shipped config loads; the model zoo is well formed, paired and free of key material."""
import re
from pathlib import Path

import pytest
from mmengine.config import Config
from mmengine.utils import get_object_from_string

from .conftest import REPO

MODEL_FILES = sorted((REPO / 'configs/models').glob('*.py'))
SAP_FILES = [p for p in MODEL_FILES if p.stem.endswith('_sap')]
KEY_PATTERN = re.compile(r'sk-[A-Za-z0-9]{16,}|key\s*=\s*["\'](?!ENV|EMPTY)[^"\']{8,}')
NAME_PATTERN = re.compile(r'(vllm|hf|api)_[a-z0-9]+(_[a-z0-9]+)*_(sap|nosap)\.py|local_[a-z0-9_]+\.py')


def _model(path: Path):
    cfg = Config.fromfile(str(path))
    assert len(cfg.models) == 1, path
    return cfg.models[0]


def _type_name(t):
    return t if isinstance(t, str) else f'{t.__module__}.{t.__name__}'


@pytest.mark.parametrize('path', MODEL_FILES, ids=lambda p: p.name)
def test_model_config(path: Path):
    assert NAME_PATTERN.fullmatch(path.name), path.name
    assert not KEY_PATTERN.search(path.read_text(encoding='utf-8'))
    model = _model(path)
    name = _type_name(model['type'])
    assert get_object_from_string(name) is not None, name  # importable without vllm installed
    assert '/' not in model['abbr'] and "'" not in model['abbr']
    if 'VLLM' in name:
        assert model['model_kwargs']['tensor_parallel_size'] == model['run_cfg']['num_gpus']
        assert model['run_cfg']['num_gpus'] in (1, 2, 4, 8)
    if 'OpenAISDK' in name:
        assert str(model['key']).startswith('ENV') or model['key'] == 'EMPTY'
    if path.stem.endswith('_nosap'):
        assert model['sap'] is None and model['abbr'].endswith('@nosap')


@pytest.mark.parametrize('path', SAP_FILES, ids=lambda p: p.name)
def test_sap_variant_differs_from_its_twin_only_in_sap_and_abbr(path: Path):
    twin_path = path.with_name(path.stem[:-len('_sap')] + '_nosap.py')
    assert twin_path.exists(), f'{path.name} has no no-SAP twin'
    sap, twin = _model(path), _model(twin_path)
    assert sap['sap'] == 'v1' and sap['abbr'] == twin['abbr'].replace('@nosap', '@sap-v1')
    differing = {k for k in set(sap) | set(twin) if sap.get(k) != twin.get(k)}
    assert differing <= {'abbr', 'sap', 'sap_language'}


def test_zoo_covers_the_paper_families():
    families = {p.stem.rsplit('_', 1)[0] for p in SAP_FILES}
    assert len(SAP_FILES) >= 10 and len(MODEL_FILES) >= 20
    for needle in ('qwen2_5_7b', 'qwen2_5_14b', 'qwen2_5_32b', 'qwen2_5_72b', 'llama3_1_8b', 'llama3_1_70b',
                   'glm4_9b', 'internlm2_5_7b', 'internlm2_5_20b', 'mistral_7b', 'yi1_5_34b', 'gemma2_9b',
                   'gemma2_27b', 'deepseek_v2_5', 'gpt_4o', 'claude_3_7'):
        assert any(needle in f for f in families), needle


def test_model_abbrs_unique():
    abbrs = [_model(p)['abbr'] for p in MODEL_FILES]
    assert len(abbrs) == len(set(abbrs))


@pytest.mark.parametrize('name,extra', [('h2htalk_all.py', []), ('h2htalk_demo.py', []), ('h2htalk_slurm.py', []),
                                        ('h2htalk_sap_ablation.py', ['h2htalk_safety']),
                                        ('h2htalk_judged.py', ['h2htalk_safety', 'h2htalk_probe_implicit_help',
                                                               'h2htalk_probe_ambiguous', 'h2htalk_probe_context_aware'])])
def test_eval_configs_load(name, extra):
    from opencompass_h2htalk.data.schema import CORE_SUBTASKS
    cfg = Config.fromfile(str(REPO / 'configs/eval' / name))
    assert [d['abbr'] for d in cfg.datasets] == [f'h2htalk_{s}' for s in CORE_SUBTASKS] + extra
    names = {g['name'] for g in cfg.summarizer['summary_groups']}
    assert {'h2htalk_dialogue', 'h2htalk_recollection', 'h2htalk_itinerary', 'h2htalk_overall'} <= names
    assert all(g['weights'] for g in cfg.summarizer['summary_groups'])


def test_ablation_pairs_twins_side_by_side():
    models = Config.fromfile(str(REPO / 'configs/eval/h2htalk_sap_ablation.py')).models
    abbrs = [m['abbr'] for m in models]
    assert len(abbrs) % 2 == 0
    for nosap, sap in zip(abbrs[::2], abbrs[1::2]):
        assert nosap.endswith('@nosap') and sap == nosap.replace('@nosap', '@sap-v1')
