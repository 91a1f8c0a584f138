"""Cost and throughput of a finished run, read from what OpenCompass leaves on disk (predictions/ and logs/).

Pure Python, no OpenCompass import. What OpenCompass 0.5.4 writes, and what is read from it:

* ``predictions/<model>/<dataset>.json``: ``{"0": {"origin_prompt": …, "prediction": …, "gold": …}, …}``, where
  ``origin_prompt`` is the prompt text or a list of ``{"role", "prompt"}`` messages. Input and output sizes are
  counted from these, in characters (tokens only when the caller has a tokenizer, see :func:`prediction_sizes`).
  ``tmp_<dataset>.json`` is an inference that never finished: counted apart, not as items.
* ``logs/infer/<model>/<task>.out`` and ``logs/eval/<model>/<task>.out``: one file per task (named after the task's
  first dataset). A task that finishes ends with OpenCompass's own ``time elapsed: 12.34s`` (``tasks/openicl_infer.py``
  and ``openicl_eval.py`` time the task from its construction to its end); that is the task's wall time. A log without
  that line (a task that failed or was killed) has no wall time: it is ``None`` with the reason, never 0. The infer
  log's ``Task [model/dataset,…]`` line names the task's datasets. Timestamps come in two forms: OpenCompass's
  logger writes ``11/23 08:52:20 - OpenCompass - INFO - …`` (no year: it is taken from the run folder's name) and the
  inferencers write ``[2026-11-23 08:52:20,902] [module] [INFO] …``.
"""
from __future__ import annotations

import glob
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..postprocessors.reasoning import reasoning_text

_ELAPSED = re.compile(r' - OpenCompass - INFO - time elapsed:\s*([0-9]+(?:\.[0-9]+)?)s\s*$')
_TASK = re.compile(r' - OpenCompass - INFO - Task \[(.*)\]\s*$')
_MM_TIME = re.compile(r'^(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d) - OpenCompass - ')
_PY_TIME = re.compile(r'^\[(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d),(\d{3})\] ')
_RUN_NAME = re.compile(r'(\d{8}_\d{6})$')


class RunLogError(ValueError):
    """A predictions file this module cannot read, named with its path (and item key)."""


@dataclass
class TaskLog:
    """One inference or evaluation task, from its ``.out`` file."""
    kind: str                        # 'infer' or 'eval'
    model: str                       # the folder under logs/<kind>/
    name: str                        # the file's stem: OpenCompass names a task's log after its first dataset
    path: str
    seconds: Optional[float]         # wall time; None when it cannot be derived (see ``why``)
    why: str                         # where ``seconds`` comes from, or why it is unknown
    datasets: List[str] = field(default_factory=list)   # 'model/dataset' pairs of the Task line (infer logs)
    start: Optional[datetime] = None   # first timestamp in the log
    end: Optional[datetime] = None     # last timestamp in the log


def run_start(run: str) -> Optional[datetime]:
    """The start time in a run folder's name (``…/20261123_085214``), or ``None`` when the name holds none."""
    m = _RUN_NAME.search(os.path.basename(os.path.normpath(run)))
    return datetime.strptime(m.group(1), '%Y%m%d_%H%M%S') if m else None


def _timestamp(line: str, after: Optional[datetime]) -> Optional[datetime]:
    """The time a log line starts with; a yearless time takes ``after``'s year (the next year if it would be before)."""
    m = _PY_TIME.match(line)
    if m:
        y, mo, d, h, mi, s, ms = (int(g) for g in m.groups())
        return datetime(y, mo, d, h, mi, s, ms * 1000)
    m = _MM_TIME.match(line)
    if m and after is not None:
        mo, d, h, mi, s = (int(g) for g in m.groups())
        t = datetime(after.year, mo, d, h, mi, s)
        # A run started on 31 December logs 01/01 lines of the next year; a day of slack for clock skew.
        return t.replace(year=after.year + 1) if t < after - timedelta(days=1) else t
    return None


def parse_task_log(text: str, year_from: Optional[datetime]) -> Tuple[Optional[float], str, List[str],
                                                                       Optional[datetime], Optional[datetime]]:
    """Wall time, its source, the Task line's ``model/dataset`` pairs, and the first and last timestamp of a log.

    Args:
        text: The ``.out`` file's text (progress bars and all).
        year_from: The run's start; gives the year of OpenCompass's yearless timestamps (``None``: those are
            skipped, the inferencers' full timestamps still count).

    Returns:
        ``(seconds, why, datasets, start, end)``; ``seconds`` is ``None`` when the log has no ``time elapsed`` line,
        and ``why`` then says so.
    """
    seconds, datasets, stamps = None, [], []
    # tqdm redraws with carriage returns; a log line can follow a bar on the same physical line after one.
    for raw in text.splitlines():
        for line in raw.split('\r'):
            t = _timestamp(line, year_from)
            if t is not None:
                stamps.append(t)
            m = _ELAPSED.search(line)
            if m and _MM_TIME.match(line):
                seconds = float(m.group(1))
            m = _TASK.search(line)
            if m and not datasets:
                datasets = [d.strip() for d in m.group(1).split(',') if d.strip()]
    start, end = (min(stamps), max(stamps)) if stamps else (None, None)
    if seconds is not None:
        why = "OpenCompass's 'time elapsed' line"
    else:
        why = "unknown: no 'time elapsed' line (the task failed, was killed or is still running)"
    return seconds, why, datasets, start, end


def task_logs(run: str) -> List[TaskLog]:
    """Every task log of a run folder, inference first, in file-name order."""
    year_from = run_start(run)
    out = []
    for kind in ('infer', 'eval'):
        for path in sorted(glob.glob(os.path.join(run, 'logs', kind, '*', '*.out'))):
            if year_from is None:  # a run folder without a timestamped name: the log file's own date
                year_from = datetime.fromtimestamp(os.path.getmtime(path)) - timedelta(days=1)
            with open(path, encoding='utf-8', errors='replace') as f:
                seconds, why, datasets, start, end = parse_task_log(f.read(), year_from)
            out.append(TaskLog(kind, os.path.basename(os.path.dirname(path)), os.path.basename(path)[:-len('.out')],
                               path, seconds, why, datasets, start, end))
    return out


def prompt_text(prompt: Any) -> str:
    """The text of an ``origin_prompt``: a string, or the ``prompt`` fields of a list of messages joined by newlines.

    Raises:
        ValueError: for any other shape (the caller names the file).
    """
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        parts = []
        for k, m in enumerate(prompt):
            if isinstance(m, str):
                parts.append(m)
            elif isinstance(m, dict) and isinstance(m.get('prompt'), str):
                parts.append(m['prompt'])
            else:
                raise ValueError(f'message {k} is neither text nor a {{"role", "prompt"}} object: {m!r:.80}')
        return '\n'.join(parts)
    raise ValueError(f'expected text or a list of messages, got {type(prompt).__name__}')


def _output_text(prediction: Any) -> str:
    """A prediction's text (several samples of one item are joined: their sizes add up)."""
    if isinstance(prediction, str):
        return prediction
    if isinstance(prediction, list) and all(isinstance(p, str) for p in prediction):
        return ''.join(prediction)
    raise ValueError(f'expected the reply text, got {type(prediction).__name__}')


@dataclass
class Sizes:
    """Items and input/output sizes of one model's predictions."""
    model: str
    items: int = 0
    input_chars: int = 0
    output_chars: int = 0
    input_tokens: Optional[int] = None     # None: no tokenizer (``tokens_why`` says why)
    output_tokens: Optional[int] = None
    tokens_why: str = ''
    reasoning_chars: int = 0               # of output_chars: reasoning a thinking model wrote (stripped before scoring)
    reasoning_tokens: Optional[int] = None  # of output_tokens, with a tokenizer
    items_by_dataset: Dict[str, int] = field(default_factory=dict)
    unfinished: List[str] = field(default_factory=list)   # tmp_ files: inferences that never finished


#: A token counter: ``(origin_prompt, prediction) -> (input tokens, output tokens)``.
Counter = Callable[[Any, str], Tuple[int, int]]


def prediction_sizes(run: str, model: str, count_tokens: Optional[Counter] = None,
                     tokens_why: str = 'no tokenizer') -> Sizes:
    """Items, characters (and tokens, with ``count_tokens``) of ``predictions/<model>/*.json``.

    Raises:
        RunLogError: naming the file and item whose prompt or prediction has an unknown shape.
    """
    sizes = Sizes(model, input_tokens=0 if count_tokens else None, output_tokens=0 if count_tokens else None,
                  tokens_why=tokens_why, reasoning_tokens=0 if count_tokens else None)
    for path in sorted(glob.glob(os.path.join(run, 'predictions', model, '*.json'))):
        name = os.path.basename(path)[:-len('.json')]
        if name.startswith('tmp_'):
            sizes.unfinished.append(path)
            continue
        try:
            with open(path, encoding='utf-8') as f:
                items = json.load(f)
        except json.JSONDecodeError as e:
            raise RunLogError(f'{path}: not valid JSON (line {e.lineno}): {e.msg}') from e
        if not isinstance(items, dict):
            raise RunLogError(f'{path}: expected an object of items, got {type(items).__name__}')
        for key, item in items.items():
            try:
                prompt = prompt_text(item.get('origin_prompt') if isinstance(item, dict) else None)
                output = _output_text(item.get('prediction'))
            except ValueError as e:
                raise RunLogError(f'{path}: item {key!r}: {e}') from e
            sizes.items += 1
            sizes.input_chars += len(prompt)
            sizes.output_chars += len(output)
            reasoning = reasoning_text(output)
            sizes.reasoning_chars += len(reasoning)
            if count_tokens:
                tin, tout = count_tokens(item['origin_prompt'], output)
                sizes.input_tokens += tin
                sizes.output_tokens += tout
                if reasoning:
                    sizes.reasoning_tokens += count_tokens(item['origin_prompt'], reasoning)[1]
        sizes.items_by_dataset[name] = len(items)
    return sizes


@dataclass
class Throughput:
    """One model's cost and throughput line in the report."""
    sizes: Sizes
    infer_seconds: Optional[float]
    eval_seconds: Optional[float]
    items_per_s: Optional[float]
    output_per_s: Optional[float]        # output tokens per second with a tokenizer, else characters
    notes: List[str] = field(default_factory=list)   # why a time or rate is unknown


def _total(tasks: List[TaskLog], kind: str) -> Tuple[Optional[float], List[str]]:
    if not tasks:
        return None, [f'no {kind} task log (a --debug run logs to the terminal, a resumed run to its first folder)']
    unknown = [t for t in tasks if t.seconds is None]
    if unknown:
        return None, [f'{kind} task {t.name}: {t.why}' for t in unknown]
    return sum(t.seconds for t in tasks), []


def throughput(sizes: Sizes, tasks: List[TaskLog]) -> Throughput:
    """Combines a model's prediction sizes with its task logs (``logs/<kind>/<model>/``).

    The rates divide the items (and output size) by the inference wall time, so they hold only when the model's
    inference logs cover every dataset it has predictions for and every one of them has a wall time.
    """
    infer = [t for t in tasks if t.kind == 'infer' and t.model == sizes.model]
    evals = [t for t in tasks if t.kind == 'eval' and t.model == sizes.model]
    infer_s, notes = _total(infer, 'inference')
    eval_s, eval_notes = _total(evals, 'evaluation')
    notes += eval_notes
    covered = {d.split('/', 1)[1] for t in infer for d in t.datasets if d.startswith(sizes.model + '/')}
    missing = sorted(set(sizes.items_by_dataset) - covered)
    items_per_s = output_per_s = None
    if infer_s is not None and missing:
        notes.append(f'no inference log names {", ".join(missing)}: no rate')
    elif infer_s is not None and infer_s <= 0:
        notes.append(f'inference wall time is {infer_s:g} s: no rate')
    elif infer_s is not None:
        items_per_s = sizes.items / infer_s
        out = sizes.output_tokens if sizes.output_tokens is not None else sizes.output_chars
        output_per_s = out / infer_s
    return Throughput(sizes, infer_s, eval_s, items_per_s, output_per_s, notes)


__all__ = ['RunLogError', 'Sizes', 'TaskLog', 'Throughput', 'parse_task_log', 'prediction_sizes', 'prompt_text',
           'run_start', 'task_logs', 'throughput']
