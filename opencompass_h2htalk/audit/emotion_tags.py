"""Emotion tags: a record's ``tags.emotion`` stays only where the user's side of its inputs shows that feeling."""
from __future__ import annotations

from typing import Dict, List, Tuple

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

#: Per non-neutral value of the frame's ``emotion`` vocabulary, words whose presence shows that feeling, not merely
#: an event that could cause it: 面试 does not show 紧张 (紧张, 心里没底, 手心冒汗 do), 吵架 does not show 难过 or
#: 迷茫, a memory of eating something eighteen times does not show 无聊. A value it does not list is not checked.
SUPPORT: Dict[str, Tuple[str, ...]] = {k: tuple(v.split()) for k, v in {
    '开心': '开心 高兴 快乐 乐坏 乐呵 乐开花 美滋滋 心情好 心情不错 哈哈 太好了 好开心 满意 得意 幸福 舒服 痛快 过瘾 值了 欢喜 嘿嘿 好玩 有意思 爽 乐得 笑得 笑了 喜欢 开怀 偷着乐 美得 对着它乐 直乐 笑着 回味 松口气',
    '兴奋': '兴奋 激动 迫不及待 太棒 睡不着 等不及 好激动 ！！ 巴不得 终于 第一次 头一回 头一次 高兴得 上瘾',
    '期待': '期待 盼 等着 想去 憧憬 希望 想着 倒数 等不及 迫不及待 想试 巴不得 就等 数着日子',
    '感激': '感激 感谢 谢谢 多亏 幸亏 过意不去 感恩 亏了 全靠 多谢 道谢 答谢 谢她 谢他 谢谢 谢',
    '感动': '感动 暖心 心里一暖 暖暖 眼眶 哭了 泪 鼻子一酸 心软 特意 专门 偷偷 没想到 触动',
    '钦佩': '佩服 厉害 了不起 真行 手巧 手也太巧 崇拜 服了 太强 好强 榜样 不简单 真能 敬佩 大神 牛 真棒 太会 学不来 学到 比他还 比她还 比自己',
    '羡慕': '羡慕 也想 好想 眼红 要是我 哪像我 真幸福 真自在 馋 真好',
    '好奇': '好奇 为什么 想知道 想问 怎么做 怎么弄 是怎么 啥样 什么样 有什么讲究 咋弄 咋做 ？ 猜不透 问过',
    '怀念': '怀念 想起 当年 那时候 那会儿 小时候 从前 年轻时 回忆 怀旧 那年 以前 那几年 老照片 还记得 记得 总翻 想念',
    '思念': '想念 思念 想她 想他 想家 想妈 想爸 想孩子 挂念 好久没见 很久没见 不在身边 见不着 想得慌 念叨 总想起 想起 梦见 特别想 少了点什么',
    '疲惫': '累 疲惫 困 乏 熬夜 连轴转 撑不住 透支 腰酸 没歇 顶不住 心累 没睡 睡不够 加班 忙到 忙得 辛苦 睡不踏实 只想躺 力气 都软了 失眠 睡不着 完整睡',
    '焦虑': '焦虑 着急 心急 急得 慌 睡不着 失眠 压力 担心 发愁 愁 不安 没底 坐立 烦 头大 怕',
    '担心': '担心 担忧 怕 放心不下 不放心 着急 愁 操心 牵挂 心疼 万一 会不会 悬着',
    '紧张': '紧张 没底 手心 发抖 心跳 忐忑 怯 怕 慌 睡不着 不敢 结巴 手抖 腿软 打鼓 发紧',
    '委屈': '委屈 冤 凭什么 不公平 憋 说我 怪我 骂我 不理解 白干 甩锅 背锅 数落 指责 误会 受气 冤枉 哭 挨骂 挨批 落埋怨 得不到 也不听 反被 却被 嘲笑 闹别扭 吐槽 笑他 笑她 笑用户',
    '难过': '难过 伤心 哭 泪 难受 心疼 不好受 心里堵 心痛 去世 走了 舍不得 心碎 心酸 失去 遗憾',
    '孤独': '孤独 孤单 一个人 没人陪 寂寞 冷清 独自 没人说话 形单影只 空荡 空落落 就我 发慌 说话的人 没交到朋友 不认识 没人懂 只剩',
    '失落': '失落 落空 没选上 没考上 落选 失望 空落落 泄气 没戏 遗憾 没能 黄了 被拒 白忙 可惜 没过 不如 空了 冷清 不知道该干什么 没人回 没被选上',
    '生气': '生气 气死 气得 来气 火大 恼 受不了 凭什么 太过分 过分 无语 怒 讨厌 看不惯 忍不了 离谱 烦死 吵架 吵了 气呼呼 气冲冲 火气 窝火 一肚子火 又气 气的 用户气',
    '愧疚': '愧疚 内疚 过意不去 对不起 自责 后悔 抱歉 不该 亏欠 怪自己 没尽到 心里有愧 羞愧 拉不下脸 道歉',
    '迷茫': '迷茫 不知道 不确定 犹豫 要不要 该不该 方向 没头绪 困惑 看不清 想不通 不明白 不知道该 不知',
    '纠结': '纠结 犹豫 要不要 该不该 选哪 拿不定 两难 举棋不定 摇摆 还是 不知道该 又怕 又想 一边想 算不清 拿不准 不好意思拒绝 舍不得',
    '无聊': '无聊 没意思 没劲 闲得 闲着 发呆 打发时间 没事干 没事做 乏味 枯燥 腻 闲不住 闷 生锈 太闲 打哈欠 干等 一成不变',
    '害怕': '害怕 怕 吓 恐惧 不敢 发毛 心惊 慌 瘆 冒汗 提心吊胆 恐高 发怵',
    '绝望': '绝望 撑不下去 活着没意思 没希望 走投无路 完了 崩溃 不想活 熬不下去 看不到头 这辈子就这样 活得没意思',
}.items()}


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
    text = _user_text(record)
    if any(w in text for w in words):
        return []
    return [record.finding('tags.emotion', f'emotion 「{value}」: the user\'s side of the inputs does not show it '
                                           f'(none of {"、".join(words[:6])}…); tags describe the record, not its '
                                           f'story or chain')]
