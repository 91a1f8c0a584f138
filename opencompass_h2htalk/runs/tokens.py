"""Token counts for the report's cost section: the model's own tokenizer when it is on this machine, else none.

A run's dumped config (``<run>/configs/*.py``) names each model's ``tokenizer_path`` or ``path``. Tokens are counted
only with that tokenizer, loaded with ``local_files_only`` from a local directory or the Hugging Face cache; no other
tokenizer is ever put in its place, and when there is none the caller gets ``None`` and the reason.
"""
from __future__ import annotations

import glob
import os
import re
from functools import lru_cache
from typing import Any, Callable, Dict, List, Optional, Tuple

from .logs import prompt_text

_HUB_ID = re.compile(r'^[A-Za-z0-9][\w.-]*/[\w.-]+$')
_TOKENIZER_FILES = ('tokenizer.json', 'tokenizer_config.json', 'tokenizer.model', 'vocab.json')
#: OpenCompass's prompt roles -> chat-template roles.
_ROLES = {'SYSTEM': 'system', 'HUMAN': 'user', 'BOT': 'assistant'}


def run_models(run: str) -> Dict[str, Dict[str, Any]]:
    """``{abbr: model config}`` from the run's newest dumped config; empty when the run has none."""
    configs = sorted(glob.glob(os.path.join(run, 'configs', '*.py')))
    if not configs:
        return {}
    from mmengine.config import Config  # a dumped config is plain data; reading it imports no OpenCompass

    models = Config.fromfile(configs[-1], format_python_code=False).get('models') or []
    return {m['abbr']: dict(m) for m in models if isinstance(m, dict) and m.get('abbr')}


#: Model classes that have no tokenizer at all (their ``path`` is a label, not a place), with what to say instead.
_NO_TOKENIZER = {'H2HTalkRetrievalBaseline': 'no tokenizer: the retrieval baseline answers with a stored reference '
                                             'and has none (characters only)'}


def tokenizer_source(model_cfg: Dict[str, Any]) -> Tuple[Optional[str], str]:
    """Where the model's tokenizer is on this machine, or ``None`` and why not.

    Returns:
        ``(path or hub id, '')`` when a local directory or the Hugging Face cache holds tokenizer files, else
        ``(None, reason)``.
    """
    kind = model_cfg.get('type')
    kind = kind if isinstance(kind, str) else getattr(kind, '__name__', '')  # dumped configs hold a dotted name
    if kind.rsplit('.', 1)[-1] in _NO_TOKENIZER:
        return None, _NO_TOKENIZER[kind.rsplit('.', 1)[-1]]
    path = model_cfg.get('tokenizer_path') or model_cfg.get('path')
    if not isinstance(path, str) or not path:
        return None, 'no tokenizer: the model config names no tokenizer_path or path'
    if os.path.isdir(path):
        if any(os.path.isfile(os.path.join(path, f)) for f in _TOKENIZER_FILES):
            return path, ''
        return None, f'no tokenizer: {path} holds none of {", ".join(_TOKENIZER_FILES)}'
    if _HUB_ID.match(path):
        from huggingface_hub import try_to_load_from_cache

        if isinstance(try_to_load_from_cache(path, 'tokenizer_config.json'), str):
            return path, ''
        return None, f'no tokenizer: {path} is not in the Hugging Face cache of this machine'
    return None, f'no tokenizer: {path} is not a directory here (relative paths are read from the current folder)'


@lru_cache(maxsize=8)
def _load(source: str) -> Any:
    """The tokenizer at ``source``, loaded once per report (SAP twins share one)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(source, local_files_only=True, trust_remote_code=False)


def token_counter(run: str, model: str, models: Optional[Dict[str, Dict[str, Any]]] = None
                  ) -> Tuple[Optional[Callable[[Any, str], Tuple[int, int]]], str]:
    """A ``(origin_prompt, reply) -> (input tokens, output tokens)`` counter for ``model``, and what it uses.

    Args:
        run: The run folder.
        model: The model's abbreviation (its folder under predictions/).
        models: :func:`run_models` of the run, when the caller has read it already.

    Returns:
        ``(counter, description)``, or ``(None, why there is none)``; a tokenizer that fails to load is a reason,
        not an error, since the characters are still measured.
    """
    cfg = (run_models(run) if models is None else models).get(model)
    if cfg is None:
        return None, f'no tokenizer: {model} is not among the models of the run\'s dumped config'
    source, why = tokenizer_source(cfg)
    if source is None:
        return None, why
    try:
        tok = _load(source)
    except Exception as e:  # noqa: BLE001 - any load failure means: no tokens, and the report says why
        return None, f'no tokenizer: loading {source} failed: {type(e).__name__}: {str(e)[:200]}'
    template = bool(getattr(tok, 'chat_template', None))

    def count(prompt: Any, reply: str) -> Tuple[int, int]:
        if template and isinstance(prompt, list) and all(isinstance(m, dict) for m in prompt):
            messages: List[Dict[str, str]] = [{'role': _ROLES.get(m.get('role'), str(m.get('role')).lower()),
                                               'content': m.get('prompt', '')} for m in prompt]
            n_in = len(tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True))
        else:
            n_in = len(tok(prompt_text(prompt), add_special_tokens=False)['input_ids'])
        return n_in, len(tok(reply, add_special_tokens=False)['input_ids'])

    how = 'prompts through its chat template' if template else 'prompts as plain text (it has no chat template)'
    return count, f'{source} ({type(tok).__name__}; {how})'


__all__ = ['run_models', 'token_counter', 'tokenizer_source']
