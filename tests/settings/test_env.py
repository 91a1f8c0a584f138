"""Whole-number settings that configs read from the environment: refused at load, naming the variable.

``h2htalk plan`` on what is not an eval config (empty, a syntax error, not .py, a directory) is a one-line error too.
"""
import os
import subprocess
import sys

import pytest
from mmengine.config import Config

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.settings.env import EnvSettingError, env_choice, env_choices, env_int

from ..conftest import REPO

DEMO_CFG = REPO / 'configs/eval/h2htalk_demo.py'
SLURM_CFG = REPO / 'configs/eval/h2htalk_slurm.py'


def test_env_int_reads_checks_and_names_the_variable(monkeypatch):
    monkeypatch.delenv('H2HTALK_X', raising=False)
    assert env_int('H2HTALK_X', 20) == 20
    monkeypatch.setenv('H2HTALK_X', '')
    assert env_int('H2HTALK_X', None) is None           # empty is unset
    monkeypatch.setenv('H2HTALK_X', ' 5 ')
    assert env_int('H2HTALK_X', 20) == 5
    monkeypatch.setenv('H2HTALK_X', 'abc')
    with pytest.raises(EnvSettingError) as e:
        env_int('H2HTALK_X', 20, config='c.py', setting='items')
    assert e.value.code == ("error: H2HTALK_X='abc' (read by c.py as items): not a whole number; set it to an "
                            'integer >= 1 or unset it')
    monkeypatch.setenv('H2HTALK_X', '0')
    with pytest.raises(EnvSettingError, match=r'^error: H2HTALK_X=0: must be >= 1, got 0'):
        env_int('H2HTALK_X', 20)


def test_env_choices_keeps_the_given_order_and_names_an_unknown_choice(monkeypatch):
    monkeypatch.delenv('H2HTALK_X', raising=False)
    assert env_choices('H2HTALK_X', ['a', 'b', 'c']) == ['a', 'b', 'c']     # unset: all
    monkeypatch.setenv('H2HTALK_X', ' , ')
    assert env_choices('H2HTALK_X', ['a', 'b', 'c']) == ['a', 'b', 'c']     # empty: all
    monkeypatch.setenv('H2HTALK_X', 'c, a,c')
    assert env_choices('H2HTALK_X', ['a', 'b', 'c']) == ['a', 'c']          # the choices' order, once each
    monkeypatch.setenv('H2HTALK_X', 'a,qwen3')
    with pytest.raises(EnvSettingError) as e:
        env_choices('H2HTALK_X', ['a', 'b'], config='c.py')
    assert e.value.code == ("error: H2HTALK_X='a,qwen3' (read by c.py): unknown 'qwen3'; choose a comma-separated "
                            'list of a, b or unset it for all')


def test_env_choice_reads_checks_and_names_the_variable(monkeypatch):
    monkeypatch.delenv('H2HTALK_X', raising=False)
    assert env_choice('H2HTALK_X', ('block', 'chat'), 'block') == 'block'
    monkeypatch.setenv('H2HTALK_X', ' chat ')
    assert env_choice('H2HTALK_X', ('block', 'chat'), 'block') == 'chat'
    monkeypatch.setenv('H2HTALK_X', 'CHAT')
    with pytest.raises(EnvSettingError) as e:
        env_choice('H2HTALK_X', ('block', 'chat'), 'block', config='c.py', setting='history_format')
    assert e.value.code == ("error: H2HTALK_X='CHAT' (read by c.py as history_format): choose one of block, chat, or "
                            'unset it (default block)')


@pytest.mark.parametrize('config,name,value', [
    (DEMO_CFG, 'H2HTALK_DEMO_ITEMS', 'abc'), (DEMO_CFG, 'H2HTALK_DEMO_ITEMS', '0'),
    (SLURM_CFG, 'H2HTALK_SLURM_GPUS', 'abc'), (SLURM_CFG, 'H2HTALK_SLURM_GPUS', '0'),
    (REPO / 'configs/eval/h2htalk_smollm2.py', 'H2HTALK_ITEMS', '2x'),
    (REPO / 'configs/eval/h2htalk_ladder.py', 'H2HTALK_LADDER_SAMPLE', '0'),
    (REPO / 'configs/eval/h2htalk_ladder.py', 'H2HTALK_LADDER_RUNGS', 'qwen-sap,gpt5'),
    (REPO / 'configs/eval/h2htalk_ladder.py', 'H2HTALK_LADDER_PARTS', 'core,judged'),
    (REPO / 'configs/eval/h2htalk_ladder.py', 'H2HTALK_LADDER_SUBTASKS', 'dialogue_base,dialog_emotion'),
    (DEMO_CFG, 'H2HTALK_HISTORY_FORMAT', 'turns'),
    (REPO / 'configs/eval/h2htalk_smollm2.py', 'H2HTALK_HISTORY_FORMAT', 'Chat'),
    (REPO / 'configs/eval/h2htalk_qwen_coder.py', 'H2HTALK_HISTORY_FORMAT', 'blocks'),
])
def test_configs_refuse_a_bad_number_at_load(monkeypatch, config, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(EnvSettingError, match=rf"^error: {name}='?{value}'? \(read by configs/eval/"):
        Config.fromfile(str(config))


def test_opencompass_stops_at_load_with_one_line(tmp_path):
    env = dict(os.environ, H2HTALK_DEMO_ITEMS='abc', PYTHONPATH=str(REPO))
    opencompass = os.path.join(os.path.dirname(sys.executable), 'opencompass')
    proc = subprocess.run([opencompass, str(DEMO_CFG), '-w', 'out'], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "error: H2HTALK_DEMO_ITEMS='abc' (read by configs/eval/h2htalk_demo.py): not a whole number; set it to an "
        'integer >= 1 or unset it']
    assert not (tmp_path / 'out').exists()


@pytest.mark.parametrize('name,value,message', [
    ('H2HTALK_SLURM_GPUS', 'abc', "error: H2HTALK_SLURM_GPUS='abc' (read by configs/eval/h2htalk_slurm.py as gpus)"),
    ('H2HTALK_API_WORKERS', '0', 'error: H2HTALK_API_WORKERS=0 (read by configs/eval/h2htalk_slurm.py as '
                                 'api_workers): must be >= 1, got 0'),
])
def test_plan_names_a_bad_environment_setting(capsys, monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    assert main(['plan', str(SLURM_CFG)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(message) and len(err.splitlines()) == 1 and out == ''


def test_plan_refuses_what_is_not_an_eval_config_in_one_line(tmp_path, capsys):
    (tmp_path / 'empty.py').write_text('')
    (tmp_path / 'syntax.py').write_text('x = 1\nmodels = [\n')
    (tmp_path / 'config.yaml').write_text('models: []\n')
    (tmp_path / 'configs').mkdir()
    (tmp_path / 'raises.py').write_text('models = datasets = []\ninfer = dict(partitioner=undefined_name)\n')
    cases = {
        'empty.py': 'empty.py: not an OpenCompass eval config: it defines no models, datasets, infer',
        'syntax.py': "syntax.py:2: syntax error: '[' was never closed",
        'config.yaml': 'config.yaml: not a .py file; h2htalk plan reads OpenCompass Python configs',
        'configs': 'configs: is a directory; expected an OpenCompass eval config file',
        'missing.py': 'missing.py: no such config file',
        'raises.py': "raises.py: could not be loaded: NameError: name 'undefined_name' is not defined",
    }
    for name, message in cases.items():
        assert main(['plan', str(tmp_path / name)]) == 1, name
        err = capsys.readouterr().err
        assert err.startswith(f'error: {tmp_path / name}{message[len(name):]}'), (name, err)
        assert len(err.splitlines()) == 1 and 'Traceback' not in err
