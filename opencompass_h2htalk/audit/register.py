"""User-message register: whether a final user message reads like chat or like written prose, its tag, and the
quota of chat-register messages per subtask."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Dict, List, Tuple

from ..checks.base import length
from . import thresholds as T
from .model import Finding, Record

#: Subtasks whose final user message is measured (the dialogue subtasks and the probes).
REGISTER_SUBTASKS = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'probe_implicit_help',
                     'probe_ambiguous', 'probe_context_aware')
#: Colloquial markers: modal particles, interjections, ～, repeated or trailing-off punctuation, emoji, laughter
#: and common chat words. Each is rare in written Chinese prose and common in chat.
COLLOQUIAL = re.compile(r'[啊呀吧呢嘛啦哈呗哦噢喔诶欸唉哎嗯呃咋啥嘞咯]|～|~|？？|！！|\?\?|!!|。。|…|\.\.\.|'
                        r'[\U0001F300-\U0001FAFF\u2600-\u27BF]|hh|哈哈|嘿嘿|呜呜|emm|绝了|无语|救命|离谱|破防|摆烂')


def register_markers(message: str) -> Dict[str, bool]:
    """The markers of chat register: ``short`` (at most CHAT_REGISTER_MAX_CHARS characters but whitespace),
    ``very_short`` (at most CHAT_REGISTER_VERY_SHORT), ``open_end`` (does not close with 。), ``colloquial`` (a
    COLLOQUIAL marker)."""
    m = message.strip()
    n = length(m)  # 字数 as the task checks count it: every character but whitespace
    return {'short': n <= T.CHAT_REGISTER_MAX_CHARS, 'very_short': n <= T.CHAT_REGISTER_VERY_SHORT,
            'open_end': not m.endswith('。'), 'colloquial': bool(COLLOQUIAL.search(m))}


def register_of(message: str) -> str:
    """'chat' for a short message that is very short, open-ended or colloquial; else 'written'."""
    k = register_markers(message)
    return 'chat' if k['short'] and (k['very_short'] or k['open_end'] or k['colloquial']) else 'written'


def _message(record: Record):
    value = record.inputs.get('user_message')
    return value if isinstance(value, str) and value.strip() else None


def check_register_tag(record: Record) -> List[Finding]:
    """dialogue_* and probe records carry ``tags.register``, and it agrees with the measure."""
    if record.subtask not in REGISTER_SUBTASKS or _message(record) is None:
        return []
    tag = record.tags.get('register')
    measured = register_of(_message(record))
    if tag is None:
        return [record.finding('dist.register', f'no tags.register (the final user message measures {measured!r})')]
    if tag != measured:
        markers = ', '.join(k for k, v in register_markers(_message(record)).items() if v) or 'none'
        return [record.finding('dist.register', f'tags.register is {tag!r} but the final user message measures '
                                                f'{measured!r} (markers: {markers})')]
    return []


def register_shares(records: List[Record]) -> Dict[str, Tuple[int, int]]:
    """(chat, total) final user messages per measured subtask."""
    out: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        msg = _message(r)
        if r.subtask in REGISTER_SUBTASKS and msg is not None:
            out[r.subtask][1] += 1
            out[r.subtask][0] += register_of(msg) == 'chat'
    return {k: (v[0], v[1]) for k, v in out.items()}


def check_register_quota(records: List[Record]) -> List[Finding]:
    """Each measured subtask has at least MIN_CHAT_REGISTER_SHARE of its final user messages in chat register
    (a file-level finding, line 0)."""
    out = []
    paths = {r.subtask: r.path for r in records}
    for subtask, (chat, total) in sorted(register_shares(records).items()):
        if total < T.MIN_RECORDS_FOR_SHARE or chat / total >= T.MIN_CHAT_REGISTER_SHARE:
            continue
        out.append(Finding(paths[subtask], 0, 'dist.register_quota',
                           f'{subtask}: {chat} of {total} final user messages ({chat / total:.0%}) are in chat '
                           f'register (< {T.MIN_CHAT_REGISTER_SHARE:.0%})'))
    return out
