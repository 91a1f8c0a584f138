"""OpenCompass model wrapper around :class:`opencompass_h2htalk.baselines.retrieval.RetrievalBaseline`."""
from __future__ import annotations

from typing import Dict, List, Optional, Union

from opencompass.models.base_api import BaseAPIModel
from opencompass.registry import MODELS
from opencompass.utils.prompt import PromptList

from ..baselines.retrieval import RetrievalBaseline

#: SYSTEM is kept as its own role so the baseline can read the subtask instruction.
_META_TEMPLATE = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
                      reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')])


def role_items(prompt: Union[str, PromptList], wrapper: str) -> List[Dict[str, str]]:
    """The ``{'role', 'prompt'}`` items of a parsed prompt, in order (block: SYSTEM, HUMAN; chat: SYSTEM, then
    HUMAN/BOT turns), for the baselines' ``respond_messages``.

    Raises:
        ValueError: a plain string (no SYSTEM turn to read the subtask and persona from).
    """
    if isinstance(prompt, str):
        raise ValueError(f'{wrapper} needs a PromptList with a SYSTEM turn, got a plain string')
    return [{'role': item['role'], 'prompt': item['prompt']} for item in prompt]


@MODELS.register_module()
class H2HTalkRetrievalBaseline(BaseAPIModel):
    """CPU-only lower-bound "model": answers with the closest *other* scenario's reference.

    Runs in milliseconds, needs no weights, and makes the demo and the tests exercise the whole
    OpenCompass pipeline (partitioning, runner subprocesses, evaluation, summary).

    Args:
        path: Free-form name recorded in results (e.g. ``'retrieval-baseline'``).
        data_dir: Scenario directory to retrieve from (default: bundled data or ``$H2HTALK_DATA``).
        meta_template: Leave as default; the baseline needs the SYSTEM turn kept separate.
    """

    def __init__(self, path: str = 'retrieval-baseline', data_dir: Optional[str] = None,
                 max_seq_len: int = 8192, meta_template: Optional[Dict] = None, **kwargs):
        super().__init__(path=path, max_seq_len=max_seq_len, meta_template=meta_template or _META_TEMPLATE,
                         query_per_second=10 ** 6, retry=0)
        self.baseline = RetrievalBaseline(data_dir)

    def generate(self, inputs: List[Union[str, PromptList]], max_out_len: int = 512, **kwargs) -> List[str]:
        return [self.baseline.respond_messages(role_items(prompt, type(self).__name__)) for prompt in inputs]
