"""Chinese-aware tokenisation shared by BLEU and ROUGE.

Two modes:

* ``jieba`` (default): jieba's accurate mode with HMM, the tokeniser the upstream H2HTalk
  scorer uses. Punctuation stays a token (as upstream); whitespace-only tokens are dropped
  (upstream keeps them, which makes scores depend on stray spaces).
* ``char``: every non-whitespace character is a token; runs of ASCII letters/digits stay one
  token so English words and numbers are not split into letters.
"""
from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Dict, List

TOKENIZER_MODES = ('jieba', 'char')
_CHAR_RE = re.compile(r'[A-Za-z0-9]+|\S')


@lru_cache(maxsize=1)
def _jieba():
    import jieba

    jieba.setLogLevel(logging.WARNING)  # silence the dictionary-loading banner in task logs
    jieba.initialize()
    return jieba


def tokenize(text: str, mode: str = 'jieba') -> List[str]:
    """Splits ``text`` into tokens.

    Args:
        text: Input string.
        mode: ``'jieba'`` or ``'char'``.

    Returns:
        Tokens in order, without whitespace-only tokens.

    Raises:
        ValueError: for an unknown mode.
    """
    if mode == 'jieba':
        return [t for t in _jieba().lcut(text, HMM=True) if t.strip()]
    if mode == 'char':
        return _CHAR_RE.findall(text)
    raise ValueError(f'unknown tokenizer mode {mode!r}; expected one of {TOKENIZER_MODES}')


def tokenizer_info(mode: str = 'jieba') -> Dict[str, str]:
    """Describes the tokeniser for the results file (name, version, settings)."""
    if mode == 'jieba':
        return {'name': 'jieba', 'version': getattr(_jieba(), '__version__', 'unknown'), 'mode': 'accurate+HMM'}
    if mode == 'char':
        return {'name': 'char', 'version': '1', 'mode': 'cjk-char+ascii-word'}
    raise ValueError(f'unknown tokenizer mode {mode!r}; expected one of {TOKENIZER_MODES}')
