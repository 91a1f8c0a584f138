"""Literal tests: chain stages and links (schema 1.1 chain/stage)."""
from opencompass_h2htalk.audit.chains import check_chains

from .helpers import checks, rec

BASIC = '今天，林澈清晨骑车去渔港看日出，上午修补一本旧字典，晚上和小周视频。'
MIDDLE = '05:30 骑车去渔港看日出\n09:30 修补旧字典\n20:00 和小周视频'
SCHED = [{'time': '05:30', 'activity': '骑车去渔港看日出'}, {'time': '09:30', 'activity': '修补旧字典'},
         {'time': '20:00', 'activity': '和小周视频'}]
ADVANCED = '1. 09:30 铺开毛毡，拆下旧线\n2. 10:30 用浆糊补破洞\n3. 11:30 压平晾干'


def _itinerary_chain(overview=BASIC, schedule=SCHED, current='在店里用浆糊补破洞', current2='在店里用浆糊补破洞'):
    u = {'user_name': '小周'}
    return [
        rec('itinerary_basic', {**u, 'hobbies': ['骑车'], 'memories': ['用户喜欢海']}, BASIC, chain='c1', stage=1),
        rec('itinerary_middle', {**u, 'day_overview': overview}, MIDDLE, chain='c1', stage=2),
        rec('itinerary_advanced', {**u, 'today_schedule': schedule, 'time_slot': schedule[1]}, ADVANCED,
            chain='c1', stage=3),
        rec('itinerary_feedback', {**u, 'current_activity': current, 'user_feedback': '好细致'}, '慢慢来就好。',
            chain='c1', stage=4),
        rec('itinerary_initialize', {**u, 'current_activity': current2, 'memories': ['用户喜欢海']}, '小周，我在补书。',
            chain='c1', stage=5),
    ]


def test_consistent_itinerary_chain_passes():
    assert check_chains(_itinerary_chain()) == []


def test_middle_overview_must_be_the_basic_reference():
    found = check_chains(_itinerary_chain(overview='今天林澈去爬山。'))
    assert checks(found) == ['chain.link'] and 'stage 2' in found[0].message


def test_advanced_schedule_must_be_the_middle_reference():
    changed = [dict(e) for e in SCHED]
    changed[2]['activity'] = '和小周散步'
    assert checks(check_chains(_itinerary_chain(schedule=changed))) == ['chain.link']


def test_feedback_activity_must_come_from_the_plan():
    found = check_chains(_itinerary_chain(current='在厨房煲汤', current2='在厨房煲汤'))
    assert checks(found) == ['chain.link'] and 'stage 4' in found[0].message


def test_stages_numbering_and_order():
    chain = _itinerary_chain()
    chain[4].data['stage'] = 7
    assert checks(check_chains(chain)) == ['chain.stages']
    swapped = _itinerary_chain()[:2]
    swapped[0].data['stage'], swapped[1].data['stage'] = 2, 1
    assert checks(check_chains(swapped)) == ['chain.stages']
    assert checks(check_chains([rec('dialogue_base', {}, stage=1)])) == ['chain.stages']


def test_recollection_chain():
    hist = [{'role': 'user', 'content': '我下周三去面试出版社编辑'}, {'role': 'assistant', 'content': '加油，准备得怎样？'}]
    dialogue = rec('dialogue_base', {'history': hist[:1] + [{'role': 'assistant', 'content': '嗯？'}],
                                     'user_message': '还在改作品集'}, '作品集挑三篇最好的就够了。', chain='m1', stage=1)
    synth_hist = [{'role': 'user', 'content': '我下周三去面试出版社编辑'}, {'role': 'assistant', 'content': '嗯？'},
                  {'role': 'user', 'content': '还在改作品集'}, {'role': 'assistant', 'content': '作品集挑三篇最好的就够了。'}]
    synth = rec('recollection_synthesize', {'history': synth_hist}, '计划｜用户下周三去面试出版社编辑｜短期',
                chain='m1', stage=2)
    refine = rec('recollection_refine', {'memories': ['用户下周三去面试出版社编辑']}, '下周三我要去面试啦！',
                 chain='m1', stage=3)
    init = rec('recollection_initialize', {'memories': ['下周三我要去面试啦！']}, '面试准备得怎样？', chain='m1', stage=4)
    assert check_chains([dialogue, synth, refine, init]) == []
    refine.data['inputs'] = {'memories': ['用户喜欢喝美式']}
    found = check_chains([dialogue, synth, refine, init])
    assert checks(found) == ['chain.link'] and 'stage 3' in found[0].message


def test_a_missing_stage_is_counted_against_the_pipeline_not_the_members():
    # Regression: with stage 2 gone the message said "expected 1..4" (the 4 records left), yet the itinerary
    # pipeline has 5 stages.
    chain = [r for r in _itinerary_chain() if r.stage != 2]
    found = check_chains(chain)
    assert checks(found) == ['chain.stages']
    message = found[0].message
    assert 'has stages [1, 3, 4, 5]' in message and 'at most 5 (the itinerary pipeline: itinerary_basic ->' in message
    assert message.endswith('missing [2]') and '1..4' not in message


def test_stage_beyond_the_pipeline_and_repeats_are_named():
    chain = _itinerary_chain()
    chain[4].data['stage'] = 6
    assert check_chains(chain)[0].message.endswith('missing [5], beyond the last stage [6]')
    chain = _itinerary_chain()
    chain[3].data['stage'] = 3
    assert check_chains(chain)[0].message.endswith('missing [4], repeated [3]')


def test_a_chain_whose_record_failed_the_schema_is_not_reported_again():
    chain = [r for r in _itinerary_chain() if r.stage != 2]
    assert check_chains(chain, reported={'c1'}) == []
