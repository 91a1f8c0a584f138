"""Casting: an age relation a persona claims towards the user (同龄, 长辈, 大哥) against the roster users it is cast with."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Dict, List, Optional, Tuple

from . import thresholds as T
from .model import Finding, Record

#: The line of a persona description that says who the persona is to the user.
RELATION_LINE = '与用户的关系：'
#: Words of a relation line that claim an age relation, and which one: ``peer`` (about the user's age) or ``elder``
#: (older than the user). Longer words first, so 老大哥 is read once, not also as 大哥.
AGE_CLAIMS: Tuple[Tuple[str, str], ...] = (
    ('同龄', 'peer'), ('同岁', 'peer'), ('老长辈', 'elder'), ('长辈', 'elder'), ('老大哥', 'elder'),
    ('老大姐', 'elder'), ('大哥', 'elder'), ('大姐', 'elder'), ('哥哥', 'elder'), ('姐姐', 'elder'),
    ('叔叔', 'elder'), ('阿姨', 'elder'),
)
_BAND = re.compile(r'^(\d+)(?:-(\d+)|\+)$')


def relation_claims(description: str) -> List[Tuple[str, str]]:
    """The (word, kind) age claims in a description's relation line; none without such a line."""
    line = next((l for l in description.splitlines() if l.startswith(RELATION_LINE)), '')
    out = []
    for word, kind in AGE_CLAIMS:
        if word in line:
            out.append((word, kind))
            line = line.replace(word, '')
    return out


def band_bounds(band: str) -> Optional[Tuple[int, int]]:
    """'25-34' -> (25, 34); '65+' -> (65, 120); None for anything else."""
    m = _BAND.match(band or '')
    if not m:
        return None
    low = int(m.group(1))
    return low, int(m.group(2)) if m.group(2) else 120


def claim_fits(kind: str, persona_age: int, band: str) -> bool:
    """Whether a user of ``band`` can be what the claim says: a peer within PEER_AGE_SLACK years of the persona's
    age; an elder's user younger than the persona (a band whose youngest age is the persona's or more cannot be)."""
    bounds = band_bounds(band)
    if bounds is None:
        return True
    low, high = bounds
    if kind == 'peer':
        return low - T.PEER_AGE_SLACK <= persona_age <= high + T.PEER_AGE_SLACK
    return persona_age > low


def check_age_relation(records: List[Record], personas: Dict[str, dict], ages_by_call: Dict[str, str],
                       personas_path: str) -> List[Finding]:
    """One finding per persona and claimed word whose casting breaks it: the persona's relation line says 同龄 (or
    长辈, 大哥...) while records pair it with roster users of an age band that cannot be that.

    Args:
        records: The records; a record's user is its ``inputs.user_name`` looked up among the roster's calls.
        personas: id -> persona object (``age`` and ``description`` are read).
        ages_by_call: The roster: a user's call name -> age band.
        personas_path: Where the finding points (the personas file; the fix is its relation line or the casting).
    """
    broken: Dict[Tuple[str, str], List[Record]] = defaultdict(list)
    for r in records:
        persona = personas.get(r.persona)
        band = ages_by_call.get(r.inputs.get('user_name'))
        if not persona or band is None or not isinstance(persona.get('age'), int):
            continue
        for word, kind in relation_claims(persona.get('description', '')):
            if not claim_fits(kind, persona['age'], band):
                broken[(r.persona, word)].append(r)
    out = []
    for (pid, word), recs in sorted(broken.items()):
        ids = ', '.join(r.id for r in recs[:5]) + (', ...' if len(recs) > 5 else '')
        out.append(Finding(personas_path, 0, 'persona.age_relation',
                           f'persona {pid} (age {personas[pid]["age"]}) says it is the user\'s 「{word}」, but '
                           f'{len(recs)} records cast it with users whose age band cannot be that: {ids}'))
    return out
