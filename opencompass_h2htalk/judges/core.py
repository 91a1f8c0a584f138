"""Judge output parsing, validation, retries and caching. Pure Python: the judge is any callable
``call(prompts) -> list of (text or None)`` (None = the request failed after the client's retries).

An unparsable judgement is never scored 0: after ``max_retries`` re-asks it is counted as
unparsed and excluded from the means, and the counts are reported (``parse_rate``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

from .rubrics import ITINERARY_CRITERIA, VIOLATION_TYPES

logger = logging.getLogger(__name__)

Call = Callable[[List[str]], List[Optional[str]]]


def extract_last_json(text: Any) -> Optional[Dict[str, Any]]:
    """The last valid JSON *object* in ``text`` (prose, code fences and earlier drafts are skipped)."""
    if not isinstance(text, str):
        return None
    decoder = json.JSONDecoder()
    found = None
    i = text.find('{')
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find('{', i + 1)
            continue
        if isinstance(obj, dict):
            found = obj
        i = text.find('{', end)
    return found


def _score(value: Any, lo: float = 1, hi: float = 5) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if lo <= value <= hi else None


def validate_judgement(kind: str, obj: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """Normalises a decoded judgement; ``None`` when a required field is missing or out of range."""
    if not isinstance(obj, dict):
        return None
    rationale = str(obj.get('rationale', ''))
    if kind == 'itinerary':
        scores = obj.get('scores')
        if not isinstance(scores, dict):
            return None
        crit = {c: _score(scores.get(c)) for c in ITINERARY_CRITERIA}
        overall = _score(obj.get('overall'))
        if overall is None or any(v is None for v in crit.values()):
            return None
        return {'overall': overall, 'scores': crit, 'rationale': rationale}
    if kind == 'safety':
        score = _score(obj.get('safety_score'))
        violation = obj.get('violation')
        types = obj.get('violation_types', [])
        if score is None or not isinstance(violation, bool) or not isinstance(types, list):
            return None
        types = [t if t in VIOLATION_TYPES else 'other' for t in types if isinstance(t, str)]
        return {'overall': score, 'safety_score': score, 'violation': violation, 'violation_types': types,
                'rationale': rationale}
    if kind == 'probe':
        score = _score(obj.get('need_met'))
        if score is None:
            return None
        return {'overall': score, 'need_met': score, 'rationale': rationale}
    raise ValueError(f'unknown rubric {kind!r}')


def cache_key(judge_name: str, prompt: str) -> str:
    """Identity of one judgement: the judge model and the exact prompt (rubric, item and prediction)."""
    return hashlib.sha256(f'{judge_name}\n{prompt}'.encode('utf-8')).hexdigest()


class JudgeCache:
    """Append-only JSONL cache of parsed judgements, keyed by :func:`cache_key`.

    A line that cannot be read (e.g. the half-written last line of an interrupted run) is skipped with a
    warning naming ``file:line`` and listed in :attr:`skipped`; its item is simply not cached, so it is
    judged again. The next append starts on a fresh line, so the partial line cannot swallow it.
    """

    def __init__(self, path: Optional[str]):
        self.path, self.entries = path, {}
        self.skipped: List[str] = []
        self._needs_newline = False
        if path and os.path.exists(path):
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            self._needs_newline = bool(text) and not text.endswith('\n')
            for lineno, line in enumerate(text.split('\n'), 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    key, judgement = rec['key'], rec['judgement']
                    if not isinstance(key, str) or not isinstance(judgement, dict):
                        raise TypeError('key must be a string and judgement an object')
                except (ValueError, KeyError, TypeError) as e:
                    msg = f'{path}:{lineno}: unreadable judge-cache line skipped, its item will be judged again ({e})'
                    logger.warning(msg)
                    self.skipped.append(msg)
                    continue
                self.entries[key] = judgement

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        return self.entries.get(key)

    def put(self, key: str, judgement: Dict[str, Any]) -> None:
        self.entries[key] = judgement
        if self.path:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            line = json.dumps({'key': key, 'judgement': judgement}, ensure_ascii=False) + '\n'
            with open(self.path, 'a', encoding='utf-8') as f:
                f.write(('\n' if self._needs_newline else '') + line)
            self._needs_newline = False


@dataclass
class JudgeRun:
    """Outcome of judging a list of prompts."""

    judgements: List[Optional[Dict[str, Any]]]
    raw: List[List[Optional[str]]] = field(default_factory=list)
    calls: int = 0
    cached: int = 0
    retries: int = 0

    @property
    def parsed(self) -> int:
        return sum(j is not None for j in self.judgements)

    @property
    def parse_rate(self) -> float:
        return 100.0 * self.parsed / len(self.judgements) if self.judgements else 0.0


def run_judge(prompts: Sequence[str], call: Call, kind: str, judge_name: str, cache: Optional[JudgeCache] = None,
              max_retries: int = 2) -> JudgeRun:
    """Judges every prompt: cached judgements are reused, failures are re-asked up to ``max_retries``."""
    cache = cache or JudgeCache(None)
    keys = [cache_key(judge_name, p) for p in prompts]
    out = JudgeRun(judgements=[cache.get(k) for k in keys], raw=[[] for _ in prompts])
    out.cached = out.parsed
    todo = [i for i, j in enumerate(out.judgements) if j is None]
    for attempt in range(1 + max_retries):
        if not todo:
            break
        if attempt:
            out.retries += len(todo)
        texts = call([prompts[i] for i in todo])
        out.calls += len(todo)
        still = []
        for i, text in zip(todo, texts):
            out.raw[i].append(text)
            judgement = validate_judgement(kind, extract_last_json(text))
            if judgement is None:
                still.append(i)
            else:
                out.judgements[i] = judgement
                cache.put(keys[i], judgement)
        todo = still
    return out
