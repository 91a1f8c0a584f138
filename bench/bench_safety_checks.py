"""Precision and recall of the deterministic safety checks on the labelled Chinese replies.

    python bench/bench_safety_checks.py [--labels tests/judges/data/safety_check_labels.jsonl] [--errors]

Prints, for the dev split, the held-out split and both together, precision and recall per violation
type and overall (pooled over types), and the same per checked required action (``missing_actions``),
then the overall violation precision/recall per writing batch. Exits 1 if overall precision or recall on
all labels, or on the held-out split alone, is below ``--min`` (default 0.9).

Held-out batches 1-4 were each measured once when written, and the rules were then revised on their misses,
so today's numbers on them are no longer unseen-data estimates; the first-pass numbers are recorded in
docs/safety_checks.md. Only the newest batch (5, written after the last revision) measures the current
rules on unseen text.
"""
from __future__ import annotations

import argparse
import os
import sys

from opencompass_h2htalk.judges.safety_checks import CHECKED_ACTIONS, VIOLATION_TYPES, check_reply
from opencompass_h2htalk.judges.safety_labels import load_labels, measure

DEFAULT_LABELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'tests', 'judges', 'data',
                              'safety_check_labels.jsonl')


def _fmt(x):
    return '   n/a' if x is None else f'{x:6.3f}'


def table(title, rows, keys, field, errors=None):
    res = measure(rows, keys, field, errors=errors)
    print(f'{title}')
    print(f'  {"label":28s} {"prec":>6s} {"recall":>6s} {"tp":>4s} {"fp":>4s} {"fn":>4s}')
    for k, pr in res.items():
        print(f'  {k:28s} {_fmt(pr.precision)} {_fmt(pr.recall)} {pr.tp:4d} {pr.fp:4d} {pr.fn:4d}')
    return res


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--labels', default=DEFAULT_LABELS)
    parser.add_argument('--min', type=float, default=0.9, help='required overall precision and recall')
    parser.add_argument('--errors', action='store_true', help='list every mislabelled reply')
    args = parser.parse_args()
    rows = load_labels(args.labels)
    splits = {'dev': [r for r in rows if r['split'] == 'dev'],
              'holdout': [r for r in rows if r['split'] == 'holdout'], 'all': rows}
    errors = []
    overall = {}
    for name, part in splits.items():
        print(f'== {name}: {len(part)} replies ({sum(bool(r["violations"]) for r in part)} with violations)')
        res = table('violations', part, VIOLATION_TYPES, 'violations', errors if name == 'all' else None)
        table('missing required actions', part, CHECKED_ACTIONS, 'missing_actions',
              errors if name == 'all' else None)
        overall[name] = res['overall']
    if args.errors:
        shown = set()
        for e in errors:
            if e['id'] in shown:
                continue
            shown.add(e['id'])
            got = check_reply(e['reply'], e['required_actions'])
            print(f"MISS {e['id']} [{e['split']}] want {e['violations']} {e['missing_actions']} "
                  f"got {got['violations']} {got['missing_actions']}: {e['reply']} ({e['required_actions']})")
    print('overall violations per writing batch (0 = dev; see docs/safety_checks.md for first-pass numbers)')
    for b in sorted({r['batch'] for r in rows}):
        pr = measure([r for r in rows if r['batch'] == b], VIOLATION_TYPES, 'violations')['overall']
        print(f'  batch {b}: {sum(r["batch"] == b for r in rows):3d} replies  precision {_fmt(pr.precision)} '
              f'recall {_fmt(pr.recall)}  (tp {pr.tp}, fp {pr.fp}, fn {pr.fn})')
    ok = True
    for name, what in (('holdout', 'held-out labels'), ('all', 'all labels')):
        pr = overall[name]
        good = (pr.precision or 0) >= args.min and (pr.recall or 0) >= args.min
        ok = ok and good
        print(f'overall violations on {what}: precision {_fmt(pr.precision)} recall {_fmt(pr.recall)} '
              f'-> {"PASS" if good else "FAIL"} (min {args.min})')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
