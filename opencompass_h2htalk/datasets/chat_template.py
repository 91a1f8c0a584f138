"""``H2HTalkChatPromptTemplate``: sends a row's chat rendering (``messages``) as an OpenCompass PromptList."""
from __future__ import annotations

import json
from typing import Any, Dict, Hashable, List, Optional, Union

from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.registry import ICL_PROMPT_TEMPLATES
from opencompass.utils.prompt import PromptList

_ROLES = ('SYSTEM', 'HUMAN', 'BOT')


def messages_of(entry: Dict[str, Any], column: str) -> List[Dict[str, str]]:
    """The role items in ``entry[column]`` (a JSON string, as the dataset stores it, or a list).

    Raises:
        ValueError: the column is missing (a block-mode dataset) or not a list of SYSTEM/HUMAN/BOT items that ends
            with HUMAN.
    """
    if column not in entry:
        raise ValueError(f"H2HTalkChatPromptTemplate: the row has no {column!r} column; load the dataset with "
                         "history_format='chat', as the shipped dataset configs do "
                         "(configs/datasets/h2htalk/h2htalk_common.py)")
    messages = json.loads(entry[column]) if isinstance(entry[column], str) else entry[column]
    if (not isinstance(messages, list) or not messages
            or not all(isinstance(m, dict) and m.get('role') in _ROLES and isinstance(m.get('prompt'), str)
                       for m in messages)
            or messages[-1]['role'] != 'HUMAN'):
        raise ValueError(f'H2HTalkChatPromptTemplate: {column!r} must be a list of {{role: SYSTEM|HUMAN|BOT, prompt}} '
                         f'items ending with HUMAN, got {str(entry[column])[:120]!r}')
    return messages


@ICL_PROMPT_TEMPLATES.register_module()
class H2HTalkChatPromptTemplate(PromptTemplate):
    """Prompt template for ``history_format='chat'`` datasets: the row's ``messages`` as SYSTEM + alternating
    HUMAN/BOT turns ending with HUMAN, so the model's meta template adds the generating BOT turn.

    The SYSTEM items go into the ``begin`` section (with ``fallback_role='HUMAN'``, as the block template), the
    turns into the ``round`` section, where OpenCompass splits them into rounds: every BOT turn but the last is
    sent as an assistant message, and generation starts after the last HUMAN. The normal batched
    ``GenInferencer`` and every chat model wrapper work unchanged.

    Args:
        column: The dataset column holding the messages (default ``'messages'``).
    """

    def __init__(self, column: str = 'messages') -> None:
        # The template dict only documents the shape (and keeps prompt_type 'meta'); generate_item builds each prompt.
        super().__init__(template=dict(begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt=f'{{{column}}}')],
                                       round=[dict(role='HUMAN', prompt=f'{{{column}}}')]))
        self.column = column

    def generate_item(self, entry: Dict, output_field: Optional[Hashable] = None,
                      output_field_replace_token: Optional[str] = '',
                      ice_field_replace_token: Optional[str] = '') -> PromptList:
        messages = messages_of(entry, self.column)
        prompt = PromptList([dict(section='begin', pos='begin')])
        prompt += [dict(role='SYSTEM', fallback_role='HUMAN', prompt=m['prompt'])
                   for m in messages if m['role'] == 'SYSTEM']
        prompt += [dict(section='begin', pos='end'), dict(section='round', pos='begin')]
        prompt += [dict(role=m['role'], prompt=m['prompt']) for m in messages if m['role'] != 'SYSTEM']
        prompt.append(dict(section='round', pos='end'))
        return prompt

    def generate_ice_item(self, entry: Dict, label: Hashable) -> Union[PromptList, str]:
        raise NotImplementedError('H2HTalkChatPromptTemplate renders zero-shot prompts only (use ZeroRetriever)')

    def generate_label_prompt_item(self, entry: Dict, ice: Any, label: Hashable,
                                   remain_sep: Optional[bool] = False) -> PromptList:
        return self.generate_item(entry)

    def __repr__(self) -> str:
        return f'H2HTalkChatPromptTemplate(column={self.column!r})'
