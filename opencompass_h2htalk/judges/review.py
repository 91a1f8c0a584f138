"""Human review of low judged scores: export the queue, merge human scores back (pure Python).

The judge evaluator writes ``results/<model>/<dataset>_review.jsonl`` for every item whose judged
overall score is below the threshold (3.5). ``export`` gathers them into ``<run>/review/`` as
``queue.jsonl``, ``queue.csv`` and a static ``queue.html``, each item with an empty ``human_score``.
``merge`` validates a filled-in file (JSONL or CSV) completely before writing anything, then writes
``adjudicated.json`` and ``summary_adjudicated.{md,csv}`` with judge-only and adjudicated means.
"""
from __future__ import annotations

import csv
import html
import json
import os
from typing import Any, Dict, List, Tuple

QUEUE_FIELDS = ('review_id', 'model', 'dataset', 'id', 'judge_overall', 'human_score', 'input', 'reference',
                'prediction', 'judge_rationale')


class ReviewError(ValueError):
    """A review file that cannot be merged (the message names the file, line and problem)."""


def find_run(work_dir: str) -> str:
    """``work_dir`` itself if it holds ``results/``, else its newest timestamped run folder."""
    if os.path.isdir(os.path.join(work_dir, 'results')):
        return work_dir
    runs = sorted(d for d in os.listdir(work_dir) if os.path.isdir(os.path.join(work_dir, d, 'results')))
    if not runs:
        raise FileNotFoundError(f'{work_dir}: no run with a results/ folder')
    return os.path.join(work_dir, runs[-1])


def _review_files(run: str) -> List[Tuple[str, str, str]]:
    out = []
    results = os.path.join(run, 'results')
    for model in sorted(os.listdir(results)):
        for name in sorted(os.listdir(os.path.join(results, model))):
            if name.endswith('_review.jsonl'):
                out.append((model, name[:-len('_review.jsonl')], os.path.join(results, model, name)))
    return out


def collect_queue(run: str) -> List[Dict[str, Any]]:
    """Every queued item of a run, with a ``review_id`` of the form ``model/dataset/id``."""
    queue = []
    for model, dataset, path in _review_files(run):
        with open(path, encoding='utf-8') as f:
            for line in f:
                if line.strip():
                    item = json.loads(line)
                    queue.append({'review_id': f'{model}/{dataset}/{item["id"]}', 'model': model, 'dataset': dataset,
                                  'human_score': '', **item})
    return queue


def export(work_dir: str) -> Dict[str, str]:
    """Writes the queue as JSONL, CSV and HTML under ``<run>/review/``; returns the paths."""
    run = find_run(work_dir)
    queue = collect_queue(run)
    out = os.path.join(run, 'review')
    os.makedirs(out, exist_ok=True)
    paths = {k: os.path.join(out, f'queue.{k}') for k in ('jsonl', 'csv', 'html')}
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
                         for k in ('review_id', 'input', 'reference', 'prediction', 'judge_overall', 'judge_rationale'))
        + f'<td><input name="{html.escape(item["review_id"])}" type="number" min="1" max="5" step="0.5"></td></tr>'
        for item in queue)
    with open(paths['html'], 'w', encoding='utf-8') as f:
        f.write('<!doctype html><meta charset="utf-8"><title>H2HTalk review queue</title>'
                '<style>td{vertical-align:top;border:1px solid #ccc;max-width:28em}pre{white-space:pre-wrap}</style>'
                f'<h1>H2HTalk review queue ({len(queue)} items below the judge threshold)</h1>'
                '<p>Score each item 1–5, then put the scores into queue.csv or queue.jsonl (column human_score) and '
                'run <code>h2htalk review merge WORK_DIR FILE</code>.</p><table><tr><th>id</th><th>input</th>'
                '<th>reference</th><th>prediction</th><th>judge</th><th>rationale</th><th>human score</th></tr>'
                f'{rows}</table>')
    return paths


def _read_scores(path: str) -> List[Tuple[int, str, Any]]:
    rows = []
    if path.endswith('.csv'):
        with open(path, encoding='utf-8', newline='') as f:
            for lineno, row in enumerate(csv.DictReader(f), start=2):
                rows.append((lineno, row.get('review_id'), row.get('human_score')))
    else:
        with open(path, encoding='utf-8') as f:
            for lineno, line in enumerate(f, start=1):
                if line.strip():
                    try:
                        row = json.loads(line)
                    except json.JSONDecodeError as e:
                        raise ReviewError(f'{path}:{lineno}: invalid JSON ({e.msg})') from None
                    rows.append((lineno, row.get('review_id'), row.get('human_score')))
    return rows


def merge(work_dir: str, scores_path: str) -> Dict[str, Any]:
    """Validates human scores, then writes adjudicated results; nothing is written if any row is bad.

    Raises:
        ReviewError: unknown review id, duplicate id, or a score outside 1–5 (file and line named).
    """
    run = find_run(work_dir)
    queue = {item['review_id']: item for item in collect_queue(run)}
    human: Dict[str, float] = {}
    for lineno, rid, raw in _read_scores(scores_path):
        if rid not in queue:
            raise ReviewError(f'{scores_path}:{lineno}: unknown review_id {rid!r} (not in the review queue of {run})')
        if raw in (None, ''):
            continue  # not reviewed yet
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise ReviewError(f'{scores_path}:{lineno}: human_score {raw!r} is not a number') from None
        if not 1 <= value <= 5:
            raise ReviewError(f'{scores_path}:{lineno}: human_score {value} is outside 1-5')
        if rid in human:
            raise ReviewError(f'{scores_path}:{lineno}: review_id {rid!r} appears twice')
        human[rid] = value

    table = []
    for model in sorted(os.listdir(os.path.join(run, 'results'))):
        for name in sorted(os.listdir(os.path.join(run, 'results', model))):
            if not name.endswith('.json'):
                continue
            with open(os.path.join(run, 'results', model, name), encoding='utf-8') as f:
                result = json.load(f)
            details = result.get('details') or []
            judged = [(d.get('id', [None])[0], (d.get('judge') or [None])[0]) for d in details]
            judged = [(i, j) for i, j in judged if j is not None]
            if not judged:
                continue
            dataset = name[:-len('.json')]
            judge_only = [j['overall'] for _, j in judged]
            adjudicated = [human.get(f'{model}/{dataset}/{i}', j['overall']) for i, j in judged]
            table.append({'model': model, 'dataset': dataset, 'judged': len(judged),
                          'reviewed': sum(f'{model}/{dataset}/{i}' in human for i, _ in judged),
                          'judge_only': sum(judge_only) / len(judge_only),
                          'adjudicated': sum(adjudicated) / len(adjudicated)})
    out = os.path.join(run, 'review')
    os.makedirs(out, exist_ok=True)
    report = {'scores_file': os.path.abspath(scores_path), 'human_scores': human, 'table': table}
    with open(os.path.join(out, 'adjudicated.json'), 'w', encoding='utf-8') as f:
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
