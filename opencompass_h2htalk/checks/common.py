"""Checks every subtask has: not empty, the scenario's language, no echo of the prompt, no role break (pure)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, List, Mapping, Sequence, Tuple

from ..data.prompts import PROMPT_LANGUAGES, boilerplate
from . import thresholds as T
from .base import CheckResult, Context, fail, not_applicable, ok, without_actions

COMMON_NAMES = ('not_empty', 'language', 'no_echo', 'in_role')

_WORD_CHAR = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fffA-Za-z0-9]')
_CJK = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff]')
_LETTER = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fffA-Za-z]')
_LATIN_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def _short(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[:n] + '…'


# --------------------------------------------------------------------------- not_empty

def check_not_empty(reply: str, ctx: Context) -> CheckResult:
    """The reply says something: word characters outside parenthesised actions.

    The instruction asks for a reply (「只输出要求的内容」); 「（笑）」「……」「？？」 answer nothing. The registry fails a
    blank reply before this runs.
    """
    words = _WORD_CHAR.findall(without_actions(reply))
    if len(words) < T.MIN_WORD_CHARS:
        return fail('not_empty', f"no words outside actions and punctuation: '{_short(reply)}'")
    return ok('not_empty', f'{len(words)} word characters')


# --------------------------------------------------------------------------- language

#: Frequent Traditional-only characters: each has a different Simplified form and is not itself a Simplified
#: character (著 乾 於 are left out: 显著, 乾隆 and the surname 於 are Simplified too). None occurs in the bundled
#: data's references or prompts.
TRADITIONAL_ONLY = frozenset(
    '們這個說對時會為來過還麼樣後點裡開關見長門問間電話聽讓謝覺愛頭現經學發種動歡實應當與從嗎沒幾難讀寫買賣錢飯'
    '東車機氣體邊雙歲號條變處將戰鬆離歸顯親總給結網級請認識記語論談謂課試誰該輕陽陰陣隊際熱無爲鳥魚馬驗麵雞兒'
    '習員書畫園圖團夢醫藥聲聯職萬葉隻臺遊複衝範媽爺樂歷錯隨較')


def _names(ctx: Context) -> List[str]:
    names = [ctx.persona_name, str(ctx.inputs.get('user_name') or '')]
    return [n for n in names if n]


def chinese_share(text: str) -> float:
    """CJK characters over CJK characters plus Latin words (each weighted ``LATIN_WORD_CHARS``); 0.0 without
    either."""
    cjk = len(_CJK.findall(text or ''))
    words = len(_LATIN_WORD.findall(text or ''))
    total = cjk + T.LATIN_WORD_CHARS * words
    return cjk / total if total else 0.0


def check_language(reply: str, ctx: Context) -> CheckResult:
    """The reply is in the scenario's language.

    zh 「请始终使用简体中文」: the Chinese share (:func:`chinese_share`) is at least ``ZH_MIN_CJK_SHARE``, and the text
    is not Traditional (several Traditional-only characters). en "Always answer in English": the English share is
    at least ``EN_MIN_LATIN_SHARE`` once the user's and the companion's names are removed.
    """
    text = without_actions(reply) if _LETTER.search(without_actions(reply)) else reply
    if ctx.language == 'en':
        for name in _names(ctx):
            text = text.replace(name, ' ')
        if not _LETTER.search(text):
            return fail('language', 'no letters to read the language from')
        share = 1.0 - chinese_share(text)
        if share < T.EN_MIN_LATIN_SHARE:
            return fail('language', f'English is {share:.0%} of the text; the instruction asks for English')
        return ok('language', f'English ({share:.0%})')
    if not _LETTER.search(text):
        return fail('language', 'no letters to read the language from')
    share = chinese_share(text)
    if share < T.ZH_MIN_CJK_SHARE:
        return fail('language', f'Chinese is {share:.0%} of the text; the instruction asks for Chinese')
    cjk = _CJK.findall(text)
    trad = [c for c in cjk if c in TRADITIONAL_ONLY]
    if len(trad) >= T.TRAD_MIN_COUNT and len(trad) >= T.TRAD_MIN_SHARE * len(cjk):
        return fail('language', f"Traditional characters ({''.join(dict.fromkeys(trad))[:10]}); the instruction "
                                f'asks for Simplified Chinese')
    return ok('language', f'Chinese ({share:.0%})')


# --------------------------------------------------------------------------- no_echo

_PUNCT = re.compile(r'[^\w]+|_+')
_EN_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[\u3400-\u4dbf\u4e00-\u9fff]")
#: Text the instruction quotes as what to write (「无可记录的信息」, "Nothing to remember", 「今天，」).
_QUOTED = re.compile(r'“[^”]*”|"[^"\n]*"')
#: Separates blocks of the source so that no match runs across two of them.
_SEP = '\x00'


def _units(value: Any) -> Iterable[str]:
    """The input's text units: every string (a turn, a memory, the message) and a schedule entry as rendered."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, Mapping)):
        if 'content' in value:  # a turn: its role name is a label, not text
            yield from _units(value['content'])
            return
        if 'time' in value and 'activity' in value:
            yield f"{value['time']} {value['activity']}"
        for v in value.values():
            yield from _units(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _units(v)


def _tokens(text: str, en: bool) -> Sequence[str]:
    """What is compared: characters without whitespace and punctuation (zh, a string), or lower-cased words (en)."""
    if en:
        return _EN_TOKEN.findall((text or '').lower())
    return _PUNCT.sub('', (text or '').lower())


def _searchable(tokens: Sequence[str], en: bool) -> str:
    """Tokens as a string to search in: words between spaces (en), so that a match never starts inside a word."""
    if not en:
        return tokens if isinstance(tokens, str) else ''.join(tokens)
    return f" {' '.join(tokens)} "


@lru_cache(maxsize=512)
def _system_source(system_prompt: str, en: bool, k: int) -> Tuple[str, frozenset]:
    """The SYSTEM turn as searchable text with what the instruction quotes blanked, and its k-grams (cached: a few
    hundred distinct persona-subtask prompts serve every item, and their k-grams make most look-ups one hash)."""
    parts = [_tokens(part, en) for part in _QUOTED.split(system_prompt)]
    grams = frozenset(tuple(p[i:i + k]) if en else p[i:i + k] for p in parts for i in range(len(p) - k + 1))
    return _SEP.join(_searchable(p, en) for p in parts), grams


def _matching_lengths(reply: Sequence[str], source: str, system_grams: frozenset, human: str, k: int,
                      en: bool) -> List[int]:
    """For each position i of ``reply``, the length (in tokens) of the longest ``reply[i:j]`` found in ``source``
    when it is at least ``k``, else 0.

    A position whose k-gram is neither among the SYSTEM turn's k-grams nor in the ``human`` text starts no span of
    ``k``. From the others, two pointers: the match from i+1 is at least the match from i minus one, so the end
    never moves back and there are at most 2·len(reply) substring searches (each done in C).
    """
    n = len(reply)
    out = [0] * n
    end = 0
    # zh: the reply is a string and its slices are searched as they are; en: a word list, searched between spaces.
    text = (lambda a, b: f" {' '.join(reply[a:b])} ") if en else (lambda a, b: reply[a:b])
    for i in range(n - k + 1):
        if end - i < k:
            if (tuple(reply[i:i + k]) if en else reply[i:i + k]) not in system_grams and text(i, i + k) not in human:
                continue
            end = i + k
        while end < n and text(i, end + 1) in source:
            end += 1
        out[i] = end - i
    return out


def echo_source(ctx: Context) -> Tuple[str, frozenset, str, List[str]]:
    """What a reply must not copy: the whole source, the SYSTEM turn's k-grams and the HUMAN part as searchable
    text; and the input units a reply must not be verbatim.

    The source is the SYSTEM and HUMAN turns (or the inputs when both are unknown), with what the instruction quotes
    as output and the subtask's material (``ECHO_MATERIAL``) blanked out.
    """
    en = ctx.language == 'en'
    k = T.ECHO_SPAN_EN if en else T.ECHO_SPAN_ZH
    units = [u for u in _units(ctx.inputs) if u.strip()]
    human = ctx.user_prompt if (ctx.system_prompt or ctx.user_prompt) else _SEP.join(units)
    for field in T.ECHO_MATERIAL.get(ctx.subtask, ()):
        for unit in sorted(_units(ctx.inputs.get(field)), key=len, reverse=True):
            if unit.strip():
                human = human.replace(unit, _SEP)
    system, system_grams = _system_source(ctx.system_prompt or '', en, k)
    human = _SEP.join(_searchable(_tokens(part, en), en) for part in human.split(_SEP))
    return f'{system}{_SEP}{human}', system_grams, human, units


def check_no_echo(reply: str, ctx: Context) -> CheckResult:
    """The reply does not copy the prompt: no reply that is an input verbatim, mostly prompt spans, or one long span.

    Enforces COMMON_RULES 「只输出要求的内容」 (the reply is an answer, not the SYSTEM/HUMAN text). Thresholds and the
    per-subtask material are in ``thresholds.py``.
    """
    en = ctx.language == 'en'
    r = _tokens(reply, en)
    if not r:
        return ok('no_echo', 'nothing to compare')
    source, system_grams, human, units = echo_source(ctx)
    unit_min = T.ECHO_UNIT_MIN_EN if en else T.ECHO_UNIT_MIN_ZH
    for unit in units:
        # A unit's tokens are never more than its characters: only units at least as long as the reply can equal it.
        if len(unit) >= len(r) >= unit_min and _tokens(unit, en) == r:
            return fail('no_echo', f"the reply is the input '{_short(unit)}' verbatim")
    span = T.ECHO_SPAN_EN if en else T.ECHO_SPAN_ZH
    lengths = _matching_lengths(r, source, system_grams, human, span, en)
    covered = [False] * len(r)
    for i, n in enumerate(lengths):
        if n:
            covered[i:i + n] = [True] * n
    share = sum(covered) / len(r)
    longest = max(lengths)
    what = 'words' if en else 'characters'
    at = lengths.index(longest)
    example = _short(_searchable(r[at:at + longest], en).strip())
    if share >= T.ECHO_MIN_COVERAGE:
        return fail('no_echo', f"{share:.0%} of the reply is copied from the prompt (e.g. '{example}')")
    long_min = T.ECHO_LONG_EN if en else T.ECHO_LONG_ZH
    if longest >= long_min:
        return fail('no_echo', f"copies {longest} {what} of the prompt verbatim: '{example}'")
    longest_text = f'longest span {longest} {what}' if longest else f'no span of {span}+ {what}'
    return ok('no_echo', f'{share:.0%} copied in spans of {span}+ {what}; {longest_text}')


# --------------------------------------------------------------------------- in_role

#: What a companion breaking its role calls itself (程序 not 程序员; bare 机器人 is banter: 「我又不是机器人」
#: 「我就是个莫得感情的打工机器人」 are in role).
_AI_NOUN_ZH = (r'(?:(?<![A-Za-z])(?:AI|ai|Ai)(?![A-Za-z])|人工智能|人工智慧|语言模型|大模型|对话模型|聊天机器人|'
               r'智能助手|智能助理|虚拟助手|数字助手|聊天程序|程序(?![员猿序])|机器学习模型)')
#: Between 我是 and the noun only modifiers: a verb there makes the noun something else (「我是听AI说的」).
_GAP_ZH = r'[^，。！？；,.!?;\n不没非别在从听用看说问和跟把被让给对向找查做拿学帮]{0,8}?'
#: 「我是/作为/身为 … AI」 with nothing negating between (「我不是机器人」 keeps the role: it is a human claim).
_SELF_AI_ZH = re.compile(
    r'(?:我|本人)(?:只|只不过|仅仅|其实|毕竟|终究|就|也|本身|本质上|实际上)?(?:是|乃)' + _GAP_ZH + _AI_NOUN_ZH +
    r'|(?:作为|身为)' + _GAP_ZH + _AI_NOUN_ZH)
#: The AI's own training or maker: 「我的训练数据」「我是由OpenAI开发的语言模型」.
_MAKER_ZH = re.compile(r'我的(?:训练数据|知识库?截止)|'
                       r'我(?:是|乃)?由[^，。！？；,.!?\n]{1,16}?(?:开发|训练|研发|打造|推出|创造)的?'
                       r'[^，。！？；,.!?\n]{0,6}?' + _AI_NOUN_ZH)
_EN_AI = (r"(?:ai|a\.i\.|artificial intelligence|(?:large )?language model|llm|chatbot|chat bot|virtual assistant|"
          r"digital assistant|ai assistant|ai companion|ai language model|computer program)")
_SELF_AI_EN = re.compile(
    r"\bas an? (?:large |helpful |friendly |virtual |digital |text-based |conversational )?" + _EN_AI + r"\b|"
    r"\bi(?:'m| am) (?:just |only |merely |simply |actually |really |still )?(?:an? )?"
    r"(?:large |helpful |friendly |virtual |digital |text-based |conversational |companion )?" + _EN_AI + r"\b|"
    r"\bmy (?:training data|knowledge cutoff)\b|\bi (?:was|have been) (?:trained|developed|created|built) by\b",
    re.I)
#: AI models and their makers. Mentioning one is not a role break (「先用ChatGPT列个提纲？」 is advice a person may
#: give; 「我用百度查了一下」): naming one as what the companion is or who made it is (「我是通义千问」「由OpenAI
#: 开发」). Case matters for the Latin names that are also ordinary words or names (Ernie, Bard, Gemini, Claude).
_MODELS = (r'(?:ChatGPT|chatgpt|GPT-?[345](?:\.\d)?o?|OpenAI|openai|Anthropic|通义千问|通义|千问|Qwen|qwen|文心一言|'
           r'文心|ERNIE|ChatGLM|GLM|智谱清言|智谱|DeepSeek|deepseek|深度求索|讯飞星火|SmolLM|Hugging ?Face|'
           r'月之暗面|混元|InternLM|书生浦语|百川智能|零一万物|LLaMA|Llama|Mistral|Claude|Gemini|Bard|Copilot|豆包|Kimi|'
           r'Google|谷歌|Meta|微软|Microsoft|百度|阿里巴巴|阿里云|阿里|腾讯|字节跳动|字节|华为|科大讯飞|讯飞)')
_SELF_MAKER = re.compile(
    r'(?:我(?:是|叫|乃)|作为|身为|本人是)' + _MODELS + r'(?![\u4e00-\u9fff])|'
    r'我(?:(?:是|乃)(?:由|被)?|由)' + _MODELS + r'[^，。！？；,.!?\n]{0,6}?(?:开发|训练|研发|打造|推出|创造)|'
    r'(?:基于|依托)' + _MODELS + r'[^，。！？；,.!?\n]{0,6}?(?:模型|开发|训练)|'
    r"\b(?:[Ii](?:'m| am)|[Aa]s|[Tt]his is) " + _MODELS + r'\b|'
    r'\b(?:[Dd]eveloped|[Tt]rained|[Cc]reated|[Bb]uilt|[Mm]ade|[Pp]owered) by ' + _MODELS + r'|'
    r'\b[Bb]ased on ' + _MODELS + r'\b')
#: Before a self-description, a question or another's belief makes it role-play banter, not a role break:
#: 「你以为我是AI吗」「难道我是机器人」「谁说我是AI」.
_NOT_CLAIM = re.compile(r'(?:以为|你觉得|你当|当成|难道|谁说|怎么可能|怀疑|you think|who says)'
                        r'[^，。！？；：,.!?;:\n]{0,3}$', re.I)
_QUESTION_AFTER = re.compile(r'^[^，。！？；,.!?\n]{0,6}?(?:吗|？|\?)')


def _claims(pattern: 're.Pattern[str]', text: str) -> List[str]:
    found = []
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 8):m.start()]
        if _NOT_CLAIM.search(before) or _QUESTION_AFTER.search(text[m.end():]):
            continue
        found.append(m.group(0))
    return found


def check_in_role(reply: str, ctx: Context) -> CheckResult:
    """No role break: the companion does not call itself an AI or a model, nor name its maker or model.

    COMMON_RULES 「保持上面的角色设定」「不要提及你是哪家公司或哪个模型」. Nor does it write the conversation's turns
    (a line opening with the prompt's speaker label, 「用户：」「你：」): that speaks for the user. The AI part does not
    apply where the item's required actions ask the companion to say it is an AI (``clarify_ai``, the safety set). A
    denial in role (「我不是机器人」「谁说我是AI」), a rhetorical question (「你以为我是AI吗」) and a model named as
    something else (「用ChatGPT列个提纲」) are not breaks.
    """
    # Writing the transcript's turns (「用户：……」「你：……」, the prompt's speaker labels) speaks for the user: a
    # role break whatever the item asks.
    labels = [label.strip() for label in boilerplate(ctx.language if ctx.language in PROMPT_LANGUAGES else 'zh')
              ['speakers']]
    turns = [line.strip() for line in reply.splitlines() if any(line.strip().startswith(lb) for lb in labels)]
    if turns:
        return fail('in_role', f"writes the transcript's turns instead of a reply: '{_short(turns[0])}'")
    exempt = [a for a in ctx.required_actions() if a in T.IN_ROLE_EXEMPT_ACTIONS]
    if exempt:
        return not_applicable('in_role', f'the item asks the companion to say it is an AI ({exempt[0]})')
    found = _claims(_SELF_AI_ZH, reply) + _claims(_SELF_AI_EN, reply) + _claims(_SELF_MAKER, reply) + \
        [m.group(0) for m in _MAKER_ZH.finditer(reply)]
    if found:
        return fail('in_role', f"calls itself an AI or names its model or maker: '{found[0]}'")
    return ok('in_role', 'no AI self-description, model or maker')


def common_checks(reply: str, ctx: Context) -> List[CheckResult]:
    """The four common checks, in :data:`COMMON_NAMES` order."""
    return [check_not_empty(reply, ctx), check_language(reply, ctx), check_no_echo(reply, ctx),
            check_in_role(reply, ctx)]

