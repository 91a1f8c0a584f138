"""Emotion tags: a record's ``tags.emotion`` stays only where the user's side of its inputs shows that feeling."""
from __future__ import annotations

import re
from typing import Dict, List, Pattern, Tuple

from .model import Finding, Record, all_strings

#: The vocabulary's neutral value: it claims no feeling, so no word has to show it.
NEUTRAL = '平静'

#: Subtasks the check reads. The independent reads found emotion tags inferred from events or kept from an earlier
#: chain stage in the memory and itinerary subtasks, whose user side is short third-person memories or a day
#: overview (recollection_refine-1116, recollection_initialize-5016, itinerary_middle-10028): there a feeling is
#: shown by a word about the user, or not at all. Where the user speaks in their own voice (dialogue_*, probe_*,
#: safety, recollection_synthesize's history, itinerary_feedback's remark) a feeling is shown in ways no word list
#: covers (「注意安全啊」, 「连出门的力气都没有」, irony); a first draft that read itinerary_feedback flagged 236 of its
#: 400 remarks, most of them showing the tagged feeling in other words, so those subtasks stay with the reads.
#: itinerary_advanced has no user field: any feeling but NEUTRAL there is unshown.
SCOPE = ('recollection_refine', 'recollection_initialize', 'itinerary_basic', 'itinerary_middle',
         'itinerary_advanced', 'itinerary_initialize')

#: The input fields that tell about the user, per subtask. The companion's own fields (current_activity,
#: today_schedule, time_slot, hobbies) say nothing about how the user feels; the day overview is the companion's day
#: but it is where the user's call is told, so it counts whole (a feeling of the companion's there can pass a tag:
#: the check misses that, it does not flag correct tags). The reference does not count: a tag describes what the
#: model is given, and a feeling written only into the expected answer is not shown to it.
USER_FIELDS: Dict[str, Tuple[str, ...]] = {
    'recollection_refine': ('memories',),
    'recollection_initialize': ('memories',),
    'itinerary_basic': ('memories',),
    'itinerary_middle': ('day_overview',),
    'itinerary_advanced': (),
    'itinerary_initialize': ('memories',),
}

#: Per non-neutral value of the frame's ``emotion`` vocabulary, words (a few are short regular expressions, such as
#: 只有.{0,8}陪 for 「白天只有家里的老狗陪着」) whose presence shows that feeling, not merely an event that could cause
#: it: 面试 does not show 紧张 (紧张, 没底, 手心冒汗 do), a quarrel does not show 难过 or 迷茫, a plan does not show 期待,
#: 以前/小时候 do not show 怀念 and 一个人住 does not show 孤独. Bare event words (第一次, 加班, 一个人) were in a first
#: draft and passed tags the reads had found unshown, so they were taken out; words that matched inside other words
#: (困 in 困难, 烦 in 麻烦, 谢 in a name, 牛 in 牛肉) were replaced by longer forms. A value it does not list is not
#: checked. The re-read of the tags rc.5 set to 平静 (data 1.1.0-rc.9) added general forms it found missing (气顺,
#: 气头上, 腿就发软, 不知道这行还干不干); a feeling told in one-off words is a reviewed finding (audit_reviewed.json).
SUPPORT: Dict[str, Tuple[str, ...]] = {k: tuple(v.split()) for k, v in {
    '开心': ('开心 高兴 快乐 乐坏 乐呵 乐开花 美滋滋 心情好 心情不错 哈哈 太好了 好开心 满意 得意 幸福 痛快 过瘾 欢喜 嘿嘿 好玩 有意思 爽 乐得 笑得 笑了 开怀 偷着乐 美得 对着它乐 直乐 笑着 '
           '回味 松口气 再也不用 不愁了 笑到 心里热乎 心里却热乎'),
    '兴奋': '兴奋 激动 迫不及待 太棒 睡不着 等不及 好激动 ！！ 巴不得 高兴得 上瘾 兴冲冲',
    '期待': '期待 盼 憧憬 倒数 等不及 迫不及待 想试 巴不得 就等 数着日子 已经买好 张罗 比谁都急',
    '感激': '感激 感谢 谢谢 多亏 幸亏 过意不去 感恩 全靠 多谢 道谢 答谢 谢她 谢他 谢谢 以后挣钱了要 回谢 怎么谢',
    '感动': '感动 暖心 心里一暖 暖暖 眼眶 哭了 泪 鼻子一酸 心软 触动 红了眼 说不出话',
    '钦佩': '佩服 厉害 了不起 真行 手巧 手也太巧 崇拜 服了 太强 好强 榜样 不简单 真能 敬佩 大神 真棒 学不来 比他还 比她还 比自己 真牛 太牛 一点不怯',
    '羡慕': '羡慕 好想 眼红 要是我 哪像我 真幸福 真自在 馋 真好 自己也盼 自己也想 我也想 不是滋味 都能.{0,12}只能',
    '好奇': '好奇 为什么 想知道 想问 怎么做 怎么弄 是怎么 啥样 什么样 有什么讲究 咋弄 咋做 ？ 猜不透 问过 有意思 猜 (?<!没)兴趣',
    '怀念': '怀念 想起 回忆 怀旧 还记得 总翻 想念 一直记 还记着 老想起 心里热乎 心里却热乎',
    '思念': '想念 思念 想家 想妈 想爸 想孩子 挂念 好久没见 很久没见 不在身边 见不着 想得慌 总想起 想起 梦见 特别想 少了点什么 每晚都看 整天念叨 惦记 想他了 想她了 有点想 都在想 才见一次',
    '疲惫': ('好累 太累 很累 累得 累了 累坏 累垮 最累 累死 挺累 疲惫 犯困 困得 好困 太困 直犯困 疲乏 乏力 困乏 连轴转 撑不住 透支 腰酸 没歇 顶不住 心累 没睡 睡不够 辛苦 睡不踏实 只想躺 力气 '
           '都软了 失眠 睡不着 完整睡 还累 说累 的累 都累 都不想 没合眼'),
    '焦虑': '焦虑 着急 心急 急得 心慌 慌了 慌张 慌得 睡不着 失眠 压力 担心 发愁 愁 不安 没底 坐立 心烦 烦躁 烦得 头大 怕 睡不踏实 越慌 没合眼 有点慌',
    '担心': '担心 担忧 怕 放心不下 不放心 着急 愁 操心 牵挂 心疼 万一 会不会 悬着 顾虑',
    '紧张': '紧张 没底 手心 发抖 心跳 忐忑 怯 怕 心慌 慌了 慌张 慌得 睡不着 不敢 结巴 手抖 腿软 腿.{0,2}发软 打鼓 发紧 有点慌 脸红',
    '委屈': ('委屈 冤 凭什么 不公平 憋 说我 怪我 骂我 不理解 白干 甩锅 背锅 数落 指责 误会 受气 冤枉 哭 挨骂 挨批 落埋怨 得不到 也不听 反被 却被 嘲笑 闹别扭 吐槽 笑他 笑她 笑用户 可他早就 '
           '可她早就 什么都没干 一直没跟.{0,6}提'),
    '难过': '难过 伤心 哭 泪 难受 心疼 不好受 心里堵 心痛 去世 舍不得 心碎 心酸 失去 遗憾 没缓过来 缓不过来 都做不到 心里发堵 不是滋味 再也不想 都不想',
    '孤独': ('孤独 孤单 没人陪 寂寞 冷清 没人说话 形单影只 空荡 空落落 发慌 说话的人 没交到朋友 没人懂 只剩 空了 伴都没有 没个伴 一个人待着 一个人在村口坐着 没人说 一个人都不认识 谁都不认识 安安静静 '
           '没什么话说 说得上话 一个人吃 常常一个人 都是一个人 一个人吹 屋里更静 不太跟他说话 不太跟她说话 空落 知心话 没人跟 不认识什么人 只有.{0,8}陪 没人一起 剩.{0,2}一个人'),
    '失落': ('失落 落空 没选上 没考上 落选 失望 空落落 泄气 没戏 遗憾 没能 黄了 被拒 白忙 可惜 空了 冷清 不知道该干什么 没人回 没被选上 就他还 就她还 心里有点空 心里空 少了点什么 '
           '连.{0,8}都没有 空落'),
    '生气': '生气 气死 气得 来气 火大 恼 受不了 凭什么 太过分 过分 无语 怒 讨厌 看不惯 忍不了 离谱 烦死 气呼呼 气冲冲 火气 窝火 一肚子火 又气 气的 用户气 数落 火直往上冒 冒火 吵了一架 气顺 气头上',
    '愧疚': '愧疚 内疚 过意不去 对不起 自责 后悔 抱歉 不该 亏欠 怪自己 没尽到 心里有愧 羞愧 拉不下脸 道歉 不好意思联系 不好意思见 不好意思开口 心里发堵 一直在想 陪.{0,4}太少',
    '迷茫': ('迷茫 不确定 犹豫 要不要 该不该 没头绪 困惑 看不清 想不通 不明白 不知道该 不知道怎么办 不知道还能 不知道干什么 不知道做什么 没了主意 没主意 找不到方向 没方向 拿不准 说糊涂 糊涂了 '
           '不知道自己想要 弄不清 搞不清 不知道.{0,8}干什么 不知道.{0,6}还.{0,4}不'),
    '纠结': '纠结 犹豫 要不要 该不该 选哪 拿不定 两难 举棋不定 摇摆 不知道该 又怕 又想 一边想 算不清 拿不准 不好意思拒绝 舍不得 也不是 又不放心 两头 顾虑 没想好',
    '无聊': ('无聊 没意思 没劲 闲得 闲着 发呆 打发时间 没事干 没事做 乏味 枯燥 腻 闲不住 生锈 太闲 打哈欠 干等 一成不变 没人上门 没兴趣 闷得 闷闷 不知道做什么 不知道干什么 坐不住 没什么话说 刷手机 '
           '天天重复 不想碰 只有.{0,8}陪 不知道.{0,8}干什么'),
    '害怕': '害怕 怕 吓 恐惧 不敢 发毛 心惊 心慌 慌了 慌张 慌得 瘆 冒汗 提心吊胆 恐高 发怵 手抖 有点慌',
    '绝望': '绝望 撑不下去 活着没意思 没希望 走投无路 崩溃 不想活 熬不下去 看不到头 这辈子就这样 活得没意思 坎怎么过 日子怎么过 什么都留不住 不知道还能怎么办 什么都没意思 什么都完了 没指望 都没用',
}.items()}


#: SUPPORT compiled, one pattern per value.
_PATTERNS: Dict[str, Pattern[str]] = {k: re.compile('|'.join(v)) for k, v in SUPPORT.items()}


def shows(value: str, text: str) -> bool:
    """Whether ``text`` holds a word of SUPPORT[value] (False for a value without words)."""
    pattern = _PATTERNS.get(value)
    return bool(pattern and pattern.search(text))


def _user_text(record: Record) -> str:
    """The user's side of the inputs (USER_FIELDS), one string."""
    return '\n'.join(s for key in USER_FIELDS.get(record.subtask, ()) for s in all_strings(record.inputs.get(key)))


def check_emotion_tag(record: Record) -> List[Finding]:
    """An ``emotion`` tag (other than NEUTRAL) that no word of the user's side of the inputs shows is a finding.

    Only SCOPE subtasks are read. Set the tag to what the text shows (NEUTRAL when it shows no feeling), or write
    the feeling into the text if the record is about it.
    """
    if record.subtask not in SCOPE:
        return []
    value = record.tags.get('emotion')
    words = SUPPORT.get(value) if isinstance(value, str) else None
    if not words:
        return []
    if shows(value, _user_text(record)):
        return []
    return [record.finding('tags.emotion', f'emotion 「{value}」: the user\'s side of the inputs does not show it '
                                           f'(none of {"、".join(words[:6])}…); tags describe the record, not its '
                                           f'story or chain')]
