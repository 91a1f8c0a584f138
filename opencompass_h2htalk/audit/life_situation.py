"""Life-situation tags: a record's ``tags.life_situation`` stays only where its inputs show that situation."""
from __future__ import annotations

from typing import Dict, List, Tuple

from .model import Finding, Record, all_strings

#: Per value of the frame's ``life_situation`` vocabulary, words whose presence in the inputs shows it. The list is
#: lenient on purpose (a tag with some evidence passes; 上班 counts for 初入职场): it separates tags the text says
#: something about from tags copied from the roster that the text never mentions (the 1.1.0-rc.1 read: 子女上学 on
#: a record with no child, 初入职场 on a user who has changed jobs twice). A value it does not list is not checked.
SUPPORT: Dict[str, Tuple[str, ...]] = {k: tuple(v.split()) for k, v in {
    '在校读书': '上课 课上 下课 学校 校园 宿舍 室友 同学 考试 作业 论文 期末 期中 导师 大学 高中 初中 学期 食堂 班上 班里 '
                '社团 教室 图书馆 开学 放假 寒假 暑假 学生 选修 毕业 答辩 实验室 军训 老师 学费 夜大 职校 读研 读书',
    '备考': '备考 复习 考研 考公 刷题 模考 上岸 考试 考证 雅思 托福 高考 中考 笔试 考场 真题 教资 法考 考编 注会',
    '求职中': '面试 简历 找工作 投了 offer 招聘 求职 应聘 网申 笔试 HR 岗位 秋招 春招 没回音 事业编 考编',
    '初入职场': '入职 实习 新人 刚上班 转正 试用期 第一份工作 刚工作 领导 同事 带教 师傅 工位 上班 加班 规培',
    '职场中坚': '项目 团队 加班 开会 升职 领导 汇报 带人 下属 客户 同事 部门 公司 手下 组里 老板 绩效 晋升 年终 出差 '
                '单位 上班',
    '创业': '创业 开店 店里 店铺 合伙 融资 生意 老板 门店 摊 工作室 自己干 进货 客人 顾客 营业 铺子',
    '待业': '待业 没工作 辞职 失业 被裁 裁员 找工作 辞了 离职 没活 赋闲 闲着 面试 简历',
    '自由职业': '自由职业 接单 稿 甲方 客户 接活 单子 工作室 交稿 拍摄 翻译',
    '异地工作': '外地 异地 出差 老家 离家 省城 外省 在外 北漂 两地 回不去 一年回',
    '恋爱中': '男朋友 女朋友 对象 男友 女友 约会 恋爱 在一起 纪念日 表白',
    '新婚': '结婚 新婚 婚 老公 老婆 媳妇 丈夫 妻子 爱人 婆婆 公公 岳母 丈母娘 蜜月',
    '孕期': '怀孕 孕 产检 宝宝 胎 预产期 待产',
    '新手父母': '宝宝 孩子 娃 奶粉 尿布 尿不湿 喂奶 满月 哄睡 夜奶 月子 儿子 女儿 闺女 当妈 当爸',
    '子女上学': '孩子 儿子 女儿 闺女 娃 上学 作业 家长会 开学 放学 幼儿园 小学 初中 高中 补习 班主任 成绩 升学 中考 高考',
    '独居': '一个人 独居 自己住 租房 独自 出租屋 空荡 没人 就我',
    '照顾老人': '老人 爸 妈 父亲 母亲 奶奶 爷爷 外婆 姥姥 外公 姥爷 照顾 老爷子 老太太 婆婆 公公 岳父 岳母 护工 陪护',
    '空巢': '孩子 儿子 女儿 闺女 不在身边 老伴 冷清 孙 外孙 两口子 空落落',
    '退休': '退休 老伴 孙 广场舞 老年 退了 养老',
    '病后康复': '康复 出院 手术 复查 恢复 病 住院 复健 化疗 术后 理疗 骨折',
    '刚分手': '分手 前任 前男友 前女友 分了 前妻 前夫 离婚 离了',
    '刚搬家': '搬家 搬 新家 新房子 新小区 纸箱 新住处 新租 新邻居',
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
