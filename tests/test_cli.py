"""The ``h2htalk`` maintenance command."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.loader import load_subtask
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
