"""Reference points of the model ladder (issue 24): a fixed caring reply, a parrot, and the references (pure).

Replies whose quality is known without a judge, to put beside real models: a score that ranks a model below the
parrot or above the references says something about the score. Each answers a rendered H2HTalk prompt by finding
its scenario in the data (the SYSTEM and HUMAN texts a dataset row carries, or the messages of its chat rendering,
``history_format='chat'``), so they run through the real ``opencompass`` pipeline like any model, in either
rendering:

- ``constant``: one fixed caring sentence (:data:`~opencompass_h2htalk.metrics.validity.GENERIC_CARING`) for every
  item: what a reply that reads nothing earns;
- ``parrot``: the user's latest message or feedback said back verbatim, else the prompt's last input block
  (:func:`~opencompass_h2htalk.metrics.validity.last_input_block`, the same echo the validity card scores);
- ``reference``: the scenario's own reference, the upper bound (U 100 by construction; the task checks and the
  copy-free U of the references are what it measures).
"""
from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

from ..data.loader import load_rows, read_manifest
from ..data.prompts import CHAT_SUBTASKS, messages_key
from ..metrics.validity import GENERIC_CARING, last_input_block

#: The reference points, in ladder order (worst expected first).
KINDS = ('constant', 'parrot', 'reference')


class ReferencePoint:
    """Answers the prompts of one data directory as the reference point ``kind``.

    Args:
        kind: One of :data:`KINDS`.
        data_dir: Scenario directory (default: bundled H2HTalk-Open or ``$H2HTALK_DATA``).
        subtasks: Subtasks to answer (default: every subtask in the directory's manifest).

    Raises:
        ValueError: an unknown ``kind``.
    """

    def __init__(self, kind: str, data_dir: Optional[str] = None, subtasks: Optional[Sequence[str]] = None):
        if kind not in KINDS:
            raise ValueError(f'reference point {kind!r}: choose one of {list(KINDS)}')
        self.kind = kind
        self.data_dir = data_dir
        #: messages_key of each rendering (block, and chat where the subtask has one) -> (inputs, reference) of every
        #: scenario (the constant reply reads none).
        self._rows: Dict[Tuple[Tuple[str, str], ...], Tuple[Mapping, str]] = {}
        if kind == 'constant':
            return
        if subtasks is None:
            subtasks = [e['subtask'] for e in read_manifest(data_dir)['files'].values() if 'subtask' in e]
        for subtask in subtasks:
            # Chat rows carry the block columns too: one load gives both renderings.
            for row in load_rows(subtask, data_dir, history_format='chat' if subtask in CHAT_SUBTASKS else 'block'):
                found = (json.loads(row['inputs']), row['reference'])
                self._rows[_block_key(row['system_prompt'], row['user_prompt'])] = found
                if 'messages' in row:
                    self._rows[messages_key(json.loads(row['messages']))] = found

    def respond(self, system_prompt: str, user_prompt: str) -> str:
        """The reply to one block-rendered prompt (its SYSTEM and HUMAN texts).

        Raises:
            KeyError: the prompt is not one of the data's scenarios as rendered (for example it carries SAP, or
                comes from another data version); the message says so.
        """
        return self.respond_messages([{'role': 'SYSTEM', 'prompt': system_prompt},
                                      {'role': 'HUMAN', 'prompt': user_prompt}])

    def respond_messages(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The reply to one rendered prompt given as role items (``{'role': 'SYSTEM' | 'HUMAN' | 'BOT', 'prompt'}``),
        block or chat rendering.

        Raises:
            KeyError: the prompt is not one of the data's scenarios as rendered (for example it carries SAP, or
                comes from another data version); the message says so.
        """
        if self.kind == 'constant':
            return GENERIC_CARING
        # messages_key strips: a chat template or a prompt list may add or drop a trailing newline, nothing else.
        found = self._rows.get(messages_key(messages))
        if found is None:
            system_prompt = '\n'.join(str(m.get('prompt', '')) for m in messages if m['role'] == 'SYSTEM')
            raise KeyError(f'{self.kind} reference point: the prompt is not a scenario of the H2HTalk data in '
                           f'{self.data_dir or "the bundled directory"} as rendered (SYSTEM starts '
                           f'{system_prompt[:40]!r}); reference points answer the data\'s own prompts only, without '
                           'SAP or any other change to the SYSTEM or HUMAN text')
        inputs, reference = found
        return reference if self.kind == 'reference' else last_input_block(inputs)


def _block_key(system_prompt: str, user_prompt: str) -> Tuple[Tuple[str, str], ...]:
    return messages_key([{'role': 'SYSTEM', 'prompt': system_prompt}, {'role': 'HUMAN', 'prompt': user_prompt}])


__all__ = ['KINDS', 'ReferencePoint']
