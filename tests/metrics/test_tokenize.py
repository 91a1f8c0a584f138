import pytest

from opencompass_h2htalk.metrics.tokenize import tokenize, tokenizer_info


def test_jieba_words_and_punctuation():
    assert tokenize('我今天很难过，因为考试没考好。') == ['我', '今天', '很', '难过', '，', '因为', '考试', '没考', '好', '。']


def test_whitespace_tokens_are_dropped():
    assert tokenize('晚安  ，\n做个好梦') == tokenize('晚安，做个好梦')


def test_char_mode_keeps_ascii_words():
    assert tokenize('我爱 Python3 和猫', 'char') == ['我', '爱', 'Python3', '和', '猫']


def test_unknown_mode():
    with pytest.raises(ValueError, match='unknown tokenizer mode'):
        tokenize('x', 'bpe')


def test_info_records_version():
    info = tokenizer_info('jieba')
    assert info['name'] == 'jieba' and info['version'] == '0.42.1'
