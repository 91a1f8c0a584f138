"""The ``h2htalk`` maintenance command."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.loader import load_rows, load_subtask
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.hashing import sha256_file

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_validate_bundled_data(capsys):
    assert main(['validate']) == 0
    out = capsys.readouterr().out
    # The total is every non-blank line of the scenario files, counted here without the plugin.
    total = sum(sum(1 for line in open(os.path.join(default_data_dir(), n), encoding='utf-8') if line.strip())
                for n in os.listdir(default_data_dir()) if n.endswith('.jsonl'))
    assert total >= 363  # at least the 0.2.0 seed: 264 core + 33 safety + 66 probes
    assert 'ok  dialogue_base.jsonl' in out and f'{total} scenarios' in out
    assert 'ok  rubrics.json' in out
    assert 'ok  frame.json                         600 users' in out  # pinned in the manifest, checked too


def test_show_prints_both_turns_and_reference(capsys):
    assert main(['show', 'itinerary_advanced', '2']) == 0
    out = capsys.readouterr().out
    assert '# itinerary_advanced-003' in out and '[SYSTEM]' in out and '【此刻所在的时间段】' in out


def test_show_gives_a_conversation_as_the_chat_turns_the_shipped_configs_send(capsys):
    row = load_rows('dialogue_base', history_format='chat')[0]
    assert main(['show', 'dialogue_base', '0']) == 0
    out = capsys.readouterr().out
    assert out.startswith(f'# {row["id"]} ') and 'history as chat turns' in out
    messages = json.loads(row['messages'])
    assert [line[1:-1] for line in out.splitlines() if line in ('[SYSTEM]', '[HUMAN]', '[BOT]')] == [
        m['role'] for m in messages]
    assert '【对话记录】' not in out and f"[HUMAN]\n{messages[-1]['prompt']}\n\n[REFERENCE]\n" in out
    assert main(['show', 'dialogue_base', '0', '--history-format', 'block']) == 0
    block = capsys.readouterr().out
    assert 'history as a text block' in block and '【对话记录】' in block and '[BOT]' not in block


def test_show_refuses_chat_turns_for_a_subtask_without_a_conversation(capsys):
    assert main(['show', 'recollection_refine', '0', '--history-format', 'chat']) == 2
    captured = capsys.readouterr()
    assert captured.out == '' and "subtask 'recollection_refine' has no conversation to continue" in captured.err


def test_validate_reports_a_changed_file(tmp_path, capsys):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    with open(data / 'itinerary_middle.jsonl', encoding='utf-8') as f:
        broken_line = sum(1 for _ in f) + 1
    with open(data / 'itinerary_middle.jsonl', 'a', encoding='utf-8') as f:
        f.write('{"id": "broken"\n')
    assert main(['validate', str(data)]) == 1
    assert 'itinerary_middle.jsonl: SHA-256' in capsys.readouterr().err
    assert main(['manifest', str(data)]) == 1  # refuses to pin invalid data
    assert f'itinerary_middle.jsonl:{broken_line}: invalid JSON' in capsys.readouterr().err


def _copy(tmp_path):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    return data


def test_validate_reports_stray_and_unlisted_jsonl_files(tmp_path, capsys):
    data = _copy(tmp_path)
    shutil.copy(data / 'dialogue_base.jsonl', data / 'dialog_base.jsonl')  # a typo: never loaded
    manifest = json.loads((data / 'MANIFEST.json').read_text(encoding='utf-8'))
    del manifest['files']['safety.jsonl']  # on disk but not pinned: never loaded either
    (data / 'MANIFEST.json').write_text(json.dumps(manifest), encoding='utf-8')
    assert main(['validate', str(data)]) == 1
    err = capsys.readouterr().err
    assert f'error: {data / "dialog_base.jsonl"}: not a subtask file' in err
    assert f'error: {data / "safety.jsonl"}: not listed in MANIFEST.json' in err
    assert '2 error(s)' in err


def test_validate_finds_duplicate_ids_across_files(tmp_path, capsys):
    data = _copy(tmp_path)
    path = data / 'dialogue_emotion.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    rec = json.loads(lines[4])
    dup = json.loads((data / 'dialogue_base.jsonl').read_text(encoding='utf-8').splitlines()[2])['id']
    rec['id'] = dup
    lines[4] = json.dumps(rec, ensure_ascii=False)
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    manifest = json.loads((data / 'MANIFEST.json').read_text(encoding='utf-8'))
    manifest['files']['dialogue_emotion.jsonl']['sha256'] = sha256_file(str(path))  # pinned, yet a duplicate
    (data / 'MANIFEST.json').write_text(json.dumps(manifest), encoding='utf-8')
    assert main(['validate', str(data)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:5: field 'id': duplicate id '{dup}' (first at {data / 'dialogue_base.jsonl'}:3)" in err


@pytest.mark.parametrize('offset', [0, 75, None])
def test_show_out_of_range_or_negative_is_a_clear_error(offset, capsys):
    scenarios = load_subtask('dialogue_base')
    n = len(scenarios)
    index = -1 if offset is None else n + offset
    assert main(['show', 'dialogue_base', str(index)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ''
    assert captured.err == (f'error: no scenario at position {index}: dialogue_base has {n} scenarios, positions '
                            f'0-{n - 1} (0-based; position 0 is {scenarios[0].id})\n')


def test_show_says_it_is_zero_based(capsys):
    scenarios = load_subtask('dialogue_base')
    assert main(['show', 'dialogue_base']) == 0
    assert capsys.readouterr().out.startswith(f'# {scenarios[0].id} (0-based position 0 of 0-{len(scenarios) - 1}; persona ')
    with pytest.raises(SystemExit):
        main(['show', '--help'])
    assert '0-based position' in capsys.readouterr().out


def test_show_piped_into_a_closed_pipe_exits_quietly(tmp_path):
    env = {**os.environ, 'PYTHONPATH': REPO + os.pathsep + os.environ.get('PYTHONPATH', '')}
    proc = subprocess.Popen([sys.executable, '-m', 'opencompass_h2htalk.cli', 'show', 'itinerary_advanced', '3'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(tmp_path), env=env)
    proc.stdout.close()  # like `| head` exiting before the command writes
    err = proc.stderr.read().decode('utf-8')
    assert proc.wait(timeout=60) == 0 and err == ''


def test_manifest_keeps_a_custom_version(tmp_path, capsys):
    data = _copy(tmp_path)
    assert main(['manifest', str(data), '--version', '0.3.0']) == 0
    assert main(['manifest', str(data)]) == 0
    assert json.loads((data / 'MANIFEST.json').read_text(encoding='utf-8'))['version'] == '0.3.0'
    assert 'version 0.3.0' in capsys.readouterr().out


def _edit_line(path, index, change):
    """Rewrites record ``index`` (0-based) of a JSONL file with ``change(record)`` applied."""
    lines = path.read_text(encoding='utf-8').splitlines()
    record = json.loads(lines[index])
    change(record)
    lines[index] = json.dumps(record, ensure_ascii=False)
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')


def test_validate_reports_the_content_error_first_then_the_hash(tmp_path, capsys):
    # Regression: after an edit, validate reported only the SHA-256 mismatch, not what is wrong in the file.
    data = _copy(tmp_path)
    path = data / 'dialogue_base.jsonl'
    _edit_line(path, 6, lambda r: r['inputs']['history'][0].update(role='bot'))
    assert main(['validate', str(data)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"error: {path}:7: field 'inputs.history[0].role': expected one of ['assistant', 'user'], "
                      "got 'bot'")
    assert err[1].startswith(f'error: {path}: SHA-256 ') and err[2] == f'2 error(s) in {data}'


def test_validate_names_the_line_of_a_non_utf8_jsonl_file(tmp_path, capsys):
    data = _copy(tmp_path)
    path = data / 'safety.jsonl'
    n = len(path.read_text(encoding='utf-8').splitlines())
    with open(path, 'ab') as f:
        f.write(b'\xff\xfe\n')
    assert main(['validate', str(data)]) == 1
    err = capsys.readouterr().err
    assert f'error: {path}:{n + 1}: not valid UTF-8 (byte 0: invalid start byte)\n' in err


@pytest.mark.parametrize('argv', [['validate', '{}'], ['show', 'safety', '--data-dir', '{}'], ['manifest', '{}'],
                                  ['audit', '--no-semantic', '{}']])
def test_data_verbs_given_a_file_for_the_data_directory(tmp_path, capsys, argv):
    data = _copy(tmp_path)
    path = str(data / 'safety.jsonl')
    before = (data / 'MANIFEST.json').read_bytes()
    assert main([a.replace('{}', path) for a in argv]) == 1
    captured = capsys.readouterr()
    assert captured.out == ''
    assert captured.err == (f'error: {path}: is a file, expected a data directory (one holding MANIFEST.json, '
                            f'personas.json and <subtask>.jsonl files); did you mean its directory {data}?\n')
    assert (data / 'MANIFEST.json').read_bytes() == before


@pytest.mark.parametrize('verb', ['validate', 'manifest', 'show'])
def test_a_directory_named_like_a_subtask_file(tmp_path, capsys, verb):
    data = _copy(tmp_path)
    (data / 'safety.jsonl').unlink()
    (data / 'safety.jsonl').mkdir()
    before = (data / 'MANIFEST.json').read_bytes()
    argv = ['show', 'safety', '--data-dir', str(data)] if verb == 'show' else [verb, str(data)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f'error: {data / "safety.jsonl"}: ' in err and 'is a directory, expected a file' in err
    assert (data / 'MANIFEST.json').read_bytes() == before


@pytest.mark.parametrize('content,message', [
    (b'[]', "MANIFEST.json: expected an object with a 'files' mapping, got a JSON array"),
    (b'{"files": {"safety.jsonl": 5}}',
     "MANIFEST.json: field 'files.safety.jsonl': expected an object with sha256 and records, got a JSON number"),
    (b'{"files": {"safety.jsonl": [1]}}',
     "MANIFEST.json: field 'files.safety.jsonl': expected an object with sha256 and records, got a JSON array"),
    (b'\xff\xfe{}', 'MANIFEST.json: not valid UTF-8 (byte 0: invalid start byte)'),
    (b'{"name": "x", "version": "", "files": {}}', "MANIFEST.json: field 'version': expected a non-empty string"),
])
@pytest.mark.parametrize('verb', ['validate', 'manifest', 'show'])
def test_a_malformed_manifest_is_named(tmp_path, capsys, content, message, verb):
    data = _copy(tmp_path)
    (data / 'MANIFEST.json').write_bytes(content)
    argv = ['show', 'safety', '--data-dir', str(data)] if verb == 'show' else [verb, str(data)]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == '' and captured.err.startswith(f'error: {data / message}')
    if verb == 'manifest':  # says how to write a fresh one, and leaves the old one as it was
        assert f'h2htalk manifest {data} --name NAME --version VERSION' in captured.err
    assert (data / 'MANIFEST.json').read_bytes() == content


@pytest.mark.parametrize('name', ['frame.json', 'rubrics.json', 'personas.json'])
def test_non_utf8_json_data_files_are_named(tmp_path, capsys, name):
    data = _copy(tmp_path)
    (data / name).write_bytes(b'\xff\xfe{}')
    before = (data / 'MANIFEST.json').read_bytes()
    for verb in ('validate', 'manifest'):
        assert main([verb, str(data)]) == 1
        assert f'error: {data / name}: not valid UTF-8 (byte 0: invalid start byte)\n' in capsys.readouterr().err
    assert (data / 'MANIFEST.json').read_bytes() == before


@pytest.mark.parametrize('flag', ['--version', '--name'])
@pytest.mark.parametrize('value', ['', ' ', '\u200b'])
def test_manifest_refuses_an_empty_version_or_name(tmp_path, capsys, flag, value):
    data = _copy(tmp_path)
    before = (data / 'MANIFEST.json').read_bytes()
    assert main(['manifest', str(data), flag, value]) == 1
    assert capsys.readouterr().err == (f'error: {data / "MANIFEST.json"}: {flag[2:]} ({flag}) must be a non-empty '
                                       f'string, got {value!r}\n')
    assert (data / 'MANIFEST.json').read_bytes() == before


def test_a_new_manifest_over_user_data_needs_a_name_and_version(tmp_path, capsys):
    # Regression: it was silently labelled "H2HTalk-Open 1.0.0", the bundled release.
    data = _copy(tmp_path)
    (data / 'MANIFEST.json').unlink()
    assert main(['manifest', str(data)]) == 1
    assert capsys.readouterr().err == (
        f'error: {data / "MANIFEST.json"}: a new manifest for data other than the bundled H2HTalk-Open needs its own '
        f'name and version (--name and --version not given): h2htalk manifest {data} --name NAME --version VERSION\n')
    assert main(['manifest', str(data), '--version', '0.1.0']) == 1
    assert '(--name not given)' in capsys.readouterr().err
    assert not (data / 'MANIFEST.json').exists()
    assert main(['manifest', str(data), '--version', '0.1.0', '--name', 'MyTalk']) == 0
    assert capsys.readouterr().out.endswith('(18 files, MyTalk version 0.1.0)\n')
    assert main(['manifest', str(data)]) == 0  # from now on the manifest's own labels are kept
    manifest = json.loads((data / 'MANIFEST.json').read_text(encoding='utf-8'))
    assert (manifest['name'], manifest['version']) == ('MyTalk', '0.1.0')


def test_a_new_manifest_of_the_bundled_directory_keeps_its_labels(tmp_path, capsys, monkeypatch):
    # The bundled data's own manifest is regenerated without flags (a copy stands in for the package directory).
    from opencompass_h2htalk.data import paths
    data = _copy(tmp_path)
    pinned = (data / 'MANIFEST.json').read_bytes()
    (data / 'MANIFEST.json').unlink()
    monkeypatch.setattr(paths, 'bundled_data_dir', lambda: str(data))
    assert main(['manifest', str(data)]) == 0
    assert (data / 'MANIFEST.json').read_bytes() == pinned


def test_compare_refuses_a_negative_seed(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(['compare', 'RUN', '--seed', '-1'])
    assert exit_.value.code == 2
    assert 'argument --seed: expected an integer >= 0, got -1' in capsys.readouterr().err
