"""``h2htalk audit`` on broken files: one bad line is one finding and the rest of the file is still audited; an
empty file and a directory named ``*.jsonl`` get a finding of their own."""
import json
import os
import shutil

import pytest

from opencompass_h2htalk.audit.runner import run_audit
from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.paths import default_data_dir

CHAINS = ('itin-han-01', 'itin-w2-001')


@pytest.fixture
def small(tmp_path):
    """Two complete itinerary chains of the bundled data (10 records in 5 files) with their personas; audits clean."""
    src, dst = default_data_dir(), tmp_path / 'data'
    dst.mkdir()
    shutil.copy(os.path.join(src, 'personas.json'), dst)
    for name in sorted(os.listdir(src)):
        if name.startswith('itinerary_') and name.endswith('.jsonl'):
            with open(os.path.join(src, name), encoding='utf-8') as f:
                keep = [line for line in f if json.loads(line).get('chain') in CHAINS]
            (dst / name).write_text(''.join(keep), encoding='utf-8')
    assert run_audit(str(dst)).findings == []
    return dst


def _lines(path):
    return path.read_text(encoding='utf-8').splitlines(keepends=True)


def test_one_invalid_json_line_is_one_finding_and_the_file_goes_on(small):
    # Regression: the bad line dropped the rest of its file, and every chain then missed its stage 2 (one
    # "chain.stages ... expected 1..4" finding per chain).
    path = small / 'itinerary_middle.jsonl'
    lines = _lines(path)
    path.write_text('{' + lines[0] + lines[1], encoding='utf-8')
    result = run_audit(str(small))
    assert [f.format() for f in result.findings] == [
        f'{path}:1:schema: invalid JSON: Expecting property name enclosed in double quotes (column 2)']
    assert any(r.path == str(path) and r.line == 2 for r in result.records)  # the line after it is audited
    assert result.n_records == 9


def test_a_schema_invalid_chain_record_is_one_finding(small):
    path = small / 'itinerary_advanced.jsonl'
    lines = _lines(path)
    record = json.loads(lines[1])
    record['reference'] = '\u200b'  # shows nothing: a blank reference
    path.write_text(lines[0] + json.dumps(record, ensure_ascii=False) + '\n', encoding='utf-8')
    findings = run_audit(str(small)).findings
    assert [(f.line, f.check) for f in findings] == [(2, 'schema')] and 'reference' in findings[0].message


def test_undecodable_lines_each_get_a_finding(small):
    path = small / 'itinerary_basic.jsonl'
    lines = _lines(path)
    path.write_bytes(b'\xff\xfe\n' + lines[0].encode('utf-8') + b'\xff\n' + lines[1].encode('utf-8'))
    findings = run_audit(str(small)).findings
    assert [(os.path.basename(f.path), f.line, f.check) for f in findings] == [
        ('itinerary_basic.jsonl', 1, 'schema'), ('itinerary_basic.jsonl', 3, 'schema')]
    assert all('not valid UTF-8' in f.message for f in findings)


@pytest.mark.parametrize('content', ['', '\n  \n'])
def test_an_empty_file_gets_its_own_finding(small, content):
    (small / 'safety.jsonl').write_text(content, encoding='utf-8')
    findings = run_audit(str(small)).findings
    assert [f.format() for f in findings] == [
        f'{small / "safety.jsonl"}:0:schema: no records (the file is empty or blank); add records or remove it']


def test_a_directory_named_jsonl_is_a_finding_not_a_traceback(small, capsys):
    (small / 'safety.jsonl').mkdir()
    assert main(['audit', '--no-semantic', str(small)]) == 1
    out = capsys.readouterr().out
    assert f'{small / "safety.jsonl"}:0:schema: is a directory, expected a file' in out
    assert 'Traceback' not in out


@pytest.mark.parametrize('name', ['personas.json', 'frame.json'])
def test_non_utf8_json_files_are_named(small, name, capsys):
    (small / name).write_bytes(b'\xff\xfe{}')
    assert main(['audit', '--no-semantic', str(small)]) == 1
    assert capsys.readouterr().err == f'error: {small / name}: not valid UTF-8 (byte 0: invalid start byte)\n'


def test_audit_of_a_file_says_a_directory_is_expected(small, capsys):
    assert main(['audit', '--no-semantic', str(small / 'itinerary_basic.jsonl')]) == 1
    err = capsys.readouterr().err
    assert f'error: {small / "itinerary_basic.jsonl"}: is a file, expected a data directory' in err
    assert f'did you mean its directory {small}?' in err
