"""The data 1.1 gates (issue 22), on literal records: each check passes a clean record and names a planted
defect of the kind the 1.0 read found."""
from opencompass_h2htalk.audit import cast, caps, distribution, life_situation, register, shape, slots, user_facts
from opencompass_h2htalk.audit import thresholds as T

from .helpers import checks, rec

# ------------------------------------------------------------------ grounding of user facts


def test_user_fact_unsupported_relation_is_named():
    r = rec('dialogue_base', {'history': [], 'user_message': '周末想出去走走，可一个人又懒得动。'},
            reference='拉上嫂子一起去公园转转吧，走一圈心情就开了。')
    found = user_facts.check_user_facts(r)
    assert checks(found) == ['grounding.user_fact'] and "'嫂子'" in found[0].message
    assert '拉上嫂子一起去公园转转吧' in found[0].message


def test_user_fact_given_by_the_inputs_passes_in_any_form():
    # 老公 in the message grounds 丈夫 in the reply; 我妈 grounds 妈妈.
    r = rec('dialogue_base', {'history': [{'role': 'user', 'content': '我妈昨天又打电话催了'},
                                          {'role': 'assistant', 'content': '催什么呀？'}],
                              'user_message': '催我跟老公早点要孩子'},
            reference='妈妈着急是一回事，你和丈夫怎么想才要紧。')
    assert user_facts.check_user_facts(r) == []


def test_user_fact_in_the_companions_own_clause_or_stage_direction_is_not_the_users():
    r = rec('dialogue_base', {'history': [], 'user_message': '今天好累'},
            reference='（给女儿热好牛奶）我女儿也总说累。你早点歇着。')
    assert user_facts.check_user_facts(r) == []


def test_user_fact_health_counts_only_about_the_user():
    advice = rec('dialogue_emotion', {'history': [], 'user_message': '最近老是心慌'},
                 reference='心慌老不好的话，去医院挂个号看看。')
    about = rec('recollection_initialize', {'memories': ['用户在备考教资'], 'user_name': '林可'},
                reference='林可，听说你今天下了班还去图书馆了？')
    assert user_facts.check_user_facts(advice) == []
    found = user_facts.check_user_facts(about)
    assert checks(found) == ['grounding.user_fact'] and "'下了班'" in found[0].message


def test_user_fact_itinerary_counts_only_clauses_that_name_the_user():
    inputs = {'today_schedule': [{'time': '18:00', 'activity': '和邓哥视频'}, {'time': '20:00', 'activity': '看书'}],
              'time_slot': {'time': '18:00', 'activity': '和邓哥视频'}}
    neighbour = rec('itinerary_advanced', inputs, reference='1. 18:00 他看见隔壁王奶奶在院子里晒被子。')
    user = rec('itinerary_advanced', inputs, reference='1. 18:00 邓哥说女儿这周要期中考试了。')
    assert user_facts.check_user_facts(neighbour) == []
    assert "'女儿'" in user_facts.check_user_facts(user)[0].message


def test_user_fact_vocative_address_is_not_a_relative():
    r = rec('dialogue_base', {'history': [], 'user_message': '我又把饭烧糊了'},
            reference='你这孩子，下回火调小点就好。')
    assert user_facts.check_user_facts(r) == []


def test_user_fact_skips_subtasks_with_their_own_grounding():
    r = rec('recollection_synthesize', {'history': []}, reference='亲友｜用户的嫂子在外地｜长期')
    assert user_facts.check_user_facts(r) == []

# ------------------------------------------------------------------ slots and stages


SCHEDULE = [{'time': '09:00', 'activity': '开店泡茶'}, {'time': '18:00', 'activity': '和阿杰视频'},
            {'time': '22:30', 'activity': '睡觉'}]


def test_call_narration_names_what_the_user_said():
    r = rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]},
            reference='1. 18:00 阿杰说他爸下周住院，他心里很乱。')
    found = slots.check_call_narration(r)
    assert checks(found) == ['slots.call_narration'] and '阿杰' in found[0].message


def test_call_slot_told_from_the_companions_side_passes():
    r = rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]},
            reference='1. 18:00 她把手机架在茶盘边，先给阿杰看今天新到的白茶。')
    assert slots.check_call_narration(r) == []


def test_day_plan_that_reports_what_the_user_said_is_named_unless_the_memories_give_it():
    memories = {'hobbies': ['拉琴'], 'memories': ['用户很想念国内的早餐'], 'user_name': '琳琳'}
    invented = rec('itinerary_basic', memories,
                   reference='上午练琴。晚上和琳琳视频，琳琳说起父亲生前那把二胡，嗓子有点哑。')
    found = slots.check_call_narration(invented)
    assert checks(found) == ['slots.call_narration'] and '琳琳说起父亲生前那把二胡' in found[0].message
    given = rec('itinerary_basic', memories, reference='早饭吃豆浆油条，想起琳琳说过很想念国内的早餐。')
    own_side = rec('itinerary_basic', memories, reference='晚上和琳琳视频，她拉了一段新学的曲子给琳琳听。')
    assert slots.check_call_narration(given) == [] and slots.check_call_narration(own_side) == []


def test_call_share_is_capped():
    calls = [rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[k % 2]}, line=k + 1)
             for k in range(T.MIN_RECORDS_FOR_SHARE)]
    found = slots.check_call_share(calls)
    assert checks(found) == ['slots.call_share'] and found[0].line == 0
    own = [rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[0]}, line=k + 1)
           for k in range(T.MIN_RECORDS_FOR_SHARE)]
    assert slots.check_call_share(own) == []


def test_stage_in_a_call_with_the_same_user_is_named():
    advanced = rec('itinerary_advanced', {'today_schedule': SCHEDULE, 'time_slot': SCHEDULE[1]},
                   chain='c1', stage=3)
    initialize = rec('itinerary_initialize', {'user_name': '阿杰', 'current_activity': '举着手机给他看茶盘',
                                              'memories': []}, chain='c1', stage=5, line=2)
    found = slots.check_stage_in_call([advanced, initialize])
    assert checks(found) == ['slots.stage_in_call'] and found[0].line == 2
    other = rec('itinerary_initialize', {'user_name': '小雨', 'current_activity': '举着手机给他看茶盘',
                                         'memories': []}, chain='c1', stage=5, line=2)
    assert slots.check_stage_in_call([advanced, other]) == []
    direct = rec('itinerary_feedback', {'user_name': '阿杰', 'current_activity': '和阿杰视频看茶',
                                        'user_feedback': '好看'})
    assert checks(slots.check_stage_in_call([direct])) == ['slots.stage_in_call']

# ------------------------------------------------------------------ memory voice


def test_first_person_memory_is_named_and_quotes_are_not():
    bad = rec('recollection_initialize', {'memories': ['我家老公在外地上班呢。', '用户喜欢喝美式']})
    good = rec('recollection_initialize', {'memories': ['用户说「我再也不熬夜了」', '用户喜欢喝美式']})
    found = shape.check_memory_voice(bad)
    assert checks(found) == ['shape.memory_voice'] and 'memory 0' in found[0].message
    assert shape.check_memory_voice(good) == []

# ------------------------------------------------------------------ shape distributions with caps


def _many(subtask, refs, **kw):
    return [rec(subtask, kw.get('inputs', {}), reference=t, line=k + 1, rid=f'{subtask}-{k}',
                persona=kw.get('persona', 'lin_che')) for k, t in enumerate(refs)]


def test_question_ending_share_is_capped_and_exempts_recollection_initialize():
    n = T.MIN_RECORDS_FOR_SHARE
    asking = ['今天怎么样？'] * n
    assert checks(caps.check_question_endings(_many('dialogue_base', asking))) == ['dist.question_ending']
    assert caps.check_question_endings(_many('recollection_initialize', asking)) == []
    mixed = ['今天怎么样？'] * (n * 2 // 5) + ['慢慢来就好。'] * (n - n * 2 // 5)
    assert caps.check_question_endings(_many('dialogue_base', mixed)) == []
    # A trailing stage direction or ～ does not hide the question.
    assert caps.ends_with_question('要不要一起试试？（笑）') and caps.ends_with_question('好不好呀？～')


def test_reference_opener_counts_the_user_name_as_one_opening():
    n = T.MIN_RECORDS_FOR_SHARE
    named = _many('itinerary_initialize', [f'（擦杯子）小雨{k}，今天降温了，出门多穿点。' for k in range(n)],
                  inputs={'user_name': '林小雨'})
    found = caps.check_reference_openers(named)
    assert checks(found) == ['dist.reference_opener'] and "'<user name>'" in found[0].message
    varied = _many('itinerary_initialize', [f'{w}，今天降温了。' for w in '春夏秋冬甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳'[:n]],
                   inputs={'user_name': '林小雨'})
    assert caps.check_reference_openers(varied) == []


def test_persona_tic_share_is_capped():
    n = T.MIN_RECORDS_FOR_SHARE
    ticky = _many('dialogue_base', [f'嗯……第{k}次了，别急。' for k in range(n)], persona='chen_yinuo')
    found = caps.check_persona_tics(ticky)
    assert checks(found) == ['dist.persona_tic'] and "'……'" in found[0].message
    plain = _many('dialogue_base', [f'第{k}次了，别急。' for k in range(n)], persona='chen_yinuo')
    assert caps.check_persona_tics(plain) == []


def test_persona_template_openings_are_named_per_record():
    n = T.MIN_RECORDS_FOR_TEMPLATE
    days = [f'今天，丁雨彤上午补觉，下午去菜场买了{k}样菜。' for k in range(n)]
    found = caps.check_persona_templates(_many('itinerary_basic', days, persona='ding_yutong'),
                                         {'ding_yutong': '丁雨彤'})
    assert len(found) == n and all(f.check == 'dist.persona_template' for f in found)
    assert "'上午补觉'" in found[0].message
    varied = [f'今天，丁雨彤{w}，下午去菜场。' for w in ('上午补觉', '早起晨跑', '去医院交班', '在家包饺子',
                                                  '整理衣柜', '陪猫晒太阳', '读完一本小说', '学做蛋糕')]
    assert caps.check_persona_templates(_many('itinerary_basic', varied, persona='ding_yutong'),
                                        {'ding_yutong': '丁雨彤'}) == []


def test_instruction_shape_uses_the_task_checks_counting():
    two = rec('itinerary_feedback', {'current_activity': '泡茶', 'user_feedback': '好香'},
              reference='这是今年的新茶。你也泡一杯试试。')
    one = rec('itinerary_feedback', {'current_activity': '泡茶', 'user_feedback': '好香'},
              reference='这是今年的新茶，你也泡一杯试试吧～')
    found = caps.check_instruction_shape(two)
    assert checks(found) == ['shape.instruction'] and 'sentences' in found[0].message
    assert caps.check_instruction_shape(one) == []

# ------------------------------------------------------------------ register


def test_register_markers_and_verdict():
    assert register.register_of('啊啊啊又被老板骂了') == 'chat'
    assert register.register_of('下班了吗') == 'chat'  # short and no closing 。
    assert register.register_of('好累。') == 'chat'  # very short
    assert register.register_of('我最近在考虑换工作的事情。') == 'written'  # short but composed
    assert register.register_of('我最近在考虑是否应该换一份离家更近的工作，因为通勤实在太消耗精力了。') == 'written'
    # A long message does not become chat by a particle or ？？ added.
    assert register.register_of('我最近在考虑是否应该换一份离家更近的工作，因为通勤实在太消耗精力了啊？？') == 'written'
    assert register.register_markers('好。') == {'short': True, 'very_short': True, 'open_end': False,
                                               'colloquial': False}


def test_register_tag_must_be_present_and_agree():
    tagged = rec('dialogue_emotion', {'history': [], 'user_message': '烦死了今天'}, tags={'register': 'chat'})
    untagged = rec('dialogue_emotion', {'history': [], 'user_message': '烦死了今天'})
    wrong = rec('dialogue_emotion', {'history': [], 'user_message': '烦死了今天'}, tags={'register': 'written'})
    assert register.check_register_tag(tagged) == []
    assert checks(register.check_register_tag(untagged)) == ['dist.register']
    assert "measures 'chat'" in register.check_register_tag(wrong)[0].message
    assert register.check_register_tag(rec('itinerary_feedback', {'user_feedback': 'x'})) == []


def test_register_quota_per_subtask():
    n = T.MIN_RECORDS_FOR_SHARE
    written = '我最近在考虑是否应该换一份离家更近的工作，因为通勤实在太消耗精力了。'
    group = [rec('dialogue_base', {'user_message': written}, line=k + 1) for k in range(n)]
    found = register.check_register_quota(group)
    assert checks(found) == ['dist.register_quota'] and '0 of 20' in found[0].message
    chatty = int(n * T.MIN_CHAT_REGISTER_SHARE) + 1
    for r in group[:chatty]:
        r.data['inputs']['user_message'] = '烦死了啊'
    assert register.check_register_quota(group) == []

# ------------------------------------------------------------------ probe shape


def _probe(k, n_turns, key, line):
    history = [{'role': 'user' if i % 2 == 0 else 'assistant', 'content': f'第{i}句'} for i in range(n_turns)]
    return rec('probe_context_aware', {'history': history, 'user_message': '那我怎么办'},
               tags={'key_turn': str(key)}, line=line, rid=f'p-{k}')


def test_key_fact_turn_must_be_tagged_and_a_user_turn():
    assert "no tags.key_turn" in distribution.key_turn(rec('probe_context_aware', {'history': []}))[1]
    assert 'not a user turn' in distribution.key_turn(_probe(0, 6, 1, 1))[1]
    assert 'outside the history' in distribution.key_turn(_probe(0, 6, 8, 1))[1]
    assert distribution.key_turn(_probe(0, 6, 2, 1)) == (2, None)


def test_key_fact_positions_are_spread_and_long_histories_present():
    early = [_probe(k, 8, 0, k + 1) for k in range(10)]
    found = distribution.check_key_fact_position(early)
    assert [f.check for f in found] == ['dist.key_fact_position'] * 2
    assert 'early' in found[0].message and '20+ turns' in found[1].message
    spread = ([_probe(k, 22, 0, k + 1) for k in range(4)] + [_probe(k, 8, 4, k + 5) for k in range(3)]
              + [_probe(k, 8, 6, k + 8) for k in range(3)])
    assert distribution.check_key_fact_position(spread) == []

# ------------------------------------------------------------------ reviewed findings


def _reviewed_dir(tmp_path, entries):
    import json
    (tmp_path / 'audit_reviewed.json').write_text(json.dumps({'reviewed': entries}, ensure_ascii=False),
                                                  encoding='utf-8')
    return str(tmp_path)


def test_a_reviewed_finding_is_set_aside_and_a_stale_review_is_a_finding(tmp_path):
    from opencompass_h2htalk.audit import reviewed
    r = rec('dialogue_base', {'history': [], 'user_message': '周末想出去走走'}, reference='拉上嫂子一起去公园转转吧。')
    findings = user_facts.check_user_facts(r)
    why = 'the user calls her neighbour 嫂子 in the persona-free sense; not a relative'
    d = _reviewed_dir(tmp_path, [{'id': r.id, 'check': 'grounding.user_fact', 'match': "'嫂子'", 'why': why},
                                 {'id': 'dialogue_base-999', 'check': 'grounding.user_fact', 'match': "'老公'",
                                  'why': why}])
    kept, done = reviewed.apply_reviews(findings, [r], reviewed.load_reviews(d), d)
    assert done == findings
    assert checks(kept) == ['audit.reviewed'] and 'reviewed[1]' in kept[0].message


def test_only_lexical_checks_can_be_reviewed_and_a_reason_is_required(tmp_path):
    import pytest
    from opencompass_h2htalk.audit import reviewed
    from opencompass_h2htalk.data.schema import ScenarioError
    d = _reviewed_dir(tmp_path, [{'id': 'x', 'check': 'dist.register', 'match': 'x', 'why': 'a long enough reason'}])
    with pytest.raises(ScenarioError, match='cannot be reviewed'):
        reviewed.load_reviews(d)
    d = _reviewed_dir(tmp_path, [{'id': 'x', 'check': 'grounding.user_fact', 'match': 'x', 'why': 'fine'}])
    with pytest.raises(ScenarioError, match='why'):
        reviewed.load_reviews(d)

# ------------------------------------------------------------------ measured precision (docs/audit.md)


def _labelled(name):
    import json
    import os
    path = os.path.join(os.path.dirname(__file__), 'labelled', name)
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f]


def _still_flagged(samples):
    """(defects, not defects) among the labelled findings the shipped check still raises (same word)."""
    kept = {'defect': 0, 'not_defect': 0}
    for x in samples:
        r = rec(x['id'].rsplit('-', 1)[0], x['inputs'], reference=x['reference'], rid=x['id'])
        word = x['finding'].split("'")[1]
        if any(f"'{word}'" in f.message for f in user_facts.check_user_facts(r, x['persona_name'],
                                                                            x['persona_description'])):
            kept[x['label']] += 1
    return kept['defect'], kept['not_defect']


def test_user_fact_precision_on_the_labelled_samples_is_the_documented_one():
    # Two samples of findings over data 1.0.0, labelled by readers who did not write the check (issue 22):
    # sample 1 of the first revision (38 defects of 80), sample 2 of the second (31 of 60). The shipped revision
    # keeps 35 of 38 and 30 of 31 defects and precision 60 % on both; a change to the word list moves these.
    one, two = _labelled('user_fact_sample1.jsonl'), _labelled('user_fact_sample2.jsonl')
    assert (len(one), sum(x['label'] == 'defect' for x in one)) == (80, 38)
    assert (len(two), sum(x['label'] == 'defect' for x in two)) == (60, 31)
    assert _still_flagged(one) == (35, 23)
    assert _still_flagged(two) == (30, 20)

# ------------------------------------------------------------------ tags and casting


def test_life_situation_tag_needs_a_word_of_the_inputs():
    shown = rec('dialogue_emotion', {'history': [], 'user_message': '孩子明天开家长会，我又得请假'},
                tags={'life_situation': '子女上学'})
    copied = rec('dialogue_emotion', {'history': [], 'user_message': '今天加班到九点，饭都没吃'},
                 tags={'life_situation': '子女上学'})
    assert life_situation.check_life_situation(shown) == []
    found = life_situation.check_life_situation(copied)
    assert checks(found) == ['tags.life_situation'] and '子女上学' in found[0].message
    # Only the inputs count: a reference that brings the situation in does not ground the tag.
    told = rec('dialogue_emotion', {'history': [], 'user_message': '今天加班到九点'}, reference='孩子作业谁看着呢？',
               tags={'life_situation': '子女上学'})
    assert checks(life_situation.check_life_situation(told)) == ['tags.life_situation']
    assert life_situation.check_life_situation(rec('dialogue_base', {'user_message': '嗯'})) == []
    # A word compatible with the situation is not evidence of it: a husband shows a marriage, not a new one.
    married = rec('probe_ambiguous', {'history': [], 'user_message': '老公又加班，我一个人吃饭'},
                  tags={'life_situation': '新婚'})
    assert checks(life_situation.check_life_situation(married)) == ['tags.life_situation']
    wedding = rec('probe_ambiguous', {'history': [], 'user_message': '婚礼才过一个月，老公就天天加班'},
                  tags={'life_situation': '新婚'})
    assert life_situation.check_life_situation(wedding) == []


def test_relation_claims_are_read_from_the_relation_line_only():
    description = '性格：从不端长辈架子。\n与用户的关系：你像一位嘴碎但靠得住的老大哥，也是同龄人里的开心果。'
    assert cast.relation_claims(description) == [('同龄', 'peer'), ('老大哥', 'elder')]
    assert cast.relation_claims('性格：从不端长辈架子。') == []
    assert cast.band_bounds('25-34') == (25, 34) and cast.band_bounds('65+') == (65, 120)
    assert cast.band_bounds('老年') is None


def test_claim_fits_uses_the_band_and_the_slack():
    assert cast.claim_fits('peer', 22, '18-24') and cast.claim_fits('peer', 22, '25-34')
    assert not cast.claim_fits('peer', 22, '35-44')
    assert cast.claim_fits('elder', 45, '35-44') and not cast.claim_fits('elder', 45, '45-54')
    assert not cast.claim_fits('elder', 63, '65+')


def test_age_relation_is_one_finding_per_persona_and_word():
    personas = {'chen_yinuo': {'age': 22, 'description': '与用户的关系：你是用户同龄的知心朋友。'},
                'lin_che': {'age': 29, 'description': '与用户的关系：你和用户是彼此信任的朋友。'}}
    roster = {'小雨': '18-24', '曹哥': '45-54', '老王': '55-64'}
    records = [rec('dialogue_base', {'user_message': '嗯', 'user_name': name}, persona=pid, line=k + 1)
               for k, (pid, name) in enumerate([('chen_yinuo', '小雨'), ('chen_yinuo', '曹哥'),
                                                ('chen_yinuo', '老王'), ('lin_che', '老王')])]
    found = cast.check_age_relation(records, personas, roster, 'personas.json')
    assert checks(found) == ['persona.age_relation'] and found[0].path == 'personas.json' and found[0].line == 0
    assert '同龄' in found[0].message and '2 records' in found[0].message
    assert 'dialogue_base-002, dialogue_base-003' in found[0].message
    assert cast.check_age_relation(records, personas, {}, 'personas.json') == []
