"""Companion personas of H2HTalk-Open (written for this project, not upstream)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Dict, Optional

from .paths import default_data_dir


@dataclass(frozen=True)
class Persona:
    """A companion character the model is asked to play."""

    id: str
    name: str
    gender: str
    age: int
    language: str
    description: str


def load_personas(data_dir: Optional[str] = None) -> Dict[str, Persona]:
    """Loads ``personas.json`` from a data directory (default: the bundled H2HTalk-Open data).

    Raises:
        FileNotFoundError: if the file is missing.
        ValueError: naming the file and the persona when an entry is malformed.
    """
    path = os.path.join(data_dir or default_data_dir(), 'personas.json')
    with open(path, encoding='utf-8') as f:
        raw = json.load(f)
    out: Dict[str, Persona] = {}
    for i, item in enumerate(raw.get('personas', [])):
        try:
            persona = Persona(**item)
        except TypeError as e:
            raise ValueError(f'{path}: personas[{i}]: {e}') from None
        if not persona.description.strip():
            raise ValueError(f"{path}: personas[{i}] ('{persona.id}'): empty description")
        if persona.id in out:
            raise ValueError(f"{path}: personas[{i}]: duplicate persona id '{persona.id}'")
        out[persona.id] = persona
    if not out:
        raise ValueError(f'{path}: no personas defined')
    return out
