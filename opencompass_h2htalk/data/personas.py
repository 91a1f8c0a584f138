"""Companion personas of H2HTalk-Open (written for this project, not upstream)."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any, Dict, Optional

from .paths import default_data_dir
from .base import LANGUAGES, ScenarioError, is_blank, read_json


@dataclass(frozen=True)
class Persona:
    """A companion character the model is asked to play."""

    id: str
    name: str
    gender: str
    age: int
    language: str
    description: str


#: Persona field -> expected JSON type (``age`` is an integer, every other field a non-empty string).
_FIELD_TYPES = {f.name: (int if f.name == 'age' else str) for f in fields(Persona)}


def _check_entry(item: Any, path: str, i: int) -> Persona:
    """Checks one entry of ``personas`` and returns it as a :class:`Persona` (errors name index and field)."""

    def fail(field: str, message: str) -> ScenarioError:
        if isinstance(item, dict) and isinstance(item.get('id'), str) and field != '.id':
            message += f" (persona '{item['id']}')"
        return ScenarioError(path, 0, f'personas[{i}]{field}', message)

    if not isinstance(item, dict):
        raise fail('', f'expected an object, got {type(item).__name__}')
    for key in _FIELD_TYPES:
        if key not in item:
            raise fail(f'.{key}', 'missing')
    for key in item:
        if key not in _FIELD_TYPES:
            raise fail(f'.{key}', f'unknown field (allowed: {list(_FIELD_TYPES)})')
    for key, kind in _FIELD_TYPES.items():
        value = item[key]
        if kind is int:
            # bool is an int subclass in Python; a JSON true is not an age.
            if not isinstance(value, int) or isinstance(value, bool):
                raise fail(f'.{key}', f'expected an integer, got {type(value).__name__}')
            if value <= 0:
                raise fail(f'.{key}', f'must be positive, got {value}')
        elif not isinstance(value, str):
            raise fail(f'.{key}', f'expected a string, got {type(value).__name__}')
        elif is_blank(value):
            raise fail(f'.{key}', 'must not be empty')
    if item['language'] not in LANGUAGES:
        raise fail('.language', f'expected one of {list(LANGUAGES)}, got {item["language"]!r}')
    return Persona(**item)


def load_personas(data_dir: Optional[str] = None) -> Dict[str, Persona]:
    """Loads and checks ``personas.json`` from a data directory (default: the bundled H2HTalk-Open data).

    Raises:
        FileNotFoundError: if the file is missing.
        ScenarioError: naming the file and, for undecodable JSON, the line; for a bad entry, the
            persona index and field (e.g. ``personas.json: field 'personas[1].age': expected an integer``).
    """
    path = os.path.join(data_dir or default_data_dir(), 'personas.json')
    raw = read_json(path)  # a directory, bad UTF-8 or bad JSON is a ScenarioError naming the file (and line)
    if not isinstance(raw, dict):
        raise ScenarioError(path, 0, '', f"expected a JSON object with a 'personas' list, got {type(raw).__name__}")
    if 'personas' not in raw:
        raise ScenarioError(path, 0, 'personas', 'missing')
    if not isinstance(raw['personas'], list):
        raise ScenarioError(path, 0, 'personas', f'expected a list, got {type(raw["personas"]).__name__}')
    out: Dict[str, Persona] = {}
    for i, item in enumerate(raw['personas']):
        persona = _check_entry(item, path, i)
        if persona.id in out:
            raise ScenarioError(path, 0, f'personas[{i}].id', f"duplicate persona id '{persona.id}'")
        out[persona.id] = persona
    if not out:
        raise ScenarioError(path, 0, 'personas', 'no personas defined')
    return out
