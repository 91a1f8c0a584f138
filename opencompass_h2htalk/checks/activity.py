"""Checks of the subtasks where the companion says what it is doing now: dialogue_schedule, itinerary_feedback,
itinerary_initialize (pure)."""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from . import thresholds as T
from .base import CheckResult, Context, fail, not_applicable, ok, without_actions
from .itinerary import input_strings, best_match, char_share, cover, named, schedule_entries

#: Subtasks whose instruction asks the reply to say what the companion is doing now: dialogue_schedule
#: (「自然地带上你此刻的活动」) and itinerary_initialize (「主动告诉用户你此刻在做什么」). itinerary_feedback only asks
#: not to add unrelated events (「不要添加和当前活动无关的新事件」).
MUST_NAME = ('dialogue_schedule', 'itinerary_initialize')


#: Characters too common to show an activity on their own (particles, pronouns, everyday verbs: 跟, 听, 说, 做 ...).
_COMMON_CHARS = frozenset('的了在去和给把到做上下里一个回着过跟听说看来有想写读慢很么这那我你他她它们吃喝打拿放找开关走')


def activity_named(activity: str, reply: str, language: str) -> str:
    """How ``reply`` names ``activity`` (see :func:`named`), or (zh) one of its uncommon characters (下班买菜 in
    「拎着菜」, 跟老伙计下棋 in 「这盘棋」): a reply that brings its activity in 「自然地」 shows it by a detail more
    often than by its name. '' when it does not."""
    how = named(activity, reply, language)
    if how or language == 'en':
        return how
    chars = [c for c in dict.fromkeys(activity) if '\u4e00' <= c <= '\u9fff' and c not in _COMMON_CHARS]
    hit = [c for c in chars if c in reply]
    return f'has {hit[:3]}' if hit else ''


def _drop(text: str, names: List[str]) -> str:
    for n in names:
        text = text.replace(n, ' ')
    return text


def _fmt(minutes: int) -> str:
    return f'{minutes // 60:02d}:{minutes % 60:02d}'


def current_entry(ctx: Context) -> Optional[int]:
    """Index of the ``today_schedule`` entry the current activity belongs to (the entry whose units the current
    activity covers best, if it covers at least :data:`T.ACTIVITY_ENTRY_MIN_COVER`), or None."""
    current = ctx.inputs.get('current_activity')
    entries = schedule_entries(ctx.inputs)
    if not isinstance(current, str) or not entries:
        return None
    # Shared bigrams rank first (在食堂吃午饭 over 去食堂吃早饭 for 在食堂吃番茄牛腩饭); characters break ties and
    # find paraphrases (挤奶 in 挤牛奶).
    zh = ctx.language != 'en'
    scores = [(cover(a, current, ctx.language), char_share(a, current) if zh else 0.0) for _, a in entries]
    best = max(range(len(entries)), key=lambda k: scores[k])
    return best if max(scores[best]) >= T.ACTIVITY_ENTRY_MIN_COVER else None


def check_current_activity(reply: str, ctx: Context) -> CheckResult:
    """The reply says what the companion is doing now where the instruction asks for it, and never claims another
    ``today_schedule`` entry instead (「与日程保持一致，不编造日程以外的安排」)."""
    name = 'current_activity'
    current = ctx.inputs.get('current_activity')
    if not isinstance(current, str) or not current.strip():
        return not_applicable(name, 'no current activity given')
    lang = ctx.language
    # An action in parentheses (（往锅里磕了个鸡蛋）) may show the activity too: the whole reply is read.
    entries = schedule_entries(ctx.inputs)
    now = current_entry(ctx)
    how = activity_named(current, reply, lang)
    if not how and now is not None:  # the schedule's wording of the same activity (在食堂吃午饭) counts too
        how = activity_named(entries[now][1], reply, lang)
    other: Optional[Tuple[int, str, List[str]]] = None
    if now is not None:  # without the current entry no other entry can be told apart from it
        # People's names are no activity: 「董诗涵，……」 must not claim the entry 「和董诗涵视频」.
        people = [n for n in (ctx.inputs.get('user_name'), ctx.persona_name) if isinstance(n, str) and n.strip()]
        bare = _drop(without_actions(reply), people)
        k, shared = best_match([_drop(a, people) for _, a in entries], bare, lang)
        if k >= 0 and k != now and len(shared) >= T.ACTIVITY_OTHER_MIN_SHARED:
            other = (entries[k][0], entries[k][1], shared)
    if ctx.subtask in MUST_NAME and not how:
        if other:
            t, act, shared = other
            return fail(name, f'claims the {_fmt(t)} entry {act!r} ({shared[:3]}) instead of {current!r}')
        return fail(name, f'does not name the current activity {current!r}')
    if ctx.subtask not in MUST_NAME and not entries:
        return not_applicable(name, 'no schedule to compare with, and the instruction does not ask to name the '
                                    'activity')
    if not how and other:
        t, act, shared = other
        return fail(name, f'names the {_fmt(t)} entry {act!r} ({shared[:3]}), not the current {current!r}')
    if how:
        return ok(name, f'names {current!r} ({how})')
    return ok(name, 'claims no other schedule entry')


#: A first-person statement of what the companion is doing (zh 「我正在浇花」「我这会儿在熬汤」, en "I'm watering the
#: plants"); group 1 is the activity.
_CLAIM_ZH = re.compile(r'我(?:现在|这会儿|此刻|刚刚?|正好)?(?:正在|正|在)([^，。！？,.!?；;、…～~（）()]{2,12})')
_CLAIM_EN = re.compile(r"\bI(?:'m| am)(?: just| now| still)? ([a-z]+ing\b(?: [a-z]+){0,4})", re.IGNORECASE)
#: What follows 我在 without being an activity: 「我在呢」「我在这儿」「我在想」「我在听」「我在家」「我在你身边」.
_NOT_ACTIVITY = re.compile(r'^(?:呢|呀|啊|哦|这|那|家|想|听|等|你|旁边|身边|陪)')


def claimed_activity(reply: str, language: str) -> Optional[str]:
    """The first activity the reply says the companion is doing now, or None."""
    text = without_actions(reply)
    if language == 'en':
        m = _CLAIM_EN.search(text)
        return m.group(1) if m else None
    for m in _CLAIM_ZH.finditer(text):
        if not _NOT_ACTIVITY.match(m.group(1)):
            return m.group(1)
    return None


def check_claimed_activity(reply: str, ctx: Context) -> CheckResult:
    """itinerary_feedback: an activity the reply says the companion is doing now is the current one
    (「你此刻正在做某件事」「不要添加和当前活动无关的新事件」). Its inputs hold no schedule, so there is no other entry to
    compare with: a reply that states no activity has nothing to check (not applicable)."""
    name = 'current_activity'
    current = ctx.inputs.get('current_activity')
    if not isinstance(current, str) or not current.strip():
        return not_applicable(name, 'no current activity given')
    claim = claimed_activity(reply, ctx.language)
    if claim is None:
        return not_applicable(name, 'states no activity of its own')
    if activity_named(current, claim, ctx.language):
        return ok(name, f'says it is doing {claim!r}: the current activity {current!r}')
    return fail(name, f'says it is doing {claim!r}, not the current activity {current!r}')


def check_uses_memory(reply: str, ctx: Context) -> CheckResult:
    """itinerary_initialize: 「结合关于用户的记忆」 — the reply shares content with at least one memory."""
    memories = input_strings(ctx.inputs.get('memories'))
    if not memories:
        return not_applicable('uses_memory', 'no memories given')
    k, shared = best_match(memories, reply, ctx.language)
    if len(shared) < T.ACTIVITY_MEMORY_MIN_SHARED:
        return fail('uses_memory', f'shares nothing with the memories {memories}')
    return ok('uses_memory', f'uses memory {memories[k]!r} ({shared[:3]})')


def _schedule(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_current_activity(reply, ctx)]


def _feedback(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_claimed_activity(reply, ctx)]


def _initialize(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_current_activity(reply, ctx), check_uses_memory(reply, ctx)]


CHECKS = {'dialogue_schedule': (('current_activity',), _schedule),
          'itinerary_feedback': (('current_activity',), _feedback),
          'itinerary_initialize': (('current_activity', 'uses_memory'), _initialize)}
