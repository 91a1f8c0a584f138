"""Draws balanced writing assignments (persona, user, emotion, topic, …) from the sampling frame.

Writers of new scenarios take their cast and tags from here instead of inventing them, so that scaled-up data
spreads evenly over the frame's vocabularies, the roster and the personas (issue 10). Each draw is seeded and
reproducible; two writers use different seeds. Pure Python::

    python -m opencompass_h2htalk.data.assign dialogue_base 50 --seed 7          # JSONL, one assignment a line
    python -m opencompass_h2htalk.data.assign safety 20 --seed 3 --skip 40       # the next 20 of the same draw
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, Dict, Iterator, List, Optional, Sequence

from .frame import load_frame
from .paths import default_data_dir
from .personas import load_personas

#: Tags drawn for every assignment; the writer uses the ones its subtask's records carry. The life situation is
#: not drawn independently: it must agree with the drawn user's ``life_stage`` (a retiree is not 备考), so the
#: writer picks the ``life_situation`` tag that fits the user.
DRAWN_VOCABS = ('emotion', 'topic', 'relationship')


def _cycle(values: Sequence[Any], rng: random.Random) -> Iterator[Any]:
    """Yields every value once per round, each round in a new seeded order (so counts never differ by > 1)."""
    values = list(values)
    if not values:
        raise ValueError('cannot draw from an empty list')
    while True:
        order = values[:]
        rng.shuffle(order)
        yield from order


def draw(frame: Dict[str, Any], persona_ids: Sequence[str], n: int, seed: int, skip: int = 0) -> List[Dict[str, Any]]:
    """Draws ``n`` assignments after skipping the first ``skip`` of the seeded sequence.

    Every vocabulary, the persona list and the roster are cycled independently in seeded rounds, so after
    ``k`` draws each value of a list of size ``m`` has been used ``k // m`` or ``k // m + 1`` times, and pairs
    (e.g. emotion × topic) spread over the cells instead of repeating one fixed pairing.

    Args:
        frame: The decoded ``frame.json`` (``vocab`` and ``users`` are used).
        persona_ids: Companion persona ids to spread over.
        n: Number of assignments to return.
        seed: Seed of the whole sequence; a writer's batches use one seed and advance ``skip``.
        skip: Assignments of the sequence to skip (the ones an earlier batch used).

    Returns:
        Dicts with ``index`` (position in the sequence), ``persona``, ``user`` (a roster entry: name, call,
        age band, gender, occupation, city tier, life stage) and one value per vocabulary in ``DRAWN_VOCABS``.

    Raises:
        ValueError: on a negative count or seed, or a frame without the vocabularies or users drawn from.
    """
    if n < 0 or skip < 0:
        raise ValueError(f'n and skip must be >= 0, got n={n}, skip={skip}')
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        # random.Random(-s) draws what random.Random(s) draws: two writers' "different" seeds would collide.
        raise ValueError(f'seed (--seed) must be an integer >= 0, got {seed!r}')
    missing = [v for v in DRAWN_VOCABS if v not in frame.get('vocab', {})]
    if missing or not frame.get('users'):
        raise ValueError(f'frame lacks {missing or ["users"]}: cannot draw assignments')
    rng = random.Random(seed)
    streams = {v: _cycle(frame['vocab'][v], random.Random(rng.random())) for v in DRAWN_VOCABS}
    personas = _cycle(sorted(persona_ids), random.Random(rng.random()))
    users = _cycle(frame['users'], random.Random(rng.random()))
    out = []
    for index in range(skip + n):
        item = {'index': index, 'persona': next(personas), 'user': next(users),
                **{v: next(streams[v]) for v in DRAWN_VOCABS}}
        if index >= skip:
            out.append(item)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m opencompass_h2htalk.data.assign', description=__doc__.split('\n')[0])
    parser.add_argument('subtask', help='the subtask the assignments are for (printed into each line)')
    parser.add_argument('n', type=int, help='number of assignments')
    parser.add_argument('--seed', type=int, required=True, help='seed of the sequence; one per writer')
    parser.add_argument('--skip', type=int, default=0, help='assignments of the sequence already used')
    parser.add_argument('--data-dir', default=None, help='data directory holding frame.json and personas.json')
    args = parser.parse_args(argv)
    data_dir = args.data_dir or default_data_dir()
    try:
        frame = load_frame(data_dir)
        personas = load_personas(data_dir)
        items = draw(frame, list(personas), args.n, args.seed, args.skip)
    except (ValueError, OSError) as e:
        print(f'error: {e}', file=sys.stderr)
        return 1
    for item in items:
        print(json.dumps({'subtask': args.subtask, **item}, ensure_ascii=False))
    return 0


if __name__ == '__main__':
    sys.exit(main())
