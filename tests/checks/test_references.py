"""``h2htalk checks``: the task checks run on a data set's references, through the CLI."""
import json
import shutil

from opencompass_h2htalk.checks.references import check_references, overall
from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.paths import default_data_dir


def test_bundled_references_pass_at_least_97_percent_of_all_checks(capsys):
    assert main(['checks', '--failures', '0']) == 0
    out = capsys.readouterr().out
    assert 'dialogue_base: 703 references' in out and 'probe_context_aware: 150 references' in out
    passed, total = overall(check_references())
    assert total > 5348 * 5 and passed / total >= 0.97


def _data_with(tmp_path, subtask, edit):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    path = data / f'{subtask}.jsonl'
    records = [json.loads(line) for line in path.read_text(encoding='utf-8').splitlines()]
    edit(records)
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in records), encoding='utf-8')
    assert main(['manifest', str(data)]) == 0
    return data


def test_a_planted_defect_is_listed_with_its_id(tmp_path, capsys):
    def three_sentences(records):
        records[0]['reference'] = '我在院子里给麦麦梳毛。毛掉了一地。你家也有掉毛怪吗？'
    data = _data_with(tmp_path, 'itinerary_feedback', three_sentences)
    capsys.readouterr()
    assert main(['checks', str(data), '--subtask', 'itinerary_feedback', '--failures', '500', '--min', '0']) == 0
    out = capsys.readouterr().out
    assert 'itinerary_feedback-001: 3 sentences; the instruction asks for 1' in out
    assert 'probe_context_aware' not in out  # --subtask limits the run


def test_below_the_minimum_exits_1_with_a_reason(tmp_path, capsys):
    def three_sentences(records):
        records[0]['reference'] = '我在院子里给麦麦梳毛。毛掉了一地。你家也有掉毛怪吗？'
    data = _data_with(tmp_path, 'itinerary_feedback', three_sentences)
    assert main(['checks', str(data), '--subtask', 'itinerary_feedback', '--failures', '0', '--min', '100']) == 1
    err = capsys.readouterr().err
    assert 'below --min 100 %' in err and 'docs/checks.md' in err


def test_bad_data_is_a_clear_error(tmp_path, capsys):
    assert main(['checks', str(tmp_path / 'missing')]) == 1
    assert 'no such data directory' in capsys.readouterr().err
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    with open(data / 'dialogue_base.jsonl', 'a', encoding='utf-8') as f:
        f.write('{"id": "broken"\n')
    assert main(['checks', str(data), '--subtask', 'dialogue_base']) == 1
    assert 'dialogue_base.jsonl' in capsys.readouterr().err


def test_a_data_set_with_some_subtasks_is_checked_on_those(capsys):
    from pathlib import Path
    mini = Path(__file__).resolve().parents[1] / 'fixtures' / 'h2htalk_mini'
    assert main(['checks', str(mini), '--failures', '0', '--min', '0']) == 0
    out = capsys.readouterr().out
    assert 'itinerary_initialize:' in out and 'safety:' not in out
