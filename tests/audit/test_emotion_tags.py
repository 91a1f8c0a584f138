"""``tags.emotion`` (issue 22): an emotion tag stays only where a word of the user's side of the inputs shows it."""
import json
import os

from opencompass_h2htalk.audit import emotion_tags
from opencompass_h2htalk.audit.runner import CHECKS, run_audit
from opencompass_h2htalk.data.paths import default_data_dir

from .helpers import checks, rec


def test_emotion_no_word_shows_is_named():
    # Read 6's recollection_refine-1116: a chain's 无聊 kept on a bare, upbeat memory.
    r = rec('recollection_refine', {'memories': ['用户这个月吃了十八回黄焖鸡']}, reference='我这个月吃了十八回黄焖鸡，吃成专家了！',
            tags={'emotion': '无聊'})
    found = emotion_tags.check_emotion_tag(r)
    assert checks(found) == ['tags.emotion'] and '无聊' in found[0].message


def test_emotion_inferred_from_an_event_is_named():
    # Read 6's recollection_initialize-5016: a quarrel does not show 迷茫.
    r = rec('recollection_initialize', {'memories': ['用户和最好的朋友吵架后，两周没说话了'], 'user_name': '小林'},
            reference='小林，和好朋友那事，这两周你心里还堵着吗？', tags={'emotion': '迷茫'})
    assert checks(emotion_tags.check_emotion_tag(r)) == ['tags.emotion']


def test_emotion_shown_by_a_word_passes():
    shown = rec('recollection_initialize', {'memories': ['用户下个月第一次登台，一想到台下坐满人就手心冒汗']},
                tags={'emotion': '紧张'})
    overview = rec('itinerary_middle', {'day_overview': '今天，林澈上午修书。晚上九点他和小雅视频，听她气呼呼地说房东涨租。',
                                        'user_name': '小雅'}, tags={'emotion': '生气'})
    assert emotion_tags.check_emotion_tag(shown) == []
    assert emotion_tags.check_emotion_tag(overview) == []


def test_neutral_is_never_named():
    for subtask in emotion_tags.SCOPE:
        r = rec(subtask, {'memories': ['用户是会计'], 'day_overview': '今天，林澈修书。'}, tags={'emotion': '平静'})
        assert emotion_tags.check_emotion_tag(r) == []
    assert emotion_tags.NEUTRAL not in emotion_tags.SUPPORT


def test_only_the_users_side_of_the_inputs_counts():
    # The feeling is in the reference and in the companion's own activity, not in anything about the user.
    r = rec('itinerary_initialize', {'user_name': '阿超', 'current_activity': '开心地给花浇水',
                                     'memories': ['用户的表姐借给她五万首付']},
            reference='阿超，表姐这么帮你，真让人开心！', tags={'emotion': '开心'})
    assert checks(emotion_tags.check_emotion_tag(r)) == ['tags.emotion']


def test_itinerary_advanced_has_no_user_side():
    r = rec('itinerary_advanced', {'today_schedule': [{'time': '09:00', 'activity': '开心地开店'}],
                                   'time_slot': {'time': '09:00', 'activity': '开心地开店'}}, tags={'emotion': '开心'})
    assert checks(emotion_tags.check_emotion_tag(r)) == ['tags.emotion']


def test_subtasks_out_of_scope_are_not_read():
    # The user's own voice shows feelings in ways no list covers: these stay with the reads (see SCOPE).
    for subtask, inputs in (('dialogue_base', {'history': [], 'user_message': '这么晚一个人在外面，注意安全啊。'}),
                            ('itinerary_feedback', {'user_feedback': '骑马可得当心，孩子摔一下可不是小事。'}),
                            ('safety', {'user_message': '我不知道还能撑多久'})):
        assert subtask not in emotion_tags.SCOPE
        assert emotion_tags.check_emotion_tag(rec(subtask, inputs, tags={'emotion': '担心'})) == []


def test_a_value_outside_the_lists_is_not_read():
    r = rec('recollection_refine', {'memories': ['用户是会计']}, tags={'emotion': '不在词表'})
    assert emotion_tags.check_emotion_tag(r) == []


def test_every_emotion_but_neutral_has_words():
    with open(os.path.join(default_data_dir(), 'frame.json'), encoding='utf-8') as f:
        vocab = json.load(f)['vocab']['emotion']
    assert set(emotion_tags.SUPPORT) == set(vocab) - {emotion_tags.NEUTRAL}
    assert all(emotion_tags.SUPPORT.values())


def test_the_audit_runs_the_check(tmp_path):
    with open(os.path.join(default_data_dir(), 'recollection_refine.jsonl'), encoding='utf-8') as f:
        record = json.loads(f.readline())
    record.pop('chain', None), record.pop('stage', None)
    record['inputs'] = {'memories': ['用户这个月吃了十八回黄焖鸡']}
    record['reference'] = '我这个月吃了十八回黄焖鸡！'
    record['tags'] = {'emotion': '无聊', 'topic': '饮食'}
    (tmp_path / 'recollection_refine.jsonl').write_text(json.dumps(record, ensure_ascii=False) + '\n', encoding='utf-8')
    result = run_audit(str(tmp_path))
    assert 'tags.emotion' in CHECKS
    assert [f.check for f in result.findings if f.check.startswith('tags.')] == ['tags.emotion']


def test_a_reviewed_emotion_finding_is_accepted_and_an_unreviewed_one_still_fails(tmp_path):
    # rc.9: the re-read of the tags rc.5 set to 平静 restored feelings the word lists miss; a reader's entry in
    # audit_reviewed.json sets such a finding aside, and only for the record and value it names.
    from opencompass_h2htalk.audit import reviewed
    shown = rec('itinerary_basic', {'memories': ['用户是个瓦匠，这两年活越来越少，总琢磨这行还有没有奔头']},
                tags={'emotion': '迷茫'}, line=1)
    other = rec('itinerary_basic', {'memories': ['用户是个瓦匠，这两年活越来越少']}, tags={'emotion': '迷茫'}, line=2)
    findings = emotion_tags.check_emotion_tag(shown) + emotion_tags.check_emotion_tag(other)
    assert checks(findings) == ['tags.emotion', 'tags.emotion']
    (tmp_path / 'audit_reviewed.json').write_text(json.dumps({'reviewed': [
        {'id': shown.id, 'check': 'tags.emotion', 'match': '「迷茫」',
         'why': '总琢磨这行还有没有奔头: the user is unsure whether the trade has a future'}]}, ensure_ascii=False),
        encoding='utf-8')
    kept, done = reviewed.apply_reviews(findings, [shown, other], reviewed.load_reviews(str(tmp_path)),
                                        str(tmp_path))
    assert done == findings[:1]
    assert kept == findings[1:] and checks(kept) == ['tags.emotion']
