"""Builds a correct byte-level BPE fast tokenizer from a GGUF file's vocabulary and merges.

transformers' own GGUF conversion turns a ``tokenizer.ggml.model = gpt2`` vocabulary into a sentencepiece-style
Llama tokenizer: it decodes to text full of ``Ġ``/``Ċ`` markers and mis-encodes inputs (under transformers 5 it
encodes Chinese to nothing). The GGUF holds everything a GPT-2-style tokenizer needs, so we build it directly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

#: llama.cpp's ``tokenizer.ggml.token_type`` values: 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte.
CONTROL, USER_DEFINED = 3, 4

#: Pre-tokenizers we know the exact recipe of (llama.cpp's ``tokenizer.ggml.pre``): a digit split in front of the
#: GPT-2 byte-level regex. ``smollm`` and ``starcoder`` split every digit on its own; ``gpt-2`` does not.
_INDIVIDUAL_DIGITS = {'smollm': True, 'starcoder': True, 'gpt-2': None, 'default': None}


class GGUFTokenizerError(ValueError):
    """The GGUF's tokenizer metadata is missing something or describes a tokenizer we cannot rebuild exactly."""


@dataclass(frozen=True)
class GGUFVocab:
    """The tokenizer fields of a GGUF file (``tokenizer.ggml.*`` and ``tokenizer.chat_template``)."""

    model: str
    pre: str
    tokens: Sequence[str]
    token_types: Sequence[int]
    merges: Sequence[str]
    bos_id: Optional[int]
    eos_id: Optional[int]
    unk_id: Optional[int]
    pad_id: Optional[int]
    add_bos: bool
    chat_template: Optional[str]


def read_gguf_vocab(path: str) -> GGUFVocab:
    """Reads the tokenizer metadata of a GGUF file (needs the ``gguf`` package; no tensor is loaded)."""
    try:
        from gguf import GGUFReader
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise GGUFTokenizerError("reading a GGUF needs the 'gguf' package: pip install 'opencompass-h2htalk[models]'") \
            from e
    fields = GGUFReader(path).fields

    def get(key: str, default=None):
        field = fields.get(key)
        return default if field is None else field.contents()

    for key in ('tokenizer.ggml.model', 'tokenizer.ggml.tokens', 'tokenizer.ggml.merges'):
        if key not in fields:
            raise GGUFTokenizerError(f'{path}: no {key} in the GGUF metadata')
    tokens = get('tokenizer.ggml.tokens')
    return GGUFVocab(
        model=get('tokenizer.ggml.model'), pre=get('tokenizer.ggml.pre', 'default'), tokens=tokens,
        token_types=get('tokenizer.ggml.token_type', [1] * len(tokens)), merges=get('tokenizer.ggml.merges'),
        bos_id=get('tokenizer.ggml.bos_token_id'), eos_id=get('tokenizer.ggml.eos_token_id'),
        unk_id=get('tokenizer.ggml.unknown_token_id'), pad_id=get('tokenizer.ggml.padding_token_id'),
        add_bos=bool(get('tokenizer.ggml.add_bos_token', False)), chat_template=get('tokenizer.chat_template'))


def _split_merges(merges: Sequence[str]) -> List[Tuple[str, str]]:
    pairs = []
    for i, merge in enumerate(merges):
        parts = merge.split(' ')
        if len(parts) != 2 or not all(parts):
            raise GGUFTokenizerError(f'merge {i} {merge!r} is not two byte-level symbols separated by one space')
        pairs.append((parts[0], parts[1]))
    return pairs


def build_tokenizer(vocab: GGUFVocab):
    """Returns a ``tokenizers.Tokenizer``: byte-level BPE with the GGUF's vocabulary, merges and special tokens.

    Raises:
        GGUFTokenizerError: the vocabulary is not GPT-2-style BPE, or its pre-tokenizer is one we do not know.
    """
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors

    if vocab.model != 'gpt2':
        raise GGUFTokenizerError(f"tokenizer.ggml.model is {vocab.model!r}; only 'gpt2' (byte-level BPE) is supported")
    if vocab.pre not in _INDIVIDUAL_DIGITS:
        raise GGUFTokenizerError(f'tokenizer.ggml.pre is {vocab.pre!r}; known: {sorted(_INDIVIDUAL_DIGITS)}')
    if len(vocab.token_types) != len(vocab.tokens):
        raise GGUFTokenizerError(f'{len(vocab.tokens)} tokens but {len(vocab.token_types)} token types')
    ids: Dict[str, int] = {}
    for i, token in enumerate(vocab.tokens):
        if token in ids:
            raise GGUFTokenizerError(f'token {token!r} appears twice (ids {ids[token]} and {i})')
        ids[token] = i
    unk = vocab.tokens[vocab.unk_id] if vocab.unk_id is not None else None
    tokenizer = Tokenizer(models.BPE(vocab=ids, merges=_split_merges(vocab.merges), unk_token=unk,
                                     fuse_unk=False, byte_fallback=False))
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True)
    if _INDIVIDUAL_DIGITS[vocab.pre]:
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
    else:
        tokenizer.pre_tokenizer = byte_level
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    # Control and user-defined tokens (<|im_start|>, <|endoftext|> …) are matched whole, before BPE, and skipped
    # by decode(skip_special_tokens=True).
    special = [AddedToken(t, special=True, normalized=False)
               for t, kind in zip(vocab.tokens, vocab.token_types) if kind in (CONTROL, USER_DEFINED)]
    tokenizer.add_special_tokens(special)
    return tokenizer


def special_token_names(vocab: GGUFVocab) -> Dict[str, str]:
    """The bos/eos/unk/pad token strings of the GGUF, for ``PreTrainedTokenizerFast(...)`` keyword arguments."""
    names = {}
    for name, idx in (('bos_token', vocab.bos_id), ('eos_token', vocab.eos_id), ('unk_token', vocab.unk_id),
                      ('pad_token', vocab.pad_id)):
        if idx is not None:
            if not 0 <= idx < len(vocab.tokens):
                raise GGUFTokenizerError(f'{name} id {idx} is outside the vocabulary of {len(vocab.tokens)}')
            names[name] = vocab.tokens[idx]
    return names
