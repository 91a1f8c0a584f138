"""Grounding of user facts: a reference names the user's relatives, health, work, places or events only when its
inputs give them."""
from __future__ import annotations

import re
from typing import Dict, Iterable, List, Tuple

from ..checks.base import without_actions
from .model import Finding, Record, all_strings, schedule, user_names
from .slots import call_partners

#: The closed list of user-fact kinds and their Chinese surface forms. Each tuple is one fact: any of its forms
#: in the inputs supports any of its forms in the reference (老公 in the history grounds 丈夫 in the reply). Forms
#: are chosen so that they rarely mean anything else in a companion's reply: vocative or generic words (哥, 宝贝,
#: 先生, 叔叔, 阿姨, 公司, 朋友) are left out because they cannot be told apart from a fact without parsing.
USER_FACT_FORMS: Dict[str, Tuple[Tuple[str, ...], ...]] = {
    'relation': (
        ('老公', '丈夫', '爱人', '老婆', '妻子', '媳妇'),
        ('男朋友', '女朋友', '男友', '女友', '对象', '另一半'),
        ('未婚夫', '未婚妻'),
        ('前任', '前男友', '前女友', '前夫', '前妻'),
        ('爸爸', '老爸', '父亲', '爸妈', '父母', '二老'),
        ('妈妈', '老妈', '母亲', '爸妈', '父母', '二老'),
        ('爷爷', '奶奶', '外公', '外婆', '姥姥', '姥爷'),
        ('哥哥', '亲哥'),
        ('姐姐', '亲姐'),
        ('弟弟',),
        ('妹妹',),
        ('嫂子', '大嫂'),
        ('姐夫',), ('妹夫',), ('弟媳',),
        ('儿子', '孩子', '娃', '小孩'),
        ('女儿', '闺女', '孩子', '娃', '小孩'),
        ('孙子', '孙女', '外孙'),
        ('公公', '婆婆'),
        ('岳父', '岳母', '丈母娘', '老丈人'),
        ('舅舅',), ('姑姑',), ('姨妈',), ('侄子', '侄女'), ('外甥',),
        ('室友',), ('闺蜜',), ('导师',), ('领导', '上司', '主管'),
    ),
    'health': (
        ('感冒',), ('发烧', '发热', '烧到'), ('咳嗽',), ('住院', '出院'), ('手术',), ('怀孕', '孕期', '怀了'),
        ('抑郁',), ('失眠', '睡不着', '睡不好'), ('过敏',), ('高血压', '血压'), ('糖尿病', '血糖'), ('骨折',),
        ('胃疼', '胃痛', '胃病', '胃不舒服'), ('头痛',), ('腰疼', '腰痛', '腰伤'), ('生病', '病了'),
    ),
    'work': (
        ('下班', '下了班'), ('加班',), ('辞职', '离职', '辞了'), ('跳槽',), ('失业', '裁员', '被裁'),
        ('面试',), ('实习',), ('考研',), ('考公', '公务员'), ('毕业',), ('退休',), ('创业',), ('出差',),
        ('升职', '晋升'), ('转正',),
    ),
    'place': (
        ('老家',), ('宿舍',), ('在医院', '住院'),
    ),
    'event': (
        ('婚礼', '结婚', '办酒'), ('离婚',), ('相亲',), ('搬家', '搬走', '搬过去'), ('旅行', '旅游'),
        ('生日',), ('葬礼', '去世', '过世'), ('考试', '考完', '期末', '挂科', '没考过', '考砸'), ('答辩',), ('约会',), ('年会',),
    ),
}

#: Words that give a fact without naming it, so they support it (never flagged themselves). Issue 22's labelled
#: sample showed these false positives: 下班 when the memories give the user's job; 孩子 for a given grandson,
#: baby or pupils; a partner implied by a pregnancy, in-laws or a wedding.
_JOB = ('上班', '工作', '单位', '公司', '同事', '老板', '领导', '客户', '岗', '工位', '值班', '夜班', '白班', '轮班',
        '店里', '门店', '开店', '护士', '医生', '教练', '老师', '司机', '工程师', '设计师', '程序员', '会计', '销售',
        '主播', '厨师', '骑手', '快递', '外卖', '职员', '员工', '实习', '工地', '厂', '律所', '编辑', '记者', '科室',
        '医师', '规培')
_CHILD = ('孙子', '孙女', '外孙', '宝宝', '小孩', '孩子', '娃', '儿子', '女儿', '闺女', '学生', '侄', '外甥', '幼儿园',
          '家长会', '班主任', '月子', '怀孕', '带娃', '上学', '小学', '初中', '高中', '老大', '老二', '有家有口')
_PARTNER = ('怀孕', '孕', '婆家', '婆婆', '公公', '岳父', '岳母', '丈母娘', '老丈人', '结婚', '婚礼', '老伴', '两口子',
            '另一半', '媳妇', '对象', '老公', '老婆', '丈夫', '妻子', '爱人', '那口子', '家那位')
#: The user's own wife, seen from the companion, is 嫂子; a parent named by one character (她妈, 亲爸) is still given.
_SPOUSE = ('妻子', '老婆', '媳妇', '爱人', '老伴')
_PARENT = ('爸', '妈', '父', '母')
EXTRA_SUPPORT: Dict[str, Tuple[str, ...]] = {
    '嫂子': _SPOUSE, '大嫂': _SPOUSE,
    '爸爸': _PARENT, '老爸': _PARENT, '父亲': _PARENT, '妈妈': _PARENT, '老妈': _PARENT, '母亲': _PARENT,
    '爸妈': _PARENT, '父母': _PARENT, '在医院': ('医院',), '面试': ('应聘', '求职', '简历'),
    '下班': _JOB, '下了班': _JOB, '加班': _JOB,
    '孩子': _CHILD, '娃': _CHILD, '小孩': _CHILD,
    '老公': _PARTNER, '丈夫': _PARTNER, '爱人': _PARTNER, '老婆': _PARTNER, '妻子': _PARTNER, '媳妇': _PARTNER,
}

#: Subtasks whose reference must stick to its inputs (recollection_synthesize has its own support check;
#: itinerary_middle only restates its overview).
USER_FACT_SUBTASKS = frozenset({
    'dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_refine', 'recollection_initialize',
    'itinerary_basic', 'itinerary_advanced', 'itinerary_feedback', 'itinerary_initialize', 'safety',
    'probe_implicit_help', 'probe_ambiguous', 'probe_context_aware'})

_CLAUSE = re.compile(r'[，。！？；、,.!?;\n～~…]+')
#: 「你这孩子」「大厨姐姐」: a form right after 你这/这 or another noun-like address is a way of calling the user,
#: not a relative.
_ADDRESS = re.compile(r'(?:你这|您这|这|大厨|小)$')
#: A clause about the companion itself (我/我们/咱, or its name in the third-person itinerary texts, without
#: 你/您 or the user's name) names the companion's own life, which `world.persona_fact` governs.
_SELF = re.compile(r'我|咱')
_YOU = re.compile(r'你|您')


#: What the user says in the first person supports the fact too: 我妈 grounds 妈妈, 我哥 grounds 哥哥.
_SPOKEN = {'爸爸': '我爸', '老爸': '我爸', '父亲': '我爸', '妈妈': '我妈', '老妈': '我妈', '母亲': '我妈', '爸妈': '我爸',
           '父母': '我爸', '哥哥': '我哥', '姐姐': '我姐', '弟弟': '我弟', '妹妹': '我妹', '儿子': '我儿', '女儿': '我女',
           '老公': '我家那位', '老婆': '我家那位'}


def _all_forms() -> List[Tuple[str, str, Tuple[str, ...]]]:
    """(form, kind, every form that supports it), longest form first so that 男朋友 is matched before shorter
    forms inside it. A form of several facts (孩子: a son or a daughter) is supported by any of them."""
    support: Dict[str, set] = {}
    kinds: Dict[str, str] = {}
    for kind, groups in USER_FACT_FORMS.items():
        for group in groups:
            for form in group:
                support.setdefault(form, set()).update(group)
                kinds.setdefault(form, kind)
    for form, extra in EXTRA_SUPPORT.items():
        support[form].update(extra)
    for form, spoken in _SPOKEN.items():
        support[form].add(spoken)
        if form in ('爸妈', '父母'):
            support[form].add('我妈')
    out = [(form, kinds[form], tuple(sorted(support[form]))) for form in support]
    return sorted(out, key=lambda x: (-len(x[0]), x[0]))


_FORMS = _all_forms()


#: Subtasks written in the third person about the companion's own day: there a clause is about the user only when
#: it names the user (itinerary_basic's user_name) or a person the companion is on a call with in its schedule
#: (itinerary_advanced has no user name); neighbours and customers of the companion's world are not the user.
THIRD_PERSON_SUBTASKS = frozenset({'itinerary_basic', 'itinerary_advanced'})

#: Relations are facts even without a pronoun (「拉上嫂子」 presumes the user has one); the other kinds are too
#: often advice or talk about a third party (「去医院看看」, 「柯基胃不舒服」), so they count only in a clause
#: that is about the user (你/您 or the user's name).
PRONOUN_FREE_KINDS = frozenset({'relation'})


def unsupported_user_facts(reference: str, sources: str, user_names: Iterable[str] = (),
                           self_names: Iterable[str] = (), third_person: bool = False) -> List[Tuple[str, str, str]]:
    """User facts the reference states that no source gives.

    Args:
        reference: The reference text.
        sources: Everything the model is given (the record's inputs) and the persona description, joined.
        user_names: The user's name and nickname, which mark a clause as about the user.
        self_names: The companion's name, which marks a clause as about the companion (itinerary texts).
        third_person: The text narrates the companion's day: only clauses naming the user count.

    Returns:
        (kind, form, clause) per unsupported fact, in text order, each form once.
    """
    text = without_actions(reference)  # stage directions are the companion's own side, not statements about the user
    names = [n for n in user_names if n]
    selves = [n for n in self_names if n]
    out: List[Tuple[str, str, str]] = []
    seen = set()
    for clause in _CLAUSE.split(text):
        if not clause:
            continue
        named = any(n in clause for n in names)
        about_user = named if third_person else (bool(_YOU.search(clause)) or named)
        if third_person and not about_user:
            continue
        if (_SELF.search(clause) or any(n in clause for n in selves)) and not about_user:
            continue
        taken = ''
        for form, kind, group in _FORMS:
            at = clause.find(form)
            if at < 0 or form in taken or form in seen or _ADDRESS.search(clause[:at]):
                continue
            taken += form + '|'  # 男朋友 found: do not report 朋友-like parts of it again
            if kind not in PRONOUN_FREE_KINDS and not about_user:
                continue
            if any(f in sources for f in group):
                continue
            seen.add(form)
            out.append((kind, form, clause.strip()))
    return out


def _user_names(record: Record) -> List[str]:
    """The user's name and its last two characters (the usual 称呼), and in itinerary_advanced the people the
    companion calls in its schedule."""
    names = user_names(record)
    if record.subtask == 'itinerary_advanced':
        for entry in schedule(record):
            names += call_partners(entry['activity'])
    return names


def check_user_facts(record: Record, persona_name: str = '', persona_text: str = '') -> List[Finding]:
    """A reference states a user fact (relation, health, work, place, event) only when the inputs give it."""
    if record.subtask not in USER_FACT_SUBTASKS:
        return []
    sources = '\n'.join(list(all_strings(record.inputs)) + [persona_name, persona_text])
    found = unsupported_user_facts(record.reference, sources, _user_names(record), [persona_name],
                                   third_person=record.subtask in THIRD_PERSON_SUBTASKS)
    return [record.finding('grounding.user_fact', f'reference names the user\'s {kind} {form!r} ("{clause}"), '
                                                  f'which no input gives') for kind, form, clause in found]

