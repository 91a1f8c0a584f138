"""Manifest pinning and loading of the bundled data."""
import json
import shutil

import pytest

from opencompass_h2htalk.data.loader import (ManifestError, load_rows, load_subtask, read_manifest, sha256_file,
                                             write_manifest)
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.schema import ScenarioError


@pytest.fixture
def data_copy(tmp_path):
    dst = tmp_path / 'data'
    shutil.copytree(default_data_dir(), dst)
    return dst


def test_bundled_manifest_matches_files():
    data_dir = default_data_dir()
    manifest = read_manifest(data_dir)
    for name, entry in manifest['files'].items():
        assert sha256_file(f'{data_dir}/{name}') == entry['sha256'], name


def test_changed_file_fails_manifest_check(data_copy):
    path = data_copy / 'dialogue_base.jsonl'
    text = path.read_text(encoding='utf-8')
    path.write_text(text.replace('。', '！', 1), encoding='utf-8')  # one character changed, still valid
    with pytest.raises(ManifestError, match=r'dialogue_base.jsonl: SHA-256 .* does not match the manifest'):
        load_subtask('dialogue_base', str(data_copy))
    assert len(load_subtask('dialogue_base', str(data_copy), verify=False)) == text.count('\n')


def test_changed_personas_fail_manifest_check(data_copy):
    path = data_copy / 'personas.json'
    path.write_text(path.read_text(encoding='utf-8') + ' ', encoding='utf-8')
    with pytest.raises(ManifestError, match='personas.json: SHA-256'):
        load_subtask('dialogue_emotion', str(data_copy))


def test_missing_manifest(data_copy):
    (data_copy / 'MANIFEST.json').unlink()
    with pytest.raises(ManifestError, match='manifest not found'):
        load_subtask('dialogue_base', str(data_copy))


def test_rewrite_manifest_after_edit_then_load(data_copy):
    path = data_copy / 'dialogue_base.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    path.write_text('\n'.join(lines[:5]) + '\n', encoding='utf-8')
    manifest = write_manifest(str(data_copy))
    assert manifest['files']['dialogue_base.jsonl']['records'] == 5
    assert len(load_subtask('dialogue_base', str(data_copy))) == 5


def test_manifest_refuses_invalid_data_and_writes_nothing(data_copy):
    before = (data_copy / 'MANIFEST.json').read_bytes()
    path = data_copy / 'recollection_refine.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    bad = json.loads(lines[3])
    bad['inputs']['memories'] = ['一', '二']
    lines[3] = json.dumps(bad, ensure_ascii=False)
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    with pytest.raises(ScenarioError, match=r"recollection_refine.jsonl:4: field 'inputs.memories'"):
        write_manifest(str(data_copy))
    assert (data_copy / 'MANIFEST.json').read_bytes() == before


def test_env_var_points_to_other_data(data_copy, monkeypatch):
    monkeypatch.setenv('H2HTALK_DATA', str(data_copy))
    assert default_data_dir() == str(data_copy)


def test_rows_have_system_and_user_prompts():
    rows = load_rows('dialogue_schedule')
    row = rows[0]
    assert set(row) >= {'id', 'system_prompt', 'user_prompt', 'reference', 'inputs', 'tags'}
    assert '【角色设定】' in row['system_prompt'] and '【任务】' in row['system_prompt']
    assert '【你今天的日程】' in row['user_prompt'] and row['user_prompt'].endswith('请回复用户的最新消息。')
    assert row['reference'] not in row['user_prompt']
