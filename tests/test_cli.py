"""The ``h2htalk`` maintenance command."""
import shutil

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.paths import default_data_dir


def test_validate_bundled_data(capsys):
    assert main(['validate']) == 0
    out = capsys.readouterr().out
    assert 'ok  dialogue_base.jsonl' in out and '363 scenarios' in out  # 264 core + 33 safety + 66 probes
    assert 'ok  rubrics.json' in out


def test_show_prints_both_turns_and_reference(capsys):
    assert main(['show', 'itinerary_advanced', '2']) == 0
    out = capsys.readouterr().out
    assert '# itinerary_advanced-003' in out and '[SYSTEM]' in out and '【此刻所在的时间段】' in out


def test_validate_reports_a_changed_file(tmp_path, capsys):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    with open(data / 'itinerary_middle.jsonl', 'a', encoding='utf-8') as f:
        f.write('{"id": "broken"\n')
    assert main(['validate', str(data)]) == 1
    assert 'itinerary_middle.jsonl: SHA-256' in capsys.readouterr().err
    assert main(['manifest', str(data)]) == 1  # refuses to pin invalid data
    assert 'itinerary_middle.jsonl:25: invalid JSON' in capsys.readouterr().err
