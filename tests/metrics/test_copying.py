"""Copy-free scoring on literal texts: which spans count as copied, and what is left to score."""
import pytest

from opencompass_h2htalk.metrics.copying import (
    MIN_COPY, copied_share, copied_spans, copy_free_pairs, input_texts, strip_copied)

MESSAGE = '今天又被领导当着全组的面骂了，我真的不想干了'


def test_a_parrot_keeps_nothing():
    assert strip_copied(MESSAGE, [MESSAGE]) == ''
    assert strip_copied(f'“{MESSAGE}。”', [MESSAGE]) == ''  # quotes and a full stop are not words of its own
    assert copied_share(MESSAGE, [MESSAGE]) == 1.0


def test_a_reply_that_takes_up_a_few_words_keeps_them():
    reply = '被领导骂了心里肯定堵得慌，先喝口水，缓一缓。'
    assert copied_spans(reply, [MESSAGE]) == []  # 被领导 + 骂了 are not one run of six
    assert strip_copied(reply, [MESSAGE]) == reply
    assert copied_share(reply, [MESSAGE]) == 0.0


def test_only_the_copied_run_goes():
    reply = '当着全组的面骂了？这也太不给人留面子了。'
    assert copied_spans(reply, [MESSAGE]) == [(0, 8)]
    assert strip_copied(reply, [MESSAGE]) == '？这也太不给人留面子了。'
    assert copied_share(reply, [MESSAGE]) == pytest.approx(8 / 18)


def test_the_minimum_counts_word_characters_not_punctuation():
    source = '好累，好累，好累'
    assert copied_spans('好累，好累，', [source]) == []  # four word characters
    assert copied_spans('好累，好累，好累', [source]) == [(0, 8)]  # six
    assert copied_spans('好累，好累，', [source], min_copy=4) == [(0, 6)]
    with pytest.raises(ValueError, match='min_copy'):
        copied_spans('x', ['x'], min_copy=0)


def test_spans_from_several_sources_merge():
    sources = ['我明天要去医院复查', '医院复查完还得回公司开会']
    assert copied_spans('我明天要去医院复查完还得回公司开会', sources) == [(0, 17)]
    assert MIN_COPY == 6


def test_input_texts_skip_the_name_and_walk_every_field():
    inputs = {'user_name': '小雨', 'history': [{'role': 'user', 'content': '在吗'},
                                              {'role': 'assistant', 'content': '在呢'}],
              'today_schedule': [{'time': '09:00', 'activity': '开店'}], 'user_message': '好困', 'blank': ' '}
    assert input_texts(inputs) == ['user', '在吗', 'assistant', '在呢', '09:00', '开店', '好困']


def test_copy_free_pairs_strip_both_sides_and_blank_non_strings():
    preds, refs = copy_free_pairs([MESSAGE, None], ['当着全组的面骂了，换谁都难受。', '嗯。'], [[MESSAGE], [MESSAGE]])
    assert preds == ['', '']
    assert refs == ['换谁都难受。', '嗯。']  # the copied run takes the comma after it with it


def test_an_echo_said_back_in_the_second_person_is_a_copy():
    # Rule version 2: 我/你/您/咱/俺 are one character when spans are compared, so the user's 「我真的不想干了」 said back
    # as 「你真的不想干了」 is copied; what is left keeps its own pronouns.
    echo = '今天又被领导当着全组的面骂了，你真的不想干了'
    assert strip_copied(echo, [MESSAGE]) == '' and copied_share(echo, [MESSAGE]) == 1.0
    reply = '您真的不想干了？那先歇两天，我陪你想想。'
    assert copied_spans(reply, [MESSAGE]) == [(0, 7)]
    assert strip_copied(reply, [MESSAGE]) == '？那先歇两天，我陪你想想。'
    # Other words are not folded: 他 is not the user (five shared characters are no span; the folded 你 makes six).
    assert copied_spans('他真的不想干', [MESSAGE]) == [] and copied_spans('你真的不想干', [MESSAGE]) == [(0, 6)]
