"""Score intervals for the summary, from the per-item ``details`` of results files. Pure (no OpenCompass import).

A results file's top-level ``ci_low``/``ci_high`` covers its own subtask. Dimension and overall intervals need every
subtask's items at once, so the summary reads each result's per-item unified scores (``details``) and recombines
them with the summary groups' weights (:func:`opencompass_h2htalk.stats.group_intervals`).
"""
from __future__ import annotations

import csv
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, MIN_UNITS, Interval, Subtask, group_intervals
from .run_check import meta_of


def _one(value: Any) -> Any:
    """A detail field as OpenCompass stores it: a list with one value per replica (a bare value is accepted)."""
    return value if isinstance(value, list) else [value]


def item_scores(result: Mapping[str, Any], name: str = '<result>',
                key: str = 'unified') -> Dict[str, Tuple[float, Optional[str]]]:
    """``{item id: (score, chain)}`` from a results file's ``details`` (replicas averaged).

    Raises:
        ValueError: naming ``name`` when there are no details, an item lacks an id or the score, or an id repeats.
    """
    details = result.get('details')
    if isinstance(details, dict):
        details = list(details.values())
    if not isinstance(details, list) or not details:
        raise ValueError(f'{name}: no per-item details; re-evaluate it with this plugin version')
    out: Dict[str, Tuple[float, Optional[str]]] = {}
    for k, detail in enumerate(details):
        ids, values = _one(detail.get('id')), _one(detail.get(key))
        if ids[0] is None or any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in values):
            raise ValueError(f'{name}: detail {k} has no id or no numeric {key!r}')
        item = str(ids[0])
        if item in out:
            raise ValueError(f'{name}: item {item!r} appears twice in details')
        chain = _one(detail.get('chain'))[0]
        out[item] = (sum(values) / len(values), chain or None)
    return out


def score_groups(groups: Sequence[Mapping[str, Any]]) -> List[Mapping[str, Any]]:
    """The summary groups built on ``score`` (the Table-3 BLEU-4/ROUGE-L groups are not)."""
    def on_score(subset: Any) -> bool:
        return isinstance(subset, str) or (len(subset) == 2 and subset[1] == 'score')

    return [g for g in groups if g.get('metric', 'score') == 'score' and all(on_score(s) for s in g['subsets'])]


def ci_settings(results: Sequence[Mapping[str, Any]]) -> Tuple[int, int]:
    """``(seed, resamples)`` the evaluators used (``meta.ci``), else the defaults; the same for every group."""
    for result in results:
        ci = meta_of(dict(result)).get('ci')
        if isinstance(ci, dict) and isinstance(ci.get('seed'), int) and isinstance(ci.get('resamples'), int):
            return ci['seed'], ci['resamples']
    return DEFAULT_SEED, DEFAULT_RESAMPLES


def run_intervals(results: Mapping[str, Mapping[str, Mapping[str, Any]]], groups: Sequence[Mapping[str, Any]],
                  ) -> Tuple[Dict[str, Dict[str, Interval]], List[str]]:
    """Intervals of every subtask and score group, per model.

    Args:
        results: ``{model: {dataset abbr: results file (with details)}}`` of the valid results.
        groups: The summary groups (only those on ``score`` are used).

    Returns:
        ``({model: {abbr: Interval}}, problems)``; a result whose details cannot be read is named in ``problems``
        and left out, so the groups it belongs to get no interval.
    """
    flat = [r for per_model in results.values() for r in per_model.values()]
    seed, resamples = ci_settings(flat)
    out: Dict[str, Dict[str, Interval]] = {}
    problems: List[str] = []
    for model, per_dataset in results.items():
        subtasks = {}
        for dataset, result in per_dataset.items():
            try:
                items = item_scores(result, f'{model} × {dataset}')
            except ValueError as e:
                problems.append(str(e))
                continue
            # The evaluator's random stream is the subtask name: the summary then repeats the file's interval.
            stream = meta_of(dict(result)).get('subtask')
            subtasks[dataset] = Subtask([s for s, _ in items.values()], [c for _, c in items.values()],
                                        stream=stream if isinstance(stream, str) and stream else None)
        out[model] = group_intervals(subtasks, score_groups(groups), resamples=resamples, seed=seed)
    return out, problems


def _cell(iv: Optional[Interval]) -> str:
    if iv is None:
        return '-'
    if iv.low is None:
        return f'{iv.estimate:.2f} [no interval*]'
    return f'{iv.estimate:.2f} [{iv.low:.2f}, {iv.high:.2f}]'


def render_intervals(intervals: Mapping[str, Mapping[str, Interval]], model_abbrs: Sequence[str],
                     rows: Sequence[str], problems: Sequence[str] = ()) -> str:
    """The summary section: ``score [low, high]`` per row and model, then the method and any warning."""
    shown = [r for r in rows if any(r in intervals.get(m, {}) for m in model_abbrs)]
    if not shown:
        return '\n'.join(['Score intervals: none could be computed.'] + [f'  not resampled: {p}' for p in problems]) \
            if problems else ''
    first = next(iv for m in model_abbrs for iv in intervals.get(m, {}).values())
    head = (f'Score intervals ({100 * first.level:g} %, {first.method}, {first.resamples} resamples, seed '
            f'{first.seed}; resampling unit: scenario, or chain where items carry one):')
    width = max(len(r) for r in shown)
    lines = [head, ' | '.join(['dataset'.ljust(width)] + list(model_abbrs))]
    for row in shown:
        lines.append(' | '.join([row.ljust(width)] + [_cell(intervals.get(m, {}).get(row)) for m in model_abbrs]))
    note = _no_interval_of_models(intervals, model_abbrs, shown)
    if note:
        lines.append(note)
    lines.extend(f'  not resampled: {p}' for p in problems)
    return '\n'.join(lines)


def is_group_warning(warning: str, names: Sequence[str]) -> bool:
    """True when ``warning`` is a group's, inherited from a subset (``'<subset>: <its warning>'``)."""
    return any(warning.startswith(f'{n}: ') for n in names)


def no_interval_note(missing: Mapping[str, str], groups: Sequence[str], every: bool = False,
                     noun: str = 'subtasks') -> str:
    """One line for every row shown without an interval, instead of one long warning per row.

    Args:
        missing: ``{subtask row: its number of resampling units, as text}`` for the rows that have too few units.
        groups: the group rows (dimensions, overall) that have no interval because a subset has none.
        every: no row of the table has an interval: the line then says so instead of listing the rows.
        noun: what the rows are, in the plural (``'rows'`` for ``dataset:metric`` rows).
    """
    units = set(missing.values())
    if every and len(missing) > 1 and len(units) == 1:
        which = f'any of the {len(missing)} {noun} (only {units.pop()} resampling unit(s) each)'
    else:
        which = ', '.join(f'{k} (only {v} resampling unit(s))' for k, v in missing.items())
    if every and len(groups) > 1:
        built = f'any of the {len(groups)} groups built on them'
    else:
        built = ', '.join(groups)
    if not missing:
        which = f'{built} (a subtask it is built on has too few)'
    elif groups:
        which += f', nor for {built}'
    return f'* no interval for {which}: fewer than {MIN_UNITS} scenarios or chains are too few to resample'


def _no_interval_of_models(intervals: Mapping[str, Mapping[str, Interval]], model_abbrs: Sequence[str],
                           shown: Sequence[str]) -> str:
    """:func:`no_interval_note` over several models: a row is named alone when every model lacks its interval."""
    missing: Dict[str, str] = {}
    groups: List[str] = []
    every = True
    for row in shown:
        cells = {m: intervals[m][row] for m in model_abbrs if row in intervals.get(m, {})}
        without = {m: iv for m, iv in cells.items() if iv.warning}
        every = every and len(without) == len(cells)
        if not without:
            continue
        if any(is_group_warning(iv.warning, list(intervals[m])) for m, iv in without.items()):
            groups.append(row if len(without) == len(cells) else f'{row} ({", ".join(without)})')
        elif len(without) == len(cells) and len({iv.n_units for iv in without.values()}) == 1:
            missing[row] = str(next(iter(without.values())).n_units)
        else:
            missing.update({f'{m} × {row}': str(iv.n_units) for m, iv in without.items()})
    if not missing and not groups:
        return ''
    return no_interval_note(missing, groups, every)


def write_intervals_csv(path: str, intervals: Mapping[str, Mapping[str, Interval]], model_abbrs: Sequence[str],
                        rows: Sequence[str]) -> None:
    """One line per model × row: ``dataset, model, score, ci_low, ci_high, n, n_units, method, seed, resamples,
    warning`` (empty ``ci_low``/``ci_high`` where there is no interval)."""
    with open(path, 'w', encoding='utf-8', newline='') as f:
        writer = csv.writer(f)
        writer.writerow(['dataset', 'model', 'score', 'ci_low', 'ci_high', 'n', 'n_units', 'method', 'seed',
                         'resamples', 'warning'])
        for row in rows:
            for model in model_abbrs:
                iv = intervals.get(model, {}).get(row)
                if iv is None:
                    continue
                writer.writerow([row, model, f'{iv.estimate:.4f}', '' if iv.low is None else f'{iv.low:.4f}',
                                 '' if iv.high is None else f'{iv.high:.4f}', iv.n, iv.n_units, iv.method, iv.seed,
                                 iv.resamples, iv.warning or ''])


__all__ = ['ci_settings', 'is_group_warning', 'item_scores', 'no_interval_note', 'render_intervals', 'run_intervals',
           'score_groups', 'write_intervals_csv']
