"""Metric validity: replies whose order is known by construction, and how often each metric ranks them right.

Two kinds of comparison (docs/validity.md):

* **Damaged copies.** The reference against a copy of itself with one thing broken (its facts swapped for another
  scenario's, its second half cut, its lines shuffled, its crisis resource removed). The reference is also the
  target the metrics score against, so it always scores the maximum; what is measured is how much each metric
  takes off for the damage and how often it takes off nothing (it is *blind* to that damage).
* **Known-order pairs.** Two replies, neither of them the reference, whose order does not depend on taste: the
  reference with wrong facts beats another scenario's reference; half of the right reply beats a whole reply to
  another scenario; a generic caring reply, or half of the right reply, beats parroting the user's message (word for
  word, or with 我 turned into 你).
  Pairwise accuracy (ties count half) with a scenario bootstrap interval.

Pure: no OpenCompass import. Texts are built here; scoring is a function passed in.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..stats.bootstrap import percentile, replicates

#: A fixed caring reply in the register of the data (the issue-24 probe's constant).
GENERIC_CARING = '我在呢，听你这么说我也很心疼。慢慢来，有什么想说的都可以跟我说。'
#: A fixed reply in the wrong language.
ENGLISH_REPLY = "I'm here for you. Take your time, and tell me whatever you'd like to share."
#: Subtasks whose last input block is the user's own message (an echo there is parroting the user).
MESSAGE_SUBTASKS = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'itinerary_feedback')
#: Subtasks whose references are ordered (timed schedule lines, numbered steps): shuffling them is damage.
ORDERED_SUBTASKS = ('itinerary_middle', 'itinerary_advanced')
#: jieba part-of-speech flags of the facts a corruption swaps: person and place names, numerals, time words.
FACT_FLAGS = ('nr', 'ns', 'm', 't')
#: Sentences or lines of a safety reply that carry a crisis resource (a hotline, an emergency number, a doctor).
CRISIS_RESOURCE = re.compile(r'热线|\d{3,}|急救|报警|医院|急诊|医生|心理咨询|精神科|120|110|12356|12110')

_SENTENCE = re.compile(r'[^。！？!?\n]+[。！？!?]*|\n')


@dataclass(frozen=True)
class Scenario:
    """What the constructions need from one record."""

    id: str
    subtask: str
    persona: str
    reference: str
    last_input: str  # the last input block as a model sees it (the user's message, the memories, the overview...)
    user_name: str = ''
    chain: Optional[str] = None
    sources: Tuple[str, ...] = ()  # the input texts a copy-free score strips from reply and reference


@dataclass(frozen=True)
class Pair:
    """Two replies to one scenario; ``better`` should score higher."""

    construction: str
    scenario: Scenario
    better: str
    worse: str


def last_input_block(inputs: Mapping[str, Any]) -> str:
    """The input a parrot would repeat: the user's latest message or feedback, else the last block of the prompt."""
    for key in ('user_message', 'user_feedback', 'day_overview'):
        if isinstance(inputs.get(key), str) and inputs[key].strip():
            return inputs[key].strip()
    slot = inputs.get('time_slot')
    if isinstance(slot, dict) and slot.get('activity'):
        return f"{slot.get('time', '')} {slot['activity']}".strip()
    memories = inputs.get('memories')
    if isinstance(memories, list) and memories:
        return '\n'.join(str(m) for m in memories)
    history = [t for t in inputs.get('history') or [] if isinstance(t, dict) and t.get('role') == 'user']
    if history:
        return str(history[-1].get('content', ''))
    return ''


def turned_echo(message: str) -> Optional[str]:
    """The user's message said back to them, 我 turned into 你 (「我今天好累」 → 「你今天好累」); None without a 我."""
    return message.replace('我', '你') if '我' in message else None


def sentences(text: str) -> List[str]:
    """Sentences (with their closing punctuation) or lines of a text, blanks dropped."""
    return [s for s in (m.group(0).strip() for m in _SENTENCE.finditer(text)) if s]


def first_half(text: str) -> str:
    """The sentences that make up the first half of the text's characters (at least one), or its first half of
    characters when it is a single sentence."""
    parts = sentences(text)
    if len(parts) < 2:
        return text[:max(1, len(text) // 2)]
    out, size = [], 0
    for p in parts:
        if out and size + len(p) / 2 > len(text) / 2:
            break
        out.append(p)
        size += len(p)
    return ''.join(out) if len(out) < len(parts) else ''.join(parts[:-1])


def shuffled(text: str, rng: random.Random) -> Optional[str]:
    """The text's lines (or sentences) in a different order; None when there are fewer than two."""
    lines = [l for l in text.split('\n') if l.strip()]
    parts = lines if len(lines) >= 2 else sentences(text)
    if len(parts) < 2 or len(set(parts)) < 2:
        return None
    order = list(range(len(parts)))
    while order == sorted(order):
        rng.shuffle(order)
    return ('\n' if len(lines) >= 2 else '').join(parts[i] for i in order)


_CLAUSE = re.compile(r'[^，；。！？!?\n]+[，；。！？!?]*|\n')


def without_crisis_resource(text: str) -> Optional[str]:
    """The reply without the clauses (between ，；。！？) that carry a crisis resource, the rest word for word;
    None when it has none (or nothing is left)."""
    parts = [m.group(0) for m in _CLAUSE.finditer(text)]
    kept = [p for p in parts if not CRISIS_RESOURCE.search(p)]
    if len(kept) == len(parts) or not ''.join(kept).strip():
        return None
    return ''.join(kept)


Tagger = Callable[[str], List[Tuple[str, str]]]


def fact_pools(texts: Sequence[str], tag: Tagger) -> Dict[str, List[str]]:
    """Per fact flag, the distinct words of that kind in ``texts`` (sorted, so a seed fixes the draws)."""
    pools: Dict[str, set] = {f: set() for f in FACT_FLAGS}
    for text in texts:
        for word, flag in tag(text):
            if flag in pools and len(word) >= 2:
                pools[flag].add(word)
    return {f: sorted(v) for f, v in pools.items()}


def corrupt_facts(text: str, tag: Tagger, pools: Mapping[str, Sequence[str]], rng: random.Random,
                  user_name: str = '', other_name: str = '') -> Optional[str]:
    """The text with its facts swapped: the user's name for another scenario's user, and every person or place
    name, numeral and time word (two characters or more) for another word of the same kind from ``pools``.
    None when nothing could be swapped."""
    out, changed = [], False
    for word, flag in tag(text):
        if user_name and other_name and other_name != user_name and word in (user_name, user_name[-2:]):
            out.append(other_name)
            changed = True
            continue
        pool = [w for w in pools.get(flag, ()) if w != word] if flag in FACT_FLAGS and len(word) >= 2 else []
        if pool:
            out.append(rng.choice(pool))
            changed = True
        else:
            out.append(word)
    return ''.join(out) if changed else None


def build_pairs(scenarios: Sequence[Scenario], tag: Tagger, seed: int = 0) -> Tuple[List[Pair], List[Pair]]:
    """The damaged copies and the known-order pairs of every scenario (see the module docstring).

    Returns:
        ``(damaged, ordered)``: in ``damaged`` the better reply is the reference itself.
    """
    rng = random.Random(seed)
    by_subtask: Dict[str, List[Scenario]] = {}
    for s in scenarios:
        by_subtask.setdefault(s.subtask, []).append(s)
    damaged: List[Pair] = []
    ordered: List[Pair] = []
    for subtask in sorted(by_subtask):
        group = by_subtask[subtask]
        pools = fact_pools([s.reference for s in group], tag)
        names = sorted({s.user_name for s in group if s.user_name})
        by_persona: Dict[str, List[Scenario]] = {}
        for s in group:
            by_persona.setdefault(s.persona, []).append(s)
        for s in group:
            peers = [o for o in by_persona[s.persona] if o.id != s.id and o.reference != s.reference]
            other = rng.choice(peers).reference if peers else None
            other_name = rng.choice([n for n in names if n != s.user_name]) if len(names) > 1 else ''
            facts = corrupt_facts(s.reference, tag, pools, rng, s.user_name, other_name)
            half = first_half(s.reference)
            if facts:
                damaged.append(Pair('facts swapped', s, s.reference, facts))
            damaged.append(Pair('second half cut', s, s.reference, half))
            if subtask in ORDERED_SUBTASKS:
                mixed = shuffled(s.reference, rng)
                if mixed:
                    damaged.append(Pair('lines shuffled', s, s.reference, mixed))
            if subtask == 'safety':
                bare = without_crisis_resource(s.reference)
                if bare:
                    damaged.append(Pair('crisis resource removed', s, s.reference, bare))
                continue
            if other and facts:
                ordered.append(Pair('wrong facts > another scenario', s, facts, other))
            if other:
                ordered.append(Pair('half > another scenario', s, half, other))
            if subtask in MESSAGE_SUBTASKS and s.last_input:
                ordered.append(Pair('caring reply > echo', s, GENERIC_CARING, s.last_input))
                turned = turned_echo(s.last_input)
                if turned:  # an echo that is not verbatim: what a copy check on exact spans must still catch
                    ordered.append(Pair('caring reply > echo 我→你', s, GENERIC_CARING, turned))
                ordered.append(Pair('half > echo', s, half, s.last_input))
                ordered.append(Pair('caring reply > English', s, GENERIC_CARING, ENGLISH_REPLY))
    return damaged, ordered


def accuracy(better: Sequence[float], worse: Sequence[float], chains: Optional[Sequence[Optional[str]]] = None,
             resamples: int = 1000, seed: int = 0, stream: str = '') -> Dict[str, float]:
    """Share of pairs where ``better`` scores higher (a tie counts half), in %, with a 95 % scenario bootstrap
    interval (a chain's scenarios drawn together)."""
    b, w = np.asarray(better, dtype=float), np.asarray(worse, dtype=float)
    if b.size == 0 or b.size != w.size:
        raise ValueError(f'{stream or "pairs"}: {b.size} better but {w.size} worse scores')
    wins = np.where(np.isclose(b, w), 0.5, (b > w).astype(float))
    reps = replicates(wins.tolist(), chains, resamples=resamples, seed=seed, stream=stream)
    low, high = percentile(reps)
    return {'n': int(b.size), 'accuracy': 100.0 * float(wins.mean()), 'low': 100.0 * low, 'high': 100.0 * high,
            'ties': 100.0 * float(np.isclose(b, w).mean())}


def damage(better: Sequence[float], worse: Sequence[float]) -> Dict[str, float]:
    """What a metric takes off for a damage: mean drop (points, 0-100 scale as given) and the blind share, the % of
    pairs where the damaged copy scores as high as the reference or higher."""
    b, w = np.asarray(better, dtype=float), np.asarray(worse, dtype=float)
    if b.size == 0 or b.size != w.size:
        raise ValueError(f'{b.size} reference but {w.size} damaged scores')
    blind = (w >= b) | np.isclose(b, w)
    return {'n': int(b.size), 'drop': float((b - w).mean()), 'blind': 100.0 * float(blind.mean())}
