import pytest

from opencompass_h2htalk.postprocessors import strip_reasoning


@pytest.mark.parametrize('raw,clean', [
    ('<think>先想想用户为什么难过</think>\n（轻声）我在呢。', '（轻声）我在呢。'),
    ('<THINK>a</THINK>b<think>c</think>d', 'bd'),
    ('用户需要安慰……</think>\n我在这里陪你。', '我在这里陪你。'),  # template opened <think> in the prompt
    ('<think>还没想完，就被截断了', ''),  # never reached an answer
    ('  普通回答  ', '普通回答'),
])
def test_strip_reasoning(raw, clean):
    assert strip_reasoning(raw) == clean


def test_non_string_passes_through():
    assert strip_reasoning(None) is None
