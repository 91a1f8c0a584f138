"""Checks of the day plans: itinerary_basic, itinerary_middle, itinerary_advanced (pure)."""
from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence, Set, Tuple

from ..audit.grounding import overview_clauses
from ..audit.text import char_ngrams, normalize, parse_hhmm
from . import thresholds as T
from .base import CheckResult, Context, fail, length, not_applicable, ok

# --------------------------------------------------------------------------- matching a phrase in a reply

_EN_WORD = re.compile(r"[a-z]+")
#: English words that carry no content (the matcher compares the rest).
_EN_STOP = frozenset('''the a an and or but to of in on at for with from by into onto over under up down out off
about after before then than this that these those there here his her him she he they them their its it i me my
mine you your we our us is are was were be been being am do does did have has had will would can could should
shall may might must not no yes so very just also still again some any all each every more most less few own
today tonight morning afternoon evening night noon time while when where what who which how user users'''.split())


#: Chinese bigrams that carry no content (function words, pronouns): a reply does not use a memory by saying 什么.
_FUNCTION_BIGRAMS = frozenset('''什么 怎么 这么 那么 可以 一个 一下 一些 我们 你们 他们 她们 自己 就是 还是 但是 因为 所以
没有 不是 已经 现在 时候 这个 那个 有点 觉得 如果 虽然 或者 而且 然后 用户 么想 我在 在呢 你这 我也 也很 都可 以跟 跟我 我说
的都 想说 说的 说我'''.split())


def _fmt(minutes: int) -> str:
    return f'{minutes // 60:02d}:{minutes % 60:02d}'


def units(text: str, language: str) -> Set[str]:
    """The units two texts are compared on: character bigrams (zh), or stems of content words (en)."""
    if language == 'en':
        words = _EN_WORD.findall((text or '').lower())
        return {w[:T.EN_STEM_LETTERS] for w in words if w not in _EN_STOP and len(w) > 2}
    return {g for g in char_ngrams(text, 2) if len(g) == 2 and g not in _FUNCTION_BIGRAMS}


def shared_units(phrase: str, text: str, language: str) -> List[str]:
    """The units of ``phrase`` that ``text`` also has, sorted (the evidence a match rests on)."""
    return sorted(units(phrase, language) & units(text, language))


def cover(phrase: str, text: str, language: str) -> float:
    """Share of ``phrase``'s units that occur in ``text`` (0.0 for a phrase without units)."""
    own = units(phrase, language)
    return len(own & units(text, language)) / len(own) if own else 0.0


#: Characters that say nothing about an activity (particles, 去/做/给 ...): left out of the character share.
_LIGHT_CHARS = frozenset('的了在去和给把到做上下里一个回着过')


def char_share(phrase: str, text: str) -> float:
    """Share of ``phrase``'s Chinese content characters that occur in ``text`` (挤奶 in 挤牛奶)."""
    chars = [c for c in normalize(phrase) if '\u3400' <= c <= '\u9fff' and c not in _LIGHT_CHARS]
    return sum(c in text for c in chars) / len(chars) if chars else 0.0


def named(phrase: str, text: str, language: str) -> str:
    """How ``text`` names ``phrase`` (the shared bigrams or stems, or its characters), or '' when it does not: a
    shared bigram or stem, or (zh) most of the phrase's content characters (喂马挤奶 -> 添干草喂马、挤牛奶)."""
    shared = shared_units(phrase, text, language)
    if shared:
        return f'shares {shared[:4]}'
    if language != 'en' and char_share(phrase, text) >= T.NAMED_MIN_CHAR_SHARE:
        return f'has {char_share(phrase, text):.0%} of its characters'
    return ''


def best_match(phrases: Sequence[str], text: str, language: str) -> Tuple[int, List[str]]:
    """Index of the phrase that shares most units with ``text`` and those units (-1, [] for no phrases)."""
    best, evidence = -1, []
    for k, phrase in enumerate(phrases):
        shared = shared_units(phrase, text, language)
        if best < 0 or len(shared) > len(evidence):
            best, evidence = k, shared
    return best, evidence


def input_strings(value: Any) -> List[str]:
    """Every non-blank string of an input value (a list of hobbies or memories, or one string)."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in input_strings(v)]
    return []


def schedule_entries(inputs: Mapping[str, Any]) -> List[Tuple[int, str]]:
    """Well-formed ``today_schedule`` entries as (minutes, activity), in the given order."""
    out = []
    for e in inputs.get('today_schedule') or []:
        if isinstance(e, Mapping) and isinstance(e.get('activity'), str):
            t = parse_hhmm(str(e.get('time', '')))
            if t is not None:
                out.append((t, e['activity']))
    return out


# --------------------------------------------------------------------------- itinerary_middle

#: ``HH:MM activity``: two-digit hour and minute, then whitespace and the activity.
_TIMED = re.compile(r'^(\d{2}):(\d{2})[ \t\u3000]+(\S.*)$')
#: The closing note, 「（备注：……）」 or "(Note: ...)"; either width of parenthesis and colon is accepted.
_NOTE = re.compile(r'^[（(]\s*(?:备注|注|note)\s*[：:].+[）)]$', re.IGNORECASE)
#: Words that make the last item a rest (the instruction: 「最后一项是……休息」).
_REST_ZH = re.compile(r'睡|休息|歇|熄灯|关灯|就寝|躺下|上床')
_REST_EN = re.compile(r'\b(?:sleep\w*|slept|bed\w*|rest\w*|lights? out|turn in|retire\w*|nap\w*)\b', re.IGNORECASE)

MIDDLE_NAMES = ('timed_lines', 'activity_length', 'time_order', 'item_count', 'ends_with_rest', 'overview_covered',
                'note')


def _timed(line: str) -> Optional[Tuple[int, str]]:
    m = _TIMED.match(line.strip())
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2))
    if h > 23 or mi > 59:
        return None
    return h * 60 + mi, m.group(3).strip()


def _en_clauses(overview: str, persona_name: str) -> List[str]:
    """The English overview's activity clauses: its sentences and comma clauses, the persona's name removed."""
    text = overview.replace(persona_name, '') if persona_name else overview
    parts = re.split(r'[,.;!?\n]|\band then\b|\bthen\b', text)
    return [p.strip() for p in parts if len(units(p, 'en')) >= 1]


def middle_checks(reply: str, ctx: Context) -> List[CheckResult]:
    """itinerary_middle: 「每行一项，格式为“HH:MM 活动”，活动不超过10个字；共5到8项，时间由早到晚，最后一项是22:00到
    23:30之间的休息；概要里的安排都要出现……日程后空一行，用一句“（备注：……）”说明其中一个安排的用意。」"""
    lang = ctx.language
    lines = reply.splitlines()
    items: List[Tuple[int, int, str]] = []  # (line number, minutes, activity)
    notes: List[int] = []
    stray: List[Tuple[int, str]] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        timed = _timed(line)
        if timed:
            items.append((i, *timed))
        elif _NOTE.match(line.strip()):
            notes.append(i)
        else:
            stray.append((i, line.strip()))
    out = []

    # timed_lines: every line but the note is "HH:MM activity".
    if not items:
        out.append(fail('timed_lines', 'no "HH:MM activity" line'))
    elif stray:
        i, line = stray[0]
        out.append(fail('timed_lines', f'line {i} {line[:30]!r} is neither "HH:MM activity" nor the note'
                                       + (f' (+{len(stray) - 1} more)' if len(stray) > 1 else '')))
    else:
        out.append(ok('timed_lines', f'{len(items)} "HH:MM activity" lines, nothing else but the note'))

    # activity_length: 「活动不超过10个字」.
    limit = T.MIDDLE_ACTIVITY_MAX[lang if lang in T.MIDDLE_ACTIVITY_MAX else 'zh']
    unit = 'words' if lang == 'en' else 'characters'
    long = [(i, a, length(a, lang)) for i, _, a in items if length(a, lang) > limit]
    if not items:
        out.append(fail('activity_length', 'no "HH:MM activity" line'))
    elif long:
        i, a, n = long[0]
        out.append(fail('activity_length', f'line {i} activity {a!r} has {n} {unit} (> {limit})'))
    else:
        out.append(ok('activity_length', f'every activity within {limit} {unit}'))

    # time_order: 「时间由早到晚」, strictly.
    if len(items) < 2:
        out.append(fail('time_order', f'{len(items)} timed line(s): no order to verify'))
    else:
        back = [(b, a) for a, b in zip(items, items[1:]) if b[1] <= a[1]]
        if back:
            (i, t, act), (j, u, _) = back[0]
            out.append(fail('time_order', f'line {i} {_fmt(t)} {act!r} is not after {_fmt(u)} on line {j}'))
        else:
            out.append(ok('time_order', f'times increase from {_fmt(items[0][1])} to {_fmt(items[-1][1])}'))

    # item_count: 「共5到8项」.
    low, high = T.MIDDLE_ITEMS
    n = len(items)
    out.append((ok if low <= n <= high else fail)('item_count', f'{n} items (asked: {low}-{high})'))

    # ends_with_rest: 「最后一项是22:00到23:30之间的休息」.
    if not items:
        out.append(fail('ends_with_rest', 'no "HH:MM activity" line'))
    else:
        i, t, act = items[-1]
        start, end = T.MIDDLE_REST_WINDOW
        rest = (_REST_EN if lang == 'en' else _REST_ZH).search(act)
        if not start <= t <= end:
            out.append(fail('ends_with_rest', f'last item {_fmt(t)} {act!r} is outside {_fmt(start)}-{_fmt(end)}'))
        elif not rest:
            out.append(fail('ends_with_rest', f'last item {_fmt(t)} {act!r} is not a rest'))
        else:
            out.append(ok('ends_with_rest', f'last item {_fmt(t)} {act!r}'))

    out.append(_overview_covered(items, ctx))

    # note: one 「（备注：……）」 line, after the schedule, behind a blank line.
    if len(notes) != 1:
        out.append(fail('note', f'{len(notes)} note lines (asked: one "（备注：……）" after the schedule)'))
    else:
        k = notes[0]
        after = [i for i, _, _ in items if i > k] + [i for i, _ in stray if i > k]
        if after:
            out.append(fail('note', f'the note on line {k} is followed by line {after[0]}'))
        elif k < 2 or lines[k - 2].strip():
            out.append(fail('note', f'no blank line before the note on line {k}'))
        else:
            out.append(ok('note', f'note on line {k}, after a blank line'))
    return out


def _overview_covered(items: Sequence[Tuple[int, int, str]], ctx: Context) -> CheckResult:
    """「概要里的安排都要出现」: the share of the overview's activity clauses that a schedule line names."""
    overview = ctx.inputs.get('day_overview')
    if not isinstance(overview, str) or not overview.strip():
        return not_applicable('overview_covered', 'no day overview')
    lang = ctx.language
    clauses = (_en_clauses(overview, ctx.persona_name) if lang == 'en'
               else overview_clauses(overview, ctx.persona_name))
    if not clauses:
        return not_applicable('overview_covered', 'the overview has no timed activity clause')
    if not items:
        return fail('overview_covered', 'no "HH:MM activity" line to cover the overview')
    acts = [a for _, _, a in items]
    missing = []
    for clause in clauses:
        _, shared = best_match(acts, clause, lang)
        if len(shared) < T.MIDDLE_CLAUSE_MIN_SHARED:
            missing.append(clause)
    share = 1 - len(missing) / len(clauses)
    if share < T.MIDDLE_MIN_COVERED:
        return fail('overview_covered', f'{share:.0%} of {len(clauses)} overview activities have a line '
                                        f'(< {T.MIDDLE_MIN_COVERED:.0%}); missing: {missing[:3]}')
    return ok('overview_covered', f'{share:.0%} of {len(clauses)} overview activities have a line'
                                  + (f'; missing: {missing[:2]}' if missing else ''))


# --------------------------------------------------------------------------- itinerary_advanced

#: 「序号. HH:MM 描述」: a number, a full stop (。 and 、 are the Chinese variants), the time, the description.
_STEP = re.compile(r'^(\d+)\s*[.．、。]\s*(\d{2}):(\d{2})[ \t\u3000]*(\S.*)$')

ADVANCED_NAMES = ('numbered_steps', 'times_in_slot', 'slot_activity')


def slot_bounds(inputs: Mapping[str, Any]) -> Optional[Tuple[int, int, str]]:
    """(start, end, activity) of itinerary_advanced's slot: from its time to the next later ``today_schedule`` entry
    (or 24:00); None without a slot time."""
    slot = inputs.get('time_slot')
    if not isinstance(slot, Mapping):
        return None
    start = parse_hhmm(str(slot.get('time', '')))
    if start is None:
        return None
    later = [t for t, _ in schedule_entries(inputs) if t > start]
    return start, (min(later) if later else 24 * 60), str(slot.get('activity') or '')


def advanced_checks(reply: str, ctx: Context) -> List[CheckResult]:
    """itinerary_advanced: 「3到5步，每步一行，格式为“序号. HH:MM 描述”，时间在该时间段内逐步推进」 and the slot
    expanded is the one given (its activity is named)."""
    lines = [(i, l.strip()) for i, l in enumerate(reply.splitlines(), start=1) if l.strip()]
    steps: List[Tuple[int, int, int, str]] = []  # (line, number, minutes, description)
    stray = []
    for i, line in lines:
        m = _STEP.match(line)
        if m and int(m.group(2)) <= 23 and int(m.group(3)) <= 59:
            steps.append((i, int(m.group(1)), int(m.group(2)) * 60 + int(m.group(3)), m.group(4)))
        else:
            stray.append((i, line))
    out = []
    low, high = T.ADVANCED_STEPS
    numbers = [n for _, n, _, _ in steps]
    if not steps:
        out.append(fail('numbered_steps', 'no "N. HH:MM description" line'))
    elif stray:
        i, line = stray[0]
        out.append(fail('numbered_steps', f'line {i} {line[:30]!r} is not "N. HH:MM description"'))
    elif not low <= len(steps) <= high:
        out.append(fail('numbered_steps', f'{len(steps)} steps (asked: {low}-{high})'))
    elif numbers != list(range(1, len(steps) + 1)):
        out.append(fail('numbered_steps', f'steps are numbered {numbers}, not 1..{len(steps)}'))
    else:
        out.append(ok('numbered_steps', f'{len(steps)} steps numbered 1..{len(steps)}, one per line'))

    bounds = slot_bounds(ctx.inputs)
    if bounds is None:
        out.append(not_applicable('times_in_slot', 'no time slot with a time'))
    elif not steps:
        out.append(fail('times_in_slot', 'no timed step'))
    else:
        start, end, _ = bounds
        span = f'{_fmt(start)}-{_fmt(end)}'
        times = [(i, t) for i, _, t, _ in steps]
        outside = [(i, t) for i, t in times if not start <= t < end]
        back = [(j, u, t) for (_, t), (j, u) in zip(times, times[1:]) if u <= t]
        if times[0][1] != start:
            out.append(fail('times_in_slot', f'first step at {_fmt(times[0][1])}, not at the slot start {_fmt(start)}'))
        elif outside:
            i, t = outside[0]
            out.append(fail('times_in_slot', f'line {i} {_fmt(t)} is outside the slot {span}'))
        elif back:
            j, u, t = back[0]
            out.append(fail('times_in_slot', f'line {j} {_fmt(u)} does not move on from {_fmt(t)}'))
        else:
            out.append(ok('times_in_slot', f'{len(times)} times from {_fmt(start)}, increasing, inside {span}'))

    activity = bounds[2] if bounds else ''
    if not activity.strip():
        out.append(not_applicable('slot_activity', 'the slot has no activity'))
    else:
        how = named(activity, reply, ctx.language)
        if not how:
            out.append(fail('slot_activity', f'the slot activity {activity!r} is not named'))
        else:
            out.append(ok('slot_activity', f'names the slot activity {activity!r} ({how})'))
    return out


# --------------------------------------------------------------------------- itinerary_basic

_OPEN_EN = re.compile(r'^\s*today\s*,', re.IGNORECASE)
#: First-person narration: 我/我们 outside quoted speech; English I/me/my/we/our.
_FIRST_ZH = re.compile(r'我')
_FIRST_EN = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b|\bI'")
_QUOTE = re.compile(r'“[^”]*”|「[^」]*」|"[^"]*"')
#: Words that place an activity in each part of the day (「覆盖上午、下午和晚上」). 睡到十点 / 天不亮 say what the
#: morning holds (sleeping in, an early start); 白天 is the morning and the afternoon.
_DAY_PARTS_ZH = {
    'morning': re.compile(r'清晨|清早|一早|早上|早晨|上午|早饭|早餐|晨|天不亮|天没亮|天刚亮|天亮|睡到|白天'),
    'afternoon': re.compile(r'中午|午后|下午|午饭|午餐|午休|午睡|白天'),
    'evening': re.compile(r'傍晚|晚上|晚间|夜里|夜晚|入夜|深夜|晚饭|晚餐|今晚|睡前|睡下|熄灯|夜班'),
}
_DAY_PARTS_EN = {
    'morning': re.compile(r'\bmorning\b|\bbreakfast\b|\bdawn\b|\bsunrise\b|\ba\.?m\b', re.IGNORECASE),
    'afternoon': re.compile(r'\bafternoon\b|\bnoon\b|\blunch\b|\bmidday\b|\bp\.?m\b', re.IGNORECASE),
    'evening': re.compile(r'\bevening\b|\bnight\b|\btonight\b|\bdinner\b|\bsupper\b|\bsunset\b|\bbed\b|\bsleep',
                          re.IGNORECASE),
}
#: 14:00 / 8:30: a clock time places an activity in the part of the day its hour falls in.
_CLOCK = re.compile(r'(?<!\d)([01]?\d|2[0-3])[:：][0-5]\d(?!\d)')
#: A bare Chinese hour (七点) with no part-of-day word before it; only early hours are read, as 十一点 may be late.
_HOUR_ZH = re.compile(r'(?<![\d零一二两三四五六七八九十])(?:[五六七八九]|[5-9])点')
#: Words before a bare hour that make it an afternoon or evening hour (晚上八点, 夜里九点, 下午五点).
_LATE_BEFORE = re.compile(r'[晚夜午傍]')

BASIC_NAMES = ('opens_today', 'uses_hobby', 'uses_memory', 'third_person', 'day_parts')

#: A hobby is used when the reply shares a bigram with it, names its object (the last character of 看山 / 喝茶 /
#: 养狗, unless that character is this vague), or does something of the hobby's kind: the references plan 做饭 as
#: 炖了一锅汤 and 散步 as 走了两圈.
_VAGUE_LAST = frozenset('心西物天步的子说事')
#: (words in a hobby, words in a reply that do that kind of thing).
_HOBBY_KINDS = (
    ('饭 菜 厨 面食 点心 吃的 炖 煮 煲 熬 烤 蒸 饺 粽 烘焙 汤 糖水 腌'.split(),
     '饭 菜 厨 煮 炖 熬 煲 烧 蒸 烙 炒 擀 汤 粥 面 饺 馄饨 饼 包子 豆包 咖喱 烤'.split()),
    ('散步 遛弯 走步 健步走 跑 健身 爬山 徒步 拉伸 做操 太极'.split(), '走 跑 遛 步 爬 登山 拉伸 练 骑'.split()),
    ('歌 音乐 乐 唱片 长调 琴 吉他 口琴 广播 电台'.split(), '歌 曲 音乐 唱 琴 唱片 收音机 电台 节目'.split()),
    ('花 植 种菜 果树'.split(), '花 草 植 盆 浇水 土 苗 菜地 叶'.split()),
    ('狗 猫 动物 鸟 鱼 马'.split(), '狗 猫 兔 羊 马 鸟 鱼 鸽'.split()),
    ('看书 读书 读诗 散文 杂志 小说 旧书 报'.split(), '书 读 诗 词 报'.split()),
    (['拍'], '拍 照片 相机'.split()),
    ('电影 剧 纪录片 动画 综艺'.split(), '电影 片 剧 动画'.split()),
    ('写 字 画'.split(), '写 字 画 帖 笔'.split()),
    ('茶 咖啡 热饮'.split(), '茶 咖啡 拿铁'.split()),
    ('游戏 游戏机'.split(), '游戏 街机 掌机 关卡'.split()),
    ('木工 手工'.split(), '木 缝 剪纸 扎 编'.split()),
)
_HOBBY_KINDS_EN = (
    ('cook bake food meal kitchen soup'.split(), 'cook bake soup stew meal dinner lunch breakfast kitchen'.split()),
    ('walk run jog hike climb gym exercis'.split(), 'walk run jog hike climb stroll trail'.split()),
    ('music song sing radio piano guitar'.split(), 'music song sing radio piano guitar playlist'.split()),
    ('plant flower garden'.split(), 'plant flower garden water soil'.split()),
)


def hobby_evidence(hobby: str, reply: str, language: str) -> str:
    """How ``reply`` uses ``hobby`` (a shared bigram, its object, a deed of its kind), or '' when it does not."""
    shared = shared_units(hobby, reply, language)
    if shared:
        return f'{hobby!r} ({shared[:3]})'
    low = reply.lower()
    if language == 'en':
        for kind, deeds in _HOBBY_KINDS_EN:
            if any(k in hobby.lower() for k in kind):
                hit = [d for d in deeds if d in low]
                if hit:
                    return f'{hobby!r} (as {hit[:2]})'
        return ''
    last = hobby.strip()[-1:] if hobby.strip() else ''
    if last and last not in _VAGUE_LAST and last in reply:
        return f'{hobby!r} ({last!r})'
    for kind, deeds in _HOBBY_KINDS:
        if any(k in hobby for k in kind):
            hit = [d for d in deeds if d in reply]
            if hit:
                return f'{hobby!r} (as {hit[:2]})'
    return ''


def _hour_part(hour: int) -> Optional[str]:
    """The part of the day a clock hour (0-23) falls in."""
    for part, (a, b) in T.BASIC_HOUR_PARTS.items():
        if a <= hour < b:
            return part
    return None


def day_parts(text: str, language: str) -> Set[str]:
    """The parts of the day (morning, afternoon, evening) that ``text`` places an activity in."""
    table = _DAY_PARTS_EN if language == 'en' else _DAY_PARTS_ZH
    found = {part for part, rx in table.items() if rx.search(text)}
    for m in _CLOCK.finditer(text):
        part = _hour_part(int(m.group(1)))
        if part:
            found.add(part)
    if language != 'en' and any(not _LATE_BEFORE.search(text[max(0, m.start() - 4):m.start()])
                                for m in _HOUR_ZH.finditer(text)):
        found.add('morning')
    return found


def basic_checks(reply: str, ctx: Context) -> List[CheckResult]:
    """itinerary_basic: 「根据你和用户共同的爱好以及关于用户的记忆……以“今天，”开头，用第三人称（写你的名字和用户的
    称呼），覆盖上午、下午和晚上」."""
    lang = ctx.language
    out = []
    if lang == 'en':
        opens = bool(_OPEN_EN.match(reply))
        want = '"Today,"'
    else:
        opens = reply.startswith(('今天，', '今天,'))
        want = '「今天，」'
    out.append((ok if opens else fail)('opens_today', f'{"opens" if opens else "does not open"} with {want}: '
                                                      f'{reply[:12]!r}'))

    hobbies = input_strings(ctx.inputs.get('hobbies'))
    if not hobbies:
        out.append(not_applicable('uses_hobby', 'no hobbies given'))
    else:
        used = [e for e in (hobby_evidence(h, reply, lang) for h in hobbies) if e]
        out.append(ok('uses_hobby', f'uses {used[0]}') if used else
                   fail('uses_hobby', f'uses none of the hobbies {hobbies}'))

    memories = input_strings(ctx.inputs.get('memories'))
    if not memories:
        out.append(not_applicable('uses_memory', 'no memories given'))
    else:
        k, shared = best_match(memories, reply, lang)
        if len(shared) < T.BASIC_MEMORY_MIN_SHARED:
            out.append(fail('uses_memory', f'shares nothing with the memories {memories}'))
        else:
            out.append(ok('uses_memory', f'uses memory {memories[k]!r} ({shared[:3]})'))

    names = [n for n in (ctx.persona_name, ctx.inputs.get('user_name')) if isinstance(n, str) and n.strip()]
    unquoted = _QUOTE.sub(' ', reply)
    first = (_FIRST_EN if lang == 'en' else _FIRST_ZH).search(unquoted)
    named = [n for n in names if n in reply]
    if first:
        out.append(fail('third_person', f'first-person {first.group(0)!r} in the narration'))
    elif names and not named:
        out.append(fail('third_person', f'names neither of {names}'))
    else:
        out.append(ok('third_person', f'third person, names {named}'))

    parts = day_parts(reply, lang)
    missing_parts = [p for p in ('morning', 'afternoon', 'evening') if p not in parts]
    if missing_parts:
        out.append(fail('day_parts', f'no {", ".join(missing_parts)}'))
    else:
        out.append(ok('day_parts', 'morning, afternoon and evening'))
    return out


CHECKS = {'itinerary_basic': (BASIC_NAMES, basic_checks), 'itinerary_middle': (MIDDLE_NAMES, middle_checks),
          'itinerary_advanced': (ADVANCED_NAMES, advanced_checks)}
