import pytest

from opencompass_h2htalk.metrics.unified import is_empty, score_items
from opencompass_h2htalk.postprocessors import strip_reasoning


@pytest.mark.parametrize('raw,clean', [
    ('<think>先想想用户为什么难过</think>\n（轻声）我在呢。', '（轻声）我在呢。'),
    ('<THINK>a</THINK>b<think>c</think>d', 'bd'),
    ('用户需要安慰……</think>\n我在这里陪你。', '我在这里陪你。'),  # template opened <think> in the prompt
    ('<think>还没想完，就被截断了', ''),  # never reached an answer
    ('  普通回答  ', '普通回答'),
    # <thinking> is a reasoning tag too, in every form <think> is handled
    ('<thinking>先确认她的情绪</thinking>\n抱抱你，我在。', '抱抱你，我在。'),
    ('<Thinking>a</Thinking>b', 'b'),
    ('她需要被听见……</thinking>\n我在听。', '我在听。'),
    ('\n<thinking>还没想完', ''),
    ('\u200b<think>还没想完', ''),  # an invisible character before the tag does not hide it
    # an opening tag inside the reply is prose, not a reasoning block
    ('有些模型会先输出<think>标签再回答，你问的就是这个吧？', '有些模型会先输出<think>标签再回答，你问的就是这个吧？'),
    ('我在呢。<thinking>这个词你是在哪里看到的？', '我在呢。<thinking>这个词你是在哪里看到的？'),
    # invisible characters at the ends are stripped
    ('\u200b\ufeff我在。\u200b ', '我在。'),
    ('\u200b', ''),
])
def test_strip_reasoning(raw, clean):
    assert strip_reasoning(raw) == clean


def test_non_string_passes_through():
    assert strip_reasoning(None) is None


@pytest.mark.parametrize('reply', ['', '  \n', '\u200b', ' \u200b\u200c\u200d\u2060\ufeff ', None, 3])
def test_invisible_only_replies_count_as_empty(reply):
    assert is_empty(reply)
    item = score_items([reply], ['我在。'], embedder=None, alpha=1.0)[0]
    assert item.empty and item.unified == 0.0


@pytest.mark.parametrize('reply', ['我在。', '\u200b我在', 'ok'])
def test_visible_replies_are_not_empty(reply):
    assert not is_empty(reply)


@pytest.mark.parametrize('raw,reasoning', [
    ('<think>先想想</think>\n我在呢。', '<think>先想想</think>\n'),
    ('用户难过……</think>我在。', '用户难过……</think>'),     # the template opened the block in the prompt
    ('<think>没想完', '<think>没想完'),                       # all of it is reasoning: the answer is empty
    ('我在呢。', ''), ('', ''),
])
def test_reasoning_text_is_what_strip_reasoning_removes(raw, reasoning):
    from opencompass_h2htalk.postprocessors.reasoning import reasoning_text

    assert reasoning_text(raw) == reasoning
    assert len(reasoning_text(raw)) + len(strip_reasoning(raw)) <= len(raw)
