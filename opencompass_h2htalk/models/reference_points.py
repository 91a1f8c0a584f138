"""OpenCompass model wrapper around :class:`opencompass_h2htalk.baselines.reference_points.ReferencePoint`."""
from __future__ import annotations

from typing import Dict, List, Optional, Union

from opencompass.models.base_api import BaseAPIModel
from opencompass.registry import MODELS
from opencompass.utils.prompt import PromptList

from ..baselines.reference_points import ReferencePoint
from .baseline import _META_TEMPLATE, role_items


@MODELS.register_module()
class H2HTalkReferencePoint(BaseAPIModel):
    """A reply of known quality for every scenario (the ladder's constant reply, parrot or references).

    Args:
        path: Which reference point: ``'constant'``, ``'parrot'`` or ``'reference'`` (recorded in results).
        data_dir: Scenario directory whose prompts it answers (default: bundled data or ``$H2HTALK_DATA``).
        meta_template: Leave as default; the lookup needs the SYSTEM turn kept separate.
    """

    def __init__(self, path: str, data_dir: Optional[str] = None, max_seq_len: int = 8192,
                 meta_template: Optional[Dict] = None, **kwargs):
        super().__init__(path=path, max_seq_len=max_seq_len, meta_template=meta_template or _META_TEMPLATE,
                         query_per_second=10 ** 6, retry=0)
        self.point = ReferencePoint(path, data_dir)

    def generate(self, inputs: List[Union[str, PromptList]], max_out_len: int = 512, **kwargs) -> List[str]:
        return [self.point.respond_messages(role_items(prompt, type(self).__name__)) for prompt in inputs]
