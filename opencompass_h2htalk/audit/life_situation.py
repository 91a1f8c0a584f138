"""Life-situation tags: a record's ``tags.life_situation`` stays only where its inputs show that situation."""
from __future__ import annotations

from typing import Dict, List, Tuple

from .model import Finding, Record, all_strings

#: Per value of the frame's ``life_situation`` vocabulary, words whose presence in the inputs shows that situation,
#: not merely something compatible with it: 老公 shows a marriage but not a new one (新婚 needs 刚结婚, 婚礼, 领证…),
#: 孩子 shows a child but not a school child or a newborn, 同事 shows a job but not its stage. A first, lenient list
#: (上班 for 初入职场) passed tags the third read of issue 22 found unsupported (probe_ambiguous-16017: 新婚 on 「老公加班」).
#: A value it does not list is not checked.
SUPPORT: Dict[str, Tuple[str, ...]] = {k: tuple(v.split()) for k, v in {
    '在校读书': '上课 下课 课上 学校 校园 宿舍 室友 同学 考试 作业 论文 期末 期中 导师 大学 高中 初中 学期 食堂 班上 班里 '
                '社团 教室 开学 放假 寒假 暑假 学生 选修 毕业 答辩 实验室 军训 学费 夜大 职校 读研 上学 大一 大二 大三 大四 研一 研二',
    '备考': '备考 复习 考研 考公 刷题 模考 上岸 考试 考证 雅思 托福 高考 中考 笔试 考场 真题 教资 法考 考编 注会',
    '求职中': '面试 简历 找工作 投了 offer 招聘 求职 应聘 网申 秋招 春招 岗位 事业编',
    '初入职场': '入职 实习 新人 刚上班 转正 试用期 第一份工作 刚工作 带教 规培 新同事 刚毕业 头一年',
    '职场中坚': '项目 团队 升职 带人 下属 手下 组里 部门 绩效 晋升 年终 汇报 主管 经理 组长 骨干 老员工',
    '创业': '创业 开店 店里 店铺 合伙 融资 生意 门店 摊 工作室 自己干 进货 营业 铺子',
    '待业': '待业 没工作 辞职 失业 被裁 裁员 辞了 离职 没活 赋闲 在家闲 找工作',
    '自由职业': '自由职业 接单 稿 甲方 约稿 接活 单子 交稿',
    '异地工作': '外地 异地 离家 省城 外省 在外 北漂 两地 回不去 一年回',
    '恋爱中': '男朋友 女朋友 对象 男友 女友 约会 恋爱 在一起 纪念日 表白',
    '新婚': '新婚 刚结婚 蜜月 婚礼 领证 结婚 婚房 新娘 新郎 婚纱',
    '孕期': '怀孕 孕 产检 胎 预产期 待产',
    '新手父母': '宝宝 奶粉 尿布 尿不湿 喂奶 满月 哄睡 夜奶 月子 刚出生 百天',
    '子女上学': '上学 作业 家长会 开学 放学 幼儿园 小学 初中 高中 补习 班主任 成绩 升学 中考 高考',
    '独居': '一个人住 独居 自己住 一个人在家 出租屋 就我一个 空荡',
    '照顾老人': '照顾 陪护 护工 老人 老爷子 老太太 伺候 养老院',
    '空巢': '不在身边 冷清 空落落 都走了 很少回 一年回 搬出去 在外地 出国 成家',
    '退休': '退休 退了 广场舞 老年大学 老年 养老',
    '病后康复': '康复 出院 手术 复查 恢复 复健 化疗 术后 理疗 骨折',
    '刚分手': '分手 前任 前男友 前女友 分了 前妻 前夫 离婚 离了',
    '刚搬家': '搬家 搬过来 搬进 搬到 刚搬 新家 新房子 新小区 纸箱 新住处 新租 新邻居',
}.items()}


def check_life_situation(record: Record) -> List[Finding]:
    """A ``life_situation`` tag whose situation no word of the inputs shows is a finding (drop it or write it in)."""
    value = record.tags.get('life_situation')
    words = SUPPORT.get(value) if isinstance(value, str) else None
    if not words:
        return []
    text = '\n'.join(all_strings(record.inputs))
    if any(w in text for w in words):
        return []
    return [record.finding('tags.life_situation', f'life_situation 「{value}」: no input shows it (none of '
                                                  f'{"、".join(words[:6])}…); tags describe the record, not the '
                                                  f'roster')]
