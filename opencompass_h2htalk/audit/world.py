"""The companion world policy (docs/world_policy.md) as checks: no meeting, touching or sending things to the
user, stage directions about the companion's own side, and each persona's fixed facts kept to that persona."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Dict, List, Optional, Pattern, Tuple

from .model import Finding, Record, all_strings, history, schedule
from .text import quoted_names

#: A policy phrase preceded in its clause by a negation is a refusal, not a breach: 「周六没法去车站接你」.
_NEGATION = re.compile(r'不|没|无法|别|做不到')
#: A sentence that says the two are on a call or messaging is remote company, which the policy allows.
_REMOTE = re.compile(r'视频|语音|电话|通话|连线|线上|屏幕|消息|微信|发来|云')
_CLAUSE_END = re.compile(r'[，,。！!？?；;、\n]')
_SENTENCE_END = re.compile(r'[。！!？?\n]')


def _you(user_name: str) -> str:
    """Regex alternative for the user: 你 / 您 / their name."""
    names = ['你', '您'] + ([re.escape(user_name)] if user_name else [])
    return '(?:' + '|'.join(names) + ')'


#: (pattern, needs a first-person subject in the clause, allowed when the sentence is about a call).
Rule = Tuple[Pattern, bool, bool]


@lru_cache(maxsize=4096)
def _patterns(user_name: str) -> Dict[str, List[Rule]]:
    u = _you(user_name)
    we = rf'(?:咱俩|我俩|两人|俩人|和{u}|跟{u}|与{u}|陪{u}|带{u}|约{u})'
    # Joint activities that need co-presence; thinking/talking together ("一起想办法") is fine remotely.
    together = r'一(?:起|块儿?)(?!想|聊|商量|理|看看|面对|加油|努力|度过|撑|扛|梳理|分析|列|算|找找|练|复盘|规划|计划|期待|回忆|等|掂量|把|找|分|捋|试试|慢慢)'
    doing = r'(?:散步|走走|走了|逛|吃饭|吃|喝|骑|跑|遛|爬山|做饭|煲汤|布置|挑|钓|野餐|看日出|看海)'
    return {
        'world.meet': [
            (re.compile(rf'(?:我们|咱们|{we}).{{0,8}}(?:见面|碰面|碰头|会合|见一面)'), False, False),
            (re.compile(rf'(?:接|见|约|去找|来找|去看|来看){u}'), True, False),
            (re.compile(rf'{we}.{{0,6}}{together}'), False, True),
            (re.compile(rf'(?:和|跟|与|陪){u}(?:约)?(?:在|去|到|沿)?.{{0,8}}{doing}'), False, True),
            (re.compile(rf'{u}约在|和{u}约'), False, False),
            (re.compile(r'(?:来|过来|到)(?:我的?|我们的?)?(?:店|书店|书房|家|医院|工作室|花店|画室)里?'
                        r'(?:坐|玩|看|找|逛|尝|来|喝)'), False, False),
            (re.compile(rf'(?:欢迎|邀请){u}?(?:来|过来|到)'), False, False),
            (re.compile(r'约好.{0,12}一(?:起|块)'), False, False),
        ],
        'world.touch': [
            (re.compile(rf'(?:握住|握着|牵着|牵起|牵住|拉着|拉住|抱住|抱抱|拥抱|摸摸|拍拍|揉揉|搂着|搂住|挽着|靠着|挨着|依偎着?)'
                        rf'{u}'), False, False),
            (re.compile(rf'(?:坐到|坐在|依偎在){u}(?:身边|旁边|边上)'), False, False),
            (re.compile(rf'(?<!快)(?:递给|塞给|塞到|递到|放到){u}'), False, False),
            (re.compile(rf'给{u}(?:擦|披|盖|捶|揉|按)'), False, False),
            (re.compile(rf'{u}的(?:手|肩|肩膀|头|头发|背|后背|脸)'), False, False),
            (re.compile(r'[（(][^）)]*(?:抱抱|拥抱|握手|摸头|拍肩|牵手)[^）)]*[）)]'), False, False),
        ],
        'world.send': [
            (re.compile(rf'(?:寄|快递|邮|捎|送|带)(?:给|到|去){u}'), False, False),
            (re.compile(rf'给{u}(?:寄|快递|邮|捎|送|带)'), False, False),
            (re.compile(rf'(?:寄|送|快递){u}(?:一|个|份|块|本|盒|箱|束|张)'), False, False),
            (re.compile(r'(?:同城)?(?:快递|闪送|跑腿)(?:过去|给|到)'), False, False),
        ],
    }


def companion_texts(record: Record) -> List[Tuple[str, str]]:
    """(field, text) of everything the companion's side authors: the reference, assistant turns, the day
    overview, the schedule, the current activity and the slot."""
    out = [('reference', record.reference)]
    for k, turn in enumerate(history(record)):
        if turn.get('role') == 'assistant':
            out.append((f'inputs.history[{k}]', turn['content']))
    for key in ('day_overview', 'current_activity'):
        if isinstance(record.inputs.get(key), str):
            out.append((f'inputs.{key}', record.inputs[key]))
    for k, entry in enumerate(schedule(record)):
        out.append((f'inputs.today_schedule[{k}]', entry['activity']))
    return out


def _span(text: str, pos: int, boundary: Pattern) -> Tuple[int, int]:
    """Start and end of the clause/sentence around ``pos``."""
    starts = [m.end() for m in boundary.finditer(text, 0, pos)]
    m = boundary.search(text, pos)
    return (starts[-1] if starts else 0), (m.start() if m else len(text))


def policy_hits(text: str, user_name: str = '') -> List[Tuple[str, str]]:
    """(check, matched phrase) for every world-policy breach in one text (one hit per check)."""
    out = []
    for check, rules in _patterns(user_name).items():
        hit = None
        for pattern, first_person, remote_ok in rules:
            for m in pattern.finditer(text):
                c0, c1 = _span(text, m.start(), _CLAUSE_END)
                if _NEGATION.search(text[c0:m.start()]):
                    continue
                if first_person and not re.search(r'我|咱', text[c0:c1]):
                    continue
                if remote_ok:
                    s0, s1 = _span(text, m.start(), _SENTENCE_END)
                    if _REMOTE.search(text[s0:s1]):
                        continue
                hit = m.group(0)
                break
            if hit:
                break
        if hit:
            out.append((check, hit))
    return out


def stage_directions(text: str) -> List[str]:
    """Bracketed stage directions: （…） or (…)."""
    return re.findall(r'[（(]([^）)]*)[）)]', text)


def check_world_policy(record: Record) -> List[Finding]:
    """In-person meetings, touch and sending objects in anything the companion's side says; stage directions that
    act on the user."""
    user_name = record.inputs.get('user_name') if isinstance(record.inputs.get('user_name'), str) else ''
    out = []
    for field, text in companion_texts(record):
        for check, phrase in policy_hits(text, user_name):
            out.append(record.finding(check, f'{field}: {phrase!r} breaks the world policy (docs/world_policy.md)'))
        for direction in stage_directions(text):
            if direction.lstrip().startswith(('备注', '注')):  # a note on the plan, not a stage direction
                continue
            if re.search(_you(user_name), direction):
                out.append(record.finding('world.stage_direction', f'{field}: stage direction （{direction}） acts on '
                                                                   f'the user; it must describe the companion\'s own '
                                                                   f'side only'))
    return out


def persona_facts(personas: Dict[str, Tuple[str, str]]) -> Dict[str, List[str]]:
    """Fixed facts per persona id: its name and every quoted name in its description (“潮汐书房”, “年糕”).

    Args:
        personas: id -> (name, description).
    """
    out = {}
    for pid, (name, description) in personas.items():
        facts = [name] + [q for q in quoted_names(description) if len(q) >= 2]
        out[pid] = list(dict.fromkeys(f for f in facts if f))
    return out


def check_persona_facts(record: Record, facts: Dict[str, List[str]]) -> List[Finding]:
    """A record of persona P mentions no fixed fact (name, pet, shop…) of another persona."""
    text = '\n'.join(list(all_strings(record.inputs)) + [record.reference])
    out = []
    for pid, items in facts.items():
        if pid == record.persona:
            continue
        hits = [f for f in items if f in text]
        if hits:
            out.append(record.finding('world.persona_fact', f'{hits} belong to persona {pid!r}, but this record is '
                                                            f'{record.persona!r}\'s'))
    return out


def first_policy_phrase(text: str, user_name: str = '') -> Optional[str]:
    """The first policy-breaking phrase in a text, or None (for quick literal checks)."""
    hits = policy_hits(text, user_name)
    return hits[0][1] if hits else None
