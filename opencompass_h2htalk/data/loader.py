"""Loading scenario files with integrity checks, and the manifest that pins them.

``MANIFEST.json`` in a data directory lists every data file with its SHA-256 and record
count. :func:`load_subtask` refuses to load a file whose hash or count differs from the
manifest, so a result can always be traced to exact data. After editing data on purpose,
regenerate the manifest with ``h2htalk manifest <data_dir>`` (or :func:`write_manifest`).

Pure Python: no OpenCompass import.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional, Tuple

from ..hashing import sha256_file
from .paths import default_data_dir
from .frame import FRAME_NAME, load_frame
from .personas import Persona, load_personas
from .prompts import prompt_hash, system_prompt, user_prompt
from .schema import (SCHEMA_VERSION, SUBTASKS, Scenario, ScenarioError, iter_jsonl, validate_file,
                     validate_rubrics_file)

MANIFEST_NAME = 'MANIFEST.json'
PERSONAS_NAME = 'personas.json'
RUBRICS_NAME = 'rubrics.json'
DATASET_NAME = 'H2HTalk-Open'
#: Version of the bundled data (docs/data_changelog.md); results record it, and scores of two versions are not
#: comparable.
DATA_VERSION = '0.2.0'


class ManifestError(RuntimeError):
    """A data file does not match the manifest (or the manifest is missing/unreadable)."""


def _count_records(path: str) -> int:
    if path.endswith('.jsonl'):
        return sum(1 for _ in iter_jsonl(path))
    with open(path, encoding='utf-8') as f:
        obj = json.load(f)
    return len(obj.get('personas', obj.get('rubrics', [])))


def read_manifest(data_dir: Optional[str] = None) -> Dict[str, Any]:
    """Reads ``MANIFEST.json`` of a data directory.

    Raises:
        ManifestError: if it is missing or not valid JSON of the expected shape.
    """
    path = os.path.join(data_dir or default_data_dir(), MANIFEST_NAME)
    try:
        with open(path, encoding='utf-8') as f:
            manifest = json.load(f)
    except FileNotFoundError:
        raise ManifestError(f'{path}: manifest not found; create it with `h2htalk manifest <data_dir>`') from None
    except json.JSONDecodeError as e:
        raise ManifestError(f'{path}:{e.lineno}: invalid JSON: {e.msg}') from None
    if not isinstance(manifest.get('files'), dict):
        raise ManifestError(f"{path}: expected an object with a 'files' mapping")
    return manifest


def verify_file(data_dir: str, name: str, manifest: Dict[str, Any]) -> Dict[str, Any]:
    """Checks one file's SHA-256 and record count against the manifest; returns its entry.

    Raises:
        ManifestError: naming the file and what differs.
    """
    path = os.path.join(data_dir, name)
    entry = manifest['files'].get(name)
    if entry is None:
        raise ManifestError(f'{path}: not listed in {os.path.join(data_dir, MANIFEST_NAME)}')
    if not os.path.isfile(path):
        raise ManifestError(f'{path}: listed in the manifest but missing')
    digest = sha256_file(path)
    if digest != entry.get('sha256'):
        raise ManifestError(f'{path}: SHA-256 {digest} does not match the manifest ({entry.get("sha256")}); '
                            'the file changed since the manifest was written')
    count = _count_records(path)
    if count != entry.get('records'):
        raise ManifestError(f'{path}: {count} records, manifest says {entry.get("records")}')
    return entry


def write_manifest(data_dir: str, version: str = DATA_VERSION) -> Dict[str, Any]:
    """Validates every file of a data directory and (re)writes its manifest.

    Raises:
        ScenarioError: if any scenario file is invalid (nothing is written then).
    """
    personas = load_personas(data_dir)
    seen: Dict[str, str] = {}
    stages: Dict[Tuple[str, int], str] = {}
    files: Dict[str, Any] = {PERSONAS_NAME: {'sha256': sha256_file(os.path.join(data_dir, PERSONAS_NAME)),
                                             'records': len(personas)}}
    rubrics_path = os.path.join(data_dir, RUBRICS_NAME)
    if os.path.exists(rubrics_path):
        files[RUBRICS_NAME] = {'sha256': sha256_file(rubrics_path),
                               'records': len(validate_rubrics_file(rubrics_path)['rubrics'])}
    frame_path = os.path.join(data_dir, FRAME_NAME)
    if os.path.exists(frame_path):  # the sampling frame is data too: pin it (records = roster size)
        files[FRAME_NAME] = {'sha256': sha256_file(frame_path), 'records': len(load_frame(data_dir)['users'])}
    for subtask in SUBTASKS:
        path = os.path.join(data_dir, f'{subtask}.jsonl')
        if not os.path.exists(path):
            continue
        records = validate_file(path, personas=personas, subtask=subtask, seen_ids=seen, seen_stages=stages)
        files[f'{subtask}.jsonl'] = {'sha256': sha256_file(path), 'records': len(records), 'subtask': subtask}
    manifest = {'name': DATASET_NAME, 'version': version, 'schema_version': SCHEMA_VERSION, 'files': files}
    with open(os.path.join(data_dir, MANIFEST_NAME), 'w', encoding='utf-8') as f:
        json.dump(manifest, f, ensure_ascii=False, indent=2)
        f.write('\n')
    return manifest


def load_subtask(subtask: str, data_dir: Optional[str] = None, verify: bool = True) -> List[Scenario]:
    """Loads and validates the scenarios of one subtask.

    Args:
        subtask: One of :data:`~opencompass_h2htalk.data.schema.SUBTASKS`.
        data_dir: Directory holding ``<subtask>.jsonl``, ``personas.json`` and ``MANIFEST.json``;
            defaults to ``$H2HTALK_DATA`` or the bundled H2HTalk-Open data.
        verify: Check SHA-256 and record counts against the manifest (default on).

    Raises:
        ValueError: unknown subtask.
        ManifestError: the data differs from the manifest.
        ScenarioError: a record breaks the schema (file, line and field are named).
    """
    return _load(subtask, data_dir, verify)[0]


def _load(subtask: str, data_dir: Optional[str], verify: bool) -> Tuple[List[Scenario], Dict[str, Persona]]:
    """Scenarios of one subtask and the personas they were validated against (each file read once)."""
    if subtask not in SUBTASKS:
        raise ValueError(f'unknown subtask {subtask!r}; expected one of {list(SUBTASKS)}')
    data_dir = data_dir or default_data_dir()
    name = f'{subtask}.jsonl'
    if verify:
        manifest = read_manifest(data_dir)
        verify_file(data_dir, PERSONAS_NAME, manifest)
        verify_file(data_dir, name, manifest)
    personas = load_personas(data_dir)
    return validate_file(os.path.join(data_dir, name), personas=personas, subtask=subtask), personas


def load_rubrics(data_dir: Optional[str] = None, verify: bool = True) -> Dict[str, Any]:
    """Loads the judge rubrics (``rubrics.json``), checked against the manifest and the rubric schema."""
    data_dir = data_dir or default_data_dir()
    if verify:
        verify_file(data_dir, RUBRICS_NAME, read_manifest(data_dir))
    return validate_rubrics_file(os.path.join(data_dir, RUBRICS_NAME))


def to_rows(scenarios: List[Scenario], personas: Dict[str, Persona]) -> List[Dict[str, Any]]:
    """Flattens scenarios into the columns the OpenCompass prompt template reads.

    Columns: ``id, subtask, dimension, persona, system_prompt, user_prompt, reference, inputs, tags``
    (``inputs`` and ``tags`` as JSON strings, so that a judge can see them later).
    """
    rows = []
    for s in scenarios:
        rows.append({
            'id': s.id, 'subtask': s.subtask, 'dimension': s.dimension, 'persona': s.persona,
            'system_prompt': system_prompt(personas[s.persona], s.subtask),
            'user_prompt': user_prompt(s.subtask, s.inputs),
            'reference': s.reference,
            'inputs': json.dumps(s.inputs, ensure_ascii=False, sort_keys=True),
            'tags': json.dumps(s.tags, ensure_ascii=False, sort_keys=True),
        })
    return rows


def load_rows(subtask: str, data_dir: Optional[str] = None, verify: bool = True) -> List[Dict[str, Any]]:
    """:func:`load_subtask` followed by :func:`to_rows`."""
    return to_rows(*_load(subtask, data_dir, verify))


def data_fingerprint(subtask: str, data_dir: Optional[str] = None) -> Dict[str, Any]:
    """What a result depends on in the data: dataset name/version, file SHA-256, prompt hash."""
    data_dir = data_dir or default_data_dir()
    manifest = read_manifest(data_dir)
    entry = manifest['files'].get(f'{subtask}.jsonl', {})
    return {'dataset': manifest.get('name', DATASET_NAME), 'version': manifest.get('version'),
            'file_sha256': entry.get('sha256'), 'personas_sha256': manifest['files'].get(PERSONAS_NAME, {}).get('sha256'),
            'prompt_hash': prompt_hash()}


__all__ = ['ManifestError', 'ScenarioError', 'data_fingerprint', 'load_rows', 'load_rubrics', 'load_subtask',
           'read_manifest',
           'sha256_file', 'to_rows', 'verify_file', 'write_manifest']
