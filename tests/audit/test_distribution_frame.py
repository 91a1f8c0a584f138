"""Literal tests: length spread, opener template, the frame loader and its quotas."""
import json

import pytest

from opencompass_h2htalk.audit import thresholds as T
from opencompass_h2htalk.audit.distribution import (check_context_distance, check_length_spread, check_min_cell, check_motif_quota,
                                                    check_opener_template, check_user_name_quota, check_vocab,
                                                    key_fact_distance, length_cv, opener_class, quota_cap)
from opencompass_h2htalk.audit.frame import FrameError, load_frame, parse_frame

from .helpers import checks, rec

FRAME = {'version': '0.2.0',
         'vocab': {'emotion': ['焦虑', '疲惫'], 'topic': ['工作', '家庭'], 'relationship': ['同事'],
                   'life_situation': ['刚毕业']},
         'motifs': ['海堤骑车', '年糕'],
         'quotas': {'max_user_name_share': 0.01, 'max_motif_share': 0.02, 'min_cell': 2}}


def test_length_cv():
    assert length_cv([10, 10, 10]) == 0.0
    assert round(length_cv([5, 15]), 3) == 0.5


def test_targeted_lengths_fail_natural_ones_pass():
    same = [rec('dialogue_base', {}, '字' * (40 + k % 2), line=k + 1) for k in range(10)]
    found = check_length_spread(same)
    assert checks(found) == ['dist.length_spread'] and found[0].line == 0
    lengths = [12, 30, 55, 80, 20, 41, 66, 25, 90, 35]
    varied = [rec('dialogue_base', {}, '字' * n, line=k + 1) for k, n in enumerate(lengths)]
    assert check_length_spread(varied) == []
    assert check_length_spread(same[:T.MIN_RECORDS_FOR_CV - 1]) == []


def test_opener_template():
    assert opener_class('可是……我又舍不得') == 'adversative' and opener_class('算了，不说了') == 'adversative'
    assert opener_class('今天好累') == '今天'
    msgs = ['可是我不想去', '但是他很好', '不过算了', '算了吧', '可我还是怕', '但我想试试', '今天下雨', '明天考试', '周末去哪']
    recs = [rec('probe_ambiguous', {'history': [], 'user_message': m}, line=k + 1) for k, m in enumerate(msgs)]
    found = check_opener_template(recs)
    assert [f.line for f in found] == [1, 2, 3, 4, 5, 6]
    varied = ['今天下雨', '明天考试', '周末去哪', '可是我不想去', '我妈来了', '老板又骂人', '刚下班', '想换工作', '睡不着']
    assert check_opener_template([rec('probe_ambiguous', {'user_message': m}, line=k + 1)
                                  for k, m in enumerate(varied)]) == []


def _probe(distance, line):
    """A context-aware probe whose key fact (花生过敏) lies ``distance`` turns before the end of the history."""
    history = [{'role': 'user', 'content': '我对花生严重过敏'}, {'role': 'assistant', 'content': '记住了'}]
    while len(history) < distance:
        history += [{'role': 'user', 'content': f'闲聊第{len(history)}句'}, {'role': 'assistant', 'content': '嗯'}]
    return rec('probe_context_aware', {'history': history, 'user_message': '推荐个甜点？'}, line=line,
               tags={'need': '记得用户对花生严重过敏'})


def test_key_fact_distance():
    assert key_fact_distance(_probe(2, 1)) == 2 and key_fact_distance(_probe(10, 1)) == 10


def test_context_distance_needs_some_far_facts():
    near = [_probe(4, k + 1) for k in range(8)]
    found = check_context_distance(near)
    assert checks(found) == ['dist.context_distance'] and found[0].line == 0
    assert check_context_distance(near[:6] + [_probe(10, 7), _probe(12, 8)]) == []


def test_parse_frame_and_errors(tmp_path):
    frame = parse_frame(FRAME, 'frame.json')
    assert frame.vocab['emotion'] == ['焦虑', '疲惫'] and frame.max_motif_share == 0.02 and frame.min_cell == 2
    bad = json.loads(json.dumps(FRAME))
    del bad['quotas']['min_cell']
    with pytest.raises(FrameError, match=r"frame.json: key 'quotas.min_cell': missing"):
        parse_frame(bad, 'frame.json')
    bad = json.loads(json.dumps(FRAME))
    bad['vocab']['topic'] = ['工作', '工作']
    with pytest.raises(FrameError, match='vocab.topic'):
        parse_frame(bad, 'frame.json')
    assert frame.ages_by_call == {}  # no roster: the casting check has nothing to read
    roster = parse_frame(dict(FRAME, users=[{'call': '小雨', 'age_band': '18-24'}, {'call': '无年龄'}, 'x']))
    assert roster.ages_by_call == {'小雨': '18-24'}
    assert load_frame(str(tmp_path)) is None
    (tmp_path / 'frame.json').write_text('{"version": ', encoding='utf-8')
    with pytest.raises(FrameError, match=r'frame.json:1: invalid JSON'):
        load_frame(str(tmp_path))


def test_vocab():
    frame = parse_frame(FRAME)
    assert check_vocab(rec('dialogue_base', {}, tags={'emotion': '焦虑', 'topic': '工作'}), frame) == []
    found = check_vocab(rec('dialogue_base', {}, tags={'emotion': '焦虑', 'topic': '职场人际'}), frame)
    assert checks(found) == ['dist.vocab'] and '职场人际' in found[0].message
    extra = parse_frame(dict(FRAME, vocab=dict(FRAME['vocab'], time_of_day=['清晨', '上午'])))
    assert check_vocab(rec('dialogue_schedule', {}, tags={'time_of_day': '上午'}), extra) == []
    assert checks(check_vocab(rec('dialogue_schedule', {}, tags={'time_of_day': '大清早'}), extra)) == ['dist.vocab']


def test_quota_cap_has_a_floor():
    assert quota_cap(0.01, 100) == T.MIN_QUOTA_FLOOR
    assert quota_cap(0.01, 4650) == 46


def test_user_name_quota_counts_chains_once():
    frame = parse_frame(FRAME)
    recs = [rec('dialogue_base', {'user_name': '小周'}, line=k + 1) for k in range(5)]
    found = check_user_name_quota(recs, frame)
    assert [f.line for f in found] == [4, 5] and checks(found) == ['dist.user_name_quota'] * 2
    chained = [rec('itinerary_basic', {'user_name': '小周'}, line=k + 1, chain='c1', stage=k + 1) for k in range(5)]
    assert check_user_name_quota(chained, frame) == []


def test_motif_quota():
    frame = parse_frame(FRAME)
    recs = [rec('dialogue_schedule', {'today_schedule': [{'time': '06:30', 'activity': '沿海堤骑车'}]},
                '在海堤骑车', line=k + 1) for k in range(T.MIN_QUOTA_FLOOR)]
    assert check_motif_quota(recs, frame) == []  # at the floor: allowed
    recs = [rec('dialogue_schedule', {'current_activity': '给年糕添猫粮'}, '年糕在睡觉', line=k + 1) for k in range(4)]
    found = check_motif_quota(recs, frame)
    assert [f.line for f in found] == [4] and "'年糕'" in found[0].message


def test_min_cell_is_a_notice_below_scale():
    frame = parse_frame(FRAME)
    findings, notices = check_min_cell([rec('dialogue_base', {}, tags={'emotion': '焦虑', 'topic': '工作'})], frame)
    assert findings == [] and len(notices) == 1 and 'not enforced' in notices[0]


def test_min_cell_scales_with_the_set_size_toward_one_point_zero():
    from opencompass_h2htalk.audit.distribution import min_cell_required
    assert T.CELL_QUOTA_SCALE == 5300
    assert [min_cell_required(40, n) for n in (1000, 2650, 5299, 5300, 8000)] == [7, 20, 39, 40, 40]
    frame = parse_frame({**FRAME, 'quotas': {**FRAME['quotas'], 'min_cell': 40}})
    # 2,650 records (half of 1.0): each value needs 20. 焦虑 has 2,631, 疲惫 19 -> one finding; 家庭 has exactly 20.
    recs = ([rec('dialogue_base', {}, tags={'emotion': '焦虑', 'topic': '工作'}) for _ in range(2611)]
            + [rec('dialogue_base', {}, tags={'emotion': '焦虑', 'topic': '家庭'}) for _ in range(20)]
            + [rec('dialogue_base', {}, tags={'emotion': '疲惫', 'topic': '工作'}) for _ in range(19)])
    findings, notices = check_min_cell(recs, frame)
    assert [f.message for f in findings] == [
        "tags.emotion '疲惫': 19 records < 20 (min_cell 40 at 5300 records, scaled to 2650)"]
    assert len(notices) == 1 and 'each needs 20' in notices[0]
    recs.append(rec('dialogue_base', {}, tags={'emotion': '疲惫', 'topic': '工作'}))
    assert check_min_cell(recs, frame)[0] == []
