"""Checks on a finished run for the summary: missing/failed/invalid results and results that must not share a table.

Pure Python, no OpenCompass import: the summarizer (:mod:`.h2htalk`) gathers the facts from the run folder
and these functions decide what to report.
"""
from __future__ import annotations

import glob
import json
import math
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

# What a score depends on beyond the model: results that differ in any of these are not comparable.
# ``data_version`` is the manifest version of the data; the others are the scoring settings.
RUN_WIDE_KEYS = ('data_version', 'alpha', 'embedder', 'tokenizer')
# Compared per dataset only (different datasets have different files by design). ``violation_definition`` (safety
# results only) says what ``violation_rate`` counts; results without it OR-ed the rule checks into it.
# ``history_format`` says how the dialogue history reached the model (a labelled block or chat turns): two renderings
# are two prompts, so their scores do not share a table (``h2htalk compare --across-history-formats`` pairs them).
PER_DATASET_KEYS = ('source_sha256', 'violation_definition', 'history_format')
#: The value a result that does not record a key had: results written before the chat rendering existed were all
#: rendered as blocks, so they still share a table with new block results.
KEY_DEFAULTS = {'history_format': 'block'}
#: What an unrecorded value of a key means, shown with a conflict on it.
KEY_NOTES = {'violation_definition': "(not recorded): violation_rate counted the judge's flag OR any rule check "
                                     '(before judge-v2, where the judge alone decides); re-evaluate those results '
                                     '(the judge cache makes that cheap)',
             'history_format': "'block': the history as a labelled text block in the HUMAN turn; 'chat': as real "
                               'chat turns (docs/h2htalk.md); summarize each rendering on its own, or pair them with '
                               '`h2htalk compare RUN_BLOCK RUN_CHAT --across-history-formats`'}
UNRECORDED = '(not recorded)'
_ERROR_LINE = re.compile(r'(\b[A-Za-z_.]*(Error|Exception)\b|Traceback|failed)')


@dataclass
class ResultNote:
    """One problem with one model × dataset result, with where to look."""
    model: str
    dataset: str
    problem: str            # 'missing', 'failed' or 'invalid'
    detail: str
    log: Optional[str] = None
    log_line: Optional[str] = None

    def render(self) -> str:
        text = f'- {self.problem.upper()}: {self.model} × {self.dataset}: {self.detail}'
        if self.log:
            text += f'\n    log: {self.log}'
        if self.log_line:
            text += f'\n    last error in the log: {self.log_line}'
        return text


@dataclass
class Conflict:
    """Results of one table that disagree on a setting they must share."""
    key: str
    values: Dict[str, List[str]] = field(default_factory=dict)   # rendered value -> ['model × dataset', ...]
    dataset: Optional[str] = None

    def render(self, max_items: int = 4) -> str:
        where = f' for {self.dataset}' if self.dataset else ''
        parts = []
        for value, items in self.values.items():
            shown = ', '.join(items[:max_items]) + (f' and {len(items) - max_items} more' if len(items) > max_items
                                                    else '')
            parts.append(f'    {value}: {shown}')
        note = f'\n    note: {KEY_NOTES[self.key]}' if self.key in KEY_NOTES else ''
        return f'- {self.key}{where} differs:\n' + '\n'.join(parts) + note


def meta_of(result: Dict[str, Any]) -> Dict[str, Any]:
    """The ``meta`` block of a results file (OpenCompass stores a dict result's ``meta`` as a one-item list)."""
    meta = result.get('meta')
    if isinstance(meta, list):
        meta = meta[0] if len(meta) == 1 and isinstance(meta[0], dict) else None
    return meta if isinstance(meta, dict) else {}


def invalid_flags(result: Dict[str, Any]) -> List[Tuple[str, str]]:
    """Every ``<name>_valid: false`` in a results file (top level or ``meta``), with its ``<name>_invalid_reason``.

    Returns:
        ``[(key, reason), ...]``; the reason is ``'(no reason given)'`` when the file names none.
    """
    found = []
    for block in (result, meta_of(result)):
        for key, value in block.items():
            if key.endswith('_valid') and value is False:
                reason = block.get(f'{key[:-len("_valid")]}_invalid_reason') or '(no reason given)'
                if (key, str(reason)) not in found:
                    found.append((key, str(reason)))
    return found


def _render(value: Any) -> str:
    if value is None:
        return UNRECORDED
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return repr(value)


def recorded(result: Dict[str, Any], key: str) -> Any:
    """``meta[key]`` of a results file, or its :data:`KEY_DEFAULTS` value when the result does not record it."""
    return meta_of(result).get(key, KEY_DEFAULTS.get(key))


def find_conflicts(results: Iterable[Tuple[str, str, Dict[str, Any]]], skip: Sequence[str] = ()) -> List[Conflict]:
    """Settings that differ between results that would share one table.

    Args:
        results: ``(model, dataset, result)`` for every result the table would show.
        skip: Keys not to compare (``h2htalk compare --across-history-formats`` skips ``history_format``).

    Returns:
        One :class:`Conflict` per key in :data:`RUN_WIDE_KEYS` with more than one value over all results, and per
        dataset and key in :data:`PER_DATASET_KEYS` with more than one value over that dataset's results. A key a
        result does not record counts as its own value (``(not recorded)``), so an old result without a data
        version cannot hide among new ones (except the keys of :data:`KEY_DEFAULTS`, whose unrecorded value is known).
    """
    results = list(results)
    conflicts = []
    for key in [k for k in RUN_WIDE_KEYS if k not in skip]:
        values: Dict[str, List[str]] = {}
        for model, dataset, result in results:
            values.setdefault(_render(recorded(result, key)), []).append(f'{model} × {dataset}')
        if len(values) > 1:
            conflicts.append(Conflict(key, values))
    for key in [k for k in PER_DATASET_KEYS if k not in skip]:
        per_dataset: Dict[str, Dict[str, List[str]]] = {}
        for model, dataset, result in results:
            per_dataset.setdefault(dataset, {}).setdefault(_render(recorded(result, key)), []).append(model)
        for dataset, values in per_dataset.items():
            if len(values) > 1:
                conflicts.append(Conflict(key, values, dataset=dataset))
    return conflicts


def log_for(log_dir: str, model: str, datasets_in_order: Sequence[str], dataset: str) -> Optional[str]:
    """The task log that covers ``dataset`` for ``model`` under ``log_dir`` (``logs/eval`` or ``logs/infer``).

    OpenCompass names a task's log after the task's first dataset (``<model>/<dataset>.out``, or
    ``<dataset>_<k>.out`` for split inference), and partitioners group datasets in config order. So the log is
    this dataset's own, else the nearest earlier dataset's. Returns ``None`` when no such log exists.
    """
    folder = os.path.join(log_dir, model)
    if not os.path.isdir(folder) or dataset not in datasets_in_order:
        return None
    names = set(os.listdir(folder))
    for abbr in reversed(datasets_in_order[:datasets_in_order.index(dataset) + 1]):
        if f'{abbr}.out' in names:
            return os.path.join(folder, f'{abbr}.out')
        split = sorted((n for n in names if re.fullmatch(re.escape(abbr) + r'_\d+\.out', n)),
                       key=lambda n: int(n[len(abbr) + 1:-4]))
        if split:
            return os.path.join(folder, split[0])
    return None


def last_error_line(path: Optional[str], max_len: int = 240) -> Optional[str]:
    """The last line of a log that names an error, shortened; ``None`` if there is none or no log."""
    if not path or not os.path.isfile(path):
        return None
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = [ln.strip() for ln in f.read().splitlines()]
    for line in reversed(lines):
        if line and _ERROR_LINE.search(line):
            return line if len(line) <= max_len else line[:max_len - 1] + '…'
    return None


def render_notes(notes: List[ResultNote], n_expected: int) -> str:
    """The run-check section printed under the table (and written into the summary files)."""
    if not notes:
        return f'Run check: all {n_expected} results present and valid.'
    counts = {p: sum(n.problem == p for n in notes) for p in ('missing', 'failed', 'invalid')}
    head = (f'Run check: {counts["missing"]} missing, {counts["failed"]} failed, {counts["invalid"]} invalid '
            f'of {n_expected} expected results. A "-" in the table is one of these, not a score.')
    return head + '\n' + '\n'.join(n.render() for n in notes)


def render_conflicts(conflicts: List[Conflict]) -> str:
    """The error that replaces a table whose results must not be compared."""
    return ('ERROR: these results must not share one table, so no table is printed. Re-run the stale results '
            '(or summarize them separately):\n' + '\n'.join(c.render() for c in conflicts))


def missing_note(run: str, model: str, dataset: str, datasets_in_order: Sequence[str],
                 shown_model: Optional[str] = None) -> ResultNote:
    """The note for a model × dataset without a results file: did inference or evaluation fail, and which log says.

    Args:
        run: The run folder (OpenCompass's ``work_dir`` with its timestamp).
        model: The model's abbreviation as the run's folders name it (``predictions/<model>``, ``logs/*/<model>``).
        dataset: The dataset's abbreviation.
        datasets_in_order: The run's datasets in config order (to find a task log named after another dataset).
        shown_model: The name to show for the model (the summarizer's ``summarizer_abbr``), default ``model``.
    """
    pred = os.path.join(run, 'predictions', model, f'{dataset}.json')
    has_predictions = os.path.exists(pred) or os.path.exists(pred[:-len('.json')] + '_0.json')
    stage = 'eval' if has_predictions else 'infer'
    detail = ('predictions exist but no results file: evaluation failed or did not run' if has_predictions else
              'no predictions and no results file: inference failed or did not run')
    log = log_for(os.path.join(run, 'logs', stage), model, datasets_in_order, dataset)
    if log is None:
        return ResultNote(shown_model or model, dataset, 'missing', detail,
                          f'(no log found under {os.path.join(run, "logs", stage, model)})')
    return ResultNote(shown_model or model, dataset, 'missing', detail, log, last_error_line(log))


def result_notes(model: str, dataset: str, result: Dict[str, Any], log: Optional[str] = None) -> List[ResultNote]:
    """The notes for a results file that exists: failed (an ``error`` key), or invalid (a ``<name>_valid: false``
    flag, a metric that is not a number). Empty for a valid result."""
    if 'error' in result:
        return [ResultNote(model, dataset, 'failed', str(result['error']), log, last_error_line(log))]
    notes = [ResultNote(model, dataset, 'invalid', f'{key} is false: {reason}') for key, reason in invalid_flags(result)]
    notes.extend(ResultNote(model, dataset, 'invalid', f'{key} is not a number') for key, value in result.items()
                 if isinstance(value, float) and not math.isfinite(value))
    return notes


def _config_abbr(cfg: Dict[str, Any], kind: str) -> Optional[str]:
    """A dumped config entry's abbreviation, as OpenCompass derives it (``abbr``, else from path and name)."""
    if cfg.get('abbr'):
        return str(cfg['abbr'])
    if not isinstance(cfg.get('path'), str):
        return None
    if kind == 'model':  # OpenCompass's model_abbr_from_cfg
        return (f"{cfg.get('type')}_" + '_'.join(os.path.realpath(cfg['path']).split('/')[-2:])).replace('/', '_')
    return (cfg['path'] + (f"_{cfg['name']}" if 'name' in cfg else '')).replace('/', '_')  # dataset_abbr_from_cfg


@dataclass
class RunCheck:
    """The run check of a run folder: what was expected, and every missing, failed or invalid result."""
    notes: List[ResultNote]
    models: List[str]
    datasets: List[str]
    source: str       # where the expected models and datasets come from

    @property
    def n_expected(self) -> int:
        return len(self.models) * len(self.datasets)

    def render(self) -> str:
        return render_notes(self.notes, self.n_expected)


def check_run(run: str) -> RunCheck:
    """The summarizer's run check, from a run folder alone (no OpenCompass): for ``h2htalk report``.

    The expected models × datasets are those of the run's dumped config (``<run>/configs/*.py``, the newest);
    without one (or without models and datasets in it), every model × dataset that has a results file anywhere in
    ``results/`` (so a result one model lacks is still missing, but a dataset no model has is not seen).

    Raises:
        ValueError: naming a results file that is not valid JSON.
    """
    models: List[str] = []
    datasets: List[str] = []
    configs = sorted(glob.glob(os.path.join(run, 'configs', '*.py')))
    if configs:
        from mmengine.config import Config  # a dumped config is plain data; reading it imports no OpenCompass

        cfg = Config.fromfile(configs[-1], format_python_code=False)
        models = [a for a in (_config_abbr(dict(m), 'model') for m in cfg.get('models') or []) if a]
        datasets = [a for a in (_config_abbr(dict(d), 'dataset') for d in cfg.get('datasets') or []) if a]
    source = f'the dumped config {configs[-1]}' if configs else ''
    if not models or not datasets:
        files = sorted(glob.glob(os.path.join(run, 'results', '*', '*.json')))
        models = sorted({os.path.basename(os.path.dirname(p)) for p in files})
        datasets = sorted({os.path.basename(p)[:-len('.json')] for p in files})
        source = ('the results files (no models and datasets in a dumped config under configs/: a dataset no model '
                  'has a result for is not seen)')
    notes: List[ResultNote] = []
    for model in models:
        for dataset in datasets:
            path = os.path.join(run, 'results', model, f'{dataset}.json')
            if not os.path.isfile(path):
                notes.append(missing_note(run, model, dataset, datasets))
                continue
            try:
                with open(path, encoding='utf-8') as f:
                    result = json.load(f)
            except json.JSONDecodeError as e:
                raise ValueError(f'{path}: not valid JSON (line {e.lineno}): {e.msg}') from e
            if isinstance(result, dict):
                notes.extend(result_notes(model, dataset, result,
                                          log_for(os.path.join(run, 'logs', 'eval'), model, datasets, dataset)))
    return RunCheck(notes, models, datasets, source)


__all__ = ['Conflict', 'PER_DATASET_KEYS', 'RUN_WIDE_KEYS', 'ResultNote', 'RunCheck', 'check_run', 'find_conflicts',
           'invalid_flags', 'last_error_line', 'log_for', 'meta_of', 'missing_note', 'render_conflicts',
           'render_notes', 'result_notes']
