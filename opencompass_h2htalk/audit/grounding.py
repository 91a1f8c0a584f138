"""Grounding checks: references state only what their inputs support, and keep to the slot and order given."""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from . import thresholds as T
from .model import Finding, Record, all_strings, schedule, user_turns
from .text import bigram_cover, char_ngrams, clock_minutes, entities, fact_words, normalize, parse_hhmm

HORIZONS = ('短期', '中期', '长期')
#: What the instruction asks for when a dialogue holds nothing worth remembering.
NOTHING = '无可记录的信息'
#: Relative time expressions: a fact anchored to "now" cannot be a long-term memory.
_RELATIVE = re.compile(r'今天|明天|后天|昨天|前天|今晚|明晚|这周|本周|下周|上周|周末|这个月|下个月|上个月|本月|最近|近[一二两三四五六七八九十几半\d]+'
                       r'|刚|正在|目前|现在|今年|明年|去年|([0-9]+|[一二两三四五六七八九十几]+)个?(月|周|天)大|快[0-9一二两三四五六七八九十]+岁')
#: Degree words: a fact that says the user *most* likes / *always* does something needs the user to have said so.
_DEGREE = ('最', '从不', '从来', '总是', '每天', '每次', '一直', '经常')


def parse_synthesize(reference: str) -> Tuple[List[Tuple[int, str, str, str]], List[Tuple[int, str]]]:
    """Splits a recollection_synthesize reference into facts.

    Returns:
        (facts, errors): facts as (1-based line within the reference, category, content, horizon); errors as
        (line, message) for lines that are not ``类别｜内容｜时效``.
    """
    facts, errors = [], []
    if reference.strip() == NOTHING:
        return facts, errors
    for i, line in enumerate(reference.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split('｜')]
        if len(parts) != 3 or not all(parts):
            errors.append((i, f'line {i} {line!r} is not 类别｜内容｜时效'))
            continue
        if parts[2] not in HORIZONS:
            errors.append((i, f'line {i}: 时效 must be one of {list(HORIZONS)}, got {parts[2]!r}'))
            continue
        facts.append((i, parts[0], parts[1], parts[2]))
    return facts, errors


def word_support(word: str, said: str) -> float:
    """1 for a word the user said; else the share of its characters the user used (博士 for 博四: 0.5)."""
    if word in said:
        return 1.0
    return sum(1 for ch in word if ch in said) / len(word)


def fact_support(content: str, user_text: str) -> float:
    """Mean support of the fact's nouns, numbers and time words in what the user said (1.0 when it has none)."""
    words = fact_words(content)
    if not words:
        return 1.0
    said = normalize(user_text)
    return sum(word_support(w, said) for w in words) / len(words)


def check_synthesize(record: Record) -> List[Finding]:
    """Every fact is well-formed, supported by the user's turns, claims no degree the user did not state, and a
    fact tied to the present is not filed as long-term."""
    if record.subtask != 'recollection_synthesize':
        return []
    facts, errors = parse_synthesize(record.reference)
    out = [record.finding('grounding.synthesize_format', msg) for _, msg in errors]
    said = '\n'.join(user_turns(record))
    for i, _cat, content, horizon in facts:
        support = fact_support(content, said)
        if support < T.SYNTH_MIN_SUPPORT:
            missing = [w for w in fact_words(content) if w not in normalize(said)]
            out.append(record.finding('grounding.synthesize_support',
                                      f'fact {i} {content!r}: only {support:.0%} of its words are in the user\'s turns '
                                      f'(< {T.SYNTH_MIN_SUPPORT:.0%}); not said: {missing}'))
        for word in _DEGREE:
            if word in content and word not in said:
                out.append(record.finding('grounding.synthesize_support',
                                          f'fact {i} {content!r} says {word!r} but the user never did (an inference)'))
                break
        m = _RELATIVE.search(content)
        if horizon == '长期' and m:
            out.append(record.finding('grounding.synthesize_horizon',
                                      f'fact {i} {content!r} is tied to the present ({m.group(0)!r}) but tagged 长期'))
    return out


#: Subtasks whose reference may not add facts beyond memories ∪ persona ∪ current activity (∪ schedule).
NO_NEW_FACTS = ('recollection_refine', 'recollection_initialize', 'itinerary_initialize')


def check_new_facts(record: Record, persona_text: str) -> List[Finding]:
    """refine / recollection_initialize / itinerary_initialize add no names, numbers, dates or places beyond
    their inputs and the persona description."""
    if record.subtask not in NO_NEW_FACTS:
        return []
    # 十个小时 and 十小时 are one fact: compare without the measure word 个.
    sources = normalize('\n'.join(list(all_strings(record.inputs)) + [persona_text])).replace('个', '')
    new = [e for e in entities(record.reference) if normalize(e) and normalize(e).replace('个', '') not in sources]
    if not new:
        return []
    return [record.finding('grounding.new_fact', f'reference states {new} which are in neither the inputs nor the '
                                                 f'persona')]


_TIME_WORDS = re.compile(r'今天|清晨|早上|上午|中午|午后|下午|傍晚|晚上|夜里|深夜|之后|然后|随后|最后|接着|再|便|就|先|'
                         r'[0-9一二两三四五六七八九十]+点(半|[0-9一二三四五六七八九十]+分?)?|[0-9]+[:：][0-9]+')
_SCHEDULE_LINE = re.compile(r'^\s*(?:\d+[.、]\s*)?(\d{1,2}[:：]\d{2})\s*(.+?)\s*$')


def parse_schedule_lines(reference: str) -> List[Tuple[int, str]]:
    """``HH:MM activity`` lines of a timed schedule, as (minutes, activity), in text order."""
    out = []
    for line in reference.splitlines():
        m = _SCHEDULE_LINE.match(line)
        if m:
            minutes = parse_hhmm(m.group(1).replace('：', ':'))
            if minutes is not None:
                out.append((minutes, m.group(2)))
    return out


#: A clause that names a part of the day or a clock hour opens one of the overview's activities; the clauses
#: after it add detail ("听她讲实习第一天的见闻") and need no line of their own.
_DAYPART = re.compile(r'清晨|早上|上午|中午|午休|午后|下午|傍晚|晚上|夜里|深夜|[0-9一二两三四五六七八九十]+点')


#: Clauses about the weather or the pace of the day are not activities.
_NOT_ACTIVITY = re.compile(r'下(?:起|着)?[小大中阵]?雨|下雪|刮风|天晴|阴天|不忙|很忙|关店半天|^(?:下班|放学|收工|忙完)后?$')


def overview_clauses(overview: str, persona_name: str = '') -> List[str]:
    """The overview's timed activity clauses: clauses that name a part of the day or an hour, with the time words
    and the persona's name removed."""
    text = overview.replace(persona_name, '') if persona_name else overview
    clauses = []
    for part in re.split(r'[，。；;！!？?\n]', text):
        if not _DAYPART.search(part):
            continue
        core = _TIME_WORDS.sub('', part).strip()
        if _NOT_ACTIVITY.search(part) or _NOT_ACTIVITY.search(core):
            continue
        if len(normalize(core)) >= T.MIDDLE_MIN_CLAUSE_CHARS:
            clauses.append(core)
    return clauses


def _shared(clause: str, line: str) -> int:
    return len(char_ngrams(clause, 2) & char_ngrams(line, 2))


def check_middle_coverage(record: Record, persona_name: str = '') -> List[Finding]:
    """itinerary_middle: every activity clause of the overview has a schedule line, and the lines follow the
    overview's order."""
    if record.subtask != 'itinerary_middle':
        return []
    overview = record.inputs.get('day_overview')
    if not isinstance(overview, str):
        return []
    lines = parse_schedule_lines(record.reference)
    if not lines:
        return [record.finding('grounding.middle_coverage', 'reference has no HH:MM schedule line')]
    out = []
    matched: List[Tuple[str, int]] = []
    for clause in overview_clauses(overview, persona_name):
        shared = [_shared(clause, act) for _, act in lines]
        best = max(range(len(lines)), key=lambda k: shared[k])
        if shared[best] < T.MIDDLE_MIN_SHARED_BIGRAMS:
            out.append(record.finding('grounding.middle_coverage',
                                      f'overview activity {clause!r} has no schedule line (best line '
                                      f'{lines[best][1]!r} shares {shared[best]} character bigram(s))'))
        else:
            matched.append((clause, best))
    for (c1, k1), (c2, k2) in zip(matched, matched[1:]):
        if k2 < k1:
            out.append(record.finding('grounding.middle_order', f'overview has {c1!r} before {c2!r} but the schedule '
                                                                f'puts them the other way round'))
            break
    times = [m for m, _ in lines]
    if times != sorted(times):
        out.append(record.finding('grounding.middle_order', 'schedule times are not in increasing order'))
    return out


def slot_bounds(record: Record) -> Optional[Tuple[int, int]]:
    """(start, end) minutes of an itinerary_advanced slot: from its time to the next schedule entry (or 24:00)."""
    slot = record.inputs.get('time_slot')
    if not isinstance(slot, dict):
        return None
    start = parse_hhmm(slot.get('time', ''))
    if start is None:
        return None
    later = [parse_hhmm(e['time']) for e in schedule(record)]
    later = [t for t in later if t is not None and t > start]
    return start, (min(later) if later else 24 * 60)


def check_slot_bounds(record: Record) -> List[Finding]:
    """itinerary_advanced: every clock time in the detailed plan lies inside its slot."""
    if record.subtask != 'itinerary_advanced':
        return []
    bounds = slot_bounds(record)
    if bounds is None:
        return []
    start, end = bounds
    outside = [t for t in clock_minutes(record.reference) if not start <= t < end]
    if not outside:
        return []
    fmt = lambda t: f'{t // 60:02d}:{t % 60:02d}'  # noqa: E731
    return [record.finding('grounding.slot_bounds', f'times {[fmt(t) for t in outside]} fall outside the slot '
                                                    f'{fmt(start)}-{fmt(end)}')]


def tag_fits(tag: str, start: int, end: Optional[int] = None) -> Optional[bool]:
    """Whether a time_of_day tag's window overlaps the interval [start, end) (end defaults to start + 1 minute);
    None for a tag not in the windows table."""
    if tag not in T.TIME_OF_DAY_WINDOWS:
        return None
    end = start + 1 if end is None else max(end, start + 1)
    return any(a < end and start < b for a, b in T.TIME_OF_DAY_WINDOWS[tag])


def _activity_time(record: Record) -> Optional[Tuple[int, int, str]]:
    """The interval a record's time_of_day tag must describe: the start of itinerary_advanced's slot, or the
    schedule entry that current_activity belongs to (the entry sharing most character bigrams, if it shares a
    third), from its time to the next entry's."""
    slot = record.inputs.get('time_slot')
    if isinstance(slot, dict) and parse_hhmm(slot.get('time', '')) is not None:
        start = parse_hhmm(slot['time'])
        return start, start + 1, slot.get('activity', '')
    current = record.inputs.get('current_activity')
    entries = schedule(record)
    if not isinstance(current, str) or not entries:
        return None
    scores = [bigram_cover(e['activity'], current) for e in entries]
    best = max(range(len(entries)), key=lambda k: scores[k])
    if scores[best] < 1 / 3:
        return None
    start = parse_hhmm(entries[best]['time'])
    if start is None:
        return None
    later = [t for t in (parse_hhmm(e['time']) for e in entries) if t is not None and t > start]
    return start, (min(later) if later else 24 * 60), entries[best]['activity']


def check_time_of_day(record: Record) -> List[Finding]:
    """The ``time_of_day`` tag names a part of the day that contains the slot (or the current activity's entry)."""
    tag = record.tags.get('time_of_day')
    if not isinstance(tag, str):
        return []
    if tag not in T.TIME_OF_DAY_WINDOWS:
        return [record.finding('grounding.time_of_day', f'unknown time_of_day tag {tag!r} (known: '
                                                        f'{list(T.TIME_OF_DAY_WINDOWS)})')]
    at = _activity_time(record)
    if at is None:
        return []
    start, end, activity = at
    if tag_fits(tag, start, end):
        return []
    return [record.finding('grounding.time_of_day', f'tag {tag!r} does not cover {start // 60:02d}:{start % 60:02d} '
                                                    f'({activity!r})')]
