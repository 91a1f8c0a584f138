"""Literal cases for the byte-level BPE rebuilt from GGUF metadata (no model, no GGUF file)."""
import pytest

from opencompass_h2htalk.localmodels.gguf_tokenizer import (
    GGUFTokenizerError, GGUFVocab, build_tokenizer, special_token_names)

# A hand-made GPT-2-style vocabulary: Ġ is the byte-level space, Ċ the newline; ids 0-2 are control tokens.
TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', 'h', 'i', 'Ġ', 'Ċ', '1', '2', 'hi', 'Ġhi', 'ä', '½', 'ł']
TYPES = [3, 3, 3] + [1] * (len(TOKENS) - 3)
MERGES = ['h i', 'Ġ hi']


def vocab(**changes) -> GGUFVocab:
    fields = dict(model='gpt2', pre='smollm', tokens=TOKENS, token_types=TYPES, merges=MERGES, bos_id=1, eos_id=2,
                  unk_id=0, pad_id=2, add_bos=False, chat_template=None)
    fields.update(changes)
    return GGUFVocab(**fields)


def test_merges_spaces_and_newlines_round_trip():
    tok = build_tokenizer(vocab())
    enc = tok.encode('hi hi\nhi')
    assert enc.tokens == ['hi', 'Ġhi', 'Ċ', 'hi']
    assert enc.ids == [9, 10, 6, 9]
    assert tok.decode(enc.ids) == 'hi hi\nhi'


def test_chinese_bytes_map_to_byte_level_symbols():
    # 你 is UTF-8 e4 bd a0; the GPT-2 byte map writes those bytes as ä ½ ł.
    tok = build_tokenizer(vocab())
    enc = tok.encode('你')
    assert enc.tokens == ['ä', '½', 'ł']
    assert tok.decode(enc.ids) == '你'


def test_control_tokens_are_matched_whole_and_skipped_on_decode():
    tok = build_tokenizer(vocab())
    enc = tok.encode('<|im_start|>hi<|im_end|>')
    assert enc.ids == [1, 9, 2]
    assert tok.decode(enc.ids, skip_special_tokens=True) == 'hi'


@pytest.mark.parametrize('pre,tokens', [('smollm', ['1', '2']), ('gpt-2', ['12'])])
def test_digit_split(pre, tokens):
    # smollm (like starcoder) splits every digit before BPE, so even a '1 2' merge cannot join them; GPT-2 does not.
    changed = vocab(pre=pre, tokens=TOKENS + ['12'], token_types=TYPES + [1], merges=MERGES + ['1 2'])
    assert build_tokenizer(changed).encode('12').tokens == tokens


def test_special_token_names():
    assert special_token_names(vocab()) == {'bos_token': '<|im_start|>', 'eos_token': '<|im_end|>',
                                            'unk_token': '<|endoftext|>', 'pad_token': '<|im_end|>'}
    with pytest.raises(GGUFTokenizerError, match='eos_token id 99 is outside the vocabulary of 14'):
        special_token_names(vocab(eos_id=99))


@pytest.mark.parametrize('changes,message', [
    (dict(model='llama'), "tokenizer.ggml.model is 'llama'; only 'gpt2'"),
    (dict(pre='qwen2'), "tokenizer.ggml.pre is 'qwen2'; known"),
    (dict(merges=['h i', 'hi']), "merge 1 'hi' is not two byte-level symbols"),
    (dict(token_types=[3]), '14 tokens but 1 token types'),
    (dict(tokens=TOKENS[:-1] + ['h']), r"token 'h' appears twice \(ids 3 and 13\)"),
])
def test_refuses_what_it_cannot_rebuild_exactly(changes, message):
    with pytest.raises(GGUFTokenizerError, match=message):
        build_tokenizer(vocab(**changes))
