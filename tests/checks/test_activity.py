"""Literal tests of the current-activity checks (dialogue_schedule, itinerary_feedback, itinerary_initialize)."""
from opencompass_h2htalk.checks.activity import check_current_activity, check_uses_memory, current_entry
from opencompass_h2htalk.checks.base import Context

SCHEDULE = [{'time': '07:30', 'activity': '去食堂吃早饭'}, {'time': '08:30', 'activity': '在琴房练音阶'},
            {'time': '12:00', 'activity': '在食堂吃午饭'}, {'time': '17:00', 'activity': '给鱼缸换水'},
            {'time': '22:30', 'activity': '睡觉'}]
SCHED = Context('dialogue_schedule', {'today_schedule': SCHEDULE, 'current_activity': '在食堂吃番茄牛腩饭',
                                      'user_message': '我钱包丢了，下午还有课。', 'user_name': '小芸'})


def test_current_entry_is_the_schedule_entry_the_activity_belongs_to():
    assert current_entry(SCHED) == 2


def test_schedule_reply_that_names_the_activity_passes():
    got = check_current_activity('我也在食堂扒饭呢……先挂失银行卡和饭卡，身份证下课再补。', SCHED)
    assert got.passed is True and '食堂' in got.reason


def test_schedule_reply_that_claims_another_entry_fails_with_the_entry():
    got = check_current_activity('我正在琴房练音阶呢，先挂失银行卡，别着急。', SCHED)
    assert got.passed is False and "08:30 entry '在琴房练音阶'" in got.reason


def test_schedule_reply_without_the_activity_fails():
    got = check_current_activity('我在呢，听你这么说我也很心疼。慢慢来，有什么想说的都可以跟我说。', SCHED)
    assert got.passed is False and 'does not name' in got.reason


def test_the_user_name_does_not_make_an_entry_claimed():
    ctx = Context('itinerary_initialize', {'today_schedule': [{'time': '14:00', 'activity': '修帐篷'},
                                                              {'time': '21:00', 'activity': '和董诗涵视频'}],
                                           'current_activity': '缝帐篷的破口', 'user_name': '董诗涵',
                                           'memories': ['用户下周第一次去露营']})
    got = check_current_activity('董诗涵，我在修帐篷呢，下周露营准备好了吗？', ctx)
    assert got.passed is True


def test_feedback_without_schedule_is_not_applicable():
    ctx = Context('itinerary_feedback', {'current_activity': '在院子里给麦麦梳毛', 'user_feedback': '掉一地毛吧',
                                         'user_name': '宇航'})
    assert check_current_activity('掉的毛都够再拼一只小麦麦了！', ctx).passed is None


def test_feedback_with_schedule_fails_on_another_entry():
    ctx = Context('itinerary_feedback', {'current_activity': '在食堂吃番茄牛腩饭', 'today_schedule': SCHEDULE})
    assert check_current_activity('我在琴房练音阶，等会儿再聊！', ctx).passed is False
    assert check_current_activity('是呀，味道真不错！', ctx).passed is True


INIT = Context('itinerary_initialize', {'current_activity': '给半山小屋的客人做早饭', 'user_name': '雨桐',
                                        'memories': ['用户是护士长，这周连着上夜班', '用户说下了夜班总是睡不踏实']})


def test_initialize_names_the_activity_and_uses_a_memory():
    reply = '（往锅里磕了个鸡蛋）雨桐，我在给客人做早饭呢。这会儿该下夜班了吧？回家先吃点热的再睡。'
    assert check_current_activity(reply, INIT).passed is True
    got = check_uses_memory(reply, INIT)
    assert got.passed is True and '夜班' in got.reason


def test_initialize_fails_without_activity_or_memory():
    reply = '雨桐，今天天气真好，你最近怎么样？'
    assert check_current_activity(reply, INIT).passed is False
    got = check_uses_memory(reply, INIT)
    assert got.passed is False and 'shares nothing' in got.reason


def test_english_activity_and_memory():
    ctx = Context('itinerary_initialize', {'current_activity': 'Making breakfast for the guests',
                                           'memories': ['User is a nurse working night shifts this week'],
                                           'user_name': 'Amy'}, language='en')
    good = 'Amy, I am making breakfast for the guests. Your night shift must be over by now, sleep well!'
    assert check_current_activity(good, ctx).passed is True and check_uses_memory(good, ctx).passed is True
    bad = 'Hi Amy, how are you doing today?'
    assert check_current_activity(bad, ctx).passed is False and check_uses_memory(bad, ctx).passed is False


def _feedback(reply, activity='在院子里给麦麦梳毛', language='zh'):
    from opencompass_h2htalk.checks import Context, run_checks
    ctx = Context('itinerary_feedback', {'current_activity': activity, 'user_feedback': '梳完毛得掉一地吧'}, language)
    return next(r for r in run_checks(reply, ctx) if r.name == 'current_activity')


def test_feedback_claim_must_be_the_current_activity():
    assert _feedback('我正在看书呢，你也来看看吧？').passed is False
    assert _feedback('我正给麦麦梳毛呢，毛掉了一地！').passed is True
    # 「我在呢」 is presence, not an activity; a reply that states none has nothing to check.
    assert _feedback('我在呢，毛确实掉了一地。').passed is None
    assert _feedback("I'm reading a novel, want to join?", 'brushing the dog in the yard', 'en').passed is False
    assert _feedback("I'm brushing the dog, fur everywhere!", 'brushing the dog in the yard', 'en').passed is True
