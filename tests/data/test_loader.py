"""Manifest pinning and loading of the bundled data."""
import json
import shutil

import pytest

from opencompass_h2htalk.data.loader import (DATA_VERSION, ManifestError, data_fingerprint, load_rows, load_subtask,
                                             read_manifest, sha256_file, write_manifest)
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


def test_verify_false_needs_no_manifest_and_fingerprints_the_file_read(data_copy):
    path = data_copy / 'dialogue_base.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    path.write_text('\n'.join(lines[:3]) + '\n', encoding='utf-8')
    (data_copy / 'MANIFEST.json').unlink()
    assert len(load_rows('dialogue_base', str(data_copy), verify=False)) == 3
    fp = data_fingerprint('dialogue_base', str(data_copy))
    assert fp['file_sha256'] == sha256_file(str(path))
    assert fp['personas_sha256'] == sha256_file(str(data_copy / 'personas.json'))
    assert (fp['dataset'], fp['version'], fp['manifest_match']) == (None, None, None)


def test_fingerprint_of_a_changed_file_is_the_file_not_the_manifest(data_copy):
    pinned = read_manifest(str(data_copy))['files']['dialogue_base.jsonl']['sha256']
    assert data_fingerprint('dialogue_base', str(data_copy))['manifest_match'] is True
    path = data_copy / 'dialogue_base.jsonl'
    path.write_text(path.read_text(encoding='utf-8').replace('。', '！', 1), encoding='utf-8')
    fp = data_fingerprint('dialogue_base', str(data_copy))
    assert fp['file_sha256'] == sha256_file(str(path)) != pinned and fp['manifest_match'] is False
    assert fp['version'] == read_manifest(str(data_copy))['version']


def test_dataset_loads_without_manifest_when_verify_is_off(data_copy):
    from opencompass_h2htalk.datasets.h2htalk import H2HTalkDataset
    (data_copy / 'MANIFEST.json').unlink()
    ds = H2HTalkDataset.load('itinerary_feedback', str(data_copy), verify=False)
    assert set(ds['source_sha256']) == {sha256_file(str(data_copy / 'itinerary_feedback.jsonl'))}


def test_manifest_keeps_the_current_version_unless_given(data_copy):
    manifest = json.loads((data_copy / 'MANIFEST.json').read_text(encoding='utf-8'))
    manifest['version'] = '0.7.2'
    (data_copy / 'MANIFEST.json').write_text(json.dumps(manifest), encoding='utf-8')
    assert write_manifest(str(data_copy))['version'] == '0.7.2'
    assert read_manifest(str(data_copy))['version'] == '0.7.2'
    assert write_manifest(str(data_copy), version='0.8.0')['version'] == '0.8.0'
    (data_copy / 'MANIFEST.json').unlink()
    # A new manifest over data other than the bundled directory is not labelled H2HTalk-Open 1.0.0 by default.
    with pytest.raises(ManifestError, match=r'MANIFEST.json: a new manifest .* --name NAME --version VERSION'):
        write_manifest(str(data_copy))
    assert not (data_copy / 'MANIFEST.json').exists()
    manifest = write_manifest(str(data_copy), version='0.1.0', name='MyTalk')
    assert (manifest['name'], manifest['version']) == ('MyTalk', '0.1.0') == (
        read_manifest(str(data_copy))['name'], read_manifest(str(data_copy))['version'])


def test_manifest_refuses_a_stray_jsonl_file(data_copy):
    before = (data_copy / 'MANIFEST.json').read_bytes()
    shutil.copy(data_copy / 'dialogue_base.jsonl', data_copy / 'dialog_base.jsonl')
    with pytest.raises(ScenarioError, match=r'dialog_base.jsonl: not a subtask file'):
        write_manifest(str(data_copy))
    assert (data_copy / 'MANIFEST.json').read_bytes() == before
