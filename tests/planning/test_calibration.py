"""Calibration core (opencompass_h2htalk/planning/calibration.py) and cost files: literal inputs, no Slurm, no vLLM."""
import json
from datetime import datetime

import pytest

from opencompass_h2htalk.planning.calibration import (Calibration, CalibrationError, Row, compare, cost_override,
                                                      format_rows, parse_scontrol_jobs, parse_task_log, slurm_time)
from opencompass_h2htalk.planning.costmodel import CostError, load_cost_file, settings_from

RECORD = dict(submitted=100.0, imported=118.0, loaded=148.0, input_chars=1000, prefill_tokens=1750, prefill_s=7.0,
              decode_tokens=62, decode_s=2.0, finished=170.0, ended=178.5, prompts=2, added_tokens=2000, added_s=4.0)


def test_calibration_rates_and_cost_override():
    cal = Calibration.from_record(RECORD)
    assert (cal.job_overhead_s, cal.load_s, cal.prefill_tps, cal.decode_tps, cal.tokens_per_char) == (
        18.0, 30.0, 250.0, 31.0, 1.75)
    # SAP: 1000 added tokens per prompt; 4 s over 2000 tokens at 250 tokens/s = half of their prefill paid
    assert (cal.teardown_s, cal.added_tokens_per_prompt, cal.added_paid) == (8.5, 1000.0, 0.5)
    cost = cost_override(cal, ['a@nosap', 'a@sap'], added_models=['a@sap'])
    rates = dict(load_s=30.0, prefill_tps_per_gpu=250.0, decode_tps_per_gpu=31.0)
    assert cost == dict(job_overhead_s=18.0, teardown_s=8.5, tokens_per_char=1.75, added_input_paid=0.5, models={
        'a@nosap': rates, 'a@sap': dict(rates, added_input_tokens=1000.0)})
    settings_from(cost)  # the override is one the cost model accepts
    with pytest.raises(CalibrationError, match=r"added_models \['b'\] are not among the calibrated models"):
        cost_override(cal, ['a'], added_models=['b'])
    assert cost_override(cal, ['b'], gpus_per_task=2)['models']['b']['prefill_tps_per_gpu'] == 125.0


@pytest.mark.parametrize('change,message', [
    (dict(decode_s=0.0), 'decode_s must be > 0'),
    (dict(loaded=118.0), 'loaded - imported must be > 0'),
    (dict(ended=170.0), 'ended - finished must be > 0'),
    (dict(added_s=-0.5), 'added_s must be > 0'),
])
def test_calibration_refuses_non_positive_measurements(change, message):
    with pytest.raises(CalibrationError, match=f'cal.json: {message}'):
        Calibration.from_record({**RECORD, **change}, 'cal.json')


def test_calibration_names_missing_fields():
    record = dict(RECORD)
    del record['prefill_tokens']
    with pytest.raises(CalibrationError, match=r"cal.json: missing field\(s\) \['prefill_tokens'\]"):
        Calibration.from_record(record, 'cal.json')


def test_parse_scontrol_jobs_keeps_values_with_equals_signs_and_spaces():
    text = ('JobId=63 JobName=OpenICLInfer[m@nosap/h2htalk_a,m@nosap/h2htalk_b] UserId=root(0) JobState=COMPLETED '
            'SubmitTime=2026-11-23T09:36:28 StartTime=2026-11-23T09:36:29 EndTime=2026-11-23T09:38:01 '
            'TRES=cpu=2,mem=23081M,node=1,billing=2 CPUs/Task=2 ReqB:S:C:T=0:0:*:* WorkDir=/tmp/x y\n'
            'No jobs in the system\n')
    [job] = parse_scontrol_jobs(text)
    assert job['JobName'] == 'OpenICLInfer[m@nosap/h2htalk_a,m@nosap/h2htalk_b]'
    assert job['TRES'] == 'cpu=2,mem=23081M,node=1,billing=2' and job['CPUs/Task'] == '2'
    assert job['ReqB:S:C:T'] == '0:0:*:*' and job['WorkDir'] == '/tmp/x y'
    assert slurm_time(job['EndTime']) - slurm_time(job['StartTime']) == 92
    assert parse_scontrol_jobs('No jobs in the system\n') == []
    with pytest.raises(CalibrationError, match="not a Slurm time: 'Unknown'"):
        slurm_time('Unknown')


LOG = """\
[0;36m(EngineCore pid=1)[0;0m INFO 11-23 09:36:40 vllm noise
11/23 09:36:38 - OpenCompass - INFO - Task [m@nosap/h2htalk_a,m@nosap/h2htalk_b]
11/23 09:37:10 - OpenCompass - INFO - The Progress of This Task --> Models: 1/1, Datasets: 1/2
11/23 09:37:20 - OpenCompass - INFO - The Progress of This Task --> Models: 1/1, Datasets: 2/2
11/23 09:37:59 - OpenCompass - INFO - time elapsed: 81.20s
"""


def test_parse_task_log_moments():
    log = parse_task_log(LOG, 2026)
    at = lambda s: datetime(2026, 11, 23, 9, *s).timestamp()  # noqa: E731
    assert (log.started, log.model_built, log.finished) == (at((36, 38)), at((37, 10)), at((37, 59)))


def test_parse_task_log_reads_coloured_levels():
    coloured = LOG.replace(' - INFO - ', ' - \x1b[4m\x1b[97mINFO\x1b[0m - ')
    assert parse_task_log(coloured, 2026) == parse_task_log(LOG, 2026)


def test_parse_task_log_names_what_is_missing():
    with pytest.raises(CalibrationError, match=r"x.out: no log line for \['finished'\]"):
        parse_task_log(LOG.replace('time elapsed', 'time spent'), 2026, 'x.out')


def test_compare_and_table():
    rows = compare({'t1': 100.0, 'sweep': 200.0}, {'t1': 120.0, 'sweep': None})
    assert rows == [Row('t1', 100.0, 120.0), Row('sweep', 200.0, None)]
    assert rows[0].ratio == pytest.approx(1.2) and rows[0].within is True
    assert Row('t', 100.0, 126.0).within is False and Row('t', 100.0, 75.0).within is True
    table = format_rows(rows)
    assert 'FAILED' in table.splitlines()[-1] and '1.20  yes' in table.splitlines()[-2]
    with pytest.raises(CalibrationError, match=r"only predicted \['t2'\], only measured \[\]"):
        compare({'t1': 1.0, 't2': 1.0}, {'t1': 1.0})


def test_load_cost_file(tmp_path):
    good = tmp_path / 'cost.json'
    good.write_text(json.dumps({'job_overhead_s': 18, 'models': {'m': {'load_s': 30}}}))
    assert settings_from(load_cost_file(str(good))).models == {'m': {'load_s': 30}}
    bad = tmp_path / 'bad.json'
    bad.write_text('{"job_overhead_s": 18,\n "models": }')
    with pytest.raises(CostError, match=f'cost file {bad}, line 2 column 12: not JSON'):
        load_cost_file(str(bad))
    listed = tmp_path / 'list.json'
    listed.write_text('[1]')
    with pytest.raises(CostError, match='expected a JSON object'):
        load_cost_file(str(listed))
    with pytest.raises(CostError, match='cannot be read'):
        load_cost_file(str(tmp_path / 'missing.json'))
