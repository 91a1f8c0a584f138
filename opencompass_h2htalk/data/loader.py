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

from .hashing import sha256_file
from .paths import default_data_dir, is_bundled, require_data_dir
from .frame import FRAME_NAME, load_frame
from .personas import Persona, load_personas
from .prompts import (CHAT_SUBTASKS, check_history_format, chat_prompt, prompt_hash, system_prompt,
                      user_prompt)
from .schema import (SCHEMA_VERSION, SUBTASKS, Scenario, ScenarioError, is_blank, iter_jsonl, read_json,
                     validate_file, validate_rubrics_file)

MANIFEST_NAME = 'MANIFEST.json'
PERSONAS_NAME = 'personas.json'
RUBRICS_NAME = 'rubrics.json'
DATASET_NAME = 'H2HTalk-Open'
#: Version of the bundled data (docs/data_changelog.md); results record it, and scores of two versions are not
#: comparable. ``write_manifest`` keeps a manifest's own version and uses this one only for a new manifest of the
#: bundled directory itself; a new manifest anywhere else needs an explicit name and version.
DATA_VERSION = '1.1.0'


class ManifestError(RuntimeError):
    """A data file does not match the manifest (or the manifest is missing/unreadable)."""


def _count_records(path: str) -> int:
    if path.endswith('.jsonl'):
        return sum(1 for _ in iter_jsonl(path))
    obj = read_json(path)
    # The record list of each JSON data file: personas.json, rubrics.json, frame.json (its user roster).
    for key in ('personas', 'rubrics', 'users'):
        if isinstance(obj, dict) and key in obj and hasattr(obj[key], '__len__'):
            return len(obj[key])
    raise ManifestError(f'{path}: cannot count records (no personas, rubrics or users list)')


def read_manifest(data_dir: Optional[str] = None) -> Dict[str, Any]:
    """Reads ``MANIFEST.json`` of a data directory.

    Raises:
        ManifestError: if it is missing, not UTF-8, not valid JSON, or not of the expected shape: an object with
            a ``files`` object whose entries are objects, and ``name``/``version`` (when present) non-empty strings.
    """
    path = os.path.join(data_dir or default_data_dir(), MANIFEST_NAME)
    try:
        manifest = read_json(path)
    except FileNotFoundError:
        raise ManifestError(f'{path}: manifest not found; create it with `h2htalk manifest <data_dir>`') from None
    except ScenarioError as e:  # a directory, bad UTF-8 or bad JSON: the message names the file (and line)
        raise ManifestError(str(e)) from None
    if not isinstance(manifest, dict):
        raise ManifestError(f"{path}: expected an object with a 'files' mapping, got a JSON "
                            f'{_json_type(manifest)}')
    if not isinstance(manifest.get('files'), dict):
        raise ManifestError(f"{path}: expected an object with a 'files' mapping")
    for name, entry in manifest['files'].items():
        if not isinstance(entry, dict):
            raise ManifestError(f"{path}: field 'files.{name}': expected an object with sha256 and records, got a "
                                f'JSON {_json_type(entry)}')
    for key in ('name', 'version'):
        if key in manifest and (not isinstance(manifest[key], str) or is_blank(manifest[key])):
            raise ManifestError(f"{path}: field '{key}': expected a non-empty string, got {manifest[key]!r}")
    return manifest


def _json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages about a file's content."""
    names = {dict: 'object', list: 'array', str: 'string', bool: 'boolean', int: 'number', float: 'number'}
    return 'null' if value is None else names.get(type(value), type(value).__name__)


def verify_file(data_dir: str, name: str, manifest: Dict[str, Any]) -> Dict[str, Any]:
    """Checks one file's SHA-256 and record count against the manifest; returns its entry.

    Raises:
        ManifestError: naming the file and what differs.
    """
    path = os.path.join(data_dir, name)
    entry = manifest['files'].get(name)
    if entry is None:
        raise ManifestError(f'{path}: not listed in {os.path.join(data_dir, MANIFEST_NAME)}')
    if os.path.isdir(path):
        raise ManifestError(f'{path}: listed in the manifest, but is a directory, expected a file')
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


def stray_files(data_dir: str) -> List[str]:
    """``.jsonl`` files of a data directory whose name is not ``<known subtask>.jsonl`` (sorted paths).

    Such a file is never loaded, so its scenarios would silently be left out of every run.
    """
    return [os.path.join(data_dir, n) for n in sorted(os.listdir(require_data_dir(data_dir)))
            if n.endswith('.jsonl') and n[:-len('.jsonl')] not in SUBTASKS]


def _stray_reason() -> str:
    return f'not a subtask file (expected <subtask>.jsonl with subtask one of {list(SUBTASKS)}); rename or remove it'


def _manifest_label(data_dir: str, version: Optional[str], name: Optional[str]) -> Tuple[str, str]:
    """The ``(name, version)`` a rewritten manifest records: the given ones, else the existing manifest's, else
    (bundled directory only) :data:`DATASET_NAME` and :data:`DATA_VERSION`.

    A new manifest over other data must not call it the bundled release (H2HTalk-Open at DATA_VERSION): results record name and version, and
    scores are compared only within one version.
    """
    path = os.path.join(data_dir, MANIFEST_NAME)
    for flag, value in (('version', version), ('name', name)):
        if value is not None and (not isinstance(value, str) or is_blank(value)):
            raise ManifestError(f'{path}: {flag} (--{flag}) must be a non-empty string, got {value!r}')
    if version is not None and name is not None:
        return name, version
    usage = f'h2htalk manifest {data_dir} --name NAME --version VERSION'
    if os.path.lexists(path):
        try:
            old = read_manifest(data_dir)
        except ManifestError as e:
            raise ManifestError(f'{e}; to write a new manifest over it, give its name and version: {usage}') from None
        name = name if name is not None else old.get('name')
        version = version if version is not None else old.get('version')
    if is_bundled(data_dir):
        return name or DATASET_NAME, version or DATA_VERSION
    missing = [flag for flag, value in (('--name', name), ('--version', version)) if value is None]
    if missing:
        raise ManifestError(f'{path}: a new manifest for data other than the bundled {DATASET_NAME} needs its own '
                            f'name and version ({" and ".join(missing)} not given): {usage}')
    return name, version


def write_manifest(data_dir: str, version: Optional[str] = None, name: Optional[str] = None) -> Dict[str, Any]:
    """Validates every file of a data directory and (re)writes its manifest.

    Args:
        data_dir: The data directory.
        version: Data version to record; ``None`` keeps the version of the existing manifest (for a new
            manifest, only the bundled directory defaults, to :data:`DATA_VERSION`).
        name: Dataset name to record; ``None`` keeps the existing manifest's (for a new manifest, only the
            bundled directory defaults, to :data:`DATASET_NAME`).

    Raises:
        DataDirError: ``data_dir`` is not a directory.
        ScenarioError: if any scenario file is invalid, or a ``.jsonl`` file is not a subtask file
            (nothing is written then).
        ManifestError: an empty ``version`` or ``name``; or one of them is ``None`` and there is no readable
            manifest to keep it from (outside the bundled directory).
    """
    require_data_dir(data_dir)
    name, version = _manifest_label(data_dir, version, name)
    stray = stray_files(data_dir)
    if stray:
        raise ScenarioError(stray[0], 0, '', _stray_reason())
    personas = load_personas(data_dir)
    seen: Dict[str, str] = {}
    stages: Dict[Tuple[str, int], str] = {}
    files: Dict[str, Any] = {PERSONAS_NAME: {'sha256': sha256_file(os.path.join(data_dir, PERSONAS_NAME)),
                                             'records': len(personas)}}
    rubrics_path = os.path.join(data_dir, RUBRICS_NAME)
    if os.path.exists(rubrics_path):
        n_rubrics = len(validate_rubrics_file(rubrics_path)['rubrics'])  # first: it names a directory or bad file
        files[RUBRICS_NAME] = {'sha256': sha256_file(rubrics_path), 'records': n_rubrics}
    frame_path = os.path.join(data_dir, FRAME_NAME)
    if os.path.exists(frame_path):  # the sampling frame is data too: pin it (records = roster size)
        n_users = len(_frame_users(data_dir))
        files[FRAME_NAME] = {'sha256': sha256_file(frame_path), 'records': n_users}
    for subtask in SUBTASKS:
        path = os.path.join(data_dir, f'{subtask}.jsonl')
        if not os.path.exists(path):
            continue
        records = validate_file(path, personas=personas, subtask=subtask, seen_ids=seen, seen_stages=stages)
        files[f'{subtask}.jsonl'] = {'sha256': sha256_file(path), 'records': len(records), 'subtask': subtask}
    manifest = {'name': name, 'version': version, 'schema_version': SCHEMA_VERSION, 'files': files}
    path = os.path.join(data_dir, MANIFEST_NAME)
    if os.path.isdir(path):
        raise ManifestError(f'{path}: is a directory, expected a file')
    tmp = f'{path}.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:  # written whole, then moved over the old one
        json.dump(manifest, f, ensure_ascii=False, indent=2)
        f.write('\n')
    os.replace(tmp, path)
    return manifest


def check_data_dir(data_dir: str) -> Tuple[List[Dict[str, Any]], List[str]]:
    """Checks a whole data directory the way ``h2htalk validate`` reports it.

    Every subtask file listed in the manifest is checked against it and the schema, with record ids
    shared across files (a duplicate id in two files is an error). A ``.jsonl`` file that is not a
    subtask file, or not listed in the manifest, is an error too: it would never be loaded.

    Returns:
        ``(checked, errors)``: one ``{'name', 'records', 'sha256'}`` per valid subtask file (plus
        ``{'name': 'frame.json', 'users'}`` and ``{'name': 'rubrics.json', 'rubrics', 'version'}``), and one
        message per problem, each naming its file.

    Raises:
        ManifestError: the manifest itself is missing or unreadable (nothing else can be checked).
    """
    require_data_dir(data_dir)
    manifest = read_manifest(data_dir)
    files = manifest['files']
    errors: List[str] = [f'{p}: {_stray_reason()}' for p in stray_files(data_dir)]
    for name in sorted(os.listdir(data_dir)):
        if name.endswith('.jsonl') and name[:-len('.jsonl')] in SUBTASKS and name not in files:
            path = os.path.join(data_dir, name)
            errors.append(f'{path}: is a directory, expected a file' if os.path.isdir(path) else
                          f'{path}: not listed in {MANIFEST_NAME}, so it is never loaded; '
                          'run `h2htalk manifest` after checking it')
    checked: List[Dict[str, Any]] = []
    try:
        personas = load_personas(data_dir)  # first: a content error says more than a changed hash
    except (ScenarioError, OSError) as e:
        return checked, errors + [str(e)]
    problem = _verify_error(data_dir, PERSONAS_NAME, manifest)
    if problem:
        errors.append(problem)
    seen: Dict[str, str] = {}
    stages: Dict[Tuple[str, int], str] = {}
    for name, entry in files.items():
        if name.endswith('.jsonl') and entry.get('subtask') != name[:-len('.jsonl')]:
            errors.append(f'{os.path.join(data_dir, MANIFEST_NAME)}: entry {name!r} has subtask '
                          f'{entry.get("subtask")!r}; expected {name[:-len(".jsonl")]!r}')
    for subtask in SUBTASKS:  # a fixed order, so a duplicate is always reported at its later file
        name = f'{subtask}.jsonl'
        if name not in files or files[name].get('subtask') != subtask:
            continue
        if not os.path.isfile(os.path.join(data_dir, name)):  # missing, or a directory: one error, no content
            errors.append(_verify_error(data_dir, name, manifest))
            continue
        # The content first: after an edit, the file:line of a broken record says more than the changed hash
        # (which is reported too).
        try:
            records = validate_file(os.path.join(data_dir, name), personas=personas, subtask=subtask, seen_ids=seen,
                                    seen_stages=stages)
        except ScenarioError as e:
            errors.append(str(e))
            records = None
        problem = _verify_error(data_dir, name, manifest)
        if problem:
            errors.append(problem)
        if records is not None and not problem:
            checked.append({'name': name, 'records': len(records), 'sha256': files[name]['sha256']})
    if FRAME_NAME in files:
        try:
            users: Optional[list] = _frame_users(data_dir)
        except (ValueError, OSError) as e:  # load_frame raises ValueError naming the file
            errors.append(str(e))
            users = None
        problem = _verify_error(data_dir, FRAME_NAME, manifest)
        if problem:
            errors.append(problem)
        if users is not None and not problem:
            checked.append({'name': FRAME_NAME, 'users': len(users)})
    if RUBRICS_NAME in files:
        try:
            rubrics = load_rubrics(data_dir, verify=False)
        except (ScenarioError, OSError) as e:
            errors.append(str(e))
            rubrics = None
        problem = _verify_error(data_dir, RUBRICS_NAME, manifest)
        if problem:
            errors.append(problem)
        if rubrics is not None and not problem:
            checked.append({'name': RUBRICS_NAME, 'rubrics': len(rubrics['rubrics']), 'version': rubrics['version']})
    return checked, errors


def _frame_users(data_dir: str) -> list:
    """The user roster of ``frame.json`` (the records its manifest entry counts).

    Raises:
        ScenarioError: naming the file when it is unreadable, or not an object with a ``users`` list.
    """
    frame = load_frame(data_dir)
    if not isinstance(frame, dict) or not isinstance(frame.get('users'), list):
        raise ScenarioError(os.path.join(data_dir, FRAME_NAME), 0, 'users', 'expected an object with a users list')
    return frame['users']


def _verify_error(data_dir: str, name: str, manifest: Dict[str, Any]) -> Optional[str]:
    """:func:`verify_file`'s complaint about one file, or ``None`` when it matches the manifest."""
    try:
        verify_file(data_dir, name, manifest)
    except (ManifestError, ScenarioError) as e:  # ScenarioError: counting the records of a broken file
        return str(e)
    return None


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
    data_dir = require_data_dir(data_dir or default_data_dir())
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


def to_rows(scenarios: List[Scenario], personas: Dict[str, Persona],
            history_format: str = 'block') -> List[Dict[str, Any]]:
    """Flattens scenarios into the columns the OpenCompass prompt template reads.

    Columns: ``id, subtask, dimension, persona, persona_name, language, system_prompt, user_prompt, reference,
    inputs, tags, chain`` (``persona_name`` for the task checks, which read the companion's name; ``inputs`` and ``tags`` as JSON strings, so that a judge can see them later; ``chain`` is ``''`` for a
    record outside a linked chain, and lets the bootstrap resample a chain as one unit). The prompts are in the
    record's language.

    ``history_format='chat'`` adds ``messages``: the chat rendering (:func:`~.prompts.chat_prompt`) as a JSON list
    of ``{'role', 'prompt'}``, which the chat prompt template sends. ``system_prompt`` and ``user_prompt`` stay the
    block rendering in both modes: the judge and the echo check read them, so that a block and a chat run of one
    model are judged and checked against the same text and differ only in what the model received.

    Raises:
        ValueError: an unknown ``history_format``, or ``'chat'`` for a scenario outside
            :data:`~.prompts.CHAT_SUBTASKS`.
    """
    chat = check_history_format(history_format) == 'chat'
    rows = []
    for s in scenarios:
        row = {
            'id': s.id, 'subtask': s.subtask, 'dimension': s.dimension, 'persona': s.persona,
            'persona_name': personas[s.persona].name, 'language': s.language,
            'system_prompt': system_prompt(personas[s.persona], s.subtask, s.language),
            'user_prompt': user_prompt(s.subtask, s.inputs, s.language),
            'reference': s.reference,
            'inputs': json.dumps(s.inputs, ensure_ascii=False, sort_keys=True),
            'tags': json.dumps(s.tags, ensure_ascii=False, sort_keys=True),
            'chain': s.chain or '',
        }
        if chat:
            row['messages'] = json.dumps(chat_prompt(personas[s.persona], s.subtask, s.inputs, s.language),
                                         ensure_ascii=False)
        rows.append(row)
    return rows


def load_rows(subtask: str, data_dir: Optional[str] = None, verify: bool = True,
              history_format: str = 'block') -> List[Dict[str, Any]]:
    """:func:`load_subtask` followed by :func:`to_rows`.

    Raises:
        ValueError: ``history_format='chat'`` for a subtask without a conversation to continue (checked before any
            file is read; chat mode refuses rather than falls back to the block, so that a result that says
            ``chat`` was rendered as chat).
    """
    if check_history_format(history_format) == 'chat' and subtask not in CHAT_SUBTASKS:
        raise ValueError(f"history_format='chat': subtask {subtask!r} has no conversation to continue (no history "
                         f"and latest user message); chat mode is for {list(CHAT_SUBTASKS)}, use 'block' for "
                         f'{subtask!r}')
    return to_rows(*_load(subtask, data_dir, verify), history_format=history_format)


def data_fingerprint(subtask: str, data_dir: Optional[str] = None, history_format: str = 'block') -> Dict[str, Any]:
    """What a result depends on in the data, hashed from the files actually on disk.

    Works without a manifest (``verify=False`` data). Returns ``dataset`` and ``version`` from the
    manifest (``None`` when there is none), ``file_sha256`` and ``personas_sha256`` of the files themselves,
    ``manifest_match`` (``True``/``False``, or ``None`` without a manifest or manifest entry) and
    ``prompt_hash`` over the languages of the file's records and the ``history_format`` (the block hash is the one
    recorded before chat mode existed).

    Raises:
        ManifestError: a manifest exists but cannot be read.
        ScenarioError: the file holds an undecodable line.
    """
    data_dir = data_dir or default_data_dir()
    name = f'{subtask}.jsonl'
    path = os.path.join(data_dir, name)
    file_sha = sha256_file(path)
    personas_sha = sha256_file(os.path.join(data_dir, PERSONAS_NAME))
    manifest = read_manifest(data_dir) if os.path.exists(os.path.join(data_dir, MANIFEST_NAME)) else None
    match: Optional[bool] = None
    if manifest is not None and name in manifest['files']:
        files = manifest['files']
        match = (files[name].get('sha256') == file_sha
                 and files.get(PERSONAS_NAME, {}).get('sha256') == personas_sha)
    languages = {rec.get('language') for _, rec in iter_jsonl(path) if isinstance(rec, dict)}
    return {'dataset': manifest.get('name', DATASET_NAME) if manifest else None,
            'version': manifest.get('version') if manifest else None,
            'file_sha256': file_sha, 'personas_sha256': personas_sha, 'manifest_match': match,
            'prompt_hash': prompt_hash(sorted(lang for lang in languages if isinstance(lang, str)), history_format)}


__all__ = ['ManifestError', 'ScenarioError', 'check_data_dir', 'data_fingerprint', 'load_rows', 'load_rubrics',
           'load_subtask', 'read_manifest', 'sha256_file', 'stray_files', 'to_rows', 'verify_file', 'write_manifest']
