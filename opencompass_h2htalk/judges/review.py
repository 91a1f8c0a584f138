"""Human review of low judged scores: export the queue, merge human scores back (pure Python).

The judge evaluator writes ``results/<model>/<dataset>_review.jsonl`` for every item whose judged
overall score is below the threshold (3.5) and, on the safety set, every judged item where the judge and the
deterministic rule checks disagree on a violation; each item's ``reason`` says which (``low_score: ...``,
``judge_rule_disagreement: ...``, or both). ``export`` gathers them into ``<run>/review/`` as
``queue.jsonl``, ``queue.csv`` and a static ``queue.html``, each item with an empty ``human_score``.
``merge`` validates a filled-in file (JSONL or CSV; by default ``<run>/review/queue.csv``) completely
before writing anything, then writes ``adjudicated.json`` and ``summary_adjudicated.{md,csv}`` with
judge-only and adjudicated means. Merges accumulate: the scores of every merged file are kept in
``adjudicated.json``, and a later score for the same item replaces the earlier one (the report counts them).
CSV files saved by Excel (UTF-8 with a BOM, or GB18030) are read, and errors name the line an editor shows
(a quoted cell may span several lines). ``export`` refuses to overwrite a queue that already holds human
scores unless forced, and writes nothing when the run holds no judged result or no item below the threshold.
"""
from __future__ import annotations

import csv
import html
import io
import json
import os
from typing import Any, Dict, List, Mapping, Optional, Tuple

QUEUE_FIELDS = ('review_id', 'model', 'dataset', 'id', 'judge_overall', 'human_score', 'reason', 'input',
                'reference', 'prediction', 'judge_rationale')
#: Columns (CSV) or keys (JSONL) a filled-in review file must have.
REQUIRED_COLUMNS = ('review_id', 'human_score')
#: Where ``merge`` keeps every human score merged so far (``human_scores``) and the files they came from.
ADJUDICATED = 'adjudicated.json'


class ReviewError(ValueError):
    """A review file that cannot be merged (the message names the file, line and problem)."""


def find_run(work_dir: str) -> str:
    """``work_dir`` itself if it holds ``results/``, else its newest timestamped run folder.

    Raises:
        ReviewError: ``work_dir`` does not exist or is not a directory.
        FileNotFoundError: no run folder with ``results/`` in it.
    """
    if not os.path.exists(work_dir):
        raise ReviewError(f'{work_dir}: no such work dir or run folder')
    if not os.path.isdir(work_dir):
        raise ReviewError(f'{work_dir}: is a file; expected a work dir or a run folder (<work_dir>/<timestamp>)')
    if os.path.isdir(os.path.join(work_dir, 'results')):
        return work_dir
    runs = sorted(d for d in os.listdir(work_dir) if os.path.isdir(os.path.join(work_dir, d, 'results')))
    if not runs:
        raise FileNotFoundError(f'{work_dir}: no run with a results/ folder')
    return os.path.join(work_dir, runs[-1])


def _model_dirs(run: str) -> List[str]:
    """The model folders of ``<run>/results`` (stray files beside them are not models)."""
    results = os.path.join(run, 'results')
    return [m for m in sorted(os.listdir(results)) if os.path.isdir(os.path.join(results, m))]


def _review_files(run: str) -> List[Tuple[str, str, str]]:
    out = []
    results = os.path.join(run, 'results')
    for model in _model_dirs(run):
        for name in sorted(os.listdir(os.path.join(results, model))):
            if name.endswith('_review.jsonl'):
                out.append((model, name[:-len('_review.jsonl')], os.path.join(results, model, name)))
    return out


def collect_queue(run: str) -> List[Dict[str, Any]]:
    """Every queued item of a run, with a ``review_id`` of the form ``model/dataset/id``.

    Raises:
        ReviewError: a ``_review.jsonl`` that is not UTF-8, has a line that is not a JSON object or an item
            without ``id`` (file and line named).
    """
    queue = []
    for model, dataset, path in _review_files(run):
        for lineno, item in _read_json_lines(path):
            if not isinstance(item, dict) or item.get('id') in (None, ''):
                raise ReviewError(f'{path}:{lineno}: expected a JSON object with an "id" (a queued item), got '
                                  f'{_short(item)}')
            queue.append({'review_id': f'{model}/{dataset}/{item["id"]}', 'model': model, 'dataset': dataset,
                          'human_score': '', **item})
    return queue


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + '…'


def _read_text(path: str) -> str:
    """A UTF-8 file the plugin wrote (results, ``_review.jsonl``, ``adjudicated.json``), errors naming it."""
    with open(path, 'rb') as f:
        data = f.read()
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b'\n') + 1
        raise ReviewError(f'{path}:{line}: not UTF-8 ({e.reason} at byte {e.start})') from None


def _read_json_lines(path: str) -> List[Tuple[int, Any]]:
    """``(line number, value)`` per non-blank line of a JSONL file the plugin wrote."""
    out = []
    for lineno, line in enumerate(_read_text(path).splitlines(), start=1):
        if line.strip():
            try:
                out.append((lineno, json.loads(line)))
            except json.JSONDecodeError as e:
                raise ReviewError(f'{path}:{lineno}: invalid JSON at column {e.colno} ({e.msg})') from None
    return out


def _read_json(path: str) -> Any:
    """A JSON file the plugin wrote, errors naming it and the line and column."""
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as e:
        raise ReviewError(f'{path}:{e.lineno}: invalid JSON at column {e.colno} ({e.msg})') from None


def _scored_rows(path: str) -> int:
    """Number of rows of an existing queue file with a human score (errors if it cannot be read)."""
    try:
        return sum(raw not in (None, '') for _, _, raw in _read_scores(path)[0])
    except ReviewError as e:
        raise ReviewError(f'{e}; cannot tell whether it holds human scores, so it is not overwritten '
                          '(move it away, or use --force)') from None


def export(work_dir: str, force: bool = False) -> Dict[str, str]:
    """Writes the queue as JSONL, CSV and HTML under ``<run>/review/``; returns the paths.

    Args:
        work_dir: An OpenCompass work dir (its newest run is used) or one run folder.
        force: Overwrite a queue file that already holds human scores.

    Returns:
        ``{'jsonl'|'csv'|'html': path}``, or ``{}`` when the run's judged datasets have no item below the
        review threshold: there is nothing to review and nothing is written (no empty queue files).

    Raises:
        ReviewError: the run holds no judged result (no ``_review.jsonl``), a ``_review.jsonl`` cannot be
            read, or an existing ``queue.csv``/``queue.jsonl`` holds human scores (or cannot be read) and
            ``force`` is false; nothing is written then.
    """
    run = find_run(work_dir)
    if not _review_files(run):
        raise ReviewError(f'{run}: no judged result (no results/<model>/<dataset>_review.jsonl, which the judge '
                          'evaluator writes for every judged dataset), so there is nothing to review; nothing was '
                          'written. Run a judged config, e.g. configs/eval/h2htalk_judged.py')
    queue = collect_queue(run)
    if not queue:
        return {}
    out = os.path.join(run, 'review')
    paths = {k: os.path.join(out, f'queue.{k}') for k in ('jsonl', 'csv', 'html')}
    if not force:
        for key in ('csv', 'jsonl'):
            if os.path.exists(paths[key]):
                n = _scored_rows(paths[key])
                if n:
                    raise ReviewError(f'{paths[key]}: already holds {n} human score(s); exporting again would '
                                      'overwrite them. Merge them first (h2htalk review merge), move the file away, '
                                      'or use --force')
    os.makedirs(out, exist_ok=True)
    with open(paths['jsonl'], 'w', encoding='utf-8') as f:
        for item in queue:
            f.write(json.dumps({k: item.get(k, '') for k in QUEUE_FIELDS}, ensure_ascii=False) + '\n')
    with open(paths['csv'], 'w', encoding='utf-8', newline='') as f:
        writer = csv.DictWriter(f, fieldnames=QUEUE_FIELDS)
        writer.writeheader()
        for item in queue:
            writer.writerow({k: item.get(k, '') for k in QUEUE_FIELDS})
    rows = '\n'.join(
        '<tr>' + ''.join(f'<td><pre>{html.escape(str(item.get(k, "")))}</pre></td>'
                         for k in ('review_id', 'reason', 'input', 'reference', 'prediction', 'judge_overall',
                                   'judge_rationale'))
        + f'<td><input name="{html.escape(item["review_id"])}" type="number" min="1" max="5" step="0.5"></td></tr>'
        for item in queue)
    with open(paths['html'], 'w', encoding='utf-8') as f:
        f.write('<!doctype html><meta charset="utf-8"><title>H2HTalk review queue</title>'
                '<style>td{vertical-align:top;border:1px solid #ccc;max-width:28em}pre{white-space:pre-wrap}</style>'
                f'<h1>H2HTalk review queue ({len(queue)} items: judged below the threshold, or judge and rule '
                'checks disagree on a violation)</h1>'
                '<p>Score each item 1–5, then put the scores into queue.csv or queue.jsonl (column human_score) and '
                'run <code>h2htalk review merge WORK_DIR [FILE]</code>.</p><table><tr><th>id</th><th>reason</th>'
                '<th>input</th>'
                '<th>reference</th><th>prediction</th><th>judge</th><th>rationale</th><th>human score</th></tr>'
                f'{rows}</table>')
    return paths


def _decode(path: str) -> Tuple[str, str]:
    """Text of a review file and the encoding used: UTF-8 (with or without BOM), UTF-16 with a BOM, or GB18030."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] in (b'\xff\xfe', b'\xfe\xff'):
        try:
            return data.decode('utf-16'), 'utf-16'
        except UnicodeDecodeError as e:
            raise ReviewError(f'{path}: starts with a UTF-16 BOM but is not valid UTF-16 ({e.reason})') from None
    try:
        return data.decode('utf-8-sig'), 'utf-8'
    except UnicodeDecodeError as e:
        utf8_error = e
    try:
        # Excel on Chinese Windows saves "CSV" in the ANSI code page, GBK, which GB18030 contains.
        return data.decode('gb18030'), 'gb18030'
    except UnicodeDecodeError:
        line = data[:utf8_error.start].count(b'\n') + 1
        raise ReviewError(f'{path}:{line}: neither UTF-8 ({utf8_error.reason} at byte {utf8_error.start}) nor '
                          'GB18030; save it as "CSV UTF-8"') from None


def _read_csv(path: str, text: str) -> List[Tuple[int, Any, Any]]:
    reader = csv.reader(io.StringIO(text, newline=''))
    rows, header, end = [], None, 0
    try:
        for cells in reader:
            # The physical line where this record starts: a quoted cell may hold line breaks.
            start, end = end + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header = [c.strip() for c in cells]
                missing = [c for c in REQUIRED_COLUMNS if c not in header]
                if missing:
                    raise ReviewError(f'{path}:{start}: the header has no column {missing} (found {header}); '
                                      'nothing was merged')
                continue
            row = dict(zip(header, cells))
            rows.append((start, row.get('review_id'), (row.get('human_score') or '').strip()))
    except csv.Error as e:
        raise ReviewError(f'{path}:{end + 1}: not readable as CSV ({e})') from None
    if header is None:
        raise ReviewError(f'{path}: empty file')
    return rows


def _read_jsonl(path: str, text: str) -> List[Tuple[int, Any, Any]]:
    rows = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ReviewError(f'{path}:{lineno}: invalid JSON ({e.msg})') from None
        if not isinstance(row, dict):
            raise ReviewError(f'{path}:{lineno}: expected a JSON object, got {type(row).__name__}')
        missing = [k for k in REQUIRED_COLUMNS if k not in row]
        if missing:
            raise ReviewError(f'{path}:{lineno}: no key {missing} (found {sorted(row)}); nothing was merged')
        rows.append((lineno, row['review_id'], row['human_score']))
    return rows


def _read_scores(path: str) -> Tuple[List[Tuple[int, Any, Any]], str]:
    """``(line, review_id, human_score)`` per record of a review file (the line is the one an editor
    shows), and the file's encoding."""
    text, encoding = _decode(path)
    return (_read_csv(path, text) if path.lower().endswith('.csv') else _read_jsonl(path, text)), encoding


def _earlier_merges(path: str, queue: Mapping[str, Any], run: str) -> Tuple[Dict[str, float], List[Dict[str, Any]]]:
    """The human scores (and the list of merged files) of an earlier ``merge`` of this run; empty when none.

    Raises:
        ReviewError: ``adjudicated.json`` cannot be read, or holds a score that is not a 1-5 number or an item
            that is no longer in the review queue (the run was evaluated again): naming the file and the item.
    """
    if not os.path.exists(path):
        return {}, []
    hint = f'move {path} away to start the merge over; nothing was merged'
    try:
        report = _read_json(path)
    except ReviewError as e:
        raise ReviewError(f'{e}; {hint}') from None
    human = report.get('human_scores') if isinstance(report, dict) else None
    if not isinstance(human, dict):
        raise ReviewError(f'{path}: no "human_scores" mapping; {hint}')
    for rid, value in human.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 5:
            raise ReviewError(f'{path}: human score {value!r} of {rid!r} is not a number in 1-5; {hint}')
        if rid not in queue:
            raise ReviewError(f'{path}: holds a human score for {rid!r}, which is no longer in the review queue of '
                              f'{run} (was the run evaluated again?); {hint}')
    merges = report.get('merges')
    if not isinstance(merges, list):  # written before merges accumulated: one file
        merges = [{'file': report.get('scores_file'), 'encoding': report.get('encoding'), 'scores': len(human),
                   'replaced': 0}]
    return {rid: float(v) for rid, v in human.items()}, merges


def merge(work_dir: str, scores_path: Optional[str] = None) -> Dict[str, Any]:
    """Validates human scores, then adds them to the run's adjudicated results; nothing is written if any row is bad.

    Scores accumulate over merges: ``adjudicated.json`` keeps every score merged before, and a score in this file
    for an item scored before replaces the earlier one (``report['merged']`` counts them). Move
    ``<run>/review/adjudicated.json`` away to start over.

    Args:
        work_dir: An OpenCompass work dir (its newest run is used) or one run folder.
        scores_path: The filled-in review file (``.csv`` or ``.jsonl``); default ``<run>/review/queue.csv``.

    Returns:
        ``adjudicated.json``'s content (``human_scores``: every score so far; ``merged``: this file's ``scores``,
        ``replaced`` earlier scores and how many of those ``changed``; ``merges``: every merged file; ``table``)
        plus ``markdown``, the summary table.

    Raises:
        ReviewError: a missing ``review_id``/``human_score`` column, an unknown or duplicate id, a score
            outside 1-5 or a boolean, no score at all, a directory or missing file for ``scores_path``, or an
            unreadable results, ``_review.jsonl`` or ``adjudicated.json`` file (file and line named).
    """
    run = find_run(work_dir)
    if scores_path is None:
        scores_path = os.path.join(run, 'review', 'queue.csv')
        if not os.path.exists(scores_path):
            raise ReviewError(f'{scores_path}: no review queue; run `h2htalk review export {work_dir}` first')
    elif os.path.isdir(scores_path):
        raise ReviewError(f'{scores_path}: is a directory; expected the filled-in review file (queue.csv or '
                          'queue.jsonl)')
    elif not os.path.exists(scores_path):
        raise ReviewError(f'{scores_path}: no such file')
    queue = {item['review_id']: item for item in collect_queue(run)}
    human: Dict[str, float] = {}
    rows, encoding = _read_scores(scores_path)
    for lineno, rid, raw in rows:
        if rid not in queue:
            raise ReviewError(f'{scores_path}:{lineno}: unknown review_id {rid!r} (not in the review queue of {run})')
        if raw in (None, ''):
            continue  # not reviewed yet
        if isinstance(raw, bool):  # JSON true/false: float(True) would be a score of 1.0
            raise ReviewError(f'{scores_path}:{lineno}: human_score {json.dumps(raw)} of {rid!r} is a boolean, '
                              'not a score 1-5')
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise ReviewError(f'{scores_path}:{lineno}: human_score {raw!r} is not a number') from None
        if not 1 <= value <= 5:
            raise ReviewError(f'{scores_path}:{lineno}: human_score {value} is outside 1-5')
        if rid in human:
            raise ReviewError(f'{scores_path}:{lineno}: review_id {rid!r} appears twice')
        human[rid] = value
    if not human:
        raise ReviewError(f'{scores_path}: no human_score is filled in; nothing to merge')
    out = os.path.join(run, 'review')
    earlier, merges = _earlier_merges(os.path.join(out, ADJUDICATED), queue, run)
    replaced = [rid for rid in human if rid in earlier]
    merged = {'file': os.path.abspath(scores_path), 'encoding': encoding, 'scores': len(human),
              'replaced': len(replaced), 'changed': sum(earlier[rid] != human[rid] for rid in replaced)}
    human = {**earlier, **human}  # a later score for the same item wins

    table = []
    for model in _model_dirs(run):
        for name in sorted(os.listdir(os.path.join(run, 'results', model))):
            if not name.endswith('.json'):
                continue
            path = os.path.join(run, 'results', model, name)
            result = _read_json(path)
            details = result.get('details') if isinstance(result, dict) else None
            if not isinstance(details, list):
                continue  # not an H2HTalk result with per-item details (e.g. a failed task's error record)
            judged = [(d.get('id', [None])[0], (d.get('judge') or [None])[0]) for d in details if isinstance(d, dict)]
            judged = [(i, j) for i, j in judged if isinstance(j, dict) and isinstance(j.get('overall'), (int, float))]
            if not judged:
                continue
            dataset = name[:-len('.json')]
            judge_only = [j['overall'] for _, j in judged]
            adjudicated = [human.get(f'{model}/{dataset}/{i}', j['overall']) for i, j in judged]
            table.append({'model': model, 'dataset': dataset, 'judged': len(judged),
                          'reviewed': sum(f'{model}/{dataset}/{i}' in human for i, _ in judged),
                          'judge_only': sum(judge_only) / len(judge_only),
                          'adjudicated': sum(adjudicated) / len(adjudicated)})
    os.makedirs(out, exist_ok=True)
    report = {'scores_file': merged['file'], 'encoding': encoding, 'human_scores': human, 'merged': merged,
              'merges': merges + [merged], 'table': table}
    with open(os.path.join(out, ADJUDICATED), 'w', encoding='utf-8') as f:
        json.dump(report, f, ensure_ascii=False, indent=2)
    cols = ('model', 'dataset', 'judged', 'reviewed', 'judge_only', 'adjudicated')
    with open(os.path.join(out, 'summary_adjudicated.csv'), 'w', encoding='utf-8', newline='') as f:
        writer = csv.DictWriter(f, fieldnames=cols)
        writer.writeheader()
        writer.writerows(table)
    lines = ['| ' + ' | '.join(cols) + ' |', '|' + '---|' * len(cols)]
    lines += ['| ' + ' | '.join(f'{r[c]:.2f}' if isinstance(r[c], float) else str(r[c]) for c in cols) + ' |'
              for r in table]
    with open(os.path.join(out, 'summary_adjudicated.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    report['markdown'] = '\n'.join(lines)
    return report
