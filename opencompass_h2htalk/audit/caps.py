"""Shape distributions with caps: formulas a model could learn instead of the skill (question endings, one
opening, a persona's tic, per-persona templates), and each reference's length and sentences against its
instruction."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Callable, Dict, List, Optional

from ..checks.base import Context, without_actions
from ..checks.shape import shape_checks
from . import thresholds as T
from .model import Finding, Record, user_names

_ACTION = re.compile(r'^\s*(?:（[^（）]*）|\([^()]*\))\s*')
#: References that are free replies to or messages for the user (not formats such as schedules, memory lines or
#: the user's own first-person line).
FREE_TEXT = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_initialize',
             'itinerary_feedback', 'itinerary_initialize', 'safety', 'probe_implicit_help', 'probe_ambiguous',
             'probe_context_aware')
#: Exempt from the question cap: recollection_initialize's instruction asks for a question, and probe_ambiguous
#: tests asking back when a request is ambiguous.
QUESTION_EXEMPT = ('recollection_initialize', 'probe_ambiguous')
#: Verbal tics counted per persona.
TICS = ('……', '～', '哈哈', '嘿嘿', '呀', '啦', '嘛', '哦', '！')


def ends_with_question(reference: str) -> bool:
    """Whether the reply's last sentence (stage directions and trailing ～ set aside) is a question."""
    text = without_actions(reference).strip().rstrip('～~ 　')
    return text.endswith(('？', '?'))


def opener(record: Record) -> str:
    """'<user name>' for a reply that opens (after a stage direction) by calling the user by name, else its first
    two characters."""
    text = _ACTION.sub('', record.reference).strip()
    if any(text.startswith(n) for n in user_names(record)):
        return '<user name>'
    return text[:2]


def opening_clause(reference: str, persona_name: str = '') -> str:
    """The first clause of at least four characters, with the persona's name and a leading 今天 removed (every
    itinerary_basic day opens with 今天 by instruction; the template is what follows)."""
    text = _ACTION.sub('', reference).replace(persona_name, '') if persona_name else _ACTION.sub('', reference)
    for clause in re.split(r'[，。！？；,!?;\n]', text):
        clause = clause.strip()
        if clause.startswith('今天'):
            clause = clause[2:]
        if len(clause) >= 4:
            return clause
    return ''


def _by(records: List[Record], key: Callable[[Record], Optional[str]]) -> Dict[str, List[Record]]:
    out: Dict[str, List[Record]] = defaultdict(list)
    for r in records:
        k = key(r)
        if k is not None:
            out[k].append(r)
    return out


def _share_findings(group: List[Record], check: str, hit: Callable[[Record], bool], cap: float,
                    what: str) -> List[Finding]:
    hits = [r for r in group if hit(r)]
    if len(group) < T.MIN_RECORDS_FOR_SHARE or len(hits) / len(group) <= cap:
        return []
    ids = ', '.join(r.id for r in hits[:5]) + (', ...' if len(hits) > 5 else '')
    return [Finding(group[0].path, 0, check, f'{what}: {len(hits)} of {len(group)} ({len(hits) / len(group):.0%}) '
                                             f'> {cap:.0%}: {ids}')]


def check_question_endings(records: List[Record]) -> List[Finding]:
    """Per free-text subtask (but the exempt ones): at most MAX_QUESTION_ENDING_SHARE of references end with a
    question."""
    out = []
    for subtask, group in sorted(_by(records, lambda r: r.subtask if r.subtask in FREE_TEXT else None).items()):
        if subtask not in QUESTION_EXEMPT:
            out += _share_findings(group, 'dist.question_ending', lambda r: ends_with_question(r.reference),
                                   T.MAX_QUESTION_ENDING_SHARE, f'{subtask} references ending with a question')
    return out


def check_reference_openers(records: List[Record]) -> List[Finding]:
    """Per free-text subtask: no one opening (the user's name, or the same two characters) starts more than
    MAX_REFERENCE_OPENER_SHARE of the references."""
    out = []
    for subtask, group in sorted(_by(records, lambda r: r.subtask if r.subtask in FREE_TEXT else None).items()):
        if len(group) < T.MIN_RECORDS_FOR_SHARE:
            continue
        top, _ = Counter(opener(r) for r in group).most_common(1)[0]
        out += _share_findings(group, 'dist.reference_opener', lambda r, top=top: opener(r) == top,
                               T.MAX_REFERENCE_OPENER_SHARE, f'{subtask} references opening with {top!r}')
    return out


def check_persona_tics(records: List[Record]) -> List[Finding]:
    """Per persona: no verbal tic appears in more than MAX_PERSONA_TIC_SHARE of its free-text references."""
    out = []
    for persona, group in sorted(_by(records, lambda r: r.persona if r.subtask in FREE_TEXT else None).items()):
        for tic in TICS:
            out += _share_findings(group, 'dist.persona_tic', lambda r, tic=tic: tic in r.reference,
                                   T.MAX_PERSONA_TIC_SHARE, f'persona {persona} uses {tic!r} in its references')
    return out


def check_persona_templates(records: List[Record], persona_names: Dict[str, str]) -> List[Finding]:
    """Per persona and subtask: no first clause opens more than MAX_PERSONA_TEMPLATE_SHARE of the references."""
    out = []
    groups = _by(records, lambda r: f'{r.persona}\t{r.subtask}' if r.subtask in FREE_TEXT + ('itinerary_basic',)
                 else None)
    for key, group in sorted(groups.items()):
        if len(group) < T.MIN_RECORDS_FOR_TEMPLATE:
            continue
        persona, subtask = key.split('\t')
        clauses = {r.id: opening_clause(r.reference, persona_names.get(persona, '')) for r in group}
        counts = Counter(c for c in clauses.values() if c)
        if not counts:
            continue
        top, n = counts.most_common(1)[0]
        if n / len(group) <= T.MAX_PERSONA_TEMPLATE_SHARE:
            continue
        for r in group:
            if clauses[r.id] == top:
                out.append(r.finding('dist.persona_template', f'{persona}: {n} of its {len(group)} {subtask} '
                                                              f'references open with {top!r} ({n / len(group):.0%} > '
                                                              f'{T.MAX_PERSONA_TEMPLATE_SHARE:.0%})'))
    return out


def check_instruction_shape(record: Record) -> List[Finding]:
    """The reference keeps its instruction's length and sentence bounds (the task checks' own counting)."""
    if not record.reference.strip():
        return []
    ctx = Context(subtask=record.subtask, inputs=record.inputs, language=str(record.data.get('language') or 'zh'),
                  tags=record.tags)
    return [record.finding('shape.instruction', f'{r.name}: {r.reason}')
            for r in shape_checks(record.reference, ctx) if r.passed is False]
