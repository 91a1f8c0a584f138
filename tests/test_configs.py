"""Every shipped config loads; model configs are well formed and carry no key material."""
import re
from pathlib import Path

import pytest
from mmengine.config import Config
from mmengine.utils import get_object_from_string

from .conftest import REPO

MODEL_FILES = sorted((REPO / 'configs/models').glob('*.py'))
KEY_PATTERN = re.compile(r'sk-[A-Za-z0-9]{16,}|key\s*=\s*["\'](?!ENV|EMPTY)[^"\']{8,}')


def _type_name(t):
    return t if isinstance(t, str) else f'{t.__module__}.{t.__name__}'


@pytest.mark.parametrize('path', MODEL_FILES, ids=lambda p: p.name)
def test_model_config(path: Path):
    assert re.fullmatch(r'(vllm|hf|api|local)_[a-z0-9_]+\.py', path.name)
    assert not KEY_PATTERN.search(path.read_text(encoding='utf-8'))
    cfg = Config.fromfile(str(path))
    assert len(cfg.models) == 1
    model = cfg.models[0]
    name = _type_name(model['type'])
    if 'VLLM' not in name:  # vllm is not installed on CPU machines
        assert get_object_from_string(name) is not None, name
    if 'VLLM' in name:
        assert model['model_kwargs']['tensor_parallel_size'] == model['run_cfg']['num_gpus']
    if model.get('meta_template') is not None:
        assert dict(role='SYSTEM', api_role='SYSTEM') in model['meta_template']['reserved_roles']


def test_model_abbrs_unique():
    abbrs = [Config.fromfile(str(p)).models[0]['abbr'] for p in MODEL_FILES]
    assert len(abbrs) == len(set(abbrs))


@pytest.mark.parametrize('name', ['h2htalk_all.py', 'h2htalk_demo.py'])
def test_eval_configs_load(name):
    cfg = Config.fromfile(str(REPO / 'configs/eval' / name))
    assert [d['abbr'] for d in cfg.datasets][:3] == ['h2htalk_dialogue_base', 'h2htalk_dialogue_emotion',
                                                     'h2htalk_dialogue_schedule']
    assert len(cfg.datasets) == 11
    names = {g['name'] for g in cfg.summarizer['summary_groups']}
    assert names == {'h2htalk_dialogue', 'h2htalk_recollection', 'h2htalk_itinerary', 'h2htalk_overall'}
    assert all(g['weights'] for g in cfg.summarizer['summary_groups'])
