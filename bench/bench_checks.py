"""Task checks on the bundled data: do they separate the references from degenerate replies, and how fast are they?

    python bench/bench_checks.py [--data DIR] [--subtasks a,b] [--items N] [--no-retrieval]

For every subtask, four responders answer every scenario and the task checks score them:

* ``reference``: the scenario's own reference;
* ``parrot``: the user's latest message (or comment) verbatim; where there is none, the last labelled block of
  the HUMAN turn (the history, the day overview, the time slot, the memories);
* ``constant``: one fixed caring sentence, 「我在呢，听你这么说我也很心疼。慢慢来，有什么想说的都可以跟我说。」;
* ``retrieval``: the CPU retrieval baseline (the reference of the most similar other scenario).

``--items N`` checks the first N scenarios of each subtask only (the sample of a run with ``H2HTALK_ITEMS=N``).
Prints, per subtask, the share of replies passing every check and the share of all checks passed, for each
responder, and the margin between the references and the best degenerate responder; then the checks' speed.
Measured numbers are in docs/checks.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Callable, Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from opencompass_h2htalk.checks import SUBTASKS as CHECKED, run_checks  # noqa: E402
from opencompass_h2htalk.checks.references import SubtaskChecks, context_for, overall  # noqa: E402
from opencompass_h2htalk.data.loader import _load  # noqa: E402
from opencompass_h2htalk.data.prompts import system_prompt, user_prompt  # noqa: E402
from opencompass_h2htalk.data.schema import SUBTASKS, Scenario  # noqa: E402
from opencompass_h2htalk.metrics.validity import GENERIC_CARING  # noqa: E402

CONSTANT = GENERIC_CARING  # the same fixed caring reply as the metric-validity card


def parrot(s: Scenario) -> str:
    """The user's latest words verbatim, else the HUMAN turn's last labelled block (without its label)."""
    for key in ('user_message', 'user_feedback'):
        if s.inputs.get(key):
            return str(s.inputs[key])
    blocks = user_prompt(s.subtask, s.inputs, s.language).split('\n\n')[:-1]  # the last block is the closing
    return blocks[-1].split('\n', 1)[1] if blocks else ''


def rates(replies: List[str], scenarios: List[Scenario], personas) -> Tuple[float, float]:
    """(% replies passing every check, % of all applicable checks passed), counted as ``h2htalk checks`` counts."""
    checked = SubtaskChecks(scenarios[0].subtask, [(s.id, run_checks(reply, context_for(s, personas[s.persona])))
                                                   for reply, s in zip(replies, scenarios)])
    every, n = checked.rates()['all']
    passed, total = overall([checked])
    return 100.0 * every / n, 100.0 * passed / total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--data', default=None, help='data directory (default: the bundled H2HTalk-Open data)')
    parser.add_argument('--subtasks', default='', help='comma-separated subset (default: every subtask)')
    parser.add_argument('--items', type=int, default=None, help='the first N scenarios of each subtask only')
    parser.add_argument('--no-retrieval', action='store_true', help='skip the retrieval baseline (slow to index)')
    args = parser.parse_args()
    subtasks = [s for s in (args.subtasks.split(',') if args.subtasks else SUBTASKS) if s in CHECKED]
    responders: Dict[str, Callable[[Scenario], str]] = {'reference': lambda s: s.reference, 'parrot': parrot,
                                                        'constant': lambda s: CONSTANT}
    personas: dict = {}
    if not args.no_retrieval:
        from opencompass_h2htalk.baselines.retrieval import RetrievalBaseline
        baseline = RetrievalBaseline(args.data, subtasks)
        responders['retrieval'] = lambda s: baseline.respond(
            system_prompt(personas[s.persona], s.subtask, s.language), user_prompt(s.subtask, s.inputs, s.language))
    names = list(responders)
    print('| subtask | n | ' + ' | '.join(f'{n}: every / all %' for n in names)
          + ' | margin (every, vs parrot/constant) |')
    print('|---|---|' + '---|' * (len(names) + 1))
    checked_items = 0
    seconds = 0.0
    for subtask in subtasks:
        scenarios, loaded = _load(subtask, args.data, True)
        scenarios = scenarios[:args.items] if args.items else scenarios
        personas.update(loaded)
        cells, every = [], {}
        for name in names:
            replies = [responders[name](s) for s in scenarios]
            start = time.perf_counter()
            e, a = rates(replies, scenarios, personas)
            if name == 'reference':
                seconds += time.perf_counter() - start
                checked_items += len(scenarios)
            every[name] = e
            cells.append(f'{e:.1f} / {a:.1f}')
        margin = every['reference'] - max(every['parrot'], every['constant'])
        print(f'| {subtask} | {len(scenarios)} | ' + ' | '.join(cells) + f' | {margin:+.1f} |')
    print(f'\nspeed: {checked_items} references checked in {seconds:.2f} s '
          f'({checked_items / seconds:.0f} replies/s, one process)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
