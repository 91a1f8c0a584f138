"""Regression checks for the follow-up fixes to the 2026-11-23 sample review (docs/data_review.md).

Each check is a plain function of a data directory, so it can be run against an older copy of the data
(they fail on commit e7af5d6, before the follow-up). The tests run them on the bundled data.
"""
import json
import os
import re
from typing import Dict, List

from opencompass_h2htalk.data.paths import default_data_dir

#: A word that makes an evening slot with the user a call, not a meeting (docs/world_policy.md).
CALL_WORD = re.compile(r'视频|语音|电话|通话|连线|发消息|消息|微信')
#: Schedule verbs that, with the user's name and no call word, read as being in the same room.
TOGETHER = ('陪', '教', '和')
SCHEDULE_FILES = ('itinerary_middle', 'itinerary_advanced', 'itinerary_initialize', 'dialogue_schedule')
#: "I am (doing) ..." clauses that re-announce the current activity.
ANNOUNCE = re.compile(r'我(?:也|这边|刚好)?(?:在|正)')
#: Share of writer 15's initialize references that may open "<称呼>，我在…" (73 of 114 did).
MAX_OPENER_SHARE = 0.30


def _records(name: str, data_dir: str) -> List[Dict]:
    with open(os.path.join(data_dir, f'{name}.jsonl'), encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def _schedule_lines(name: str, r: Dict) -> List[str]:
    if name == 'itinerary_middle':
        return [ln[6:] for ln in r['reference'].split('\n') if re.match(r'\d\d:\d\d ', ln)]
    return [e['activity'] for e in r['inputs'].get('today_schedule') or []]


def copresence_schedule_lines(data_dir: str) -> List[str]:
    """Schedule entries "陪/教/和<user>…" without a call word."""
    out = []
    for name in SCHEDULE_FILES:
        for r in _records(name, data_dir):
            user = r['inputs'].get('user_name')
            if not user:
                continue
            out += [f"{r['id']}: {a}" for a in _schedule_lines(name, r)
                    if any(v + user in a for v in TOGETHER) and not CALL_WORD.search(a)]
    return out


def reannounced_activities(data_dir: str) -> List[str]:
    """Writer-13 schedule replies that say "我在<activity>" again after the history already named it."""
    out = []
    for r in _records('dialogue_schedule', data_dir):
        if not r['id'].startswith('dialogue_schedule-13'):
            continue
        head = r['inputs']['current_activity'][:2]
        said = any(head in t['content'] for t in r['inputs'].get('history', []) if t['role'] == 'assistant')
        if said and any(head in r['reference'][m.end():m.end() + 6] for m in ANNOUNCE.finditer(r['reference'])):
            out.append(f"{r['id']}: {r['reference']}")
    return out


def opener_share(data_dir: str) -> float:
    """Share of writer-15 initialize references opening "<称呼>，我在/我正/我刚…"."""
    refs = [r for r in _records('itinerary_initialize', data_dir) if r['id'].startswith('itinerary_initialize-15')]
    hits = 0
    for r in refs:
        text = re.sub(r'^赛音[，！。]', '', r['reference'].lstrip('…'))
        if re.match(re.escape(r['inputs'].get('user_name', '')) + r'[，！。]?(赛音[，！。])?我(这会儿)?(在|正|刚)', text):
            hits += 1
    return hits / len(refs)


def test_schedule_lines_with_the_user_name_a_call():
    assert copresence_schedule_lines(default_data_dir()) == []


def test_schedule_replies_do_not_reannounce_the_activity():
    assert reannounced_activities(default_data_dir()) == []


def test_initialize_openers_are_varied():
    assert opener_share(default_data_dir()) <= MAX_OPENER_SHARE
