"""``h2htalk compare``: paired differences between models of finished runs, with intervals and p-values. No OpenCompass.

Reads ``results/<model>/<dataset>.json`` of one or more run folders, pairs the models (``--models A B …``: every
model against the first; otherwise the SAP / no-SAP twins ``X@nosap`` vs ``X@sap-v1``, or the only two models), and
for each pair prints, per subtask and per summary group (dimensions, overall, with the weights of the run's own
summarizer config), the mean difference ``B − A`` of the unified score U on the items both have, its paired
bootstrap interval, two-sided p-value, smallest detectable difference and a verdict (``tie`` when the interval
covers 0). For judged datasets it adds a second table: the same paired statistics for the judge score (the safety
score on the safety set) and the violation rate (the judge's flag alone; percentage points), on the items both
models have *judged*, and the rule checks' violation rate on all items both have. It refuses to compare results
whose data version or scoring settings differ (α, embedder, tokenizer, per-dataset data SHA-256, the definition of
the violation rate, judge model, judge rubric hash) and names what differs; rule violation rates of two revisions of
the rule checks are left out with a note. A third block pairs the task checks (:mod:`opencompass_h2htalk.checks`):
per dataset, ``<dataset>:checks_all`` (every applicable check passed) and ``<dataset>:<check>``, each item 100 (pass)
or 0 (fail) on the items where the check applies for both models, so a difference is in percentage points; results
of two check revisions, or without checks, are left out with a note.

Results of one dataset rendered in two history formats (``meta.history_format``: the history as a labelled block or
as chat turns) are refused like other settings, unless ``--across-history-formats`` asks for exactly that
comparison: then a model may have results in two runs of different formats (it is named ``<model> [block]`` and
``<model> [chat]``, and paired with itself by default), and each pair's tables start with a line saying which side
was rendered how.
"""
from __future__ import annotations

import glob
import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..judges.paired import item_judgements
from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, PairedDifference, Subtask, paired_difference, paired_groups
from .checks_table import CHECKS_ALL, checks_of, checks_version, item_outcomes
from .intervals import is_group_warning, item_scores, no_interval_note, score_groups
from .run_check import find_conflicts, meta_of, recorded, render_conflicts
from .twins import twin_pairs

#: Compared per dataset on top of run_check's keys: a result judged by another judge model or with another rubric is
#: another measure (``meta.judge`` is ``'<abbr>:<path>'`` of the judge model).
JUDGE_KEYS = ('judge', 'rubric_hash')


CHECKS_TITLE = ('task checks (pass rate, percentage points; each item 100 pass / 0 fail, on the items where the '
                'check applies for both; checks_all: every applicable check passed)')
NOCOPY_TITLE = ('copy-free U on the items both have (U after removing what reply and reference copy from the inputs; '
                'docs/validity.md)')
JUDGED_TITLE = ('judged metrics on the items both have judged (judge score and safety score on the 1-5 scale; '
                "violation rate, the judge's flag, in percentage points, lower is safer; rule_violation_rate: the "
                'rule checks alone, on all items both have)')


class CompareError(ValueError):
    """A run that cannot be read, or results that must not be compared."""


def resolve_run(path: str) -> str:
    """``path`` if it holds ``results/``, else its newest timestamped sub-folder that does (a work dir)."""
    if os.path.isdir(os.path.join(path, 'results')):
        return path
    runs = sorted(d for d in glob.glob(os.path.join(path, '*')) if os.path.isdir(os.path.join(d, 'results')))
    if not runs:
        raise CompareError(f'{path}: no results/ folder here or in a run folder below it')
    return runs[-1]


def load_run(run: str) -> Dict[str, Dict[str, Dict[str, Any]]]:
    """``{model: {dataset: results file}}`` of one run folder (failed results, with an ``error`` key, left out).

    Raises:
        CompareError: naming the file that is not valid JSON.
    """
    out: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for path in sorted(glob.glob(os.path.join(run, 'results', '*', '*.json'))):
        model, dataset = os.path.basename(os.path.dirname(path)), os.path.basename(path)[:-len('.json')]
        try:
            with open(path, encoding='utf-8') as f:
                result = json.load(f)
        except json.JSONDecodeError as e:
            raise CompareError(f'{path}:{e.lineno}: not valid JSON at column {e.colno}: {e.msg}') from None
        except UnicodeDecodeError as e:
            with open(path, 'rb') as f:
                line = f.read()[:e.start].count(b'\n') + 1
            raise CompareError(f'{path}:{line}: not UTF-8 ({e.reason} at byte {e.start})') from None
        if isinstance(result, dict) and 'error' not in result:
            out.setdefault(model, {})[dataset] = result
    return out


def run_groups(run: str) -> Tuple[List[Mapping[str, Any]], List[str]]:
    """The summary groups and row order of the run's dumped config (``<run>/configs/*.py``); empty if none."""
    configs = sorted(glob.glob(os.path.join(run, 'configs', '*.py')))
    if not configs:
        return [], []
    from mmengine.config import Config  # a dumped config is plain data; reading it imports no OpenCompass

    summarizer = Config.fromfile(configs[-1], format_python_code=False).get('summarizer') or {}
    groups = [dict(g) for g in summarizer.get('summary_groups', []) or []]
    order = [a if isinstance(a, str) else a[0] for a in summarizer.get('dataset_abbrs', []) or [] if a]
    return groups, order


def pairs_for(models: Sequence[str], chosen: Optional[Sequence[str]]) -> List[Tuple[str, str]]:
    """Which models to compare: ``chosen[0]`` against each other chosen model, else twins, else the only two."""
    if chosen:
        missing = [m for m in chosen if m not in models]
        if missing:
            raise CompareError(f'no results for model(s) {missing}; the runs hold {sorted(models)}')
        if len(chosen) < 2:
            raise CompareError('--models needs at least two models: the first is compared with each other one')
        return [(chosen[0], m) for m in chosen[1:]]
    pairs = twin_pairs(list(models))
    if pairs:
        return pairs
    if len(models) == 2:
        return [tuple(models)]  # type: ignore[list-item]
    raise CompareError(f'the runs hold {len(models)} models and no SAP twins ({sorted(models)}); '
                       'name the models to compare with --models A B …')


def history_formats(results: Mapping[str, Mapping[str, Any]]) -> Dict[str, str]:
    """``{dataset: history format}`` of one model's results (``'block'`` where a result records none)."""
    return {d: str(recorded(dict(r), 'history_format')) for d, r in results.items()}


def describe_formats(per_dataset: Mapping[str, str]) -> str:
    """One model's rendering in words: ``'block'``, or ``'chat on a, b (block elsewhere)'``."""
    chat = sorted(d for d, f in per_dataset.items() if f == 'chat')
    if not chat:
        return 'block'
    return f'chat on {", ".join(chat)}' + (' (block elsewhere)' if len(chat) < len(per_dataset) else '')


def format_line(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str) -> Optional[str]:
    """The line that says how each side's history was rendered, on the datasets both have; ``None`` when the two
    sides were rendered alike (nothing to say: the comparison is within one format)."""
    common = [d for d in results[a] if d in results[b]]
    fa, fb = ({d: history_formats(results[m])[d] for d in common} for m in (a, b))
    if fa == fb:
        return None
    return f'history format: {a}: {describe_formats(fa)}; {b}: {describe_formats(fb)}'


def comparability(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                  across_history_formats: bool = False) -> List[str]:
    """What differs between ``a``'s and ``b``'s results that makes them incomparable ([] when nothing does).

    ``across_history_formats``: a different ``history_format`` is what the user asked to compare, not a problem.
    """
    rows = [(m, d, r) for m in (a, b) for d, r in results[m].items() if d in results[a] and d in results[b]]
    conflicts = find_conflicts(rows, skip=('history_format',) if across_history_formats else ())
    problems = [render_conflicts(conflicts)] if conflicts else []
    for dataset in sorted(set(results[a]) & set(results[b])):
        for key in JUDGE_KEYS:
            va, vb = meta_of(dict(results[a][dataset])).get(key), meta_of(dict(results[b][dataset])).get(key)
            if va != vb:
                problems.append(f'- {key} for {dataset} differs: {a}: {va!r}, {b}: {vb!r}')
    return problems


def compare_pair(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                 groups: Sequence[Mapping[str, Any]], resamples: int = DEFAULT_RESAMPLES,
                 seed: int = DEFAULT_SEED, across_history_formats: bool = False,
                 ) -> Tuple[Dict[str, PairedDifference], Dict[str, Tuple[float, float]], List[str]]:
    """Paired differences ``b − a`` per dataset both have and per score group.

    Returns:
        ``(differences, means, notes)``: ``means[dataset] = (mean a, mean b)`` on the common items; ``notes``
        name items only one side has and results whose details cannot be read.

    Raises:
        CompareError: when the two results are not comparable (naming what differs; ``across_history_formats`` lets
            a different history format through).
    """
    _refuse_incomparable(results, a, b, across_history_formats)
    diffs: Dict[str, Subtask] = {}
    means: Dict[str, Tuple[float, float]] = {}
    notes: List[str] = []
    for dataset in [d for d in results[a] if d in results[b]]:
        try:
            ia = item_scores(results[a][dataset], f'{a} × {dataset}')
            ib = item_scores(results[b][dataset], f'{b} × {dataset}')
        except ValueError as e:
            notes.append(f'not compared: {e}')
            continue
        common = [k for k in ia if k in ib]
        if len(common) < len(ia) or len(common) < len(ib):
            notes.append(f'{dataset}: {len(common)} common items ({len(ia) - len(common)} only in {a}, '
                         f'{len(ib) - len(common)} only in {b})')
        if not common:
            continue
        diffs[dataset] = Subtask([ib[k][0] - ia[k][0] for k in common], [ia[k][1] or ib[k][1] for k in common])
        means[dataset] = (sum(ia[k][0] for k in common) / len(common), sum(ib[k][0] for k in common) / len(common))
    for group in score_groups(groups):
        names = [s if isinstance(s, str) else s[0] for s in group['subsets']]
        weights = group.get('weights') or {n: 1 for n in names}
        names = [n for n in names if weights.get(n, 0)]
        if names and all(n in means for n in names):
            total = float(sum(weights[n] for n in names))
            means[group['name']] = tuple(sum(weights[n] * means[n][i] for n in names) / total  # type: ignore
                                         for i in (0, 1))
    return paired_groups(diffs, score_groups(groups), resamples=resamples, seed=seed), means, notes


def _refuse_incomparable(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                         across_history_formats: bool) -> None:
    # A history_format conflict carries its note (run_check.KEY_NOTES), which names --across-history-formats.
    problems = comparability(results, a, b, across_history_formats)
    if problems:
        raise CompareError(f'{a} and {b} must not be compared:\n' + '\n'.join(problems))


def judged_scores(result: Mapping[str, Any], name: str = '<result>') -> Dict[str, Dict[str, float]]:
    """``{metric: {item id: value}}`` over the judged items of a results file; ``{}`` for a result with no judge.

    ``judge_score`` (called ``safety_score`` on the safety rubric, as in the summary) is an item's judged overall
    score (1–5). On the safety rubric ``violation_rate`` is 100 for an item the judge flagged and 0 otherwise
    (``meta.violation_definition`` ``judge-v2``; older results OR-ed the rule checks in), so a mean difference is in
    percentage points; items the judge never scored are left out. ``rule_violation_rate`` is the same for the
    rule checks' flag, over every item that records one (the checks need no judge).

    Raises:
        ValueError: naming ``name`` when the judge run is invalid (too few items parsed: its scores must not be
            reported) or ``item_judgements`` is missing or malformed.
    """
    meta = meta_of(dict(result))
    if not meta.get('judge') and 'item_judgements' not in result:
        return {}
    if meta.get('judge_valid') is False:
        raise ValueError(f'{name}: judge run invalid ({meta.get("judge_invalid_reason", "no reason given")}); '
                         'its judge scores are not reported')
    entries = item_judgements(result, name)
    # Older results may lack meta.rubric; only the safety rubric records a violation per item.
    safety = meta.get('rubric') == 'safety' or (meta.get('rubric') is None and bool(entries)
                                                and all('violation' in e for e in entries.values()))
    scores = {k: float(e['overall']) for k, e in entries.items() if e['overall'] is not None}
    out = {'safety_score' if safety else 'judge_score': scores}
    if safety:
        out['violation_rate'] = {k: 100.0 * bool(e.get('violation')) for k, e in entries.items()
                                 if e['overall'] is not None and e.get('violation') is not None}
        rules = {k: 100.0 * bool(e['rule_violation']) for k, e in entries.items()
                 if e.get('rule_violation') is not None}
        if rules:
            out['rule_violation_rate'] = rules
    return out


def _chains(result: Mapping[str, Any]) -> Optional[Dict[str, Optional[str]]]:
    """``{item id: chain}`` from a result's details, ``None`` when they cannot be read (items are then the units)."""
    try:
        return {k: c for k, (_, c) in item_scores(result).items()}
    except ValueError:
        return None


def compare_judged(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED, across_history_formats: bool = False,
                   ) -> Tuple[Dict[str, PairedDifference], Dict[str, Tuple[float, float]], List[str]]:
    """Paired differences ``b − a`` of the judged metrics of every judged dataset both models have.

    Rows are keyed ``'<dataset>:<metric>'`` (metrics as in :func:`judged_scores`); each is a paired bootstrap over
    the items both have judged (stream = the row key), with chains taken from the details where they exist.

    Returns:
        ``(differences, means, notes)`` as :func:`compare_pair`; ``notes`` say which items were lost because one side
        did not judge them, and which datasets could not be compared (an invalid judge run, one side unjudged).

    Raises:
        CompareError: when the two results are not comparable (naming what differs, the judge model included).
    """
    _refuse_incomparable(results, a, b, across_history_formats)
    diffs: Dict[str, PairedDifference] = {}
    means: Dict[str, Tuple[float, float]] = {}
    notes: List[str] = []
    for dataset in [d for d in results[a] if d in results[b]]:
        try:
            ja = judged_scores(results[a][dataset], f'{a} × {dataset}')
            jb = judged_scores(results[b][dataset], f'{b} × {dataset}')
        except ValueError as e:
            notes.append(f'judged metrics not compared: {e}')
            continue
        if bool(ja) != bool(jb):
            notes.append(f'{dataset}: judged for {a if ja else b} only; judged metrics not compared')
            continue
        chains = _chains(results[a][dataset]) or _chains(results[b][dataset])
        for metric in [m for m in ja if m in jb]:
            key = f'{dataset}:{metric}'
            if metric == 'rule_violation_rate':
                va, vb = (meta_of(dict(results[m][dataset])).get('rule_checks_version') for m in (a, b))
                if va != vb:
                    notes.append(f'{dataset}: rule_violation_rate not compared: the rule checks differ '
                                 f'(revision {va!r} for {a}, {vb!r} for {b})')
                    continue
            common = [k for k in ja[metric] if k in jb[metric]]
            # One note per dataset: the violation rate covers the same judged items as the score.
            if metric == next(iter(ja)) and (len(common) < len(ja[metric]) or len(common) < len(jb[metric])):
                notes.append(f'{dataset}: {len(common)} items judged for both ({len(ja[metric]) - len(common)} judged '
                             f'only for {a}, {len(jb[metric]) - len(common)} only for {b})')
            if not common:
                continue
            diffs[key] = paired_difference(ja[metric], jb[metric], chains, resamples, seed, key)
            means[key] = (sum(ja[metric][k] for k in common) / len(common),
                          sum(jb[metric][k] for k in common) / len(common))
    return diffs, means, notes


def compare_checks(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                   ) -> Tuple[Dict[str, PairedDifference], Dict[str, Tuple[float, float]], List[str]]:
    """Paired differences ``b − a`` of the task-check pass rates of every dataset both models have.

    Rows are keyed ``'<dataset>:checks_all'`` and ``'<dataset>:<check>'``; each is a paired bootstrap (stream = the
    row key) over the items where the check applies for both, an item 100 when it passed and 0 when it failed, with
    chains taken from the details where they exist. The caller has checked comparability (:func:`comparability`).

    Returns:
        ``(differences, means, notes)`` as :func:`compare_pair`; ``notes`` name datasets left out (no checks on one
        side, two check revisions) and items only one side has.
    """
    diffs: Dict[str, PairedDifference] = {}
    means: Dict[str, Tuple[float, float]] = {}
    notes: List[str] = []
    for dataset in [d for d in results[a] if d in results[b]]:
        ra, rb = results[a][dataset], results[b][dataset]
        missing = [(m, checks_of(r)[1]) for m, r in ((a, ra), (b, rb)) if checks_of(r)[0] is None]
        if len(missing) == 1:
            notes.append(f'{dataset}: task checks not compared: {missing[0][0]} has none ({missing[0][1]})')
        if missing:
            continue
        va, vb = checks_version(ra), checks_version(rb)
        if va != vb:
            notes.append(f'{dataset}: task checks not compared: the checks differ (revision {va!r} for {a}, '
                         f'{vb!r} for {b})')
            continue
        try:
            oa, ob = item_outcomes(ra, f'{a} × {dataset}'), item_outcomes(rb, f'{b} × {dataset}')
        except ValueError as e:
            notes.append(f'task checks not compared: {e}')
            continue
        chains = _chains(ra) or _chains(rb)
        for check in [c for c in oa if c in ob]:
            common = [k for k in oa[check] if k in ob[check]]
            if check == CHECKS_ALL and (len(common) < len(oa[check]) or len(common) < len(ob[check])):
                notes.append(f'{dataset}: task checks on {len(common)} common items ({len(oa[check]) - len(common)} '
                             f'only in {a}, {len(ob[check]) - len(common)} only in {b})')
            if not common:
                continue
            key = f'{dataset}:{check}'
            diffs[key] = paired_difference({k: oa[check][k] for k in common}, {k: ob[check][k] for k in common},
                                           chains, resamples, seed, key)
            means[key] = (sum(oa[check][k] for k in common) / len(common),
                          sum(ob[check][k] for k in common) / len(common))
    return diffs, means, notes


def compare_nocopy(results: Mapping[str, Mapping[str, Mapping[str, Any]]], a: str, b: str,
                   resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                   ) -> Tuple[Dict[str, PairedDifference], Dict[str, Tuple[float, float]], List[str]]:
    """Paired differences ``b − a`` of the copy-free U (per-item ``unified_nocopy``) of every dataset both have it
    for, keyed by dataset; the stream is ``'<dataset>:nocopy'``. The caller has checked comparability.

    Returns:
        ``(differences, means, notes)`` as :func:`compare_pair`; ``notes`` name datasets where only one side has a
        copy-free U, or the two were computed by different rules (``meta.nocopy.version``).
    """
    diffs: Dict[str, PairedDifference] = {}
    means: Dict[str, Tuple[float, float]] = {}
    notes: List[str] = []
    for dataset in [d for d in results[a] if d in results[b]]:
        ra, rb = results[a][dataset], results[b][dataset]
        ma, mb = (meta_of(dict(r)).get('nocopy') or {} for r in (ra, rb))
        have = [m for m, meta in ((a, ma), (b, mb)) if 'version' in meta]
        if len(have) == 1:
            notes.append(f'{dataset}: copy-free U not compared: only {have[0]} has it (re-evaluate the other)')
        if len(have) < 2:
            continue  # a subtask without a copy-free U on both sides (using the inputs is its task) is no news
        if ma['version'] != mb['version']:
            notes.append(f'{dataset}: copy-free U not compared: rule version {ma["version"]!r} for {a}, '
                         f'{mb["version"]!r} for {b}')
            continue
        try:
            ia = item_scores(ra, f'{a} × {dataset}', key='unified_nocopy')
            ib = item_scores(rb, f'{b} × {dataset}', key='unified_nocopy')
        except ValueError as e:
            notes.append(f'copy-free U not compared: {e}')
            continue
        common = [k for k in ia if k in ib]
        if not common:
            continue
        chains = {k: ia[k][1] or ib[k][1] for k in common}
        diffs[dataset] = paired_difference({k: ia[k][0] for k in common}, {k: ib[k][0] for k in common},
                                           chains, resamples, seed, f'{dataset}:nocopy')
        means[dataset] = (sum(ia[k][0] for k in common) / len(common), sum(ib[k][0] for k in common) / len(common))
    return diffs, means, notes


def _verdict(d: PairedDifference, a: str, b: str) -> str:
    if d.low is None:
        return 'no interval*'
    return 'tie' if d.tie else (f'{b} higher' if d.estimate > 0 else f'{a} higher')


def render_pair(a: str, b: str, diffs: Mapping[str, PairedDifference], means: Mapping[str, Tuple[float, float]],
                order: Sequence[str], notes: Sequence[str] = (),
                what: str = 'unified score U on the items both have', label: str = 'dataset') -> str:
    """The table of one pair: subtasks, then groups, in ``order`` where it names them.

    ``what`` names the measure in the title and ``label`` the first column (the judged table passes its own).
    """
    rows = [r for r in order if r in diffs] + [r for r in diffs if r not in order]
    if not rows:
        return '\n'.join([f'{b} − {a}: no dataset both have per-item scores for.'] + [f'  note: {n}' for n in notes])
    first = diffs[rows[0]]
    width = max(len(r) for r in rows + [label])
    lines = [f'{b} − {a}: {what} ({100 * first.level:g} % {first.method}, '
             f'{first.resamples} resamples, seed {first.seed}; MDE: smallest difference detectable with 80 % '
             f'power at α {1 - first.level:.2g})',
             ' | '.join([label.ljust(width), 'n', a, b, 'difference [interval]', 'p', 'MDE', 'verdict'])]
    for r in rows:
        d = diffs[r]
        interval = (f'{_num(d.estimate, "+")} [{_num(d.low, "+")}, {_num(d.high, "+")}]' if d.low is not None
                    else _num(d.estimate, '+'))
        lines.append(' | '.join([r.ljust(width), str(d.n), _num(means[r][0]), _num(means[r][1]), interval,
                                 '-' if d.p_value is None else f'{d.p_value:.3f}',
                                 '-' if d.mde is None else _num(d.mde), _verdict(d, a, b)]))
    without = [r for r in rows if diffs[r].warning]
    if without:
        groups = [r for r in without if is_group_warning(diffs[r].warning, list(diffs))]
        lines.append(no_interval_note({r: str(diffs[r].n_units) for r in without if r not in groups}, groups,
                                      every=len(without) == len(rows),
                                      noun='subtasks' if label == 'dataset' else f'{label} rows'))
    lines.extend(f'  note: {n}' for n in notes)
    return '\n'.join(lines)


def _num(value: float, sign: str = '') -> str:
    """``value`` to 2 decimals; a value that rounds to zero prints as 0.00 (or +0.00), never -0.00."""
    return f'{round(value, 2) + 0.0:{sign}.2f}'  # + 0.0 turns round()'s -0.0 into 0.0


def _run_format(per_dataset: Mapping[str, Mapping[str, Any]]) -> str:
    """``'chat'`` if any of a model's results in a run was rendered as chat turns, else ``'block'``."""
    return 'chat' if 'chat' in history_formats(per_dataset).values() else 'block'


def compare_runs(runs: Sequence[str], models: Optional[Sequence[str]] = None, resamples: int = DEFAULT_RESAMPLES,
                 seed: int = DEFAULT_SEED, across_history_formats: bool = False) -> str:
    """The whole ``h2htalk compare`` output for run folders (or work dirs).

    Args:
        across_history_formats: Compare results whose history was rendered differently (block vs chat) on purpose.
            A model with results in two runs of different formats is then named ``<model> [block]`` and
            ``<model> [chat]``, and without ``models`` each such model is paired with itself (block first).

    Raises:
        CompareError: unreadable runs, a model in two runs (of one format), unknown models, or incomparable results.
    """
    results: Dict[str, Dict[str, Dict[str, Any]]] = {}
    where: Dict[str, str] = {}
    groups: List[Mapping[str, Any]] = []
    order: List[str] = []
    self_pairs: List[Tuple[str, str]] = []
    for path in runs:
        run = resolve_run(path)
        for model, per_dataset in load_run(run).items():
            if model in results and across_history_formats:  # a second run of the model: kept if its format differs
                first, second = _run_format(results[model]), _run_format(per_dataset)
                if first != second:
                    named = {f'{model} [{first}]': (results.pop(model), where.pop(model)),
                             f'{model} [{second}]': (per_dataset, run)}
                    for name, (res, src) in named.items():
                        results[name], where[name] = res, src
                    self_pairs.append((f'{model} [block]', f'{model} [chat]'))
                    continue
            if model in results or f'{model} [block]' in results:  # one format twice, or a third run
                raise CompareError(f'model {model} has results in both {where.get(model) or where[model + " [block]"]}'
                                   f' and {run}; compare each run on its own or rename one model'
                                   + ('' if across_history_formats else
                                      ' (to compare a block run with a chat run of it, add --across-history-formats)'))
            results[model], where[model] = per_dataset, run
        g, o = run_groups(run)
        groups = groups or g
        order = order or o
    if not results:
        raise CompareError(f'no results in {list(runs)}')
    out = []
    compared = 0
    for a, b in (self_pairs if self_pairs and not models else pairs_for(list(results), models)):
        diffs, means, notes = compare_pair(results, a, b, groups, resamples, seed, across_history_formats)
        formats = format_line(results, a, b)
        out.append((formats + '\n' if formats else '') + render_pair(a, b, diffs, means, order, notes))
        judged, judged_means, judged_notes = compare_judged(results, a, b, resamples, seed, across_history_formats)
        compared += len(diffs) + len(judged)
        if judged:
            rows = [f'{d}:{m}' for d in order
                    for m in ('judge_score', 'safety_score', 'violation_rate', 'rule_violation_rate')]
            out.append(render_pair(a, b, judged, judged_means, rows, judged_notes, what=JUDGED_TITLE,
                                   label='dataset:metric'))
        elif judged_notes:
            out.append('\n'.join([f'{b} − {a}: judged metrics: none compared'] +
                                  [f'  note: {n}' for n in judged_notes]))
        checks, checks_means, checks_notes = compare_checks(results, a, b, resamples, seed)
        if checks:
            # Datasets in the run's order, each dataset's checks in the order its results list them.
            rows = [k for d in order for k in checks if k.startswith(f'{d}:')]
            out.append(render_pair(a, b, checks, checks_means, rows, checks_notes, what=CHECKS_TITLE,
                                   label='dataset:check'))
        elif checks_notes:
            out.append('\n'.join([f'{b} − {a}: task checks: none compared'] +
                                  [f'  note: {n}' for n in checks_notes]))
        nocopy, nocopy_means, nocopy_notes = compare_nocopy(results, a, b, resamples, seed)
        if nocopy:
            out.append(render_pair(a, b, nocopy, nocopy_means, order, nocopy_notes, what=NOCOPY_TITLE))
        elif nocopy_notes:
            out.append('\n'.join([f'{b} − {a}: copy-free U: none compared'] +
                                  [f'  note: {n}' for n in nocopy_notes]))
    if not compared:
        # Nothing was compared (e.g. only non-H2HTalk results, or no per-item details): an error, not a table.
        raise CompareError(f'nothing to compare in {list(runs)}: no dataset has per-item H2HTalk scores for both '
                           'models of any pair\n' + '\n\n'.join(out))
    if not groups:
        out.append('note: no summarizer config found in the run (configs/*.py): subtasks only, no dimension or '
                   'overall rows')
    return '\n\n'.join(out)


__all__ = ['CHECKS_TITLE', 'CompareError', 'JUDGED_TITLE', 'NOCOPY_TITLE', 'compare_checks', 'compare_judged',
           'compare_nocopy', 'compare_pair', 'compare_runs', 'comparability', 'describe_formats', 'format_line',
           'history_formats', 'judged_scores', 'load_run', 'pairs_for', 'render_pair', 'resolve_run', 'run_groups']
