"""Literal tests of the day-plan checks: one passing and one failing reply per check (zh, and en where it matters)."""
from opencompass_h2htalk.checks.base import Context
from opencompass_h2htalk.checks.itinerary import CHECKS, advanced_checks, basic_checks, day_parts, middle_checks
from opencompass_h2htalk.checks.registry import run_checks

OVERVIEW = ('今天，韩嘉树七点带麦麦在草甸上跑了一圈，上午给半山小屋的新客人讲徒步路线。下午他去镇上补买了两卷登山绳，'
            '傍晚煮一壶咖啡。晚上八点他和泽宇视频，听他讲实习第一天的见闻，十点半睡下。')
MIDDLE = Context('itinerary_middle', {'day_overview': OVERVIEW, 'user_name': '泽宇'}, persona_name='韩嘉树')
GOOD_MIDDLE = ('07:00 带麦麦跑草甸\n09:30 给新客人讲路线\n14:30 去镇上买登山绳\n17:30 煮咖啡\n20:00 和泽宇视频\n'
               '22:30 睡觉\n\n（备注：晚上留出时间和泽宇视频，是想听他说说实习第一天。）')


def results(fn, reply, ctx):
    return {r.name: r for r in fn(reply, ctx)}


def test_middle_reference_like_reply_passes_every_check():
    got = results(middle_checks, GOOD_MIDDLE, MIDDLE)
    assert list(got) == list(CHECKS['itinerary_middle'][0])
    assert all(r.passed for r in got.values()), {n: r.reason for n, r in got.items()}


def test_middle_timed_lines_fails_on_a_title_and_a_full_width_time():
    got = results(middle_checks, '今日日程：\n' + GOOD_MIDDLE, MIDDLE)['timed_lines']
    assert got.passed is False and "line 1 '今日日程：'" in got.reason
    assert results(middle_checks, GOOD_MIDDLE.replace('07:00', '7点'), MIDDLE)['timed_lines'].passed is False


def test_middle_activity_length_fails_over_ten_characters():
    got = results(middle_checks, GOOD_MIDDLE.replace('煮咖啡', '在院子里慢慢煮一壶手冲咖啡'), MIDDLE)['activity_length']
    assert got.passed is False and '13 characters' in got.reason


def test_middle_time_order_fails_when_a_time_goes_back():
    got = results(middle_checks, GOOD_MIDDLE.replace('14:30', '09:00'), MIDDLE)['time_order']
    assert got.passed is False and '09:00' in got.reason


def test_middle_item_count_fails_below_five():
    reply = '07:00 带麦麦跑草甸\n14:30 买登山绳\n20:00 和泽宇视频\n22:30 睡觉\n\n（备注：陪泽宇聊聊。）'
    got = results(middle_checks, reply, MIDDLE)['item_count']
    assert got.passed is False and '4 items' in got.reason


def test_middle_ends_with_rest_fails_on_a_late_time_or_no_rest():
    late = results(middle_checks, GOOD_MIDDLE.replace('22:30 睡觉', '23:45 睡觉'), MIDDLE)['ends_with_rest']
    assert late.passed is False and 'outside 22:00-23:30' in late.reason
    work = results(middle_checks, GOOD_MIDDLE.replace('22:30 睡觉', '22:30 整理照片'), MIDDLE)['ends_with_rest']
    assert work.passed is False and 'not a rest' in work.reason


def test_middle_overview_covered_fails_when_an_activity_is_missing():
    got = results(middle_checks, GOOD_MIDDLE.replace('17:30 煮咖啡', '17:30 看晚霞'), MIDDLE)['overview_covered']
    assert got.passed is False and '咖啡' in got.reason


def test_middle_note_fails_without_a_blank_line_or_without_a_note():
    glued = results(middle_checks, GOOD_MIDDLE.replace('\n\n（', '\n（'), MIDDLE)['note']
    assert glued.passed is False and 'no blank line' in glued.reason
    none = results(middle_checks, GOOD_MIDDLE.split('\n\n')[0], MIDDLE)['note']
    assert none.passed is False and '0 note lines' in none.reason


def test_middle_parrot_of_the_overview_fails_the_structure():
    got = results(middle_checks, OVERVIEW, MIDDLE)
    assert not any(r.passed for r in got.values())


def test_middle_english():
    ctx = Context('itinerary_middle', {'day_overview': 'Today Han walks the dog at seven, in the afternoon he buys '
                                                       'rope in town, and in the evening he calls Zeyu.'},
                  language='en', persona_name='Han')
    good = ('07:00 Walk the dog\n14:00 Buy rope in town\n20:00 Call Zeyu\n21:00 Read a book\n22:30 Go to sleep'
            '\n\n(Note: the call lets Zeyu talk about his first day.)')
    got = results(middle_checks, good, ctx)
    assert all(r.passed for r in got.values()), {n: r.reason for n, r in got.items()}
    bad = good.replace('22:30 Go to sleep', '22:30 Answer emails').replace('07:00 Walk the dog', '07:00 Walk the '
                                                                             'big old dog along the river')
    got = results(middle_checks, bad, ctx)
    assert got['ends_with_rest'].passed is False and got['activity_length'].passed is False


SCHEDULE = [{'time': '06:00', 'activity': '带麦麦晨练'}, {'time': '09:00', 'activity': '带队走苍山古道'},
            {'time': '14:00', 'activity': '回小屋午休'}, {'time': '22:30', 'activity': '睡觉'}]
ADVANCED = Context('itinerary_advanced', {'today_schedule': SCHEDULE,
                                          'time_slot': {'time': '09:00', 'activity': '带队走苍山古道'}})
GOOD_ADVANCED = ('1. 09:00 韩嘉树在小屋门口给客人讲苍山古道的路线，提醒大家灌满水壶。\n'
                 '2. 10:30 走到溪边的石板路歇脚，他掰了半块烤饼喂麦麦。\n'
                 '3. 12:00 在半山马厩旁吃午饭，把热水分给手冷的客人。\n'
                 '4. 13:00 带队下山，一路提醒大家侧着脚走，一点五十回到小屋。')


def test_advanced_reference_like_reply_passes():
    got = results(advanced_checks, GOOD_ADVANCED, ADVANCED)
    assert all(r.passed for r in got.values()), {n: r.reason for n, r in got.items()}


def test_advanced_numbered_steps_fails_on_numbers_and_count():
    skipped = results(advanced_checks, GOOD_ADVANCED.replace('3. 12:00', '4. 12:00'), ADVANCED)['numbered_steps']
    assert skipped.passed is False and '[1, 2, 4, 4]' in skipped.reason
    two = '1. 09:00 出发走苍山古道。\n2. 12:00 吃午饭。'
    assert results(advanced_checks, two, ADVANCED)['numbered_steps'].passed is False


def test_advanced_times_in_slot_fails_outside_the_slot_and_off_the_start():
    outside = results(advanced_checks, GOOD_ADVANCED.replace('13:00', '14:30'), ADVANCED)['times_in_slot']
    assert outside.passed is False and 'outside the slot 09:00-14:00' in outside.reason
    late = results(advanced_checks, GOOD_ADVANCED.replace('1. 09:00', '1. 09:20'), ADVANCED)['times_in_slot']
    assert late.passed is False and 'not at the slot start 09:00' in late.reason


def test_advanced_slot_activity_fails_on_another_activity():
    other = ('1. 09:00 在院子里晾被单。\n2. 10:00 给客房换床单。\n3. 11:00 去镇上买菜。')
    got = results(advanced_checks, other, ADVANCED)['slot_activity']
    assert got.passed is False and '带队走苍山古道' in got.reason


def test_advanced_english():
    ctx = Context('itinerary_advanced', {'today_schedule': [{'time': '09:00', 'activity': 'Lead the mountain hike'},
                                                            {'time': '14:00', 'activity': 'Nap'}],
                                         'time_slot': {'time': '09:00', 'activity': 'Lead the mountain hike'}},
                  language='en')
    good = '1. 09:00 Brief the hikers at the gate.\n2. 10:30 Climb the mountain path.\n3. 13:00 Walk back down.'
    assert all(r.passed for r in advanced_checks(good, ctx))
    bad = '1. 09:00 Wash the sheets.\n2. 15:00 Cook dinner.\n3. 16:00 Read.'
    got = results(advanced_checks, bad, ctx)
    assert got['times_in_slot'].passed is False and got['slot_activity'].passed is False


BASIC = Context('itinerary_basic', {'hobbies': ['徒步', '煮咖啡', '看山'], 'user_name': '嘉豪',
                                    'memories': ['用户是程序员，这周连着加了三天班', '用户说很久没走过山路了']},
                persona_name='韩嘉树')
GOOD_BASIC = ('今天，韩嘉树上午带客人走了一段平缓的古道，下午在半山小屋煮了一壶咖啡。晚上九点嘉豪下班，'
              '两人视频，他说好等嘉豪不加班了，带他走一次山路。')


def test_basic_reference_like_reply_passes():
    got = results(basic_checks, GOOD_BASIC, BASIC)
    assert all(r.passed for r in got.values()), {n: r.reason for n, r in got.items()}


def test_basic_opens_today_fails_on_another_opening():
    assert results(basic_checks, GOOD_BASIC.replace('今天，', '这天，', 1), BASIC)['opens_today'].passed is False


def test_basic_uses_hobby_and_memory_fail_without_them():
    plain = '今天，韩嘉树上午打扫客房，下午去镇上办事。晚上嘉豪和他视频，聊了聊周末的天气。'
    got = results(basic_checks, plain, BASIC)
    assert got['uses_hobby'].passed is False and got['uses_memory'].passed is False
    # A hobby done in other words counts: 做饭 as 炖了一锅汤.
    cook = Context('itinerary_basic', {'hobbies': ['做饭'], 'memories': []})
    assert results(basic_checks, '今天，她晚上炖了一锅汤。', cook)['uses_hobby'].passed is True


def test_basic_third_person_fails_on_first_person_or_no_name():
    first = results(basic_checks, GOOD_BASIC.replace('韩嘉树上午', '我上午'), BASIC)['third_person']
    assert first.passed is False and '我' in first.reason
    quoted = results(basic_checks, GOOD_BASIC + '他说：“我等你。”', BASIC)['third_person']
    assert quoted.passed is True
    nameless = results(basic_checks, '今天，他上午走古道，下午煮咖啡，晚上视频。', BASIC)['third_person']
    assert nameless.passed is False


def test_basic_day_parts_fails_without_the_evening():
    got = results(basic_checks, '今天，韩嘉树上午走古道，下午煮咖啡，想着嘉豪。', BASIC)['day_parts']
    assert got.passed is False and 'evening' in got.reason
    assert day_parts('睡到十点，中午吃面，晚上八点视频', 'zh') == {'morning', 'afternoon', 'evening'}
    assert 'morning' not in day_parts('晚上八点视频', 'zh')


def test_basic_english():
    ctx = Context('itinerary_basic', {'hobbies': ['hiking', 'coffee'], 'user_name': 'Jack',
                                      'memories': ['User is a programmer who worked overtime three days']},
                  language='en', persona_name='Han')
    good = ('Today, Han guides a gentle hike in the morning, brews coffee in the afternoon, and in the evening '
            'video-calls Jack after his overtime shift.')
    assert all(r.passed for r in basic_checks(good, ctx)), [r.reason for r in basic_checks(good, ctx)]
    bad = 'This morning I cleaned rooms and in the afternoon I slept.'
    got = results(basic_checks, bad, ctx)
    assert not any(got[n].passed for n in ('opens_today', 'uses_hobby', 'uses_memory', 'third_person', 'day_parts'))


def test_registry_runs_the_itinerary_checks_in_declared_order():
    names = [r.name for r in run_checks(GOOD_MIDDLE, MIDDLE)]
    assert names[-len(CHECKS['itinerary_middle'][0]):] == list(CHECKS['itinerary_middle'][0])
