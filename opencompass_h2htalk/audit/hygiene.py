"""Input hygiene: schedule entries name activities, not states or scenes."""
from __future__ import annotations

import re
from typing import List, Optional

from .model import Finding, Record, schedule

#: What makes an entry a state rather than an activity: "刚…" (just finished), "正在…", "…的路上" (on the way),
#: "…完，…" / two clauses (a scene), "…着" right after the first verb ("躺着", "坐着发呆").
_STATE = [
    (re.compile(r'^(刚|刚刚|才|已经)'), 'starts with a just-finished marker'),
    (re.compile(r'^正在|^正'), 'starts with 正在 (a state in progress)'),
    (re.compile(r'的路上|路上$'), 'is a being-on-the-way state'),
    (re.compile(r'完[，,；;]'), 'describes something just finished (…完，…)'),
    (re.compile(r'^[\u4e00-\u9fff]{1,2}着'), 'is a posture or state (…着)'),
]


def state_reason(activity: str) -> Optional[str]:
    """Why a schedule entry reads as a state, or None if it reads as an activity."""
    for pattern, reason in _STATE:
        if pattern.search(activity.strip()):
            return reason
    return None


def check_schedule_entries(record: Record) -> List[Finding]:
    """Every ``today_schedule`` entry (and the ``time_slot``) is an activity."""
    entries = list(schedule(record))
    slot = record.inputs.get('time_slot')
    out = []
    for k, entry in enumerate(entries):
        reason = state_reason(entry['activity'])
        if reason:
            out.append(record.finding('hygiene.state_entry', f'today_schedule[{k}] {entry["time"]} '
                                                             f'{entry["activity"]!r} {reason}'))
    if isinstance(slot, dict) and isinstance(slot.get('activity'), str) and slot not in entries:
        reason = state_reason(slot['activity'])
        if reason:
            out.append(record.finding('hygiene.state_entry', f'time_slot {slot["activity"]!r} {reason}'))
    return out
