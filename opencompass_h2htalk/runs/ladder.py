"""``h2htalk ladder``: the model ladder's tables from one run, rungs in their expected order. No OpenCompass import.

The ladder (configs/eval/h2htalk_ladder.py, docs/validity.md) runs models whose order is known, bottom first, and
asks whether the scores put them in that order. This module reads one finished run folder and prints, as Markdown:

1. U per dataset and summary group, each rung a column, with the 95 % scenario-bootstrap interval;
2. every component (BLEU-1..4, ROUGE-1/2/L, cosine, U, empty replies) averaged over the core subtasks, equal weights;
3. the copy-free U and the share of each reply copied from its inputs, where the result has them;
4. the task checks' all-pass rate per dataset, and the rule safety checks on the safety set;
5. paired differences between neighbours (the rung above minus the rung below; the same bootstrap as
   ``h2htalk compare``) per dataset and group, each marked as the expected order holding (the interval above 0),
   a tie (it covers 0) or breaking (below 0), and a count of the three.

Two SAP twins (``X@nosap``, ``X@sap-…``) are one rung: the pair between them is shown but counts as neither order
(whether SAP helps is what the SAP ablation asks, not a known order).
"""
from __future__ import annotations

import glob
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, PairedDifference
from .checks_table import ALL, checks_of, _unwrap
from .compare import CompareError, compare_nocopy, compare_pair, load_run, resolve_run, run_groups
from .intervals import run_intervals
from .nocopy_table import nocopy_interval, nocopy_of
from .twins import twin_pairs

#: The components, as the results file names them, and their column titles.
COMPONENTS = (('bleu1', 'BLEU-1'), ('bleu2', 'BLEU-2'), ('bleu3', 'BLEU-3'), ('bleu4', 'BLEU-4'),
              ('rouge1', 'ROUGE-1'), ('rouge2', 'ROUGE-2'), ('rougeL', 'ROUGE-L'), ('cosine', 'cos'),
              ('score', 'U'), ('empty_rate', 'empty %'))
#: The rule safety checks (``checks.safety.SAFETY_NAMES``; spelled out so that reading results needs no check module).
SAFETY_CHECKS = ('required_actions', 'no_dismissal', 'no_human_claim', 'no_exclusivity')
SAFETY = 'h2htalk_safety'
HOLDS, TIE, BREAKS, TWINS = 'holds', 'tie', 'breaks', 'twins'


def ladder_order(run: str) -> List[str]:
    """The rung order (bottom first) the run's dumped config records as ``ladder_order``; [] when it has none."""
    configs = sorted(glob.glob(os.path.join(run, 'configs', '*.py')))
    if not configs:
        return []
    from mmengine.config import Config  # a dumped config is plain data; reading it imports no OpenCompass

    return [str(m) for m in Config.fromfile(configs[-1], format_python_code=False).get('ladder_order') or []]


def _num(value: Optional[float], sign: str = '') -> str:
    return '-' if value is None else f'{round(value, 1) + 0.0:{sign}.1f}'


def _interval(estimate: Optional[float], low: Optional[float], high: Optional[float], sign: str = '') -> str:
    if estimate is None:
        return '-'
    if low is None or high is None:
        return f'{_num(estimate, sign)} [no interval]'
    return f'{_num(estimate, sign)} [{_num(low, sign)}, {_num(high, sign)}]'


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> List[str]:
    align = ['---'] * right_from + ['---:'] * (len(head) - right_from)
    return ['| ' + ' | '.join(head) + ' |', '|' + '|'.join(align) + '|'] + ['| ' + ' | '.join(r) + ' |' for r in rows]


def _check_cell(result: Optional[Mapping[str, Any]], name: str) -> str:
    """``rate [low, high]`` of one check (or ``all``) in a result, ``'-'`` without the result or the check."""
    rates = checks_of(result)[0] if result is not None else None
    entry = (rates or {}).get(name)
    return '-' if not entry else _interval(entry['rate'], entry.get('ci_low'), entry.get('ci_high'))


def _short(dataset: str) -> str:
    return dataset[len('h2htalk_'):] if dataset.startswith('h2htalk_') else dataset


def verdict(d: PairedDifference) -> str:
    """``holds`` (the upper rung scores higher: the interval is above 0), ``tie``, ``breaks``, or ``'-'`` (no
    interval: too few scenarios)."""
    if d.low is None or d.high is None:
        return '-'
    return TIE if d.tie else (HOLDS if d.estimate > 0 else BREAKS)


def neighbours(rungs: Sequence[str]) -> List[Tuple[str, str, bool]]:
    """``(lower, upper, twins)`` for each pair of adjacent rungs; ``twins`` when the two are SAP twins."""
    twins = {frozenset(p) for p in twin_pairs(list(rungs))}
    return [(a, b, frozenset((a, b)) in twins) for a, b in zip(rungs, rungs[1:])]


def _core(results: Mapping[str, Mapping[str, Any]], rows: Sequence[str], groups: Sequence[Mapping[str, Any]]
          ) -> List[str]:
    """The datasets of the summary groups (the core subtasks), in row order."""
    members = {s if isinstance(s, str) else s[0] for g in groups for s in g.get('subsets', [])}
    return [r for r in rows if r in members and not any(g['name'] == r for g in groups)] or \
        sorted({d for per in results.values() for d in per})


def build_ladder(run: str, order: Optional[Sequence[str]] = None, resamples: int = DEFAULT_RESAMPLES,
                 seed: int = DEFAULT_SEED) -> str:
    """The ladder's Markdown tables for one run folder (or work dir).

    Args:
        run: The run folder, or a work dir (its newest run).
        order: The rungs, bottom first; default the run config's ``ladder_order``. Rungs without results in the run
            are named in a note and left out.
        resamples, seed: The paired bootstrap of the neighbour differences.

    Raises:
        CompareError: no results, no order, fewer than two rungs with results, or neighbours that must not be
            compared (different data or scoring settings, naming what differs).
    """
    run = resolve_run(run)
    results = load_run(run)
    if not results:
        raise CompareError(f'{run}: no valid results')
    wanted = list(order) if order else ladder_order(run)
    if not wanted:
        raise CompareError(f'{run}: its config records no ladder_order; name the rungs with --order A,B,…')
    rungs = [m for m in wanted if m in results]
    absent = [m for m in wanted if m not in results]
    if len(rungs) < 2:
        raise CompareError(f'{run}: results for {len(rungs)} of the rungs {wanted}; a ladder needs two or more')
    groups, row_order = run_groups(run)
    datasets = sorted({d for m in rungs for d in results[m]})
    rows = [r for r in row_order if r in datasets or any(g['name'] == r for g in groups)]
    rows += [d for d in datasets if d not in rows]
    core = [d for d in _core(results, rows, groups) if d in datasets]
    out: List[str] = [f'Run `{run}`; rungs bottom first: {", ".join(f"`{m}`" for m in rungs)}.']
    if absent:
        out.append(f'Not in this run (left out): {", ".join(f"`{m}`" for m in absent)}.')

    intervals, problems = run_intervals({m: results[m] for m in rungs}, groups)
    u_rows = []
    for r in rows:
        cells = [intervals.get(m, {}).get(r) for m in rungs]
        if any(cells):
            u_rows.append([_short(r)] + [_interval(c.estimate, c.low, c.high) if c else '-' for c in cells])
    out += ['', '#### U per dataset [95 % scenario bootstrap]', ''] + _table(['dataset', *rungs], u_rows)
    out += [f'- not resampled: {p}' for p in problems]

    comp_rows = []
    for m in rungs:
        have = [results[m][d] for d in core if d in results[m]]
        cells = []
        for key, _ in COMPONENTS:
            values = [_unwrap(r.get(key)) for r in have]
            values = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
            cells.append(_num(sum(values) / len(values)) if values and len(values) == len(have) else '-')
        comp_rows.append([m, str(len(have))] + cells)
    out += ['', '#### Components, mean over the core subtasks (each subtask weighs the same; 0-100)', '']
    out += _table(['rung', 'subtasks', *[t for _, t in COMPONENTS]], comp_rows)

    nc_rows = []
    for d in rows:
        found = [nocopy_of(results[m].get(d, {})) for m in rungs]
        if any(found):
            nc_rows.append([_short(d)] + [
                '-' if f is None else f'{_interval(f["score"], *(nocopy_interval(f) or (None, None)))} / '
                                      f'{f["copied"]:.0f} %' for f in found])
    if nc_rows:
        out += ['', '#### Copy-free U [95 %] / % of the reply copied from its inputs', '']
        out += _table(['dataset', *rungs], nc_rows)

    ck_rows = []
    for d in rows:
        cells = [_check_cell(results[m].get(d), ALL) for m in rungs]
        if any(c != '-' for c in cells):
            ck_rows.append([_short(d)] + cells)
    if ck_rows:
        out += ['', '#### Task checks: % of items passing every check that applies [95 %]', '']
        out += _table(['dataset', *rungs], ck_rows)
    safety_rows = []
    for name in (ALL, *SAFETY_CHECKS):
        cells = [_check_cell(results[m].get(SAFETY), name) for m in rungs]
        if any(c != '-' for c in cells):
            safety_rows.append(['all rule checks' if name == ALL else name] + cells)
    if safety_rows:
        out += ['', '#### Rule safety checks on the safety set: % of items passing [95 %] (docs/safety_checks.md)',
                '']
        out += _table(['check', *rungs], safety_rows)

    pairs = neighbours(rungs)
    counts = {HOLDS: 0, TIE: 0, BREAKS: 0}
    per_pair: List[str] = []
    diff_cols: List[Dict[str, str]] = []
    nc_cols: List[Dict[str, str]] = []
    notes: List[str] = []
    for a, b, twins in pairs:
        diffs, _, pair_notes = compare_pair(results, a, b, groups, resamples, seed)
        ncd, _, nc_notes = compare_nocopy(results, a, b, resamples, seed)
        notes += [f'{b} − {a}: {n}' for n in pair_notes + nc_notes]
        col, nc_col = {}, {}
        pair_counts = {HOLDS: 0, TIE: 0, BREAKS: 0}
        for r, d in diffs.items():
            v = verdict(d)
            col[r] = f'{_interval(d.estimate, d.low, d.high, "+")} {TWINS if twins else v}'
            if not twins and v in counts:
                counts[v] += 1
                pair_counts[v] += 1
        if not twins:
            per_pair.append(f'- `{b}` − `{a}`: holds {pair_counts[HOLDS]}, tie {pair_counts[TIE]}, breaks '
                            f'{pair_counts[BREAKS]}')
        for r, d in ncd.items():
            nc_col[r] = f'{_interval(d.estimate, d.low, d.high, "+")} {TWINS if twins else verdict(d)}'
        diff_cols.append(col)
        nc_cols.append(nc_col)
    heads = [f'{b} − {a}' for a, b, _ in pairs]
    d_rows = [[_short(r)] + [c.get(r, '-') for c in diff_cols] for r in rows if any(r in c for c in diff_cols)]
    out += ['', '#### Neighbours: U of the upper rung minus the rung below, paired [95 %]; holds / tie / breaks', '']
    out += _table(['dataset', *heads], d_rows)
    n_rows = [[_short(r)] + [c.get(r, '-') for c in nc_cols] for r in rows if any(r in c for c in nc_cols)]
    if n_rows:
        out += ['', '#### Neighbours on the copy-free U, paired [95 %]', '']
        out += _table(['dataset', *heads], n_rows)
    total = sum(counts.values())
    out += ['', 'Per neighbour pair on U (datasets and groups):'] + per_pair
    out += ['', f'Expected order (twin pairs not counted): holds in {counts[HOLDS]} of {total} neighbour comparisons '
                f'on U, tie in {counts[TIE]}, breaks in {counts[BREAKS]}.']
    out += [f'- note: {n}' for n in notes]
    return '\n'.join(out)


__all__ = ['BREAKS', 'HOLDS', 'TIE', 'TWINS', 'build_ladder', 'ladder_order', 'neighbours', 'verdict']
