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


def test_model_size_reads_moe_names_and_the_known_table():
    from opencompass_h2htalk.planning.costmodel import model_size

    assert model_size('Qwen/Qwen3-235B-A22B-Instruct-2507') == (235, 22)
    assert model_size('Qwen/Qwen3-30B-A3B') == (30, 3)
    assert model_size('Qwen/Qwen3-8B') == (8, 8)
    assert model_size('deepseek-ai/DeepSeek-V2.5') == (236, 21)   # no size in the name: KNOWN_SIZES
    assert model_size('zai-org/GLM-4.5-Air-FP8') == (106, 12)
    assert model_size('deepseek-reasoner') is None and params_from_name('gpt-4.1-2025-04-14') is None


def test_bytes_per_param_from_quantization_path_and_native_fp8():
    from opencompass_h2htalk.planning.costmodel import bytes_per_param

    assert bytes_per_param('Qwen/Qwen3-8B') == 2
    assert bytes_per_param('Qwen/Qwen3-235B-A22B-Instruct-2507-FP8') == 1
    assert bytes_per_param('Qwen/Qwen2.5-72B-Instruct-AWQ') == 0.5
    assert bytes_per_param('Qwen/Qwen3-8B', quantization='fp8') == 1
    assert bytes_per_param('deepseek-ai/DeepSeek-V3.1') == 1       # released in FP8
    with pytest.raises(CostError, match="quantization 'bitsandbytes'"):
        bytes_per_param('x', quantization='bitsandbytes')


def test_moe_loads_all_weights_and_decodes_like_twice_its_active_part():
    moe = model_cost('m', 'Qwen/Qwen3-235B-A22B-Instruct-2507', 8, 1024)
    # 470 GB of bf16 weights at 1 GB/s on each of 8 GPUs after 30 s start-up; decodes like a 44 B dense model
    # (400 tokens/s per GPU, the > 40 B class).
    assert moe.weights_gb == 470 and moe.load_s == pytest.approx(30 + 470 / 8)
    assert moe.decode_tps == 8 * 400
    small_moe = model_cost('s', 'Qwen/Qwen3-30B-A3B', 1, 1024)
    assert small_moe.decode_tps == 2500 and small_moe.weights_gb == 60   # like a 6 B dense model
    fp8 = model_cost('f', 'Qwen/Qwen3-235B-A22B-Instruct-2507-FP8', 4, 1024)
    assert fp8.weights_gb == 235 and fp8.load_s == pytest.approx(30 + 235 / 4)


def test_thinking_models_pay_their_reasoning_tokens():
    from opencompass_h2htalk.planning.costmodel import item_output_tokens, thinks

    assert thinks('Qwen/Qwen3-8B') and not thinks('Qwen/Qwen3-8B', {'enable_thinking': False})
    assert not thinks('Qwen/Qwen3-235B-A22B-Instruct-2507') and thinks('Qwen/Qwen3-235B-A22B-Thinking-2507')
    assert thinks('zai-org/GLM-4.5-Air') and thinks('deepseek-reasoner') and thinks('deepseek-ai/DeepSeek-R1')
    assert not thinks('Qwen/Qwen2.5-7B-Instruct') and not thinks('meta-llama/Llama-3.3-70B-Instruct')
    d = DatasetLoad('d', 10, 0, 100)                                # a 70-token reply
    off = model_cost('a', 'Qwen/Qwen3-8B', 1, 1024)
    on = model_cost('b', 'Qwen/Qwen3-8B', 1, 8192, thinking=True)
    assert off.reasoning_tokens == 0 and on.reasoning_tokens == 800
    assert item_output_tokens(off, d) == pytest.approx(70) and item_output_tokens(on, d) == pytest.approx(870)
    assert item_seconds(on, d) == pytest.approx(870 / 2500)
    cut = model_cost('c', 'Qwen/Qwen3-8B', 1, 512, thinking=True)   # max_out_len caps reasoning + reply
    assert item_output_tokens(cut, d) == 512
    s = settings_from(dict(reasoning_tokens=300, models={'b': dict(reasoning_tokens=2000)}))
    assert model_cost('b', 'Qwen/Qwen3-8B', 1, 8192, settings=s, thinking=True).reasoning_tokens == 2000
    assert model_cost('z', 'Qwen/Qwen3-8B', 1, 8192, settings=s, thinking=True).reasoning_tokens == 300
