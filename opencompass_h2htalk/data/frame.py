"""The sampling frame of H2HTalk-Open: closed tag vocabularies, capped motifs, quotas and a seeded user roster.

Writers draw each new scenario's user, emotion, topic, relationship and life situation from this frame instead of
inventing them freely, so that scaled-up data stays varied (issue 9, item 3). The frame is data
(``data/open/frame.json``, pinned in the manifest); this module is the generator that produced it and the check
that it still does::

    python -m opencompass_h2htalk.data.frame            # rewrite frame.json from the generator
    python -m opencompass_h2htalk.data.frame --check    # exit 1 if frame.json differs from the generator

Pure Python (no OpenCompass, no third-party imports). The file format is the one ``h2htalk audit`` reads
(``version``, ``vocab``, ``motifs``, ``quotas``, ``users``); extra keys are ignored by the audit.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .paths import default_data_dir
from .schema import read_json

FRAME_NAME = 'frame.json'
FRAME_VERSION = '0.2.0'
#: Seed of the roster; changing it changes every user, so it is part of the frame's version.
ROSTER_SEED = 20261123
ROSTER_SIZE = 600

#: Closed vocabularies for record tags. A value outside them is a data error (the audit checks it).
VOCAB: Dict[str, Tuple[str, ...]] = {
    # How the user feels in the scenario (tags.emotion).
    'emotion': ('开心', '平静', '兴奋', '期待', '感激', '感动', '钦佩', '羡慕', '好奇', '怀念', '思念', '疲惫',
                '焦虑', '担心', '紧张', '委屈', '难过', '孤独', '失落', '生气', '愧疚', '迷茫', '纠结', '无聊',
                '害怕', '绝望'),
    # What the scenario is about (tags.topic).
    'topic': ('工作', '求职', '学业', '家庭', '育儿', '恋爱', '友情', '健康', '饮食', '宠物', '爱好', '运动',
              '旅行', '日常', '经济', '居住'),
    # Whom the user talks about (tags.relationship; 无 when nobody else is involved).
    'relationship': ('无', '父亲', '母亲', '父母', '伴侣', '前任', '暗恋对象', '子女', '兄弟姐妹', '祖辈', '亲戚',
                     '朋友', '室友', '同学', '同事', '上司', '下属', '客户', '老师', '邻居', '医生', '宠物', '陌生人'),
    # Where the user stands in life (tags.life_situation).
    'life_situation': ('在校读书', '备考', '求职中', '初入职场', '职场中坚', '创业', '待业', '自由职业', '异地工作',
                       '恋爱中', '新婚', '孕期', '新手父母', '子女上学', '独居', '照顾老人', '空巢', '退休',
                       '病后康复', '刚分手', '刚搬家'),
    # Part of the day an itinerary_advanced slot falls in (tags.time_of_day).
    'time_of_day': ('清晨', '上午', '中午', '下午', '傍晚', '晚上', '深夜'),
    # The user's tone in itinerary_feedback (tags.tone).
    'tone': ('赞叹', '调侃', '关心', '担心', '羡慕', '吃醋', '怀旧', '好奇', '感伤', '鼓励'),
}

#: Recurring objects and activities a writer reaches for too easily; each is capped by max_motif_share.
#: Matched as a plain substring of a record's inputs and reference. The first ones come from the 0.1.0 seed
#: review ("06:30 沿海堤骑车" opened 18 schedules, 年糕 was in 34 records); the rest are the personas' hobbies.
MOTIFS: Tuple[str, ...] = (
    '海堤', '年糕', '乌龙', '柠檬磅蛋糕', '黑胶', '老火汤', '葱油拌面', '渔港', '旧地图', '晨跑', '绿萝', '动画电影',
    '蜗牛', '小楷', '茉莉花茶', '荠菜馄饨', '越剧', '飞盘', '民谣', '星空', '热可可', '孔雀鱼', '手账', '象棋',
    '评书', '丝瓜', '钓鱼', '陈皮', '桂花', '插花', '像素', '羽毛球', '火锅', '剧本杀', '夜跑', '咖喱', '多肉',
    '手把肉', '马头琴', '奶茶', '长调',
)

QUOTAS: Dict[str, Any] = {
    # No single synthetic user may dominate: at most 1 % of records carry one user name.
    'max_user_name_share': 0.01,
    # No motif in more than 2 % of records (the seed had 年糕 in 9 %).
    'max_motif_share': 0.02,
    # Every emotion and every topic value needs at least this many records at the 1.0 scale (4,650 core
    # records over 26 emotions / 16 topics: 40 is about a quarter of an even share, so rare cells still exist
    # in numbers that give a usable per-cell mean).
    'min_cell': 40,
}

# --------------------------------------------------------------------------- roster name parts
_SURNAMES = ('王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何',
             '高', '林', '罗', '郑', '梁', '谢', '宋', '唐', '许', '韩', '冯', '邓', '曹', '彭', '曾', '肖', '田',
             '董', '袁', '潘', '于', '蒋', '蔡', '余', '杜', '叶', '程', '苏', '魏', '吕', '丁', '任', '沈')
#: Given names by generation: names common among people born before about 1980 ('older') and after ('younger').
_GIVEN: Dict[str, Dict[str, Tuple[str, ...]]] = {
    'female': {
        'older': ('丽娟', '秀英', '桂芳', '海燕', '春梅', '玉兰', '淑华', '凤霞', '彩霞', '翠兰', '素芬', '美玲',
                  '雅琴', '红梅', '建华', '秀兰', '丽华', '芳', '萍', '敏'),
        'younger': ('雨桐', '思琪', '佳怡', '欣妍', '梓涵', '晓雯', '婷婷', '静怡', '慧敏', '诗涵', '可馨', '若溪',
                    '晓琳', '嘉欣', '梦瑶', '冰清', '晴', '蕾', '娜', '颖', '雪', '洁', '悦', '楠楠', '一然', '书瑶',
                    '语嫣', '安琪', '子琪', '心怡'),
    },
    'male': {
        'older': ('建国', '国栋', '海涛', '振华', '志强', '立新', '卫东', '德胜', '永刚', '建军', '长青', '春生',
                  '宏伟', '国强', '建平', '伟', '强', '勇', '军', '斌'),
        'younger': ('浩然', '子轩', '宇航', '俊杰', '文博', '明轩', '天宇', '嘉豪', '博文', '一鸣', '子墨', '晨阳',
                    '凯', '磊', '涛', '鹏', '超', '杰', '泽宇', '昊天', '景行', '思远', '家乐', '梓豪', '宇轩',
                    '皓', '航', '锐'),
    },
}
#: Which generation's names each age band draws from.
_GENERATION = {'18-24': 'younger', '25-34': 'younger', '35-44': 'both', '45-54': 'older', '55-64': 'older',
               '65+': 'older'}
_AGE_BANDS: Tuple[Tuple[str, int, int], ...] = (
    ('18-24', 18, 24), ('25-34', 25, 34), ('35-44', 35, 44), ('45-54', 45, 54), ('55-64', 55, 64), ('65+', 65, 80))
#: Share of the roster per age band (the scenarios skew young, as companion users do, but every band is present).
_AGE_WEIGHTS = (0.22, 0.30, 0.20, 0.13, 0.09, 0.06)
_OCCUPATIONS: Dict[str, Tuple[str, ...]] = {
    '18-24': ('大学生', '研究生', '职校学生', '实习生', '咖啡店店员', '外卖骑手', '健身教练', '美甲师', '游戏测试',
              '仓库分拣员', '主播助理', '新入职的销售'),
    '25-34': ('程序员', '护士', '小学老师', '会计', '产品经理', '外卖骑手', '快递员', '设计师', '销售', '律师助理',
              '住院医师', '新媒体运营', '房产中介', '餐馆厨师', '公务员', '自由撰稿人', '网店店主', '药剂师'),
    '35-44': ('中学老师', '工程师', '部门经理', '出租车司机', '个体店主', '护士长', '销售主管', '公务员', '装修工长',
              '自由摄影师', '财务主管', '医生', '全职妈妈', '全职爸爸', '物流调度'),
    '45-54': ('中学老师', '工厂车间主任', '个体店主', '会计', '公交司机', '医生', '社区工作者', '货车司机',
              '保险经纪人', '厨师', '保洁主管', '农场主'),
    '55-64': ('临近退休的会计', '社区工作者', '出租车司机', '退休教师', '退休工人', '菜场摊主', '门卫', '返聘医生',
              '家政阿姨', '村干部'),
    '65+': ('退休教师', '退休工人', '退休医生', '退休干部', '退休司机', '种菜的退休老人'),
}
#: Occupations named for one gender are only drawn for that gender.
_GENDERED_OCCUPATIONS = {'全职妈妈': 'female', '全职爸爸': 'male', '家政阿姨': 'female'}
_LIFE_STAGES: Dict[str, Tuple[str, ...]] = {
    '18-24': ('在读', '在读', '刚毕业', '恋爱中', '单身'),
    '25-34': ('单身', '恋爱中', '新婚', '已婚无孩', '新手父母', '独居'),
    '35-44': ('已婚有孩', '子女上小学', '离异带孩', '单身', '二胎家庭'),
    '45-54': ('子女上中学', '子女上大学', '照顾老人', '离异', '已婚有孩'),
    '55-64': ('子女成家', '帮带孙辈', '照顾老人', '临近退休', '空巢'),
    '65+': ('退休', '帮带孙辈', '丧偶独居', '老两口同住'),
}
_CITY_TIERS = ('一线', '新一线', '二线', '三四线', '县城', '乡镇')
_CITY_WEIGHTS = (0.18, 0.22, 0.22, 0.20, 0.12, 0.06)


def _call_options(surname: str, given: str, gender: str, age_band: str) -> List[str]:
    """How a companion may address this user, most natural first; the full name always comes last."""
    last = given[-1]
    kin = '姐' if gender == 'female' else '哥'
    young = ([given] if len(given) == 2 else []) + ['小' + last, '阿' + last, last + last]
    older = ['老' + surname, surname + kin] + ([given + kin] if len(given) == 2 else [])
    if age_band == '65+':
        older = [surname + ('阿姨' if gender == 'female' else '叔')] + older
    first = older if age_band in ('45-54', '55-64', '65+') else young
    return first + [surname + given]


def build_roster(seed: int = ROSTER_SEED, size: int = ROSTER_SIZE) -> List[Dict[str, str]]:
    """Draws ``size`` synthetic users with unique full names and unique forms of address.

    Each user: name, call (how the companion addresses them; unique in the roster, so the user-name quota can
    count it), age_band, gender, occupation (plausible for the band), city_tier, life_stage.

    Raises:
        ValueError: if the name parts cannot yield ``size`` unique users.
    """
    rng = random.Random(seed)
    users: List[Dict[str, str]] = []
    names, calls = set(), set()
    attempts = 0
    while len(users) < size:
        attempts += 1
        if attempts > size * 200:
            raise ValueError(f'only {len(users)} unique users from the name parts (asked for {size})')
        gender = rng.choice(('female', 'male'))
        band, _, _ = rng.choices(_AGE_BANDS, weights=_AGE_WEIGHTS)[0]
        surname = rng.choice(_SURNAMES)
        gen = _GENERATION[band]
        pool = _GIVEN[gender]['older'] + _GIVEN[gender]['younger'] if gen == 'both' else _GIVEN[gender][gen]
        given = rng.choice(pool)
        name = surname + given
        if name in names:
            continue
        call = next((c for c in _call_options(surname, given, gender, band) if c not in calls), None)
        if call is None:
            continue
        names.add(name)
        calls.add(call)
        occupation = rng.choice([o for o in _OCCUPATIONS[band] if _GENDERED_OCCUPATIONS.get(o, gender) == gender])
        city_tier = rng.choices(_CITY_TIERS, weights=_CITY_WEIGHTS)[0]
        stages = _LIFE_STAGES[band]
        if occupation.startswith('全职'):  # a stay-at-home parent has children
            stages = tuple(st for st in stages if '孩' in st or '二胎' in st)
        users.append({'name': name, 'call': call, 'age_band': band, 'gender': gender, 'occupation': occupation,
                      'city_tier': city_tier, 'life_stage': rng.choice(stages)})
    return users


def build_frame(seed: int = ROSTER_SEED, size: int = ROSTER_SIZE) -> Dict[str, Any]:
    """Returns the whole frame as the JSON object written to ``frame.json``."""
    return {
        'version': FRAME_VERSION,
        'roster_seed': seed,
        'vocab': {k: list(v) for k, v in VOCAB.items()},
        'motifs': list(MOTIFS),
        'quotas': dict(QUOTAS),
        'roster_fields': {'age_band': [b for b, _, _ in _AGE_BANDS], 'gender': ['female', 'male'],
                          'city_tier': list(_CITY_TIERS),
                          'occupation': {b: list(v) for b, v in _OCCUPATIONS.items()},
                          'life_stage': {b: list(v) for b, v in _LIFE_STAGES.items()}},
        'users': build_roster(seed, size),
    }


def render(frame: Dict[str, Any]) -> str:
    """The exact text written to disk (one user per line keeps diffs readable)."""
    head = {k: v for k, v in frame.items() if k != 'users'}
    body = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    users = ',\n'.join('    ' + json.dumps(u, ensure_ascii=False) for u in frame['users'])
    return f'{body},\n  "users": [\n{users}\n  ]\n}}\n'


def load_frame(data_dir: Optional[str] = None) -> Dict[str, Any]:
    """Reads ``frame.json`` from a data directory (default: the bundled data).

    Raises:
        FileNotFoundError: if there is no frame.
        ValueError: naming the file (and line) when it is a directory, not UTF-8 or not valid JSON (a
            :class:`~opencompass_h2htalk.data.schema.ScenarioError`).
    """
    return read_json(os.path.join(data_dir or default_data_dir(), FRAME_NAME))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Writes the frame, or with ``--check`` verifies that the file on disk is what the generator makes."""
    p = argparse.ArgumentParser(prog='python -m opencompass_h2htalk.data.frame', description=__doc__.split('\n')[0])
    p.add_argument('--data-dir', default=None, help='directory of frame.json (default: the bundled data)')
    p.add_argument('--check', action='store_true', help='exit 1 if frame.json differs from the generator output')
    args = p.parse_args(argv)
    path = os.path.join(args.data_dir or default_data_dir(), FRAME_NAME)
    text = render(build_frame())
    if args.check:
        try:
            with open(path, encoding='utf-8') as f:
                current = f.read()
        except FileNotFoundError:
            print(f'error: {path}: missing', file=sys.stderr)
            return 1
        if current != text:
            print(f'error: {path}: differs from the generator (run python -m opencompass_h2htalk.data.frame)',
                  file=sys.stderr)
            return 1
        print(f'ok: {path}')
        return 0
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'wrote {path} ({len(build_frame()["users"])} users)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
