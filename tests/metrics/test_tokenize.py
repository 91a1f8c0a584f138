from importlib.metadata import version

import pytest

from opencompass_h2htalk.metrics.tokenize import tokenize, tokenizer_info


def test_jieba_words_and_punctuation():
    # Version-independent: the tokens cover the text exactly, in order; dictionary words stay whole and
    # punctuation is its own token. The split of the colloquial 没考好 (没考|好 with jieba 0.42.1) depends
    # on the dictionary and the HMM, so it is not pinned.
    text = '我今天很难过，因为考试没考好。'
    tokens = tokenize(text)
    assert ''.join(tokens) == text
    assert tokens[:6] == ['我', '今天', '很', '难过', '，', '因为'] and tokens[6] == '考试' and tokens[-1] == '。'
    assert len(tokens) < len(text) - 4  # words, not characters


def test_whitespace_tokens_are_dropped():
    assert tokenize('晚安  ，\n做个好梦') == tokenize('晚安，做个好梦')


def test_char_mode_keeps_ascii_words():
    assert tokenize('我爱 Python3 和猫', 'char') == ['我', '爱', 'Python3', '和', '猫']


def test_unknown_mode():
    with pytest.raises(ValueError, match='unknown tokenizer mode'):
        tokenize('x', 'bpe')


def test_info_records_the_installed_version():
    info = tokenizer_info('jieba')
    assert info['name'] == 'jieba' and info['version'] == version('jieba')
