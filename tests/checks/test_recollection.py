"""The recollection checks (synthesize, refine, initialize) on hand-made replies, zh and en, and on the references."""
from __future__ import annotations

import re

import pytest

from opencompass_h2htalk.checks import thresholds as T
from opencompass_h2htalk.checks.base import Context
from opencompass_h2htalk.checks.recollection import (
    CHECKS, check_addresses_user, check_ends_with_question, check_first_person, check_keeps_memory,
    check_memory_format, check_memory_grounded, check_no_new_facts_initialize, check_no_new_facts_refine,
    check_one_line, check_refers_to_memory, units)
from opencompass_h2htalk.data.prompts import INSTRUCTIONS_EN, INSTRUCTIONS_ZH

CONSTANT = '我在呢，听你这么说我也很心疼。慢慢来，有什么想说的都可以跟我说。'


# ------------------------------------------------------------------ the lists are the instruction's

def test_categories_durations_and_bound_are_the_instructions():
    zh, en = INSTRUCTIONS_ZH['recollection_synthesize'], INSTRUCTIONS_EN['recollection_synthesize']
    assert tuple(re.search(r'类别从“([^”]+)”中选一个', zh).group(1).split('、')) == T.SYNTH_CATEGORIES['zh']
    assert tuple(re.search(r'category is one of "([^"]+)"', en).group(1).split(', ')) == T.SYNTH_CATEGORIES['en']
    assert tuple(re.findall(r'“(.期)”', zh)) == T.SYNTH_DURATIONS['zh']
    assert tuple(re.findall(r'"(\w+-term)"', en)) == T.SYNTH_DURATIONS['en']
    assert f'“类别{T.SYNTH_SEPARATOR["zh"]}内容{T.SYNTH_SEPARATOR["zh"]}时效”' in zh
    assert f'"category {T.SYNTH_SEPARATOR["en"]} content {T.SYNTH_SEPARATOR["en"]} duration"' in en
    assert f'内容以“{T.SYNTH_CONTENT_PREFIX["zh"]}”开头，不超过{T.SYNTH_CONTENT_MAX["zh"]}个字' in zh
    assert f'starts with "User" and has at most {T.SYNTH_CONTENT_MAX["en"]} words' in en
    assert f'只输出“{T.SYNTH_NOTHING["zh"]}”' in zh and f'output only "{T.SYNTH_NOTHING["en"]}"' in en


def test_every_subtask_returns_its_declared_names():
    ctxs = {'recollection_synthesize': Context('recollection_synthesize', {'history': []}),
            'recollection_refine': Context('recollection_refine', {'memories': ['用户养猫']}),
            'recollection_initialize': Context('recollection_initialize', {'memories': ['用户养猫']})}
    for subtask, (names, fn) in CHECKS.items():
        assert [r.name for r in fn('我养了只猫。', ctxs[subtask])] == list(names)


def test_units_are_content_bigrams_and_relations_in_either_voice():
    assert units('用户没选上学校的啦啦队', 'zh') >= {'啦队', '学校'}  # 啦 is a particle, but not inside 啦啦队
    assert '区打' not in units('用户一个人在小区打篮球', 'zh')  # never across two longer words
    assert '花呗' in units('用户每月要还花呗', 'zh')  # jieba cuts 花|呗
    assert units('用户的丈夫在外地上班', 'zh') == units('我老公在外地上班呢。', 'zh')
    assert units('User works at City Hospital', 'en') == {'work', 'city', 'hospital'}


# ------------------------------------------------------------------ recollection_synthesize

HISTORY = [{'role': 'user', 'content': '早上八点交班。我在市一医院急诊科当护士，这个月排了十二个夜班。'},
           {'role': 'assistant', 'content': '十二个，够呛。你平时喜欢吃芒果吗？'},
           {'role': 'user', 'content': '我打算这周末去买遮光窗帘。对了，我对花生过敏。'},
           {'role': 'assistant', 'content': '记下了。'}]
HISTORY_EN = [{'role': 'user', 'content': 'I work as a nurse in the emergency department of City Hospital.'},
              {'role': 'assistant', 'content': 'That sounds demanding. Do you like mangoes?'},
              {'role': 'user', 'content': "I'm going to buy blackout curtains this weekend. I'm allergic to peanuts."}]


def _synth(language='zh'):
    return Context('recollection_synthesize', {'history': HISTORY if language == 'zh' else HISTORY_EN}, language)


@pytest.mark.parametrize('reply', [
    '职业｜用户是市一医院急诊科护士｜长期\n健康｜用户对花生过敏｜长期\n计划｜用户这周末要去买遮光窗帘｜短期',
    '职业 ｜ 用户是急诊科护士 ｜ 长期\n\n工作｜用户这个月排了十二个夜班｜短期',  # spaces and blank lines
    '无可记录的信息', '无可记录的信息。',
])
def test_memory_format_passes(reply):
    assert check_memory_format(reply, _synth()).passed is True


@pytest.mark.parametrize('reply, why', [
    ('运动｜用户每周跑步三次｜长期', "category '运动'"),
    ('职业｜用户是护士｜永久', "duration '永久'"),
    ('职业｜她是急诊科护士｜长期', "does not start with '用户'"),
    ('职业｜用户是市一医院急诊科的一名常常值夜班的护士｜长期', 'has 21 characters (at most 20)'),
    ('职业|用户是护士|长期', "uses '|'"),  # the instruction's separator is the full-width ｜
    ('1. 职业｜用户是护士｜长期', "category '1. 职业'"),
    ('职业｜用户是护士｜长期\n无可记录的信息', 'beside other lines'),
    ('用户是急诊科护士，对花生过敏。', 'is not category'),
    (CONSTANT, 'is not category'),
    ('“无可记录的信息”', 'is not exactly'),  # 「只输出」: no quotes, no comment
    ('我看了一下，无可记录的信息。', 'is not exactly'),
])
def test_memory_format_fails(reply, why):
    result = check_memory_format(reply, _synth())
    assert result.passed is False and why in result.reason


def test_memory_format_english():
    ok = ('occupation | User is an emergency nurse at City Hospital | long-term\n'
          'Health | User is allergic to peanuts | Long-term\nplans | User will buy blackout curtains | short-term')
    assert check_memory_format(ok, _synth('en')).passed is True
    assert check_memory_format('Nothing to remember.', _synth('en')).passed is True
    for bad, why in [('sport | User runs | long-term', "category 'sport'"),
                     ('health | User is allergic to peanuts | forever', "duration 'forever'"),
                     ('health | She is allergic to peanuts | long-term', "start with 'user'"),
                     ('work | User works night shifts in the emergency department of the biggest hospital in town '
                      '| medium-term', '(at most 12)'),
                     ('health ｜ User is allergic to peanuts ｜ long-term', "uses '｜'"),
                     ('health | User is allergic to peanuts | long-term\nNothing to remember', 'beside other lines')]:
        result = check_memory_format(bad, _synth('en'))
        assert result.passed is False and why in result.reason, bad


def test_memory_grounded():
    said = '职业｜用户是市一医院急诊科护士｜长期\n健康｜用户对花生过敏｜长期'
    assert check_memory_grounded(said, _synth()).passed is True
    # The companion mentioned mangoes, the user never did: not the user's own words.
    result = check_memory_grounded('职业｜用户是护士｜长期\n饮食｜用户爱吃芒果｜长期', _synth())
    assert result.passed is False and 'memory 2' in result.reason and '芒果' in result.reason
    result = check_memory_grounded('健康｜用户最怕花生｜长期', _synth())  # a degree the user never stated
    assert result.passed is False and "'最'" in result.reason
    assert check_memory_grounded('无可记录的信息', _synth()).passed is None
    assert check_memory_grounded(CONSTANT, _synth()).passed is None  # no memory line: the format check fails it


def test_memory_grounded_english():
    ok = 'occupation | User is a nurse at City Hospital | long-term\nhealth | User is allergic to peanuts | long-term'
    assert check_memory_grounded(ok, _synth('en')).passed is True
    result = check_memory_grounded('diet | User loves mangoes and chocolate cake | long-term', _synth('en'))
    assert result.passed is False and 'mangoes' in result.reason


# ------------------------------------------------------------------ recollection_refine

def _refine(memory='用户和相恋三年的男朋友刚分手', language='zh', name=None):
    inputs = {'memories': [memory]}
    if name:
        inputs['user_name'] = name
    return Context('recollection_refine', inputs, language)


def test_one_line():
    assert check_one_line('我刚和谈了三年的男朋友分手了。', _refine()).passed is True
    assert check_one_line('我刚和男朋友分手了。\n我们谈了三年。', _refine()).passed is False
    assert check_one_line("I just broke up with my boyfriend.\nWe'd been together three years.",
                          _refine('User just broke up with a boyfriend of three years', 'en')).passed is False


@pytest.mark.parametrize('reply, expected', [
    ('我刚和谈了三年的男朋友分手了。', True),
    ('咱刚分手，三年呢～', True),
    ('用户和相恋三年的男朋友刚分手', False),  # the parrot: third person
    ('刚和谈了三年的男朋友分手了。', False),  # no first person at all
    ('她刚和男朋友分手了，我好难过。', True),  # 我 present and no 用户: the voice is the user's
])
def test_first_person(reply, expected):
    assert check_first_person(reply, _refine()).passed is expected


def test_first_person_english():
    ctx = _refine('User just broke up with a boyfriend of three years', 'en')
    assert check_first_person('My boyfriend and I just broke up after three years!', ctx).passed is True
    assert check_first_person('User just broke up with a boyfriend of three years', ctx).passed is False
    assert check_first_person('Just broke up after three years, sigh.', ctx).passed is False


def test_keeps_memory():
    assert check_keeps_memory('我刚和谈了三年的男朋友分手了。', _refine()).passed is True
    assert check_keeps_memory('结婚后我一直忙着跑单，陪老公太少啦。',  # 丈夫 and 老公 are one relation
                              _refine('用户新婚后一直忙着跑单，觉得陪丈夫太少')).passed is True
    result = check_keeps_memory(CONSTANT, _refine())
    assert result.passed is False and 'keeps 0%' in result.reason
    assert check_keeps_memory('我今天超开心，吃到了好吃的蛋糕！', _refine()).passed is False


def test_keeps_memory_english():
    ctx = _refine('User is allergic to peanuts and carries an EpiPen', 'en')
    assert check_keeps_memory("I'm allergic to peanuts, so my EpiPen goes everywhere with me!", ctx).passed is True
    assert check_keeps_memory("I love sunny days and long walks!", ctx).passed is False


def test_no_new_facts_refine():
    assert check_no_new_facts_refine('我刚和谈了三年的男朋友分手了。', _refine()).passed is True
    for reply, new in [('我刚和谈了五年的男朋友分手了。', '五年'), ('我和男朋友在杭州分手了。', '杭州'),
                       ('我刚分手，我妈妈还不知道。', '妈妈')]:
        result = check_no_new_facts_refine(reply, _refine())
        assert result.passed is False and new in result.reason, reply
    # A relation the memory implies is no new person: a grandchild makes a grandparent.
    assert check_no_new_facts_refine('我已经当爷爷啦，有孙子咯！', _refine('用户有孙子')).passed is True


def test_no_new_facts_refine_english():
    ctx = _refine('User just broke up with a boyfriend of three years', 'en')
    assert check_no_new_facts_refine('My boyfriend and I split after three years.', ctx).passed is True
    result = check_no_new_facts_refine('My boyfriend Tom and I split after five years.', ctx)
    assert result.passed is False and 'Tom' in result.reason and 'five' in result.reason
    assert check_no_new_facts_refine('I broke up with my boyfriend and told my sister.', ctx).passed is False


# ------------------------------------------------------------------ recollection_initialize

PERSONA = '【角色设定】\n你是林澈，29岁，在海边小城经营一家名叫“潮汐书房”的独立旧书店。'


def _init(memories=('用户下周三要去面试一家出版社的编辑岗位', '用户喜欢喝美式咖啡'), name='胡蕾', language='zh'):
    inputs = {'memories': list(memories)}
    if name:
        inputs['user_name'] = name
    return Context('recollection_initialize', inputs, language, system_prompt=PERSONA)


GOOD = '（把一本旧校对手册放回书架）胡蕾，下周三的出版社面试准备得怎么样了？要不要先跟我练练自我介绍？'


def test_refers_to_memory():
    assert check_refers_to_memory(GOOD, _init()).passed is True
    # A memory given as a first-person rewrite (1.0 chains) is matched as well.
    assert check_refers_to_memory('你老公那边最近忙不忙？外地的天气冷了吧？',
                                  _init(['我家老公在外地上班呢。'])).passed is True
    result = check_refers_to_memory(CONSTANT, _init())
    assert result.passed is False and 'none of the 2 memories' in result.reason


def test_refers_to_memory_english():
    ctx = _init(['User has a job interview at a publishing house next Wednesday'], 'Lei', 'en')
    assert check_refers_to_memory('Lei, how is the prep for the publishing interview going?', ctx).passed is True
    assert check_refers_to_memory('Good morning! Did you sleep well?', ctx).passed is False


@pytest.mark.parametrize('reply, expected', [
    (GOOD, True),
    ('小胡，面试准备好了吗？', True),  # the surname with 小
    ('出版社面试准备得怎么样了？', True),  # Chinese drops the 你 of a question
    (CONSTANT, True),
    ('用户下周三要去面试一家出版社的编辑岗位', False),  # the parrot narrates 用户
    ('今天的海风很舒服。', False),  # speaks to no one
])
def test_addresses_user(reply, expected):
    assert check_addresses_user(reply, _init()).passed is expected


def test_addresses_user_english():
    ctx = _init(['User has a job interview next Wednesday'], 'Lei', 'en')
    assert check_addresses_user('Morning! How is the interview prep going?', ctx).passed is True
    assert check_addresses_user('Lei, good luck on Wednesday.', ctx).passed is True
    assert check_addresses_user('User has a job interview next Wednesday', ctx).passed is False
    assert check_addresses_user('The sea breeze is lovely today.', ctx).passed is False


def test_no_new_facts_initialize():
    assert check_no_new_facts_initialize(GOOD, _init()).passed is True
    # The persona's own facts (29岁, 书店) are not invented.
    assert check_no_new_facts_initialize('我29岁才学会煮咖啡。胡蕾，面试准备得怎么样了？', _init()).passed is True
    for reply, new in [('胡蕾，下周五的面试准备得怎么样了？', '周五'), ('胡蕾，你老公陪你去面试吗？', '老公'),
                       ('胡蕾，“晨光出版社”的面试准备得怎么样了？', '晨光出版社')]:
        result = check_no_new_facts_initialize(reply, _init())
        assert result.passed is False and new in result.reason, reply
    # A relation word right after the user's name calls the user: 「晓雯闺女」 invents no daughter.
    assert check_no_new_facts_initialize('晓雯闺女，实习快到头了吧？', _init(['用户实习快结束了'], '林晓雯')).passed is True


def test_no_new_facts_initialize_english():
    ctx = _init(['User has a job interview at a publishing house next Wednesday'], 'Lei', 'en')
    assert check_no_new_facts_initialize('Lei, ready for Wednesday? Want to practise with me?', ctx).passed is True
    result = check_no_new_facts_initialize('Lei, is your husband driving you on Friday?', ctx)
    assert result.passed is False and 'husband' in result.reason and 'Friday' in result.reason


@pytest.mark.parametrize('reply, expected', [
    (GOOD, True),
    ('面试准备好了吗～', True),
    ('面试准备得怎么样了？（笑）', True),  # a trailing action is not the last sentence
    ('吃了吗。', True),
    ('面试准备得怎么样了？我先去开店了。', False),  # the question is not at the end
    (CONSTANT, False),
    ('我在呢。', False),  # 呢 ends statements too
])
def test_ends_with_question(reply, expected):
    assert check_ends_with_question(reply, _init()).passed is expected


def test_ends_with_question_english():
    ctx = _init(['User has a job interview next Wednesday'], 'Lei', 'en')
    assert check_ends_with_question('Lei, how is the prep going?', ctx).passed is True
    assert check_ends_with_question('How was it? Tell me later.', ctx).passed is False


# ------------------------------------------------------------------ the bundled references

def test_references_pass_each_recollection_check_at_least_97_percent():
    from opencompass_h2htalk.checks.references import check_references
    for sub in check_references(subtasks=list(CHECKS)):
        names = CHECKS[sub.subtask][0]
        failures = sub.failures()
        for name, (passed, applicable) in sub.rates().items():
            if name in names:
                assert applicable and passed / applicable >= 0.97, (sub.subtask, name, failures.get(name))
