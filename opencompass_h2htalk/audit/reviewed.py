"""Findings of the judgement-based lexical checks that a reader judged not to be defects, kept next to the data
with the reason, so that the audit stays a hard gate without rewording correct text to please a word list."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, List, Tuple

from ..data.schema import ScenarioError, read_json
from .model import Finding, Record

#: The file in a data directory that holds the reviewed findings.
REVIEWED_NAME = 'audit_reviewed.json'
#: Only checks that match words and cannot read meaning may be reviewed: a structural check (schema, chain links,
#: caps, quotas) is either right or the check is wrong. ``tags.emotion`` matches a word list against the user's side
#: of the inputs: a feeling told in other words (「等她气顺了」) is read by a person, not the list (data 1.1.0-rc.9).
REVIEWABLE = ('grounding.user_fact', 'slots.call_narration', 'tags.emotion')
#: A reason shorter than this says nothing a later reader can verify.
MIN_WHY_CHARS = 15


@dataclass(frozen=True)
class Review:
    """One reviewed finding: the record, the check, a string the finding's message must contain, and why it is
    not a defect."""

    index: int
    id: str
    check: str
    match: str
    why: str


def load_reviews(data_dir: str) -> List[Review]:
    """The reviewed findings of a data directory (none when it has no REVIEWED_NAME).

    Raises:
        ScenarioError: the file is unreadable, or an entry lacks a field, names a check that cannot be reviewed,
            or gives a reason under MIN_WHY_CHARS characters (the message names the file and the entry).
    """
    path = os.path.join(data_dir, REVIEWED_NAME)
    if not os.path.exists(path):
        return []
    raw = read_json(path)
    entries = raw.get('reviewed') if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise ScenarioError(path, 0, 'reviewed', 'expected an object with a "reviewed" list')
    out = []
    for k, e in enumerate(entries):
        where = f'reviewed[{k}]'
        if not isinstance(e, dict) or not all(isinstance(e.get(f), str) and e[f].strip()
                                              for f in ('id', 'check', 'match', 'why')):
            raise ScenarioError(path, 0, where, 'each entry needs non-empty "id", "check", "match" and "why"')
        if e['check'] not in REVIEWABLE:
            raise ScenarioError(path, 0, where, f'check {e["check"]!r} cannot be reviewed (only {list(REVIEWABLE)}): '
                                                'fix the data or the check')
        if len(e['why'].strip()) < MIN_WHY_CHARS:
            raise ScenarioError(path, 0, where, f'"why" must say why this is not a defect (at least '
                                                f'{MIN_WHY_CHARS} characters)')
        out.append(Review(k, e['id'], e['check'], e['match'], e['why']))
    return out


def apply_reviews(findings: List[Finding], records: List[Record], reviews: List[Review],
                  data_dir: str) -> Tuple[List[Finding], List[Finding]]:
    """Splits findings into (still failing, reviewed). A review that matches no finding is itself a finding
    (``audit.reviewed``): the text it excused has changed, so it must be read again or removed."""
    ids: Dict[Tuple[str, int], str] = {(r.path, r.line): r.id for r in records}
    used = set()
    kept, reviewed = [], []
    for f in findings:
        rid = ids.get((f.path, f.line))
        hit = next((rv for rv in reviews if rv.id == rid and rv.check == f.check and rv.match in f.message), None)
        if hit is None:
            kept.append(f)
        else:
            used.add(hit.index)
            reviewed.append(f)
    path = os.path.join(data_dir, REVIEWED_NAME)
    for rv in reviews:
        if rv.index not in used:
            kept.append(Finding(path, 0, 'audit.reviewed', f'reviewed[{rv.index}] ({rv.id}, {rv.check}, '
                                                           f'{rv.match!r}) matches no finding: re-read or remove it'))
    return kept, reviewed
