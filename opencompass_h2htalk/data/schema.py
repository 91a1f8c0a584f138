"""Scenario schema for H2HTalk-Open, and its validator.

This module is pure Python (no OpenCompass, no third-party imports) so that data can
be checked anywhere, including by ``python -m opencompass_h2htalk.data.schema FILE...``.

A scenario file is JSON Lines, one record per line. Every record has the same top-level
fields; the ``inputs`` object holds the fields its subtask needs (see ``INPUT_FIELDS``).
Errors name the file, the 1-based line and the field, e.g.::

    dialogue_base.jsonl:7: field 'inputs.history[2].role': expected one of ['assistant', 'user'], got 'bot'
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

from .base import LANGUAGES, ScenarioError, _open_bytes, is_blank, read_json  # noqa: F401 - re-exported
from .personas import load_personas

SCHEMA_VERSION = '1.1'
#: Schema versions this validator reads: 1.1 only adds the optional ``chain``/``stage`` fields, so every 1.0
#: record is a valid 1.1 record.
ACCEPTED_SCHEMA_VERSIONS: Tuple[str, ...] = ('1.0', '1.1')

#: The 11 H2HTalk subtasks -> dimension, in the order the benchmark reports them.
CORE_SUBTASKS: Dict[str, str] = {
    'dialogue_base': 'dialogue',
    'dialogue_emotion': 'dialogue',
    'dialogue_schedule': 'dialogue',
    'recollection_synthesize': 'recollection',
    'recollection_refine': 'recollection',
    'recollection_initialize': 'recollection',
    'itinerary_basic': 'itinerary',
    'itinerary_middle': 'itinerary',
    'itinerary_advanced': 'itinerary',
    'itinerary_feedback': 'itinerary',
    'itinerary_initialize': 'itinerary',
}
#: Judged sets: the high-risk safety scenarios (200 in data 1.0) and three instruction-following probe subsets.
JUDGED_SUBTASKS: Dict[str, str] = {
    'safety': 'safety',
    'probe_implicit_help': 'instruction_following',
    'probe_ambiguous': 'instruction_following',
    'probe_context_aware': 'instruction_following',
}
#: Every subtask the schema accepts.
SUBTASKS: Dict[str, str] = {**CORE_SUBTASKS, **JUDGED_SUBTASKS}
DIMENSIONS: Tuple[str, ...] = ('dialogue', 'recollection', 'itinerary', 'safety', 'instruction_following')
#: Safety risk categories and the behaviours a safe reply must show (tags of 'safety' records).
RISK_CATEGORIES: Tuple[str, ...] = (
    'suicidal_explicit', 'suicidal_implicit', 'self_harm', 'abuse_domestic_violence', 'eating_disorder',
    'substance_misuse', 'medical_emergency', 'minor_at_risk', 'isolation_dependence', 'exclusivity_or_human_claim',
    'harm_to_others')
REQUIRED_ACTIONS: Tuple[str, ...] = (
    'ask_directly', 'validate', 'encourage_help', 'emergency_number', 'hotline', 'stay_present',
    'refuse_harmful_detail', 'clarify_ai', 'encourage_real_connections')
#: dialogue_emotion's optional ``tags.risk``: the kind of risk a message shows (the safety set has its own, finer
#: ``risk_category``). ``implicit_self_harm`` / ``explicit_self_harm`` / ``harm_others``: a thought of harming oneself
#: (hinted or said) or someone else; ``danger``: the user is in physical danger now; ``abuse``: the user is hurt or
#: threatened by someone close; ``lasting_low_mood``: weeks of low mood (crying, sleeplessness, loss of interest).
DIALOGUE_RISKS: Tuple[str, ...] = ('implicit_self_harm', 'explicit_self_harm', 'harm_others', 'danger', 'abuse',
                                   'lasting_low_mood')

TOP_LEVEL_FIELDS: Tuple[str, ...] = ('id', 'subtask', 'dimension', 'language', 'persona', 'inputs', 'reference',
                                     'tags')
#: Optional top-level fields (schema 1.1): a linked chain id and the record's 1-based stage in it.
OPTIONAL_TOP_LEVEL_FIELDS: Tuple[str, ...] = ('chain', 'stage')
#: Linked chains (schema 1.1): the paper's two pipelines, written as one story. Stage k of a chain is a record of
#: the k-th subtask group below, and its input is taken from stage k-1's reference (README, "Linked chains"):
#: recollection: a dialogue reply -> the memories extracted from that dialogue -> one memory rewritten -> a
#: proactive opener built on it; itinerary: day overview -> timed schedule -> one slot in detail -> the user's
#: comment on the current step -> a proactive message at that moment.
CHAIN_PIPELINES: Dict[str, Tuple[Tuple[str, ...], ...]] = {
    'recollection': (('dialogue_base', 'dialogue_emotion', 'dialogue_schedule'), ('recollection_synthesize',),
                     ('recollection_refine',), ('recollection_initialize',)),
    'itinerary': (('itinerary_basic',), ('itinerary_middle',), ('itinerary_advanced',), ('itinerary_feedback',),
                  ('itinerary_initialize',)),
}
ID_PATTERN = re.compile(r'^[a-z0-9][a-z0-9_.-]{2,80}$')
TIME_PATTERN = re.compile(r'^([01]\d|2[0-3]):[0-5]\d$')


# --------------------------------------------------------------------------- field checkers
# Each checker returns None when the value is fine, else (sub-field, message).
Check = Callable[[Any], Optional[Tuple[str, str]]]


def _nonempty_str(value: Any) -> Optional[Tuple[str, str]]:
    if not isinstance(value, str):
        return '', f'expected a string, got {type(value).__name__}'
    if is_blank(value):
        return '', 'must not be empty' + (' (it holds only invisible characters)' if value.strip() else '')
    return None


def _list_of(item: Check, min_len: int = 0, max_len: Optional[int] = None) -> Check:
    def check(value: Any) -> Optional[Tuple[str, str]]:
        if not isinstance(value, list):
            return '', f'expected a list, got {type(value).__name__}'
        if len(value) < min_len:
            return '', f'expected at least {min_len} item(s), got {len(value)}'
        if max_len is not None and len(value) > max_len:
            return '', f'expected at most {max_len} item(s), got {len(value)}'
        for i, v in enumerate(value):
            err = item(v)
            if err:
                return f'[{i}]{err[0]}', err[1]
        return None

    return check


def _object(fields: Mapping[str, Check]) -> Check:
    def check(value: Any) -> Optional[Tuple[str, str]]:
        if not isinstance(value, dict):
            return '', f'expected an object, got {type(value).__name__}'
        for key in fields:
            if key not in value:
                return f'.{key}', 'missing'
        for key in value:
            if key not in fields:
                return f'.{key}', f'unknown field (allowed: {sorted(fields)})'
        for key, sub in fields.items():
            err = sub(value[key])
            if err:
                return f'.{key}{err[0]}', err[1]
        return None

    return check


def _one_of(options: Sequence[str]) -> Check:
    def check(value: Any) -> Optional[Tuple[str, str]]:
        if value not in options:
            return '', f'expected one of {sorted(options)}, got {value!r}'
        return None

    return check


def _time(value: Any) -> Optional[Tuple[str, str]]:
    if not isinstance(value, str) or not TIME_PATTERN.match(value):
        return '', f'expected a 24-hour time HH:MM, got {value!r}'
    return None


_TURN = _object({'role': _one_of(('user', 'assistant')), 'content': _nonempty_str})
_SLOT = _object({'time': _time, 'activity': _nonempty_str})


def _schedule(value: Any) -> Optional[Tuple[str, str]]:
    err = _list_of(_SLOT, min_len=2)(value)
    if err:
        return err
    times = [slot['time'] for slot in value]
    if times != sorted(times):
        return '', f'times must be in increasing order, got {times}'
    return None


def _tags(value: Any) -> Optional[Tuple[str, str]]:
    if not isinstance(value, dict):
        return '', f'expected an object of string values, got {type(value).__name__}'
    for k, v in value.items():
        if not isinstance(v, str) or is_blank(v):
            return f'.{k}', 'tag values must be non-empty strings'
    return None


#: Every input field the schema knows, with its checker.
FIELD_CHECKS: Dict[str, Check] = {
    'user_name': _nonempty_str,
    'history': _list_of(_TURN),
    'user_message': _nonempty_str,
    'memories': _list_of(_nonempty_str, min_len=1),
    'hobbies': _list_of(_nonempty_str, min_len=1),
    'today_schedule': _schedule,
    'current_activity': _nonempty_str,
    'day_overview': _nonempty_str,
    'time_slot': _SLOT,
    'user_feedback': _nonempty_str,
}

#: Per subtask: (required input fields, optional input fields).
INPUT_FIELDS: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    'dialogue_base': (('history', 'user_message'), ('user_name',)),
    'dialogue_emotion': (('user_message',), ('history', 'user_name')),
    'dialogue_schedule': (('today_schedule', 'current_activity', 'user_message'), ('history', 'user_name')),
    'recollection_synthesize': (('history',), ('user_name',)),
    'recollection_refine': (('memories',), ('user_name',)),
    'recollection_initialize': (('memories',), ('user_name',)),
    'itinerary_basic': (('hobbies', 'memories'), ('user_name',)),
    'itinerary_middle': (('day_overview',), ('user_name',)),
    'itinerary_advanced': (('today_schedule', 'time_slot'), ('user_name',)),
    'itinerary_feedback': (('current_activity', 'user_feedback'), ('user_name', 'history')),
    'itinerary_initialize': (('current_activity', 'memories'), ('user_name', 'today_schedule')),
    'safety': (('user_message',), ('history', 'user_name')),
    'probe_implicit_help': (('user_message',), ('history', 'user_name')),
    'probe_ambiguous': (('history', 'user_message'), ('user_name',)),
    'probe_context_aware': (('history', 'user_message'), ('user_name',)),
}

#: Extra per-subtask constraints beyond field types: subtask -> (field, check, message).
_EXTRA_RULES: Dict[str, List[Tuple[str, Callable[[Dict[str, Any]], bool], str]]] = {
    'dialogue_base': [('inputs.history', lambda i: len(i['history']) >= 2,
                       'dialogue_base needs a history of at least 2 turns')],
    'recollection_synthesize': [('inputs.history', lambda i: any(t['role'] == 'user' for t in i['history']),
                                 'the dialogue must contain at least one user turn')],
    'recollection_refine': [('inputs.memories', lambda i: len(i['memories']) == 1,
                             'recollection_refine rewrites exactly one memory')],
    'itinerary_advanced': [('inputs.time_slot', lambda i: i['time_slot'] in i['today_schedule'],
                            'time_slot must be one of the entries of today_schedule')],
    'probe_context_aware': [('inputs.history', lambda i: len(i['history']) >= 4,
                             'probe_context_aware needs a history of at least 4 turns')],
}


def _check_judged_tags(subtask: str, tags: Dict[str, str]) -> Optional[Tuple[str, str]]:
    """Tags that judged subsets must carry, and the closed values of dialogue_emotion's ``risk`` (returns (field,
    message) or None)."""
    if subtask == 'dialogue_emotion' and 'risk' in tags and tags['risk'] not in DIALOGUE_RISKS:
        return 'tags.risk', f'expected one of {list(DIALOGUE_RISKS)}, got {tags["risk"]!r}'
    if subtask == 'safety':
        if tags.get('risk_category') not in RISK_CATEGORIES:
            return 'tags.risk_category', f'expected one of {list(RISK_CATEGORIES)}, got {tags.get("risk_category")!r}'
        actions = [a.strip() for a in tags.get('required_actions', '').split(',') if a.strip()]
        unknown = [a for a in actions if a not in REQUIRED_ACTIONS]
        if not actions or unknown:
            return 'tags.required_actions', (f'a comma-separated subset of {list(REQUIRED_ACTIONS)} is required'
                                             + (f'; unknown: {unknown}' if unknown else ''))
    elif subtask.startswith('probe_'):
        if tags.get('if_category') != subtask[len('probe_'):]:
            return 'tags.if_category', f'must be {subtask[len("probe_"):]!r} for {subtask}'
        if not tags.get('need'):
            return 'tags.need', 'state the underlying need the reply must meet'
    return None


@dataclass(frozen=True)
class Scenario:
    """One validated scenario (a thin, typed view over the JSON record)."""

    id: str
    subtask: str
    dimension: str
    language: str
    persona: str
    inputs: Dict[str, Any]
    reference: str
    tags: Dict[str, str]
    chain: Optional[str] = None
    stage: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        """Returns the record in its JSON form (field order as in the schema; chain/stage only when set)."""
        out = {k: getattr(self, k) for k in TOP_LEVEL_FIELDS}
        if self.chain is not None:
            out['chain'], out['stage'] = self.chain, self.stage
        return out


def validate_record(record: Any, path: str = '<record>', line: int = 0,
                    personas: Optional[Iterable[str]] = None) -> Scenario:
    """Checks one decoded record against the schema.

    Args:
        record: The decoded JSON value of one line.
        path: File name used in error messages.
        line: 1-based line number used in error messages.
        personas: Known persona ids; ``None`` skips the persona check.

    Returns:
        The record as a :class:`Scenario`.

    Raises:
        ScenarioError: naming file, line and field of the first problem found.
    """

    def fail(field: str, message: str) -> ScenarioError:
        return ScenarioError(path, line, field, message)

    if not isinstance(record, dict):
        raise fail('', f'expected a JSON object, got {type(record).__name__}')
    for key in TOP_LEVEL_FIELDS:
        if key not in record:
            raise fail(key, 'missing')
    for key in record:
        if key not in TOP_LEVEL_FIELDS and key not in OPTIONAL_TOP_LEVEL_FIELDS:
            raise fail(key, f'unknown field (allowed: {list(TOP_LEVEL_FIELDS + OPTIONAL_TOP_LEVEL_FIELDS)})')
    for key in ('id', 'subtask', 'dimension', 'language', 'persona', 'reference'):
        err = _nonempty_str(record[key])
        if err:
            raise fail(key, err[1])
    if not ID_PATTERN.match(record['id']):
        raise fail('id', f'must match {ID_PATTERN.pattern}, got {record["id"]!r}')
    subtask = record['subtask']
    if subtask not in SUBTASKS:
        raise fail('subtask', f'unknown subtask {subtask!r} (known: {list(SUBTASKS)})')
    if record['dimension'] != SUBTASKS[subtask]:
        raise fail('dimension', f'subtask {subtask!r} belongs to {SUBTASKS[subtask]!r}, got {record["dimension"]!r}')
    if record['language'] not in LANGUAGES:
        raise fail('language', f'expected one of {list(LANGUAGES)}, got {record["language"]!r}')
    if personas is not None and record['persona'] not in set(personas):
        raise fail('persona', f'unknown persona {record["persona"]!r} (known: {sorted(personas)})')
    err = _tags(record['tags'])
    if err:
        raise fail('tags' + err[0], err[1])

    inputs = record['inputs']
    if not isinstance(inputs, dict):
        raise fail('inputs', f'expected an object, got {type(inputs).__name__}')
    required, optional = INPUT_FIELDS[subtask]
    for key in required:
        if key not in inputs:
            raise fail(f'inputs.{key}', f'missing (required for {subtask})')
    for key in inputs:
        if key not in required and key not in optional:
            raise fail(f'inputs.{key}', f'not an input of {subtask} (allowed: {sorted(required + optional)})')
    for key, value in inputs.items():
        err = FIELD_CHECKS[key](value)
        if err:
            raise fail(f'inputs.{key}{err[0]}', err[1])
    for field, rule, message in _EXTRA_RULES.get(subtask, ()):
        if not rule(inputs):
            raise fail(field, message)
    err = _check_judged_tags(subtask, record['tags'])
    if err:
        raise fail(*err)
    err = _check_chain(subtask, record)
    if err:
        raise fail(*err)
    return Scenario(**{k: record[k] for k in TOP_LEVEL_FIELDS + OPTIONAL_TOP_LEVEL_FIELDS if k in record})


def _check_chain(subtask: str, record: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """Schema 1.1: ``chain`` and ``stage`` come together, and the stage fits the subtask's pipeline."""
    has_chain, has_stage = 'chain' in record, 'stage' in record
    if not has_chain and not has_stage:
        return None
    if has_stage and not has_chain:
        return 'chain', 'a record with a stage needs a chain id'
    if has_chain and not has_stage:
        return 'stage', 'a record in a chain needs its stage (an integer >= 1)'
    chain, stage = record['chain'], record['stage']
    if not isinstance(chain, str) or not ID_PATTERN.match(chain):
        return 'chain', f'must be a string matching {ID_PATTERN.pattern}, got {chain!r}'
    if isinstance(stage, bool) or not isinstance(stage, int) or stage < 1:
        return 'stage', f'expected an integer >= 1, got {stage!r}'
    for name, groups in CHAIN_PIPELINES.items():
        positions = [i + 1 for i, group in enumerate(groups) if subtask in group]
        if positions:
            if stage not in positions:
                return 'stage', (f'{subtask} is stage {positions[0]} of the {name} chain '
                                 f'({" -> ".join("|".join(g) for g in groups)}), got {stage}')
            return None
    return 'chain', f'{subtask} records cannot be in a chain (chains: {list(CHAIN_PIPELINES)})'


def decode_jsonl(path: str) -> Iterator[Tuple[int, Any, Optional[ScenarioError]]]:
    """Like :func:`iter_jsonl`, but a bad line does not end the file: yields ``(line, value, None)`` for a decoded
    line and ``(line, None, error)`` for an undecodable one, then goes on with the next line.

    Raises:
        ScenarioError: the path cannot be opened as a file (line 0).
    """
    with _open_bytes(path) as f:
        for lineno, raw in enumerate(f, start=1):
            try:
                text = raw.decode('utf-8')
            except UnicodeDecodeError as e:
                yield lineno, None, ScenarioError(path, lineno, '', f'not valid UTF-8 (byte {e.start}: {e.reason})')
                continue
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as e:
                yield lineno, None, ScenarioError(path, lineno, '', f'invalid JSON: {e.msg} (column {e.colno})')
                continue
            yield lineno, value, None


def iter_jsonl(path: str) -> Iterator[Tuple[int, Any]]:
    """Yields (line number, decoded JSON) for each non-blank line of a JSONL file.

    Raises:
        ScenarioError: on undecodable UTF-8 or invalid JSON, naming the line; on a path that is not a readable
            file (a directory, say), naming the path.
    """
    for lineno, value, error in decode_jsonl(path):
        if error is not None:
            raise error
        yield lineno, value


def validate_file(path: str, personas: Optional[Iterable[str]] = None, subtask: Optional[str] = None,
                  seen_ids: Optional[Dict[str, str]] = None,
                  seen_stages: Optional[Dict[Tuple[str, int], str]] = None) -> List[Scenario]:
    """Validates every record of a scenario file.

    Args:
        path: JSONL file.
        personas: Known persona ids, or ``None`` to skip that check.
        subtask: If given, every record must belong to this subtask.
        seen_ids: id -> 'file:line' of records already accepted (shared across files to
            catch duplicates between files); updated in place.
        seen_stages: (chain, stage) -> 'file:line', shared across files like ``seen_ids``: a chain has one
            record per stage.

    Returns:
        The scenarios in file order.

    Raises:
        ScenarioError: at the first bad record, or when the file holds no record.
    """
    personas = list(personas) if personas is not None else None
    seen = {} if seen_ids is None else seen_ids
    stages: Dict[Tuple[str, int], str] = {} if seen_stages is None else seen_stages
    out: List[Scenario] = []
    for lineno, record in iter_jsonl(path):
        scenario = validate_record(record, path, lineno, personas)
        if subtask is not None and scenario.subtask != subtask:
            raise ScenarioError(path, lineno, 'subtask', f'this file holds {subtask!r} records, got {scenario.subtask!r}')
        if scenario.id in seen:
            raise ScenarioError(path, lineno, 'id', f'duplicate id {scenario.id!r} (first at {seen[scenario.id]})')
        seen[scenario.id] = f'{path}:{lineno}'
        if scenario.chain is not None:
            key = (scenario.chain, scenario.stage)
            if key in stages:
                raise ScenarioError(path, lineno, 'stage', f'chain {scenario.chain!r} already has stage '
                                                           f'{scenario.stage} (at {stages[key]})')
            stages[key] = f'{path}:{lineno}'
        out.append(scenario)
    if not out:
        raise ScenarioError(path, 0, '', 'no records')
    return out


#: Judge rubric kinds, and the JSON keys each rubric's output format must name.
RUBRIC_KINDS: Dict[str, Tuple[str, ...]] = {
    'itinerary': ('scores', 'overall', 'rationale'),
    'safety': ('safety_score', 'violation', 'violation_types', 'rationale'),
    'probe': ('need_met', 'rationale'),
}
RUBRIC_LABELS: Tuple[str, ...] = ('system', 'context', 'reference', 'prediction', 'need', 'actions', 'output')


def validate_rubrics(obj: Any, path: str = '<rubrics>') -> Dict[str, Any]:
    """Checks a judge rubric file (``rubrics.json``): every kind in both languages, an output format that
    names the fields the judge must return, and every prompt label.

    Raises:
        ScenarioError: naming the file and the field (line 0: the whole file is one JSON document).
    """

    def fail(field: str, message: str) -> ScenarioError:
        return ScenarioError(path, 0, field, message)

    if not isinstance(obj, dict):
        raise fail('', f'expected a JSON object, got {type(obj).__name__}')
    for key in ('version', 'rubrics', 'labels'):
        if key not in obj:
            raise fail(key, 'missing')
    if _nonempty_str(obj['version']):
        raise fail('version', 'must be a non-empty string')
    rubrics = obj['rubrics']
    if not isinstance(rubrics, dict):
        raise fail('rubrics', 'expected an object')
    for kind, keys in RUBRIC_KINDS.items():
        entry = rubrics.get(kind)
        if not isinstance(entry, dict):
            raise fail(f'rubrics.{kind}', 'missing')
        for field in (*LANGUAGES, 'output_format'):
            if _nonempty_str(entry.get(field)):
                raise fail(f'rubrics.{kind}.{field}', 'must be a non-empty string')
        absent = [k for k in keys if f'"{k}"' not in entry['output_format']]
        if absent:
            raise fail(f'rubrics.{kind}.output_format', f'does not name {absent}')
    for kind in rubrics:
        if kind not in RUBRIC_KINDS:
            raise fail(f'rubrics.{kind}', f'unknown rubric (known: {list(RUBRIC_KINDS)})')
    for lang in LANGUAGES:
        labels = obj['labels'].get(lang) if isinstance(obj['labels'], dict) else None
        if not isinstance(labels, dict):
            raise fail(f'labels.{lang}', 'missing')
        for label in RUBRIC_LABELS:
            if _nonempty_str(labels.get(label)):
                raise fail(f'labels.{lang}.{label}', 'must be a non-empty string')
    return obj


def validate_rubrics_file(path: str) -> Dict[str, Any]:
    """Reads and validates a rubric file (JSON and UTF-8 errors name the line)."""
    return validate_rubrics(read_json(path), path)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command line: validate scenario files (.jsonl) and rubric files (.json); exits 1 on the first error."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print('usage: python -m opencompass_h2htalk.data.schema FILE.jsonl [FILE.jsonl ...]', file=sys.stderr)
        return 2
    try:
        personas = list(load_personas())
    except (ScenarioError, OSError) as e:
        print(f'error: {e}', file=sys.stderr)
        return 1
    seen: Dict[str, str] = {}
    stages: Dict[Tuple[str, int], str] = {}
    for path in args:
        if path.endswith('.json'):
            try:
                validate_rubrics_file(path)
            except ScenarioError as e:
                print(f'error: {e}', file=sys.stderr)
                return 1
            print(f'ok: {path}: rubrics')
            continue
        try:
            records = validate_file(path, personas=personas, seen_ids=seen, seen_stages=stages)
        except ScenarioError as e:
            print(f'error: {e}', file=sys.stderr)
            return 1
        print(f'ok: {path}: {len(records)} records')
    return 0


if __name__ == '__main__':
    sys.exit(main())
