"""The Secure Attachment Persona (SAP): versioned text and pure message injection (the logic).

SAP is a system-prompt module built on attachment theory that wraps any companion model
(see ``docs/sap.md``). The text lives in ``sap/texts/sap_<version>.<language>.txt``; a header
line naming the version is prepended, so every prompt that carries SAP says which one, and
evaluators can record it from ``origin_prompt``.

No OpenCompass import: prompts are handled as plain lists of dicts, in the two shapes a model
wrapper sees — OpenCompass role items (``{'role': 'SYSTEM'|'HUMAN'|'BOT', 'prompt': ...}``) and
ChatML messages (``{'role': 'system'|'user'|'assistant', 'content': ...}``) — plus plain strings.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from ..data.hashing import sha256_file

SAP_VERSIONS = ('v1',)
SAP_LANGUAGES = ('zh', 'en')
_HEADERS = {'zh': '【安全依恋陪伴准则 SAP {version}】', 'en': '[Secure Attachment Persona guidelines, SAP {version}]'}
_HEADER_RE = re.compile(r'【安全依恋陪伴准则 SAP (v\d+)】|\[Secure Attachment Persona guidelines, SAP (v\d+)\]')
_TEXT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'texts')
#: Separator between the SAP text and the dataset's own system turn.
SEPARATOR = '\n\n'

Prompt = Union[str, List[Dict[str, Any]]]


@dataclass(frozen=True)
class SAPText:
    """One SAP version in one language."""

    version: str
    language: str
    text: str
    sha256: str

    @property
    def tag(self) -> str:
        """Short id recorded in results and abbrs, e.g. ``'sap_v1-zh'``."""
        return f'sap_{self.version}-{self.language}'


def load_sap(version: str = 'v1', language: str = 'zh') -> SAPText:
    """Loads a SAP text with its header line.

    Raises:
        ValueError: unknown version or language.
        FileNotFoundError: the text file is missing from the installation.
    """
    if version not in SAP_VERSIONS:
        raise ValueError(f'unknown SAP version {version!r}; available: {list(SAP_VERSIONS)}')
    if language not in SAP_LANGUAGES:
        raise ValueError(f'unknown SAP language {language!r}; available: {list(SAP_LANGUAGES)}')
    path = os.path.join(_TEXT_DIR, f'sap_{version}.{language}.txt')
    with open(path, encoding='utf-8') as f:
        body = f.read().strip()
    if not body:
        raise ValueError(f'{path}: empty SAP text')
    header = _HEADERS[language].format(version=version)
    return SAPText(version, language, f'{header}\n{body}', sha256_file(path))


def prompt_text(prompt: Any) -> str:
    """The text of a prompt as OpenCompass records it (``origin_prompt``): a string, or role items / ChatML messages
    joined with newlines ('' for anything else)."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence):
        return '\n'.join(str(item.get('prompt', item.get('content', ''))) if isinstance(item, dict) else str(item)
                         for item in prompt)
    return ''


def detect_sap(prompt: Any) -> List[str]:
    """Returns the SAP versions whose header occurs in a prompt (any shape), one entry per occurrence."""
    return [a or b for a, b in _HEADER_RE.findall(prompt_text(prompt))]


def _roles(items: List[Any]):
    """(text key, system role, user role) for ChatML messages or OpenCompass role items."""
    chatml = any(isinstance(it, dict) and 'content' in it and 'prompt' not in it for it in items)
    return ('content', 'system', 'user') if chatml else ('prompt', 'SYSTEM', 'HUMAN')


def _copy(prompt: List[Any]) -> List[Any]:
    return [dict(item) if isinstance(item, dict) else item for item in prompt]


def _like(prompt: Any, items: List[Any]) -> List[Any]:
    """``items`` in a list of the same type as ``prompt`` (keeps PromptList a PromptList)."""
    out = type(prompt)() if isinstance(prompt, list) else []
    out.extend(items)
    return out


def _merge(sap_text: str, existing: str) -> str:
    return f'{sap_text}{SEPARATOR}{existing}' if existing and existing.strip() else sap_text


def inject(prompt: Prompt, sap_text: str) -> Prompt:
    """Puts ``sap_text`` into the system message of ``prompt``, exactly once.

    * a plain string becomes ``[SYSTEM: sap, HUMAN: string]``;
    * role items: the first SYSTEM item becomes ``sap + blank line + its text``; without one, a
      SYSTEM item is inserted first;
    * ChatML messages: the same with the first ``system`` message.

    A prompt that already carries a SAP header is returned unchanged (no double injection). The
    input is not modified; the returned list has the input's type.
    """
    if detect_sap(prompt):
        return prompt
    if isinstance(prompt, str):
        return [{'role': 'SYSTEM', 'prompt': sap_text}, {'role': 'HUMAN', 'prompt': prompt}]
    items = _copy(prompt)
    key, system_role, _ = _roles(items)
    for it in items:
        if isinstance(it, dict) and it.get('role') == system_role:
            it[key] = _merge(sap_text, it.get(key, ''))
            break
    else:
        items.insert(0, {'role': system_role, key: sap_text})
    return _like(prompt, items)


def fold_system_into_user(prompt: Prompt) -> Prompt:
    """For chat templates that reject a system role (e.g. Gemma-2): prefixes the system text to the
    first user turn and drops the system item. Strings are returned unchanged."""
    if isinstance(prompt, str):
        return prompt
    items = _copy(prompt)
    key, system_role, user_role = _roles(items)
    systems = [it for it in items if isinstance(it, dict) and it.get('role') == system_role]
    if not systems:
        return prompt
    rest = [it for it in items if not (isinstance(it, dict) and it.get('role') == system_role)]
    system_text = SEPARATOR.join(it[key] for it in systems if it.get(key))
    for it in rest:
        if isinstance(it, dict) and it.get('role') == user_role:
            it[key] = _merge(system_text, it.get(key, ''))
            break
    else:
        rest.insert(0, {'role': user_role, key: system_text})
    return _like(prompt, rest)


def describe(sap: Optional[SAPText]) -> Dict[str, Optional[str]]:
    """SAP identity for configs and results (``None`` fields for the no-SAP twin)."""
    if sap is None:
        return {'sap': None, 'sap_sha256': None}
    return {'sap': sap.tag, 'sap_sha256': sap.sha256}
