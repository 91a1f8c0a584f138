"""The metric-validity constructions on literal texts: each builds what it says, and the statistics count right."""
import random

import pytest

from opencompass_h2htalk.metrics.validity import (
    ENGLISH_REPLY, GENERIC_CARING, Scenario, accuracy, build_pairs, corrupt_facts, damage, fact_pools, first_half,
    last_input_block, sentences, shuffled, turned_echo, without_crisis_resource)

#: A hand tagger for the tests (jieba's is not needed to test the constructions): words split on spaces.
TAGS = {'嘉豪': 'nr', '小雨': 'nr', '杭州': 'ns', '成都': 'ns', '三天': 'm', '五天': 'm', '周三': 't', '周五': 't'}


def tag(text):
    return [(w, TAGS.get(w, 'x')) for w in text.split(' ')]


def test_last_input_block_prefers_the_users_own_words():
    assert last_input_block({'history': [], 'user_message': ' 今天好累 '}) == '今天好累'
    assert last_input_block({'user_feedback': '在忙吗', 'current_activity': '画画'}) == '在忙吗'
    assert last_input_block({'memories': ['用户在备考', '用户养猫']}) == '用户在备考\n用户养猫'
    assert last_input_block({'today_schedule': [], 'time_slot': {'time': '09:00', 'activity': '开店'}}) == '09:00 开店'
    assert last_input_block({'history': [{'role': 'user', 'content': '我先'}, {'role': 'assistant', 'content': '嗯'},
                                         {'role': 'user', 'content': '我后'}]}) == '我后'
    assert last_input_block({}) == ''


def test_turned_echo_says_the_message_back():
    assert turned_echo('我今天好累，我想睡') == '你今天好累，你想睡'
    assert turned_echo('今天好累') is None


def test_first_half_keeps_whole_sentences():
    assert sentences('早上好。吃了吗？\n好的') == ['早上好。', '吃了吗？', '好的']
    assert first_half('第一句话写长一点。第二句。第三句。') == '第一句话写长一点。'
    assert first_half('一二三四五六') == '一二三'
    assert first_half('甲。乙。') == '甲。'


def test_shuffled_changes_the_order_of_lines_or_sentences():
    text = '09:00 开店\n12:00 午饭\n18:00 关店'
    mixed = shuffled(text, random.Random(0))
    assert mixed != text and sorted(mixed.split('\n')) == sorted(text.split('\n'))
    assert shuffled('只有一句。', random.Random(0)) is None
    assert shuffled('同一句。同一句。', random.Random(0)) is None


def test_crisis_resource_removal_drops_only_its_clauses():
    reply = '你先别挂，我一直在，现在就拨打12356心理援助热线，好吗？你身边有人吗？'
    assert without_crisis_resource(reply) == '你先别挂，我一直在，好吗？你身边有人吗？'
    assert without_crisis_resource('我陪着你，慢慢说。') is None


def test_corrupt_facts_swaps_names_and_facts_for_others_of_the_same_kind():
    pools = fact_pools(['嘉豪 周三 去 杭州', '小雨 周五 去 成都 住 五天'], tag)
    assert pools['ns'] == ['成都', '杭州'] and pools['t'] == ['周三', '周五']
    out = corrupt_facts('嘉豪 周三 去 杭州 住 三天', tag, pools, random.Random(0), user_name='嘉豪', other_name='小雨')
    assert out == '小雨周五去成都住五天'
    assert corrupt_facts('我 在 呢', tag, pools, random.Random(0)) is None


def _scenario(sid, subtask, reference, persona='lin_che', last_input='今天 好累', name='嘉豪', chain=None):
    return Scenario(sid, subtask, persona, reference, last_input, name, chain)


def test_build_pairs_makes_each_construction_where_it_applies():
    group = [_scenario('dialogue_base-1', 'dialogue_base', '嘉豪 周三 去 杭州。好好 歇着。', last_input='我 今天 好累'),
             _scenario('dialogue_base-2', 'dialogue_base', '小雨 周五 去 成都。记得 吃饭。', name='小雨'),
             _scenario('safety-1', 'safety', '我 在。现在 打 12356 热线，好吗？', persona='lin_che'),
             _scenario('itinerary_middle-1', 'itinerary_middle', '09:00 开店\n18:00 关店')]
    damaged, ordered = build_pairs(group, tag, seed=0)
    kinds = {(p.construction, p.scenario.id) for p in damaged}
    assert ('facts swapped', 'dialogue_base-1') in kinds and ('lines shuffled', 'itinerary_middle-1') in kinds
    assert ('crisis resource removed', 'safety-1') in kinds and ('lines shuffled', 'dialogue_base-1') not in kinds
    assert all(p.better == p.scenario.reference for p in damaged)
    pairs = {(p.construction, p.scenario.id): p for p in ordered}
    assert pairs[('caring reply > echo', 'dialogue_base-1')].better == GENERIC_CARING
    assert pairs[('caring reply > echo', 'dialogue_base-1')].worse == '我 今天 好累'
    assert pairs[('caring reply > echo 我→你', 'dialogue_base-1')].worse == '你 今天 好累'
    assert ('caring reply > echo 我→你', 'dialogue_base-2') not in pairs  # 「今天 好累」 has no 我 to turn
    assert pairs[('caring reply > English', 'dialogue_base-1')].worse == ENGLISH_REPLY
    assert pairs[('half > another scenario', 'dialogue_base-1')].worse == '小雨 周五 去 成都。记得 吃饭。'
    assert not any(p.scenario.id.startswith('safety') for p in ordered)  # safety has only its damaged copies
    assert not any(p.better == p.scenario.reference for p in ordered)  # no pair has the target as a reply
    assert ('caring reply > echo', 'itinerary_middle-1') not in pairs  # its last input is not the user's message


def test_accuracy_counts_ties_half_and_has_an_interval():
    found = accuracy([3, 2, 1, 1], [1, 2, 2, 0], resamples=200, seed=0)
    assert found['n'] == 4 and found['accuracy'] == pytest.approx(62.5) and found['ties'] == 25.0
    assert 0 <= found['low'] <= found['accuracy'] <= found['high'] <= 100
    with pytest.raises(ValueError, match='2 better but 1 worse'):
        accuracy([1, 2], [1])


def test_damage_reports_the_drop_and_the_blind_share():
    found = damage([100, 100, 100, 100], [100, 90, 80, 100])
    assert found == {'n': 4, 'drop': 7.5, 'blind': 50.0}
