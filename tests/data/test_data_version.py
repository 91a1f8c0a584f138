"""The bundled data carries one version: the manifest, the default of `h2htalk manifest` and the changelog agree."""
import json
import os
import shutil

from opencompass_h2htalk.data.loader import DATA_VERSION, read_manifest, write_manifest
from opencompass_h2htalk.data.paths import default_data_dir

REPO = os.path.join(os.path.dirname(__file__), '..', '..')


def test_bundled_manifest_has_the_data_version():
    assert DATA_VERSION == '1.1.0'
    manifest = read_manifest(default_data_dir())
    assert manifest['version'] == DATA_VERSION and manifest['schema_version'] == '1.1'


def test_rewriting_the_manifest_without_a_version_keeps_the_data_version(tmp_path):
    # Regression: the default used to be '0.1.0', so a plain `h2htalk manifest` silently relabelled the data.
    dst = tmp_path / 'data'
    shutil.copytree(default_data_dir(), dst)
    write_manifest(str(dst))
    with open(dst / 'MANIFEST.json', encoding='utf-8') as f:
        assert json.load(f)['version'] == DATA_VERSION


def test_cli_manifest_default_is_the_data_version(tmp_path, capsys):
    from opencompass_h2htalk.cli import main
    dst = tmp_path / 'data'
    shutil.copytree(default_data_dir(), dst)
    assert main(['manifest', str(dst)]) == 0
    assert read_manifest(str(dst))['version'] == DATA_VERSION


def test_changelog_has_an_entry_for_the_data_version():
    with open(os.path.join(REPO, 'docs', 'data_changelog.md'), encoding='utf-8') as f:
        text = f.read()
    assert f'## {DATA_VERSION}' in text and '## 0.1.0' in text
