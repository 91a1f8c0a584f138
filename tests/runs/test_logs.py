"""Cost and throughput from a run's predictions/ and logs/ (opencompass_h2htalk.runs.logs), on hand-written snippets."""
import json
from datetime import datetime

import pytest

from opencompass_h2htalk.runs.logs import (RunLogError, parse_task_log, prediction_sizes, prompt_text, run_start,
                                         task_logs, throughput)

# What OpenCompass 0.5.4's infer task writes (copied in shape from a real demo run): its logger's yearless lines,
# the inferencer's full timestamps, tqdm bars redrawn with carriage returns, and the closing 'time elapsed' line.
INFER_LOG = """\
11/23 08:52:20 - OpenCompass - INFO - Task [m/h2htalk_dialogue_base,m/h2htalk_dialogue_emotion]
11/23 08:52:20 - OpenCompass - INFO - The Progress of This Task --> Models: 1/1, Datasets: 1/2
Map:   0%|          | 0/2 [00:00<?, ? examples/s]\rMap: 100%|██████████| 2/2 [00:00<00:00, 428.32 examples/s]
11/23 08:52:20 - OpenCompass - INFO - Start inferencing [m/h2htalk_dialogue_base]
[2026-11-23 08:52:20,902] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting build dataloader
  0%|          | 0/1 [00:00<?, ?it/s]\r100%|██████████| 1/1 [00:00<00:00, 457.24it/s]
11/23 08:52:21 - OpenCompass - INFO - Start inferencing [m/h2htalk_dialogue_emotion]
[2026-11-23 08:52:33,117] [opencompass.openicl.icl_inferencer.icl_gen_inferencer] [INFO] Starting inference process...
11/23 08:52:34 - OpenCompass - INFO - time elapsed: 14.26s
"""
# The eval task formats the number with a leading space ('{x: .2f}') and names no datasets.
EVAL_LOG = """\
Map:   0%|          | 0/2 [00:00<?, ? examples/s]\rMap: 100%|██████████| 2/2 [00:00<00:00, 285.20 examples/s]
11/23 08:52:40 - OpenCompass - INFO - Running 0-th replica of evaluation
11/23 08:52:42 - OpenCompass - INFO - time elapsed:  2.01s
"""
RUN_START = datetime(2026, 11, 23, 8, 52, 14)


def test_infer_log_gives_the_elapsed_time_the_datasets_and_the_first_and_last_timestamp():
    seconds, why, datasets, start, end = parse_task_log(INFER_LOG, RUN_START)
    assert seconds == 14.26 and why == "OpenCompass's 'time elapsed' line"
    assert datasets == ['m/h2htalk_dialogue_base', 'm/h2htalk_dialogue_emotion']
    assert start == datetime(2026, 11, 23, 8, 52, 20) and end == datetime(2026, 11, 23, 8, 52, 34)


def test_eval_log_with_its_leading_space():
    seconds, _, datasets, start, end = parse_task_log(EVAL_LOG, RUN_START)
    assert (seconds, datasets) == (2.01, [])
    assert (start, end) == (datetime(2026, 11, 23, 8, 52, 40), datetime(2026, 11, 23, 8, 52, 42))


def test_a_task_that_did_not_finish_has_no_time_never_zero():
    cut = INFER_LOG.rsplit('11/23 08:52:34', 1)[0]
    seconds, why, datasets, start, end = parse_task_log(cut, RUN_START)
    assert seconds is None and why.startswith("unknown: no 'time elapsed' line")
    assert len(datasets) == 2 and end == datetime(2026, 11, 23, 8, 52, 33, 117000)
    # A 'time elapsed' text that is not OpenCompass's logger line (e.g. the model printing it) does not count.
    assert parse_task_log('a reply said: - OpenCompass - INFO - time elapsed: 3.00s\n', RUN_START)[0] is None
    assert parse_task_log('', RUN_START) == (None, "unknown: no 'time elapsed' line (the task failed, was killed "
                                                   "or is still running)", [], None, None)


def test_yearless_timestamps_take_the_run_year_and_roll_over_at_new_year():
    log = ('12/31 23:59:58 - OpenCompass - INFO - Task [m/x]\n'
           '01/01 00:00:03 - OpenCompass - INFO - time elapsed: 5.00s\n')
    _, _, _, start, end = parse_task_log(log, datetime(2026, 12, 31, 23, 59, 50))
    assert (start, end) == (datetime(2026, 12, 31, 23, 59, 58), datetime(2027, 1, 1, 0, 0, 3))
    # Without a year the yearless lines are skipped; full timestamps still count; the elapsed line still counts.
    assert parse_task_log(INFER_LOG, None)[0::3] == (14.26, datetime(2026, 11, 23, 8, 52, 20, 902000))


def test_run_start_reads_the_folder_name():
    assert run_start('/x/outputs/demo/20261123_085214') == RUN_START
    assert run_start('/x/outputs/demo/20261123_085214/') == RUN_START
    assert run_start('/x/outputs/demo/latest') is None


def test_prompt_text_of_a_string_and_of_messages():
    assert prompt_text('你好') == '你好'
    assert prompt_text([{'role': 'SYSTEM', 'prompt': '你是何晴。'}, {'role': 'HUMAN', 'prompt': '今天好热'}]) == \
        '你是何晴。\n今天好热'
    with pytest.raises(ValueError, match='message 1 is neither text nor'):
        prompt_text([{'role': 'SYSTEM', 'prompt': 'a'}, {'role': 'HUMAN'}])
    with pytest.raises(ValueError, match='got int'):
        prompt_text(3)


def _predictions(run, model, name, items):
    folder = run / 'predictions' / model
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f'{name}.json').write_text(json.dumps(items, ensure_ascii=False), encoding='utf-8')


def _log(run, kind, model, name, text):
    folder = run / 'logs' / kind / model
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f'{name}.out').write_text(text, encoding='utf-8')


@pytest.fixture
def run(tmp_path):
    run = tmp_path / '20261123_085214'
    # dialogue_base: a chat prompt (4 + 4 characters plus the joining newline) and a 5-character reply;
    # dialogue_emotion: a string prompt of 3 characters and a 2-character reply, twice.
    chat = [{'role': 'SYSTEM', 'prompt': '你是何晴'}, {'role': 'HUMAN', 'prompt': '今天好热'}]
    _predictions(run, 'm', 'h2htalk_dialogue_base', {'0': {'origin_prompt': chat, 'prediction': '多喝点水吧', 'gold': 'x'}})
    _predictions(run, 'm', 'h2htalk_dialogue_emotion', {str(k): {'origin_prompt': '我难过', 'prediction': '抱抱'}
                                                        for k in range(2)})
    _log(run, 'infer', 'm', 'h2htalk_dialogue_base', INFER_LOG)
    _log(run, 'eval', 'm', 'h2htalk_dialogue_base', EVAL_LOG)
    return run


def test_sizes_times_and_rates_of_a_run(run):
    sizes = prediction_sizes(str(run), 'm')
    assert (sizes.items, sizes.input_chars, sizes.output_chars) == (3, 9 + 3 + 3, 5 + 2 + 2)
    assert sizes.input_tokens is None and sizes.tokens_why == 'no tokenizer'
    assert sizes.items_by_dataset == {'h2htalk_dialogue_base': 1, 'h2htalk_dialogue_emotion': 2}
    tasks = task_logs(str(run))
    assert [(t.kind, t.model, t.name, t.seconds) for t in tasks] == [
        ('infer', 'm', 'h2htalk_dialogue_base', 14.26), ('eval', 'm', 'h2htalk_dialogue_base', 2.01)]
    t = throughput(sizes, tasks)
    assert (t.infer_seconds, t.eval_seconds, t.notes) == (14.26, 2.01, [])
    assert t.items_per_s == pytest.approx(3 / 14.26) and t.output_per_s == pytest.approx(9 / 14.26)


def test_a_thinking_models_reasoning_is_counted_apart(tmp_path):
    run = tmp_path / '20261123_085214'
    _predictions(run, 'm', 'h2htalk_safety', {'0': {'origin_prompt': '我难过', 'prediction': '<think>先想想</think>我在。'},
                                              '1': {'origin_prompt': '你好', 'prediction': '你好呀'}})
    sizes = prediction_sizes(str(run), 'm', lambda prompt, reply: (1, len(reply)), 'a test counter')
    assert (sizes.output_chars, sizes.reasoning_chars) == (len('<think>先想想</think>我在。') + 3, len('<think>先想想</think>'))
    assert sizes.reasoning_tokens == len('<think>先想想</think>')
    assert prediction_sizes(str(run), 'm').reasoning_tokens is None


def test_tokens_are_counted_only_with_a_counter(run):
    sizes = prediction_sizes(str(run), 'm', lambda prompt, reply: (10, len(reply)), 'a test counter')
    assert (sizes.input_tokens, sizes.output_tokens, sizes.tokens_why) == (30, 9, 'a test counter')
    t = throughput(sizes, task_logs(str(run)))
    assert t.output_per_s == pytest.approx(9 / 14.26)   # tokens, since there are tokens


def test_an_unknown_time_or_an_uncovered_dataset_gives_no_rate(run):
    _predictions(run, 'm', 'h2htalk_dialogue_schedule', {'0': {'origin_prompt': '在忙吗', 'prediction': '在'}})
    t = throughput(prediction_sizes(str(run), 'm'), task_logs(str(run)))
    assert t.infer_seconds == 14.26 and t.items_per_s is None and t.output_per_s is None
    assert t.notes == ['no inference log names h2htalk_dialogue_schedule: no rate']
    _log(run, 'infer', 'm', 'h2htalk_dialogue_schedule',
         '11/23 08:53:00 - OpenCompass - INFO - Task [m/h2htalk_dialogue_schedule]\n')
    t = throughput(prediction_sizes(str(run), 'm'), task_logs(str(run)))
    assert t.infer_seconds is None and t.items_per_s is None and t.eval_seconds == 2.01
    assert t.notes == ["inference task h2htalk_dialogue_schedule: unknown: no 'time elapsed' line (the task failed, "
                       "was killed or is still running)"]


def test_a_run_without_logs_has_unknown_times(run):
    import shutil

    shutil.rmtree(run / 'logs')
    t = throughput(prediction_sizes(str(run), 'm'), task_logs(str(run)))
    assert (t.infer_seconds, t.eval_seconds, t.items_per_s) == (None, None, None)
    assert t.notes[0].startswith('no inference task log (a --debug run logs to the terminal')


def test_unfinished_and_unreadable_predictions(run):
    _predictions(run, 'm', 'tmp_h2htalk_dialogue_schedule', {'0': {'origin_prompt': '在忙吗', 'prediction': '在'}})
    sizes = prediction_sizes(str(run), 'm')
    assert sizes.items == 3
    assert [p.rsplit('/', 1)[1] for p in sizes.unfinished] == ['tmp_h2htalk_dialogue_schedule.json']
    _predictions(run, 'm', 'h2htalk_dialogue_schedule', {'0': {'origin_prompt': '在忙吗', 'prediction': None}})
    with pytest.raises(RunLogError, match=r"h2htalk_dialogue_schedule.json: item '0': expected the reply text, got "
                                          r"NoneType"):
        prediction_sizes(str(run), 'm')
    (run / 'predictions' / 'm' / 'h2htalk_dialogue_schedule.json').write_text('{"0": ', encoding='utf-8')
    with pytest.raises(RunLogError, match=r'h2htalk_dialogue_schedule.json: not valid JSON \(line 1\)'):
        prediction_sizes(str(run), 'm')
