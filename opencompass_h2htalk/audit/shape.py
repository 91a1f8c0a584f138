"""Shape checks: who speaks when in a history, and the voice a reference is written in."""
from __future__ import annotations

import re
from typing import List

from .model import Finding, Record, history

#: Subtasks whose history is a user-initiated chat. itinerary_feedback is left out: there the companion may
#: have shared its activity first.
START_WITH_USER = frozenset({'dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_synthesize',
                             'safety', 'probe_implicit_help', 'probe_ambiguous', 'probe_context_aware'})


def check_history_shape(record: Record) -> List[Finding]:
    """Roles alternate; user-initiated subtasks start with the user; a history followed by ``user_message`` ends
    with the companion (else the user speaks twice in a row)."""
    turns = history(record)
    if not turns:
        return []
    out = []
    roles = [t.get('role') for t in turns]
    for i in range(1, len(roles)):
        if roles[i] == roles[i - 1]:
            out.append(record.finding('history.alternation',
                                      f'turns {i - 1} and {i} are both {roles[i]!r}: roles must alternate'))
            break
    if record.subtask in START_WITH_USER and roles[0] != 'user':
        out.append(record.finding('history.first_role', f'{record.subtask} history must start with the user, '
                                                        f'starts with {roles[0]!r}'))
    if 'user_message' in record.inputs and roles[-1] == 'user':
        out.append(record.finding('history.alternation', 'history ends with a user turn and user_message follows: '
                                                         'the user speaks twice in a row'))
    return out


def check_refine_voice(record: Record) -> List[Finding]:
    """recollection_refine references are the user's own first-person line (the instruction asks for
    用户口吻的第一人称); without 我 they read as the companion's memory."""
    if record.subtask != 'recollection_refine':
        return []
    if '我' in record.reference:
        return []
    return [record.finding('format.first_person', 'recollection_refine reference has no 我: it must be the user\'s '
                                                  'first-person line, not a note about the user')]


#: A memory written in the first person (outside quotes) reads as the companion's own memory.
_FIRST_PERSON = re.compile(r'我')
_QUOTED = re.compile(r'「[^」]*」|“[^”]*”|"[^"]*"')


def check_memory_voice(record: Record) -> List[Finding]:
    """Memories given as inputs are third-person statements about the user (「用户…」), whatever the subtask: the
    prompt labels them 关于用户的记忆, so a first-person line (「我家老公在外地上班呢。」) reads as the companion's."""
    out = []
    for k, memory in enumerate(record.inputs.get('memories') or []):
        if isinstance(memory, str) and _FIRST_PERSON.search(_QUOTED.sub('', memory)):
            out.append(record.finding('shape.memory_voice', f'memory {k} {memory!r} is in the first person; memories '
                                                            f'are third-person statements about the user'))
    return out
