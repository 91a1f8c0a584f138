"""Literal tests: synthesize support and horizons, no new facts, middle coverage, slot bounds, time of day."""
from opencompass_h2htalk.audit.grounding import (check_middle_coverage, check_new_facts, check_slot_bounds,
                                                 check_synthesize, check_time_of_day, overview_clauses,
                                                 parse_schedule_lines, parse_synthesize, tag_fits)

from .helpers import checks, rec

HISTORY = [{'role': 'user', 'content': '我在市一医院急诊科当护士，这个月排了十二个夜班。'},
           {'role': 'assistant', 'content': '够呛。'},
           {'role': 'user', 'content': '我打算这周末去买遮光窗帘。对了，我芒果过敏。'},
           {'role': 'assistant', 'content': '记下了。'}]


def _synth(reference):
    return rec('recollection_synthesize', {'history': HISTORY}, reference)


def test_parse_synthesize():
    facts, errors = parse_synthesize('职业｜用户是护士｜长期\n坏行\n计划｜用户买窗帘｜很久')
    assert facts == [(1, '职业', '用户是护士', '长期')]
    assert [e[0] for e in errors] == [2, 3]
    assert parse_synthesize('无可记录的信息') == ([], [])


def test_supported_facts_pass():
    ref = '职业｜用户是市一医院急诊科护士｜长期\n健康｜用户对芒果过敏｜长期\n计划｜用户这周末要去买遮光窗帘｜短期'
    assert check_synthesize(_synth(ref)) == []


def test_unsupported_fact_fails():
    found = check_synthesize(_synth('宠物｜用户养了一只柯基，叫豆豆｜长期'))
    assert checks(found) == ['grounding.synthesize_support']


def test_degree_word_the_user_never_said_fails():
    """recollection_synthesize-023: 'the user's favourite' inferred from a mere mention."""
    found = check_synthesize(_synth('健康｜用户最讨厌芒果｜长期'))
    assert 'grounding.synthesize_support' in checks(found)


def test_relative_fact_tagged_long_term_fails():
    """recollection_synthesize-014/-019: facts tied to now are not long-term."""
    found = check_synthesize(_synth('计划｜用户这周末要去买遮光窗帘｜长期'))
    assert checks(found) == ['grounding.synthesize_horizon']


def test_bad_format_fails():
    assert checks(check_synthesize(_synth('用户是护士'))) == ['grounding.synthesize_format']


def test_new_fact_beyond_inputs_and_persona():
    inputs = {'memories': ['用户下周三要去面试出版社编辑'], 'user_name': '小周'}
    ok = rec('recollection_initialize', inputs, '小周，下周三的面试准备得怎么样？')
    assert check_new_facts(ok, '你是林澈，在“潮汐书房”修书。') == []
    bad = rec('recollection_initialize', inputs, '小周，下周三去西安面试，要带3本作品集吧？')
    found = check_new_facts(bad, '你是林澈。')
    assert checks(found) == ['grounding.new_fact']
    assert '西安' in found[0].message and '3本' in found[0].message
    # The persona's own world is a source: its shop is not a new fact.
    assert check_new_facts(rec('itinerary_initialize', {'current_activity': '在店里修书', 'memories': ['用户爱读诗']},
                               '我在“潮汐书房”修书呢，你最近在读什么诗？'), '你是林澈，经营“潮汐书房”。') == []


OVERVIEW = '今天，林澈清晨骑车去渔港看日出，上午修补一本民国旧字典，下午去邮局寄出网店订单，晚上八点和阿琳视频，十点半睡下。'


def test_overview_clauses_are_the_timed_ones():
    clauses = overview_clauses(OVERVIEW, '林澈')
    assert clauses == ['骑车去渔港看日出', '修补一本民国旧字典', '去邮局寄出网店订单', '和阿琳视频']


def test_middle_covering_all_activities_in_order_passes():
    ref = '05:30 骑车去渔港看日出\n09:30 修补旧字典\n14:30 去邮局寄订单\n20:00 和阿琳视频\n22:30 睡下'
    assert parse_schedule_lines(ref)[0] == (330, '骑车去渔港看日出')
    assert check_middle_coverage(rec('itinerary_middle', {'day_overview': OVERVIEW}, ref), '林澈') == []


def test_middle_missing_an_activity_fails():
    ref = '05:30 骑车去渔港看日出\n09:30 修补旧字典\n20:00 和阿琳视频\n22:30 睡下'
    found = check_middle_coverage(rec('itinerary_middle', {'day_overview': OVERVIEW}, ref), '林澈')
    assert checks(found) == ['grounding.middle_coverage'] and '邮局' in found[0].message


def test_middle_out_of_order_fails():
    ref = '05:30 骑车去渔港看日出\n09:30 去邮局寄订单\n14:30 修补旧字典\n20:00 和阿琳视频\n22:30 睡下'
    assert checks(check_middle_coverage(rec('itinerary_middle', {'day_overview': OVERVIEW}, ref), '林澈')) == [
        'grounding.middle_order']


SCHEDULE = [{'time': '09:00', 'activity': '开店'}, {'time': '14:00', 'activity': '修书'},
            {'time': '17:30', 'activity': '买菜'}]


def test_slot_bounds():
    inside = rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]},
                 '1. 14:00 铺开毛毡\n2. 15:30 补纸\n3. 17:00 收拾')
    assert check_slot_bounds(inside) == []
    outside = rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]},
                  '1. 14:00 铺开毛毡\n2. 17:30 去买菜')
    found = check_slot_bounds(outside)
    assert checks(found) == ['grounding.slot_bounds'] and '14:00-17:30' in found[0].message


def test_time_of_day_windows():
    assert tag_fits('清晨', 6 * 60 + 30) and not tag_fits('清晨', 14 * 60)
    assert tag_fits('深夜', 30) and tag_fits('深夜', 23 * 60)
    assert tag_fits('未知', 600) is None


def test_time_of_day_tag_matches_slot():
    inputs = {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]}
    ok = rec('itinerary_advanced', inputs, '', tags={'time_of_day': '下午'})
    assert check_time_of_day(ok) == []
    bad = rec('itinerary_advanced', inputs, '', tags={'time_of_day': '清晨'})
    assert checks(check_time_of_day(bad)) == ['grounding.time_of_day']


def test_time_of_day_of_dialogue_schedule_follows_current_activity():
    inputs = {'today_schedule': SCHEDULE, 'current_activity': '在店里修书，补一页破洞', 'user_message': '在干嘛'}
    assert check_time_of_day(rec('dialogue_schedule', inputs, tags={'time_of_day': '下午'})) == []
    assert checks(check_time_of_day(rec('dialogue_schedule', inputs, tags={'time_of_day': '清晨'}))) == [
        'grounding.time_of_day']
