"""The task-checks tables of a summary: all-checks and per-check pass rates per dataset and model (pure)."""
from __future__ import annotations

import csv
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .run_check import Conflict, meta_of

#: The pseudo-check "every applicable check passed" (:data:`opencompass_h2htalk.checks.ALL`; not imported, so
#: that reading results needs no check module).
ALL = 'all'
#: The key of a version conflict (:class:`~.run_check.Conflict`).
VERSION_KEY = 'meta.checks.version'
#: Why a result that is not H2HTalk's has no checks.
FOREIGN = 'no checks: not an H2HTalk result'
TITLE = ('Task checks (pass rate %, all = every check that applies passed; 95 % scenario-bootstrap interval as for '
         'U; a second score beside U, docs/checks.md):')


def _unwrap(value: Any) -> Any:
    """A dict value of a results file (OpenCompass stores a dict result's dict values as a one-item list)."""
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return value


def checks_of(result: Mapping[str, Any]) -> Tuple[Optional[Dict[str, Dict[str, Any]]], Optional[str]]:
    """``(pass rates, None)`` of a results file, or ``(None, why it has none)``.

    The rates are ``{'all' | check name: {'rate', 'n', 'n_pass', 'ci_low', 'ci_high'[, 'warning']}}``. A result
    without them is named, never read as 0: evaluated before the checks existed, a dataset they cannot read
    (``meta.checks.skipped``), or a check that raised (``meta.checks.error``).
    """
    meta = meta_of(dict(result)).get('checks')
    rates = _unwrap(result.get('checks'))
    if isinstance(meta, dict) and meta.get('error'):
        return None, f'the checks failed: {meta["error"]}'
    if isinstance(meta, dict) and meta.get('skipped'):
        return None, f'no checks: {meta["skipped"]}'
    if not isinstance(meta, dict) or not isinstance(rates, dict) or ALL not in rates:
        if not meta_of(dict(result)).get('data_version'):
            return None, FOREIGN
        return None, 'no checks in the result (evaluated before the task checks; re-evaluate it to get them)'
    return rates, None


def checks_version(result: Mapping[str, Any]) -> Optional[str]:
    """The checks revision a result's pass rates were computed with (``None`` when it has none)."""
    rates, _ = checks_of(result)
    meta = meta_of(dict(result)).get('checks')
    return str(meta.get('version')) if rates is not None and isinstance(meta, dict) else None


def version_conflict(results: Iterable[Tuple[str, str, Mapping[str, Any]]]) -> Optional[Conflict]:
    """A :class:`~.run_check.Conflict` when the results with checks were checked by different revisions.

    Results without checks are no conflict: they show ``-`` with a note.
    """
    values: Dict[str, List[str]] = {}
    for model, dataset, result in results:
        version = checks_version(result)
        if version is not None:
            values.setdefault(repr(version), []).append(f'{model} × {dataset}')
    return Conflict(VERSION_KEY, values) if len(values) > 1 else None


def render_version_conflict(conflict: Conflict) -> str:
    """The error that replaces the checks tables (U's table stays: U does not depend on the checks)."""
    return ('ERROR: task checks of different revisions must not share one table, so no checks table is printed '
            '(pass rates of two revisions measure different things). Re-evaluate the older results:\n'
            + conflict.render())


def cell(entry: Optional[Mapping[str, Any]]) -> str:
    """``72.50 [64.00, 80.10]``, ``72.50*`` without an interval, ``n/a`` for a check that applied to no item."""
    if entry is None:
        return '-'
    if entry.get('rate') is None:
        return 'n/a'
    if entry.get('ci_low') is None or entry.get('ci_high') is None:
        return f'{entry["rate"]:.2f}*'
    return f'{entry["rate"]:.2f} [{entry["ci_low"]:.2f}, {entry["ci_high"]:.2f}]'


#: The row of "every applicable check passed" in per-item outcomes (the details' ``checks_all``).
CHECKS_ALL = 'checks_all'


def _values(value: Any) -> List[Any]:
    """A detail's value per replica (OpenCompass stores each detail value as a list over replicas)."""
    return value if isinstance(value, list) else [value]


def item_outcomes(result: Mapping[str, Any], name: str = '<result>') -> Dict[str, Dict[str, float]]:
    """``{'checks_all' | check name: {item id: 100.0 (pass) or 0.0 (fail)}}`` from a result's details, over the
    items each check applies to (replicas averaged); ``{}`` for a result without checks.

    Raises:
        ValueError: naming ``name`` when an item with checks has no id, or an id repeats.
    """
    if checks_of(result)[0] is None:
        return {}
    details = result.get('details')
    details = list(details.values()) if isinstance(details, dict) else details
    out: Dict[str, Dict[str, float]] = {}
    seen = set()
    for k, detail in enumerate(details if isinstance(details, list) else []):
        replicas = [c for c in _values(detail.get('checks')) if isinstance(c, dict)]
        if not replicas:
            continue
        item = _values(detail.get('id'))[0]
        if item is None:
            raise ValueError(f'{name}: detail {k} has checks but no id')
        item = str(item)
        if item in seen:
            raise ValueError(f'{name}: item {item!r} appears twice in details')
        seen.add(item)
        per_check: Dict[str, List[float]] = {CHECKS_ALL: [100.0 * all(c.get('pass') is not False
                                                                      for c in r.values()) for r in replicas]}
        for replica in replicas:
            for check, entry in replica.items():
                if isinstance(entry, dict) and entry.get('pass') is not None:
                    per_check.setdefault(check, []).append(100.0 * bool(entry['pass']))
        for check, values in per_check.items():
            out.setdefault(check, {})[item] = sum(values) / len(values)
    return out


def check_rows(results: Mapping[str, Mapping[str, Mapping[str, Any]]], models: Sequence[str],
               datasets: Sequence[str]) -> List[Tuple[str, str]]:
    """``(dataset, check)`` rows, datasets in ``datasets`` order, checks in the order the results list them
    (``all`` first); a dataset no model has checks for has only its ``all`` row."""
    rows: List[Tuple[str, str]] = []
    for dataset in datasets:
        names: List[str] = [ALL]
        for model in models:
            result = results.get(model, {}).get(dataset)
            rates = checks_of(result)[0] if result is not None else None
            names.extend(n for n in (rates or {}) if n not in names)
        rows.extend((dataset, n) for n in names)
    return rows


def _missing_notes(results: Mapping[str, Mapping[str, Mapping[str, Any]]], models: Sequence[str],
                   datasets: Sequence[str]) -> List[str]:
    notes = []
    for dataset in datasets:
        for model in models:
            result = results.get(model, {}).get(dataset)
            if result is None:
                continue  # no result at all: the run check names it
            why = checks_of(result)[1]
            if why:
                notes.append(f'  - {model} × {dataset}: {why}')
    return notes


def render_checks(results: Mapping[str, Mapping[str, Mapping[str, Any]]], models: Sequence[str],
                  datasets: Sequence[str]) -> str:
    """The summary's task-checks section: the all-checks table (one row per dataset), then one row per
    ``dataset:check``; ``''`` when no result shown has any checks and none says why (nothing H2HTalk to show).

    A result without checks shows ``-`` and a note says why. Results of different check revisions give the error
    of :func:`render_version_conflict` instead of tables.
    """
    shown = [(m, d, results[m][d]) for m in models for d in datasets if d in results.get(m, {})]
    conflict = version_conflict(shown)
    if conflict:
        return render_version_conflict(conflict)
    notes = _missing_notes(results, models, datasets)
    if not any(checks_of(r)[0] for _, _, r in shown):
        # Only foreign results (gsm8k in an H2HTalk summary): nothing to say about task checks.
        h2htalk = [n for n in notes if not n.endswith(FOREIGN)]
        return '\n'.join(['Task checks: no result has them.'] + notes) if h2htalk else ''
    rows = check_rows(results, models, datasets)

    def entry(model: str, dataset: str, name: str) -> Optional[Mapping[str, Any]]:
        result = results.get(model, {}).get(dataset)
        rates = checks_of(result)[0] if result is not None else None
        return None if rates is None else rates.get(name)

    def table(keys: List[Tuple[str, str]], label: str, name_of) -> List[str]:
        width = max(len(label), *(len(name_of(d, c)) for d, c in keys))
        return [' | '.join([label.ljust(width)] + list(models))] + [
            ' | '.join([name_of(d, c).ljust(width)] + [cell(entry(m, d, c)) for m in models]) for d, c in keys]

    versions = sorted({v for v in (checks_version(r) for _, _, r in shown) if v is not None})
    lines = [TITLE.replace('):', f'; checks revision {", ".join(versions)}):')]
    lines += table([(d, c) for d, c in rows if c == ALL], 'dataset', lambda d, c: d)
    lines += ['', 'Task checks per check (pass rate % over the items the check applies to):']
    lines += table([(d, c) for d, c in rows if c != ALL], 'dataset:check', lambda d, c: f'{d}:{c}')
    starred = any(cell(entry(m, d, c)).endswith('*') for d, c in rows for m in models)
    if starred:
        lines.append('* no interval: too few scenarios or chains to resample (the rate stands, its interval does not)')
    if notes:
        lines += ['- no checks (not 0):'] + notes
    return '\n'.join(lines)


def write_checks_csv(path: str, results: Mapping[str, Mapping[str, Mapping[str, Any]]], models: Sequence[str],
                     datasets: Sequence[str]) -> None:
    """One line per dataset × check × model: ``dataset, check, model, rate, ci_low, ci_high, n, n_pass, version,
    note``; empty numbers where there is no value (a result without checks: ``note`` says why; no interval: the
    warning), never 0."""
    with open(path, 'w', encoding='utf-8', newline='') as f:
        writer = csv.writer(f)
        writer.writerow(['dataset', 'check', 'model', 'rate', 'ci_low', 'ci_high', 'n', 'n_pass', 'version', 'note'])
        for dataset, name in check_rows(results, models, datasets):
            for model in models:
                result = results.get(model, {}).get(dataset)
                if result is None:
                    continue
                rates, why = checks_of(result)
                e = (rates or {}).get(name)
                if e is None:
                    writer.writerow([dataset, name, model, '', '', '', '', '', checks_version(result) or '',
                                     why or 'not a check of this result'])
                    continue
                num = (lambda v: '' if v is None else f'{v:.4f}')
                writer.writerow([dataset, name, model, num(e.get('rate')), num(e.get('ci_low')), num(e.get('ci_high')),
                                 e.get('n', ''), e.get('n_pass', ''), checks_version(result), e.get('warning') or ''])


__all__ = ['ALL', 'CHECKS_ALL', 'item_outcomes', 'TITLE', 'VERSION_KEY', 'cell', 'check_rows', 'checks_of',
           'checks_version', 'render_checks', 'render_version_conflict', 'version_conflict', 'write_checks_csv']
