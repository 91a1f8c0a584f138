"""Calibrating the cost model on a real run: rates from timed measurements, task phases from Slurm and task logs (pure).

``bench/validate_costmodel.py`` times a calibration job (job overhead, model load, prefill and decode rates, the
SAP text's extra prompt tokens and seconds, the teardown after the work) and
turns it into a ``cost=dict(...)`` override of :mod:`.costmodel` with :func:`cost_override`; it
then runs a sweep through ``SlurmRunner`` and compares the cost model's per-task and sweep estimates with what Slurm
(:func:`parse_scontrol_jobs`) and the tasks' own logs (:func:`parse_task_log`) recorded (:func:`compare`).
No OpenCompass import.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Dict, List, Mapping, Optional, Sequence

#: The goal of issue 13, item 5: measured within 25 % of predicted.
TOLERANCE = 0.25


class CalibrationError(ValueError):
    """A measurement that cannot calibrate anything (missing field, non-positive duration or count)."""


@dataclass(frozen=True)
class Calibration:
    """What the calibration job measured (epoch seconds and counts).

    Attributes:
        submitted: When ``srun`` was called for the job.
        imported: When the job had imported what an inference task imports (OpenCompass, torch, vLLM, the plugin).
        loaded: When the model was built (vLLM engine up, weights loaded).
        input_chars: Characters of the data text (system + user prompt) of the calibration prompts.
        prefill_tokens: Prompt tokens of the calibration prompts as the model sees them (chat template included).
        prefill_s: Seconds to prefill them, cold (no prefix cached), one output token each.
        decode_tokens: Output tokens generated in the decode measurement.
        decode_s: Seconds of that decoding (the same prompts' cached prefill subtracted).
        finished: When the job's work was done (its record about to be written).
        ended: When ``srun`` returned: the engine stopped, the process exited, Slurm ended the job.
        prompts: Number of calibration prompts.
        added_tokens: Prompt tokens the SAP wrapper added to them, in all (SAP prompts minus the plain ones).
        added_s: Seconds the SAP prompts took beyond the plain ones, both cold and with the same output tokens.
    """

    submitted: float
    imported: float
    loaded: float
    input_chars: int
    prefill_tokens: int
    prefill_s: float
    decode_tokens: int
    decode_s: float
    finished: float
    ended: float
    prompts: int
    added_tokens: int
    added_s: float

    @classmethod
    def from_record(cls, record: Mapping, source: str = 'calibration record') -> 'Calibration':
        """The calibration in a JSON record written by the calibration job.

        Raises:
            CalibrationError: a field is missing, or a duration or count is not positive (``source`` names the file).
        """
        names = [f for f in cls.__dataclass_fields__]
        missing = [n for n in names if n not in record]
        if missing:
            raise CalibrationError(f'{source}: missing field(s) {missing}')
        cal = cls(**{n: record[n] for n in names})
        for name, value in [('imported - submitted', cal.imported - cal.submitted),
                            ('loaded - imported', cal.loaded - cal.imported), ('input_chars', cal.input_chars),
                            ('prefill_tokens', cal.prefill_tokens), ('prefill_s', cal.prefill_s),
                            ('decode_tokens', cal.decode_tokens), ('decode_s', cal.decode_s),
                            ('ended - finished', cal.ended - cal.finished), ('prompts', cal.prompts),
                            ('added_tokens', cal.added_tokens), ('added_s', cal.added_s)]:
            if not value > 0:
                raise CalibrationError(f'{source}: {name} must be > 0, got {value!r}')
        return cal

    @property
    def job_overhead_s(self) -> float:
        """Scheduling, srun and the task's imports: from ``srun`` to the moment the model starts loading."""
        return self.imported - self.submitted

    @property
    def load_s(self) -> float:
        return self.loaded - self.imported

    @property
    def prefill_tps(self) -> float:
        return self.prefill_tokens / self.prefill_s

    @property
    def decode_tps(self) -> float:
        return self.decode_tokens / self.decode_s

    @property
    def teardown_s(self) -> float:
        """From the end of the work to the end of the job (engine shutdown, exit, Slurm)."""
        return self.ended - self.finished

    @property
    def added_tokens_per_prompt(self) -> float:
        return self.added_tokens / self.prompts

    @property
    def added_paid(self) -> float:
        """The fraction of the added tokens whose prefill was paid: their extra seconds at the prefill rate, over
        the tokens (prefix caching lowers it; the slower attention over a longer context raises it)."""
        return self.added_s * self.prefill_tps / self.added_tokens

    @property
    def tokens_per_char(self) -> float:
        """Prompt tokens per character of data text: the model's tokenizer on this data, template included."""
        return self.prefill_tokens / self.input_chars


def cost_override(cal: Calibration, models: Sequence[str], added_models: Sequence[str] = (),
                  gpus_per_task: int = 1) -> Dict:
    """The ``cost=dict(...)`` of a partitioner that makes the cost model use the calibrated numbers for ``models``.

    Rates are per GPU slot: the measured task rates divided by ``gpus_per_task``. ``added_models`` (a subset of
    ``models``) carry the measured SAP text: its counted tokens per prompt replace the cost model's estimate.

    Raises:
        CalibrationError: an added model that is not among ``models``.
    """
    stray = sorted(set(added_models) - set(models))
    if stray:
        raise CalibrationError(f'added_models {stray} are not among the calibrated models {list(models)}')
    per = dict(load_s=round(cal.load_s, 2), prefill_tps_per_gpu=round(cal.prefill_tps / gpus_per_task, 2),
               decode_tps_per_gpu=round(cal.decode_tps / gpus_per_task, 2))
    added = dict(added_input_tokens=round(cal.added_tokens_per_prompt, 1))
    return dict(job_overhead_s=round(cal.job_overhead_s, 2), teardown_s=round(cal.teardown_s, 2),
                tokens_per_char=round(cal.tokens_per_char, 4), added_input_paid=round(cal.added_paid, 4),
                models={m: dict(per, **(added if m in added_models else {})) for m in models})


def parse_scontrol_jobs(text: str) -> List[Dict[str, str]]:
    """Jobs in ``scontrol -o show jobs`` output, one dict per job (``No jobs in the system`` gives none).

    Values with spaces (a job name such as ``OpenICLInfer[a/b, c/d]``) are not split on their spaces: a field ends
    where the next ``Key=`` begins.
    """
    jobs = []
    for line in text.splitlines():
        pairs = re.findall(r'(?:^|\s)([A-Za-z][A-Za-z0-9:/_]*)=(.*?)(?=\s+[A-Za-z][A-Za-z0-9:/_]*=|$)', line.strip())
        job = dict(pairs)
        if 'JobId' in job:
            jobs.append(job)
    return jobs


def slurm_time(value: str, where: str = 'scontrol') -> float:
    """Epoch seconds of a Slurm timestamp such as ``2026-11-23T09:36:31`` (local time, as Slurm prints it).

    Raises:
        CalibrationError: ``Unknown``/``None`` or a malformed time.
    """
    try:
        return datetime.strptime(value, '%Y-%m-%dT%H:%M:%S').timestamp()
    except (TypeError, ValueError):
        raise CalibrationError(f'{where}: not a Slurm time: {value!r}') from None


#: An OpenCompass (mmengine) log line: ``11/23 09:36:40 - OpenCompass - INFO - message``.
_LOG_LINE = re.compile(r'^(\d\d/\d\d \d\d:\d\d:\d\d) - OpenCompass - [A-Z]+ - (.*)$')
#: Terminal colours: a task's log is written by a console handler, which colours the level (``\x1b[4m\x1b[97mINFO``).
_ANSI = re.compile(r'\x1b\[[0-9;]*m')


@dataclass(frozen=True)
class TaskLog:
    """The moments an inference task's log records (epoch seconds)."""

    started: float       # "Task [...]": imports and task set-up done, the model is about to be built
    model_built: float   # first "The Progress of This Task": the model is loaded
    finished: float      # "time elapsed: ...": the task's work is done


def parse_task_log(text: str, year: int, source: str = 'task log') -> TaskLog:
    """The :class:`TaskLog` of an ``OpenICLInferTask`` log (its ``.out`` file; mmengine stamps omit the year).

    Raises:
        CalibrationError: a moment is missing (``source`` and the message looked for are named).
    """
    found: Dict[str, float] = {}
    wanted = {'started': lambda m: m.startswith('Task ['),
              'model_built': lambda m: m.startswith('The Progress of This Task'),
              'finished': lambda m: m.startswith('time elapsed:')}
    for line in text.splitlines():
        match = _LOG_LINE.match(_ANSI.sub('', line).strip())
        if not match:
            continue
        stamp, message = match.groups()
        for key, test in wanted.items():
            if key not in found and test(message):
                found[key] = datetime.strptime(f'{year}/{stamp}', '%Y/%m/%d %H:%M:%S').timestamp()
    missing = [k for k in wanted if k not in found]
    if missing:
        raise CalibrationError(f'{source}: no log line for {missing} (looked for "Task [", '
                               '"The Progress of This Task", "time elapsed:")')
    return TaskLog(**found)


@dataclass(frozen=True)
class Row:
    """One line of the predicted-vs-measured table."""

    name: str
    predicted_s: float
    measured_s: Optional[float]   # None: the measurement failed (never a number standing in for it)

    @property
    def ratio(self) -> Optional[float]:
        """measured / predicted, or None when there is no measurement."""
        return None if self.measured_s is None else self.measured_s / self.predicted_s

    @property
    def within(self) -> Optional[bool]:
        return None if self.ratio is None else abs(self.ratio - 1) <= TOLERANCE


def compare(predicted: Mapping[str, float], measured: Mapping[str, Optional[float]]) -> List[Row]:
    """Rows in the order of ``predicted``; a name measured but not predicted (or the reverse) is an error.

    Raises:
        CalibrationError: the two sides do not name the same tasks, or a prediction is not positive.
    """
    if set(predicted) != set(measured):
        raise CalibrationError(f'predicted and measured tasks differ: only predicted {sorted(set(predicted) - set(measured))}, '
                               f'only measured {sorted(set(measured) - set(predicted))}')
    rows = []
    for name, seconds in predicted.items():
        if not seconds > 0:
            raise CalibrationError(f'task {name!r}: predicted {seconds!r} s')
        rows.append(Row(name, seconds, measured[name]))
    return rows


def format_rows(rows: Sequence[Row]) -> str:
    """A fixed-width table: predicted, measured, measured/predicted and whether that is within :data:`TOLERANCE`."""
    width = max([len(r.name) for r in rows] + [4])
    head = f'{"task":{width}s} {"predicted s":>11s} {"measured s":>10s} {"ratio":>6s}  within {TOLERANCE:.0%}'
    lines = [head, '-' * len(head)]
    for r in rows:
        if r.measured_s is None:
            lines.append(f'{r.name:{width}s} {r.predicted_s:11.1f} {"FAILED":>10s} {"-":>6s}  -')
        else:
            lines.append(f'{r.name:{width}s} {r.predicted_s:11.1f} {r.measured_s:10.1f} {r.ratio:6.2f}  '
                         f'{"yes" if r.within else "NO"}')
    return '\n'.join(lines)
