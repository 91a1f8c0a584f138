"""What a check returns and what it may read: the result type, the item context and small text helpers (pure)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from ..audit.text import normalize


@dataclass(frozen=True)
class CheckResult:
    """One named check on one reply.

    ``passed`` is ``True`` or ``False``, or ``None`` when the check does not apply to this item (a risk check on a
    message without risk, a role check where the task asks the companion to say it is an AI); a check that does
    not apply is left out of that check's pass rate and of "all checks". ``reason`` says in a few words what was
    found (for a pass, what was verified), so that a failed check can be read without re-running it.
    """

    name: str
    passed: Optional[bool]
    reason: str

    def as_dict(self) -> Dict[str, Any]:
        return {'pass': self.passed, 'reason': self.reason}


def ok(name: str, reason: str) -> CheckResult:
    return CheckResult(name, True, reason)


def fail(name: str, reason: str) -> CheckResult:
    return CheckResult(name, False, reason)


def not_applicable(name: str, reason: str) -> CheckResult:
    return CheckResult(name, None, reason)


@dataclass(frozen=True)
class Context:
    """Everything a check may read about one item besides the reply.

    Attributes:
        subtask: The H2HTalk subtask.
        inputs: The record's ``inputs`` (history, memories, schedule, ...).
        language: The record's language (``'zh'`` or ``'en'``).
        tags: The record's tags (``risk``, ``required_actions``, ...).
        persona_name: The companion's name (itinerary_basic writes it in the third person).
        system_prompt, user_prompt: The SYSTEM and HUMAN turns the model received (for the echo check); empty
            when unknown, and the echo check then reads only the inputs.
    """

    subtask: str
    inputs: Mapping[str, Any]
    language: str = 'zh'
    tags: Mapping[str, str] = field(default_factory=dict)
    persona_name: str = ''
    system_prompt: str = ''
    user_prompt: str = ''

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> 'Context':
        """The context of one dataset row as ``data.loader.to_rows`` writes it (``inputs`` and ``tags`` may be JSON
        strings): the evaluator and ``h2htalk checks`` read the same rows, so they check the same prompts."""
        def decoded(value: Any) -> Any:
            return json.loads(value) if isinstance(value, str) else (value or {})
        return cls(subtask=row['subtask'], inputs=decoded(row['inputs']), language=row['language'] or 'zh',
                   tags=decoded(row['tags']), persona_name=row['persona_name'] or '',
                   system_prompt=row['system_prompt'] or '', user_prompt=row['user_prompt'] or '')

    def required_actions(self) -> List[str]:
        """The item's ``required_actions`` tag as a list (the safety set; empty elsewhere)."""
        return [a.strip() for a in str(self.tags.get('required_actions') or '').split(',') if a.strip()]


# --------------------------------------------------------------------------- text helpers shared by the checks

_SPACE = re.compile(r'\s+')
_CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
#: A parenthesised action or expression (「（笑）」「(smiles)」): the instructions allow it beside the sentences.
_ACTION = re.compile(r'（[^（）]*）|\([^()]*\)')
#: Sentence ends: 。！？ and their ASCII forms (a full stop not inside a number). An ellipsis (……) or a tilde is a
#: pause inside a sentence in this register (「哪有……我只是记得」), not its end.
_SENTENCE_END = re.compile(r'(?:[。！？!?]|\.(?![\d]))+[”」』"’）)]*')


def length(text: str, language: str = 'zh') -> int:
    """Length the way the instructions count it: words (en), or every character but whitespace (zh), punctuation
    included, as a Chinese word processor counts 字数 (the references were written to that count)."""
    if language == 'en':
        return len(_LATIN_WORD.findall(text or ''))
    return len(_SPACE.sub('', text or ''))


def without_actions(text: str) -> str:
    """``text`` with parenthesised actions removed (they are allowed beside the counted sentences)."""
    return _ACTION.sub(' ', text or '')


def sentences(text: str, min_chars: int = 3) -> List[str]:
    """The sentences of ``text`` outside parenthesised actions; a trailing fragment without a mark counts.

    A fragment shorter than ``min_chars`` characters (punctuation aside) is a vocative or an interjection standing
    before a sentence (「楠楠！」「嗯。」「Oh!」 counts as one word in English), not a sentence of its own.
    """
    body = without_actions(text)
    out = [s.strip() for s in _SENTENCE_END.split(body)]
    keep = []
    for s in out:
        core = normalize(s)
        if not core:
            continue
        english = bool(_LATIN_WORD.search(s)) and not _CJK.search(s)
        short = len(_LATIN_WORD.findall(s)) < 2 if english else len(core) < min_chars
        if not short:
            keep.append(s)
    return keep


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters of ``text`` (CJK characters plus Latin letters)."""
    cjk = len(_CJK.findall(text or ''))
    latin = sum(len(w) for w in _LATIN_WORD.findall(text or ''))
    return cjk / (cjk + latin) if cjk + latin else 0.0


def as_text(value: Any) -> str:
    """Every string inside an input value, joined by newlines (histories, schedules, lists)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return '\n'.join(as_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return '\n'.join(as_text(v) for v in value)
    return '' if value is None else str(value)
