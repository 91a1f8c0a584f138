"""Slots and stages: itinerary time slots that are calls with the user, and chain stages set inside such a call."""
from __future__ import annotations

import re
from typing import Dict, List, Optional

from . import thresholds as T
from .model import Finding, Record, all_strings, user_names

#: A call or chat: the companion is talking with someone at a distance (world policy allows it; a slot spent on
#: it is the user's story, not the companion's).
CALL = re.compile(r'视频|通话|电话|语音|连麦|聊天|打给|回消息|陪.{0,4}聊|微信')
#: Who the call is with: 和邓哥视频 -> 邓哥, 跟小周语音 -> 小周.
CALL_PARTNER = re.compile(r'(?:和|跟|给|陪)([\u4e00-\u9fff]{1,4}?)(?:视频|通话|打电话|打视频|语音|连麦|聊天|聊)')
#: Reporting what someone said: the companion cannot know the user's side of a call from its inputs.
_REPORTS = r'(?:说|讲|提到|聊到|告诉|问)'


def is_call(activity: str) -> bool:
    """Whether a schedule activity is a call or chat."""
    return bool(CALL.search(activity or ''))


def call_partners(activity: str) -> List[str]:
    """The people a call activity names (two characters or more)."""
    return [m for m in CALL_PARTNER.findall(activity or '') if len(m) >= 2]


def _slot_activity(record: Record) -> Optional[str]:
    slot = record.inputs.get('time_slot')
    activity = slot.get('activity') if isinstance(slot, dict) else None
    return activity if isinstance(activity, str) else None


def check_call_share(records: List[Record]) -> List[Finding]:
    """itinerary_advanced: at most MAX_CALL_SLOT_SHARE of the time slots are calls (a file-level finding)."""
    group = [r for r in records if r.subtask == 'itinerary_advanced' and _slot_activity(r) is not None]
    calls = [r for r in group if is_call(_slot_activity(r))]
    if len(group) < T.MIN_RECORDS_FOR_SHARE or len(calls) / len(group) <= T.MAX_CALL_SLOT_SHARE:
        return []
    ids = ', '.join(r.id for r in calls[:5]) + (', ...' if len(calls) > 5 else '')
    return [Finding(group[0].path, 0, 'slots.call_share',
                    f'itinerary_advanced: {len(calls)} of {len(group)} time slots ({len(calls) / len(group):.0%}) '
                    f'are calls or chats (> {T.MAX_CALL_SLOT_SHARE:.0%}): {ids}')]


def check_call_narration(record: Record) -> List[Finding]:
    """The companion cannot know the other side of a call from its inputs. itinerary_advanced: a call slot's
    reference never reports what the person on the call said. itinerary_basic: the day plan never reports what the
    user said (on the evening call) beyond what the memories give."""
    if record.subtask == 'itinerary_advanced':
        activity = _slot_activity(record)
        if activity is None or not is_call(activity):
            return []
        out = []
        for name in call_partners(activity):
            m = re.search(re.escape(name) + r'[^，。！？\n]{0,6}?' + _REPORTS, record.reference)
            if m:
                out.append(record.finding('slots.call_narration', f'the reference reports what {name} said '
                                                                  f'({m.group(0)!r}); the inputs do not give it'))
        return out
    if record.subtask == 'itinerary_basic':
        given = '\n'.join(all_strings(record.inputs))
        for name in user_names(record):
            for m in re.finditer(re.escape(name) + r'[^，。！？\n]{0,6}?' + _REPORTS + r'([^。；！？\n]*)',
                                 record.reference):
                said = m.group(1)
                if not _given(said, given):
                    return [record.finding('slots.call_narration',
                                           f'the day plan reports what the user said ({m.group(0)!r}); the '
                                           f'memories do not give it')]
    return []


def _given(said: str, inputs: str) -> bool:
    """Whether at least USER_SIDE_SUPPORT of the reported words' character bigrams occur in the inputs.

    Unlike ``text.bigram_cover`` it skips bigrams that hold punctuation instead of joining words across it: a
    report runs on over commas (「…掌勺，紧张得…」), and a bigram made across one is evidence of nothing."""
    bigrams = {said[i:i + 2] for i in range(len(said) - 1)}
    bigrams = {b for b in bigrams if not any(c in '，、：“”' for c in b)}  # punctuation is no evidence
    if not bigrams:
        return True
    return sum(b in inputs for b in bigrams) / len(bigrams) >= T.USER_SIDE_SUPPORT


def _with_user(activity: str, names: List[str]) -> bool:
    return is_call(activity) and any(n in activity for n in names)


def check_stage_in_call(records: List[Record]) -> List[Finding]:
    """itinerary_feedback / itinerary_initialize happen while the companion does something it can tell the user
    about: not during a call with that same user (the chain's stage-3 slot, or the current activity itself)."""
    slots: Dict[str, Record] = {}
    for r in records:
        if r.chain and r.subtask == 'itinerary_advanced':
            slots[r.chain] = r
    out = []
    for r in records:
        if r.subtask not in ('itinerary_feedback', 'itinerary_initialize'):
            continue
        names = user_names(r)
        current = r.inputs.get('current_activity')
        if isinstance(current, str) and _with_user(current, names):
            out.append(r.finding('slots.stage_in_call', f'current_activity {current!r} is a call with the user '
                                                        f'the message is addressed to'))
            continue
        slot = slots.get(r.chain) if r.chain else None
        activity = _slot_activity(slot) if slot is not None else None
        if activity and _with_user(activity, names):
            out.append(r.finding('slots.stage_in_call', f'stage {r.stage} takes place in the stage-3 slot '
                                                        f'{activity!r} ({slot.where()}), a call with this same '
                                                        f'user'))
    return out
