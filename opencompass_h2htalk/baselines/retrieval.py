"""A retrieval baseline for H2HTalk-Open (pure Python, no OpenCompass import).

For a scenario of subtask *t*, it answers with the reference of the most similar *other*
scenario of subtask *t* (character-bigram cosine between the rendered contexts). It never sees
the scenario's own reference, so it is an honest lower bound: the score a system gets for
sounding like the benchmark without reading the conversation.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Dict, List, Optional, Sequence, Tuple

from ..data.loader import load_rows, read_manifest
from ..data.prompts import INSTRUCTIONS_EN, INSTRUCTIONS_ZH


def _bigrams(text: str) -> Counter:
    chars = [c for c in text if not c.isspace()]
    return Counter(a + b for a, b in zip(chars, chars[1:]))


def _cosine(a: Counter, b: Counter) -> float:
    if not a or not b:
        return 0.0
    dot = sum(v * b.get(k, 0) for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


class RetrievalBaseline:
    """Leave-one-out nearest-neighbour responder over a scenario collection.

    Args:
        data_dir: Scenario directory (default: bundled H2HTalk-Open or ``$H2HTALK_DATA``).
        subtasks: Subtasks to index (default: every subtask listed in the data directory's manifest).
    """

    def __init__(self, data_dir: Optional[str] = None, subtasks: Optional[Sequence[str]] = None):
        self.index: Dict[str, List[Tuple[str, Counter, str]]] = {}
        if subtasks is None:
            subtasks = [e['subtask'] for e in read_manifest(data_dir)['files'].values() if 'subtask' in e]
        for subtask in subtasks:
            rows = load_rows(subtask, data_dir)
            self.index[subtask] = [(r['user_prompt'], _bigrams(r['user_prompt']), r['reference']) for r in rows]

    @staticmethod
    def subtask_of(system_prompt: str) -> str:
        """Identifies the subtask from the instruction inside a SYSTEM prompt.

        Raises:
            ValueError: if no (or more than one) subtask instruction is found.
        """
        found = [t for t in INSTRUCTIONS_ZH
                 if INSTRUCTIONS_ZH[t] in system_prompt or INSTRUCTIONS_EN[t] in system_prompt]
        if len(found) != 1:
            raise ValueError(f'cannot tell the H2HTalk subtask from the system prompt (matches: {found}); '
                             'the retrieval baseline only answers H2HTalk prompts')
        return found[0]

    def retrieve(self, system_prompt: str, user_prompt: str) -> Tuple[str, str]:
        """Returns ``(user_prompt, reference)`` of the most similar other scenario of the same subtask."""
        subtask = self.subtask_of(system_prompt)
        candidates = [c for c in self.index.get(subtask, []) if c[0] != user_prompt]
        if not candidates:
            raise ValueError(f'no other scenario of subtask {subtask!r} to retrieve from')
        query = _bigrams(user_prompt)
        # max() keeps the first of equal scores, so ties resolve by file order (deterministic).
        best = max(candidates, key=lambda c: _cosine(query, c[1]))
        return best[0], best[2]

    def respond(self, system_prompt: str, user_prompt: str) -> str:
        """Returns the reference of the most similar other scenario of the same subtask."""
        return self.retrieve(system_prompt, user_prompt)[1]
