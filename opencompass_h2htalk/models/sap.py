"""Model wrappers that put the Secure Attachment Persona into every request.

``SAPHuggingFacewithChatTemplate``, ``SAPVLLMwithChatTemplate`` and ``SAPOpenAISDK`` subclass the
OpenCompass classes of the same base name and change one thing: ``parse_template`` injects the
SAP text as the system message, merged with the dataset's own system turn into a single system
message (see :func:`opencompass_h2htalk.sap.inject`). Because OpenCompass's ``GenInferencer``
records ``parse_template``'s output as ``origin_prompt``, the prediction files show exactly what
the model received. ``sap=None`` gives the no-SAP twin: the same class and code path, no SAP.

Extra arguments (all wrappers):
    sap: SAP version (``'v1'``) or ``None`` for the twin.
    sap_language: ``'zh'`` (default) or ``'en'``.
    fold_system: Move the whole system text into the first user turn, for chat templates that
        reject a system role (e.g. Gemma-2). Applies to both twins.

Unlike the OpenCompass defaults, these wrappers keep SYSTEM as a real system message when no
``meta_template`` is given (OpenCompass's default chat meta template folds it into the user turn).
A ``meta_template`` of your own must declare the SYSTEM role (see :func:`check_meta_template`).
"""
from __future__ import annotations

import importlib.util
import os
from typing import Any, Dict, Optional

from opencompass.models import HuggingFacewithChatTemplate, OpenAISDK, VLLMwithChatTemplate
from opencompass.registry import MODELS
from opencompass.utils.prompt import PromptList

from ..sap import describe, fold_system_into_user, inject, load_sap

#: Chat meta template that keeps the dataset's SYSTEM turn as a system message.
SYSTEM_META_TEMPLATE: Dict[str, Any] = dict(
    round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)


def check_meta_template(meta_template: Optional[Dict], wrapper: str) -> Dict[str, Any]:
    """The meta template a SAP wrapper uses: ``SYSTEM_META_TEMPLATE``, or ``meta_template`` if it keeps SYSTEM.

    Without a SYSTEM role, OpenCompass sends the dataset's SYSTEM turn (persona and instruction) as part of
    the HUMAN turn (its ``fallback_role``), while SAP is still sent as a separate system message: the SAP
    and no-SAP twins would then differ in structure, not only in SAP.

    Raises:
        ValueError: if ``meta_template`` has no SYSTEM role, or maps SYSTEM to another API role.
    """
    if not meta_template:
        return SYSTEM_META_TEMPLATE
    items = [item for key in ('round', 'reserved_roles') for item in (meta_template.get(key) or [])
             if isinstance(item, dict)]
    system = [item for item in items if item.get('role') == 'SYSTEM']
    fix = ("add reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')] to it, or leave meta_template out "
           '(for chat templates that reject a system role, also set fold_system=True)')
    if not system:
        raise ValueError(f"{wrapper}: meta_template has no SYSTEM role (roles: {[i.get('role') for i in items]}), so "
                         "OpenCompass would move the dataset's SYSTEM turn (persona and instruction) into the HUMAN "
                         f'turn while SAP stays a separate system message and the twins differ in structure; {fix}')
    api_roles = {item.get('api_role', 'SYSTEM') for item in system}
    if api_roles != {'SYSTEM'}:
        raise ValueError(f'{wrapper}: meta_template maps the SYSTEM role to api_role {sorted(api_roles)}, so the '
                         f'persona would not be sent as a system message; {fix}')
    return meta_template


class SAPMixin:
    """Adds SAP injection to an OpenCompass model class (put it first in the bases)."""

    def _setup_sap(self, sap: Optional[str], sap_language: str, fold_system: bool) -> None:
        self.sap = load_sap(sap, sap_language) if sap is not None else None
        self.fold_system = fold_system

    @property
    def sap_info(self) -> Dict[str, Optional[str]]:
        """SAP tag and text hash (``None`` for the twin)."""
        return describe(self.sap)

    def parse_template(self, prompt_template, mode: str):
        # GenInferencer passes a whole batch (a tuple from zip, or a plain list): inject into each prompt.
        # A list of role dicts is one prompt (ChatML messages from RawPromptTemplate), not a batch.
        is_single = isinstance(prompt_template, PromptList) or (
            isinstance(prompt_template, list) and prompt_template
            and all(isinstance(item, dict) and 'role' in item for item in prompt_template))
        if isinstance(prompt_template, (list, tuple)) and not is_single:
            return [self.parse_template(p, mode) for p in prompt_template]
        parsed = super().parse_template(prompt_template, mode)
        if mode != 'gen':
            return parsed
        if self.sap is not None:
            parsed = inject(parsed, self.sap.text)
        if self.fold_system:
            parsed = fold_system_into_user(parsed)
        if isinstance(parsed, list) and not isinstance(parsed, PromptList) and parsed and 'prompt' in parsed[0]:
            parsed = PromptList(parsed)  # a str prompt turned into role items
        return parsed


@MODELS.register_module()
class SAPHuggingFacewithChatTemplate(SAPMixin, HuggingFacewithChatTemplate):
    """``HuggingFacewithChatTemplate`` with the Secure Attachment Persona (see module docstring)."""

    def __init__(self, path: str, sap: Optional[str] = 'v1', sap_language: str = 'zh', fold_system: bool = False,
                 meta_template: Optional[Dict] = None, **kwargs):
        self._setup_sap(sap, sap_language, fold_system)  # fail on a bad SAP option before loading weights
        meta_template = check_meta_template(meta_template, type(self).__name__)
        super().__init__(path=path, meta_template=meta_template, **kwargs)


@MODELS.register_module()
class SAPVLLMwithChatTemplate(SAPMixin, VLLMwithChatTemplate):
    """``VLLMwithChatTemplate`` with the Secure Attachment Persona (see module docstring).

    "VLLM" stays in the class name: OpenCompass launches tasks of other multi-GPU models under
    torchrun, which vLLM must not be.
    """

    def __init__(self, path: str, sap: Optional[str] = 'v1', sap_language: str = 'zh', fold_system: bool = False,
                 meta_template: Optional[Dict] = None, **kwargs):
        self._setup_sap(sap, sap_language, fold_system)
        meta_template = check_meta_template(meta_template, type(self).__name__)
        if not kwargs.get('tokenizer_only'):
            missing = [m for m in ('vllm', 'ray') if importlib.util.find_spec(m) is None]
            if missing:
                raise ImportError(f'SAPVLLMwithChatTemplate needs {" and ".join(missing)}, which is not installed: '
                                  "run it from a vLLM environment (docs/real_models.md), or serve the model "
                                  'with `vllm serve` and use SAPOpenAISDK')
        super().__init__(path=path, meta_template=meta_template, **kwargs)


@MODELS.register_module()
class SAPOpenAISDK(SAPMixin, OpenAISDK):
    """``OpenAISDK`` with the Secure Attachment Persona (see module docstring).

    ``key`` may also be ``'ENV:NAME'`` to read the key from ``$NAME`` in the task process, so that
    no key is ever written into a config or its dump (``'ENV'`` still means ``$OPENAI_API_KEY``).
    """

    def __init__(self, path: str, sap: Optional[str] = 'v1', sap_language: str = 'zh', fold_system: bool = False,
                 key: str = 'ENV', meta_template: Optional[Dict] = None, **kwargs):
        self._setup_sap(sap, sap_language, fold_system)
        meta_template = check_meta_template(meta_template, type(self).__name__)
        if isinstance(key, str) and key.startswith('ENV:'):
            name = key[4:]
            if not os.environ.get(name):
                raise ValueError(f'SAPOpenAISDK({path!r}): API key variable ${name} is not set')
            key = os.environ[name]
        super().__init__(path=path, key=key, meta_template=meta_template, **kwargs)
