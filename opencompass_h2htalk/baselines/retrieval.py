"""A retrieval baseline for H2HTalk-Open (pure Python, no OpenCompass import).

For a scenario of subtask *t*, it answers with the reference of the most similar *other*
scenario of subtask *t*. It never sees the scenario's own reference, so it is an honest lower
bound: the score a system gets for sounding like the benchmark without reading the conversation
closely.

Both renderings of a prompt are answered, and answered alike: a chat-rendered prompt (``history_format='chat'``)
of a scenario in the data is looked up by its messages and answered as that scenario's block rendering, so the
baseline's replies do not depend on the rendering (:meth:`RetrievalBaseline.respond_messages`).

Similarity is the cosine of TF-IDF vectors of character n-grams (2 and 3 characters, within runs
of letters and digits) over the scenario's own content: the block labels, closing line and speaker
prefixes that every prompt of a subtask shares are removed first, and IDF weighs an n-gram by how
few scenarios hold it, so rare words (a pet's name, "马拉松") decide the match, not stock phrases.
"""
from __future__ import annotations

import math
from collections import Counter
import json
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..data.loader import load_rows, read_manifest
from ..data.prompts import (CHAT_INSTRUCTIONS_EN, CHAT_INSTRUCTIONS_ZH, CHAT_SUBTASKS, INSTRUCTIONS_EN, INSTRUCTIONS_ZH,
                            PROMPT_LANGUAGES, boilerplate, messages_key)

#: Character n-gram lengths of the vectors.
NGRAMS = (2, 3)

_LABEL_LINES = frozenset(line for lang in PROMPT_LANGUAGES for key in ('labels', 'closings')
                         for line in boilerplate(lang)[key])
#: Longest first, so that no prefix is stripped by a shorter one it starts with.
_SPEAKERS = tuple(sorted({p for lang in PROMPT_LANGUAGES for p in boilerplate(lang)['speakers']}, key=len,
                         reverse=True))


def content_lines(user_prompt: str) -> List[str]:
    """The scenario's own content in a rendered HUMAN turn: its lines without block labels, the closing line,
    speaker prefixes (``用户：``, ``You: ``) and list bullets."""
    lines = []
    for line in user_prompt.splitlines():
        line = line.strip()
        if not line or line in _LABEL_LINES:
            continue
        for prefix in _SPEAKERS:
            if line.startswith(prefix):
                line = line[len(prefix):]
                break
        if line.startswith('- '):
            line = line[2:]
        lines.append(line)
    return lines


def ngrams(user_prompt: str) -> Counter:
    """Character n-gram counts (:data:`NGRAMS`) of the content, within runs of letters and digits (case-folded):
    punctuation and line breaks end a run, so no n-gram spans two sentences or two turns."""
    counts: Counter = Counter()
    for line in content_lines(user_prompt):
        run: List[str] = []
        for ch in line.casefold() + ' ':
            if ch.isalnum():
                run.append(ch)
                continue
            text = ''.join(run)
            for n in NGRAMS:
                counts.update(text[i:i + n] for i in range(len(text) - n + 1))
            run = []
    return counts


class _Index:
    """TF-IDF vectors (sublinear TF, IDF ``log(N / df)``, L2-normalised) of one subtask's prompts, with an
    inverted index for the cosine."""

    def __init__(self, prompts: Sequence[str]):
        counts = [ngrams(p) for p in prompts]
        df: Counter = Counter(g for c in counts for g in c)
        n = len(prompts)
        # An n-gram in every prompt has IDF 0: it cannot tell two scenarios apart.
        self.idf = {g: math.log(n / d) for g, d in df.items() if d < n}
        self.postings: Dict[str, List[Tuple[int, float]]] = {}
        for doc, c in enumerate(counts):
            for g, w in self._vector(c).items():
                self.postings.setdefault(g, []).append((doc, w))

    def _vector(self, counts: Counter) -> Dict[str, float]:
        vec = {g: (1.0 + math.log(tf)) * self.idf[g] for g, tf in counts.items() if g in self.idf}
        norm = math.sqrt(sum(w * w for w in vec.values()))
        return {g: w / norm for g, w in vec.items()} if norm else {}

    def scores(self, prompt: str) -> Dict[int, float]:
        """Cosine of ``prompt`` with every indexed prompt it shares a weighted n-gram with (others score 0)."""
        acc: Dict[int, float] = {}
        for g, w in self._vector(ngrams(prompt)).items():
            for doc, dw in self.postings[g]:
                acc[doc] = acc.get(doc, 0.0) + w * dw
        return acc


class RetrievalBaseline:
    """Leave-one-out nearest-neighbour responder over a scenario collection.

    Args:
        data_dir: Scenario directory (default: bundled H2HTalk-Open or ``$H2HTALK_DATA``).
        subtasks: Subtasks to index (default: every subtask listed in the data directory's manifest).
    """

    def __init__(self, data_dir: Optional[str] = None, subtasks: Optional[Sequence[str]] = None):
        #: Per subtask: ``(user_prompt, reference)`` in file order, and their TF-IDF index.
        self.index: Dict[str, List[Tuple[str, str]]] = {}
        self._tfidf: Dict[str, _Index] = {}
        #: :func:`~opencompass_h2htalk.data.prompts.messages_key` of each chat rendering -> (subtask, block HUMAN turn).
        self._chat: Dict[Tuple[Tuple[str, str], ...], Tuple[str, str]] = {}
        if subtasks is None:
            subtasks = [e['subtask'] for e in read_manifest(data_dir)['files'].values() if 'subtask' in e]
        for subtask in subtasks:
            # Chat rows carry the block columns too: one load gives both renderings.
            rows = load_rows(subtask, data_dir, history_format='chat' if subtask in CHAT_SUBTASKS else 'block')
            self.index[subtask] = [(r['user_prompt'], r['reference']) for r in rows]
            self._tfidf[subtask] = _Index([r['user_prompt'] for r in rows])
            for r in rows:
                if 'messages' in r:
                    self._chat[messages_key(json.loads(r['messages']))] = (subtask, r['user_prompt'])

    @staticmethod
    def subtask_of(system_prompt: str) -> str:
        """Identifies the subtask from the instruction inside a SYSTEM prompt.

        Raises:
            ValueError: if no (or more than one) subtask instruction is found.
        """
        # Block and chat instructions alike (the chat wording of a few subtasks differs).
        found = [t for t in INSTRUCTIONS_ZH
                 if any(text in system_prompt for text in (INSTRUCTIONS_ZH[t], INSTRUCTIONS_EN[t],
                                                           CHAT_INSTRUCTIONS_ZH.get(t, INSTRUCTIONS_ZH[t]),
                                                           CHAT_INSTRUCTIONS_EN.get(t, INSTRUCTIONS_EN[t])))]
        if len(found) != 1:
            raise ValueError(f'cannot tell the H2HTalk subtask from the system prompt (matches: {found}); '
                             'the retrieval baseline only answers H2HTalk prompts')
        return found[0]

    def retrieve(self, system_prompt: str, user_prompt: str) -> Tuple[str, str]:
        """Returns ``(user_prompt, reference)`` of the most similar other scenario of the same subtask.

        A scenario with the very same prompt is never returned (leave-one-out). Equal scores, and a prompt that
        shares no weighted n-gram with any other, resolve to the first candidate in file order (deterministic).

        Raises:
            ValueError: the subtask cannot be told, or it has no other scenario to retrieve from.
        """
        return self._retrieve(self.subtask_of(system_prompt), user_prompt)

    def _retrieve(self, subtask: str, user_prompt: str) -> Tuple[str, str]:
        entries = self.index.get(subtask, [])
        candidates = [i for i, (prompt, _) in enumerate(entries) if prompt != user_prompt]
        if not candidates:
            raise ValueError(f'no other scenario of subtask {subtask!r} to retrieve from')
        scores = self._tfidf[subtask].scores(user_prompt)
        # max() keeps the first of equal scores; candidates are in file order.
        best = max(candidates, key=lambda i: scores.get(i, 0.0))
        return entries[best]

    def respond(self, system_prompt: str, user_prompt: str) -> str:
        """Returns the reference of the most similar other scenario of the same subtask."""
        return self.retrieve(system_prompt, user_prompt)[1]

    def respond_messages(self, messages: Sequence[Mapping[str, Any]]) -> str:
        """The reply to a prompt given as role items (``{'role': 'SYSTEM' | 'HUMAN' | 'BOT', 'prompt'}``), either
        rendering.

        A chat rendering of a scenario in the data is answered as that scenario's block rendering (the same reply
        in both modes). Any other prompt: the subtask from its SYSTEM text, the similarity over its other turns
        joined by newlines.

        Raises:
            ValueError: the subtask cannot be told, or it has no other scenario to retrieve from.
        """
        found = self._chat.get(messages_key(messages))
        if found is not None:
            return self._retrieve(*found)[1]
        system = '\n'.join(str(m.get('prompt', '')) for m in messages if m['role'] == 'SYSTEM')
        rest = '\n'.join(str(m.get('prompt', '')) for m in messages if m['role'] != 'SYSTEM')
        return self.respond(system, rest)
