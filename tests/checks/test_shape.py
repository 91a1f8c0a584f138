"""Length and sentence checks: the bounds agree with the instructions, and the counting rules."""
import re

import pytest

from opencompass_h2htalk.checks import Context, check_names, run_checks
from opencompass_h2htalk.checks import thresholds as T
from opencompass_h2htalk.checks.base import cjk_share, length, sentences, without_actions
from opencompass_h2htalk.checks.shape import check_length, check_sentences
from opencompass_h2htalk.data.prompts import INSTRUCTIONS_EN, INSTRUCTIONS_ZH

_ZH_NUM = {'一': 1, '两': 2, '二': 2, '三': 3, '四': 4, '五': 5}


def _zh_length(text):
    m = re.search(r'(\d+)到(\d+)个字', text)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.search(r'不超过(\d+)个字', text)
    return (None, int(m.group(1))) if m else None


def _en_length(text):
    m = re.search(r'(\d+) to (\d+) words', text)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.search(r'at most (\d+) words', text)
    return (None, int(m.group(1))) if m else None


def _zh_sentences(text):
    m = re.search(r'([一二两三四五])到([一二两三四五])句话', text)
    if m:
        return _ZH_NUM[m.group(1)], _ZH_NUM[m.group(2)]
    return (1, 1) if '一句话' in text else None


@pytest.mark.parametrize('subtask', sorted(INSTRUCTIONS_ZH))
def test_bounds_are_the_instructions_numbers(subtask):
    # recollection_synthesize bounds each line's content (20 characters), not the reply: its own check does that.
    zh = None if subtask == 'recollection_synthesize' else _zh_length(INSTRUCTIONS_ZH[subtask])
    en = None if subtask == 'recollection_synthesize' else _en_length(INSTRUCTIONS_EN[subtask])
    if subtask == 'itinerary_middle':  # 活动不超过10个字 bounds each line's activity, not the reply
        zh = en = None
    assert T.LENGTH_BOUNDS['zh'].get(subtask) == zh
    assert T.LENGTH_BOUNDS['en'].get(subtask) == en
    assert T.SENTENCE_BOUNDS.get(subtask) == _zh_sentences(INSTRUCTIONS_ZH[subtask])


def test_length_counts_characters_but_whitespace_in_chinese_and_words_in_english():
    assert length('你好， 我在。', 'zh') == 6
    assert length("I'm here, don't worry.", 'en') == 4
    assert length('', 'zh') == 0


def test_sentences_ignore_actions_vocatives_and_pauses():
    assert sentences('（笑）楠楠！拳击练得怎么样啦？第一课学了啥') == ['拳击练得怎么样啦', '第一课学了啥']
    assert sentences('哪有……我只是记得自己当初手腕也这么僵。') == ['哪有……我只是记得自己当初手腕也这么僵']
    assert sentences('Oh! I see. It is 3.5 km away.') == ['I see', 'It is 3.5 km away']
    assert without_actions('(smiles) hi （笑）') .split() == ['hi']


def test_cjk_share():
    assert cjk_share('我们去KTV吧') == pytest.approx(4 / 7)
    assert cjk_share('hello') == 0.0
    assert cjk_share('……') == 0.0


def _ctx(subtask, language='zh'):
    return Context(subtask=subtask, inputs={}, language=language)


def test_length_check_passes_inside_and_fails_outside_the_bounds():
    assert check_length('今' * 40, _ctx('dialogue_base')).passed is True
    r = check_length('今' * 41, _ctx('dialogue_base'))
    assert r.passed is False and '41 characters' in r.reason and 'at most 40' in r.reason
    assert check_length('今' * 79, _ctx('itinerary_basic')).passed is False
    assert check_length('今' * 80, _ctx('itinerary_basic')).passed is True
    assert check_length(' '.join(['word'] * 26), _ctx('dialogue_base', 'en')).passed is False
    assert check_length(' '.join(['word'] * 25), _ctx('dialogue_base', 'en')).passed is True


def test_sentence_check_one_sentence_for_feedback():
    assert check_sentences('掉的毛都够再拼一只小麦麦了，你家也有掉毛怪吗？', _ctx('itinerary_feedback')).passed is True
    r = check_sentences('书泡了水就救不回来了。冯叔那边风大吗？', _ctx('itinerary_feedback'))
    assert r.passed is False and '2 sentences' in r.reason
    assert check_sentences('That sounds lovely. Are you there now?', _ctx('itinerary_feedback', 'en')).passed is False


def test_an_empty_reply_fails_every_check():
    for reply in ('', '   ', '\u200b', None, 3):
        results = run_checks(reply, _ctx('dialogue_base'))
        assert [r.name for r in results] == check_names('dialogue_base')
        assert all(r.passed is False for r in results)


def test_unknown_subtask_is_refused():
    with pytest.raises(ValueError, match='no task checks'):
        check_names('gsm8k')
