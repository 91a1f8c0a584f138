"""The cost model (opencompass_h2htalk/planning/costmodel.py): literal numbers from the documented defaults."""
import math

import pytest

from opencompass_h2htalk.planning.costmodel import (CostError, CostSettings, DatasetLoad, item_seconds, model_cost,
                                           params_from_name, settings_from, task_seconds, text_tokens,
                                           with_load_scale)


def test_params_from_name():
    assert params_from_name('Qwen/Qwen2.5-72B-Instruct') == 72
    assert params_from_name('Qwen/Qwen2.5-7B-Instruct') == 7
    assert params_from_name('01-ai/Yi-1.5-34B-Chat') == 34
    assert params_from_name('google/gemma-2-27b-it') == 27
    assert params_from_name('internlm/internlm2_5-7b-chat') == 7
    assert params_from_name('gpt-4o-2024-08-06') is None
    assert params_from_name('/models/smollm2-1.7b') == 1.7


def test_defaults_by_size_and_tp():
    small = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024)
    # 30 s vLLM start-up + 14 GB of bf16 weights at 1 GB/s; 2500 tokens/s decode, 10x that for prefill.
    assert small.load_s == pytest.approx(44.0) and small.decode_tps == 2500 and small.prefill_tps == 25000
    assert small.fixed_s == pytest.approx(74.0)  # + 20 s Slurm job overhead + 10 s teardown
    assert small.added_input_tokens == 0
    big = model_cost('b', 'Qwen/Qwen2.5-72B-Instruct', 4, 1024)
    assert big.load_s == pytest.approx(30 + 144 / 4) and big.decode_tps == 4 * 400
    mid = model_cost('c', 'Qwen/Qwen2.5-32B-Instruct', 2, 1024)
    assert mid.decode_tps == 2 * 800
    hf = model_cost('d', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024, backend='hf')
    assert hf.load_s == pytest.approx(10 + 14) and hf.decode_tps == 625
    api = model_cost('e', 'gpt-4o', 0, 1024)
    assert api.gpus == 0 and math.isinf(api.decode_tps)


def test_overrides_per_model_and_global():
    s = settings_from(dict(job_overhead_s=5, load_scale=2,
                           models={'a': dict(load_s=10, decode_tps_per_gpu=1000)}))
    m = model_cost('a', 'no-size-in-this-name', 2, 1024, settings=s)
    assert m.load_s == 20 and m.decode_tps == 2000 and m.prefill_tps == 20000 and m.fixed_s == 35
    assert model_cost('a', 'x', 1, 8, settings=settings_from(dict(teardown_s=0, models={'a': dict(
        load_s=10, decode_tps_per_gpu=1000)}))).fixed_s == 30
    assert model_cost('x', 'm', 1, 8, settings=settings_from(dict(models={'x': dict(params_b=7)}))).load_s == 44
    assert with_load_scale(CostSettings(), 0.5).load_scale == 0.5


def test_bad_settings_are_named():
    with pytest.raises(CostError, match=r"unknown setting\(s\) \['load_time'\]"):
        settings_from(dict(load_time=3))
    with pytest.raises(CostError, match=r"cost.models\['a'\]: unknown setting\(s\) \['speed'\]"):
        settings_from(dict(models={'a': dict(speed=1)}))
    with pytest.raises(CostError, match=r'cost.tokens_per_char must be > 0, got 0'):
        settings_from(dict(tokens_per_char=0))
    with pytest.raises(CostError, match=r'cost.teardown_s must be >= 0, got -1'):
        settings_from(dict(teardown_s=-1))
    with pytest.raises(CostError, match=r"cost.models\['a'\].added_input_tokens must be >= 0, got -5"):
        settings_from(dict(models={'a': dict(added_input_tokens=-5)}))
    settings_from(dict(added_input_paid=0, models={'a': dict(added_input_tokens=0)}))  # zero is a valid setting
    with pytest.raises(CostError, match=r"model 'm': no parameter count in its path 'local/weights'"):
        model_cost('m', 'local/weights', 1, 512)


def test_item_and_task_seconds():
    m = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024)
    d = DatasetLoad('ds', 10, mean_input_chars=1000, mean_reference_chars=100)
    # 70 output tokens / 2500 + 700 input tokens / 25000
    assert item_seconds(m, d) == pytest.approx(70 / 2500 + 700 / 25000)
    capped = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 20)
    assert item_seconds(capped, d) == pytest.approx(20 / 2500 + 700 / 25000)  # reply capped by max_out_len
    assert task_seconds(m, [1.0, 2.0]) == pytest.approx(77.0)
    assert item_seconds(model_cost('api', 'gpt-4o', 0, 512), d) == 0.0


def test_text_tokens_counts_cjk_and_latin_apart():
    # 4 CJK characters (punctuation included) at 0.7, 8 others at 0.25
    assert text_tokens('你好，世Hi there') == pytest.approx(4 * 0.7 + 8 * 0.25)
    assert text_tokens('') == 0
    assert text_tokens('abcd', settings_from(dict(latin_tokens_per_char=0.5))) == 2


def test_added_text_pays_its_prefill_share():
    d = DatasetLoad('ds', 10, mean_input_chars=1000, mean_reference_chars=100)
    plain = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024)
    sap = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024, added_text='x' * 4000)  # 1000 tokens
    assert sap.added_input_tokens == 1000 and sap.fixed_s == plain.fixed_s
    # a quarter of the 1000 added tokens (the default paid fraction) at 25000 prefill tokens/s
    assert item_seconds(sap, d) - item_seconds(plain, d) == pytest.approx(250 / 25000)
    counted = settings_from(dict(added_input_paid=0.5, models={'a': dict(added_input_tokens=1450)}))
    over = model_cost('a', 'Qwen/Qwen2.5-7B-Instruct', 1, 1024, settings=counted, added_text='ignored: counted')
    assert over.added_input_tokens == 1450
    assert item_seconds(over, d, counted) - item_seconds(plain, d, counted) == pytest.approx(725 / 25000)
