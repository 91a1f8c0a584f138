"""Checks of the recollection subtasks: memory lines, first-person rewrites and memory-led openers (pure)."""
from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence, Set, Tuple

from ..audit.grounding import word_support
# _jieba: the audit's one initialised tokenizer (quiet log, dictionary loaded once); units need its raw tokens.
from ..audit.text import _jieba, char_ngrams, entities, fact_words, normalize
from . import thresholds as T
from .base import CheckResult, Context, as_text, fail, length, not_applicable, ok, without_actions

# --------------------------------------------------------------------------- shared helpers

_EN_WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*|\d+")
#: English words that carry no fact (function words, the "user" subject of a memory line, light verbs).
_EN_STOP = frozenset('''a an the and or but if so of to in on at for with from by about as into over after before
than then that this these those it its is are was were be been being am do does did has have had having will would
shall should can could may might must not no yes very really just also too much many more most some any each every
user users user's they them their theirs he him his she her hers we us our you your yours i me my mine myself
who whom which what when where why how there here up out off down again once only own same such both all few
other others lot lots get gets got go goes going went'''.split())
#: A one-character counting word before a measure (一家, 一只): an article, not a fact a rewrite must keep.
_ARTICLE = re.compile(r'^[一两几][个只家名位件次种条本份场顿]?$')
_SECOND_PERSON_ZH = re.compile(r'[你您]')
_SECOND_PERSON_EN = re.compile(r"\b(?:you|your|yours|yourself|you're|you've|you'll|you'd)\b", re.I)
_FIRST_PERSON_EN = re.compile(r"\bI\b|\b(?:me|my|mine|myself)\b", re.I)
#: The user named in the third person: 「用户」/「该用户」, "the user" / "User".
_THIRD_USER_ZH = re.compile(r'用户')
_THIRD_USER_EN = re.compile(r'\buser\b', re.I)
#: Number words that state a quantity ("one", "first" and "second" are manners of speaking: "no one", "a second").
_EN_NUMBERS = frozenset('''two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred thousand'''.split())
#: Weekdays and months ("may" is left out: it is mostly the verb).
_EN_TIME = frozenset('''monday tuesday wednesday thursday friday saturday sunday january february march april june
july august september october november december'''.split())


def _stem(word: str) -> str:
    """A crude English stem (plural, past, gerund, adverb endings off) so that 'works' matches 'working'."""
    w = word.lower().replace('’', "'")
    w = re.sub(r"'s$", '', w)
    for suffix in ('ing', 'ed', 'es', 'ly', 's'):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            return w[:-len(suffix)]
    return w


def _en_words(text: str) -> List[str]:
    """English content words of ``text`` (lower case, function words out)."""
    return [w.lower() for w in _EN_WORD.findall(text or '')
            if w.lower() not in _EN_STOP and (len(w) > 2 or w.isdigit())]


def key_words(text: str, language: str) -> List[str]:
    """The words a fact rests on: jieba nouns, numbers and time words (zh) without article-like counters, or the
    English content words."""
    if language == 'en':
        return _en_words(text)
    return [w for w in fact_words(text) if not _ARTICLE.match(w)]


def support(words: Sequence[str], text: str, language: str) -> float:
    """Mean support of ``words`` in ``text``: 1 for a word found, else (zh) the share of its characters found — the
    audit's ``word_support`` — or (en) 1 when its stem is found. 1.0 for no words."""
    if not words:
        return 1.0
    if language == 'en':
        stems = {_stem(w) for w in _EN_WORD.findall(text or '')}
        return sum(1.0 for w in words if _stem(w) in stems) / len(words)
    said = normalize(text)
    return sum(word_support(w, said) for w in words) / len(words)


def _missing(words: Sequence[str], text: str, language: str) -> List[str]:
    return [w for w in words if support([w], text, language) < 1.0]


def _relations_in(text: str, language: str) -> List[Tuple[str, str]]:
    """(relation kind, surface word) of every kinship or relationship word in ``text``, longest forms first and
    without overlaps (「你妈妈」 is one mother)."""
    out = []
    if language == 'en':
        words = {w.lower() for w in _EN_WORD.findall(text or '')}
        for kind, forms in T.RELATIONS_EN.items():
            out.extend((kind, f) for f in forms if f in words)
        return out
    forms = sorted(((f, k) for k, fs in T.RELATIONS.items() for f in fs), key=lambda fk: -len(fk[0]))
    rest = text or ''
    for form, kind in forms:
        if form in rest:
            out.append((kind, form))
            rest = rest.replace(form, '|')
    return out


def _without_relations(text: str) -> str:
    forms = sorted({f for fs in T.RELATIONS.values() for f in fs}, key=len, reverse=True)
    for form in forms:
        text = text.replace(form, '|')
    return text


def units(text: str, language: str) -> Set[str]:
    """What a memory's content rests on, comparable across paraphrase and voice: the relatives it names (as
    relation kinds, so 丈夫 and 老公 match) and (zh) its character bigrams without a function character or a
    generic time word, or (en) the stems of its content words. 「用户」 and 「我」 are not content, so a third-person
    memory and its first-person rewrite have the same units."""
    kinds = {'rel:' + kind for kind, _ in _relations_in(text, language)}
    if language == 'en':
        return kinds | {_stem(w) for w in _en_words(text)}
    body = _without_relations(normalize(text).replace('用户', '|'))
    grams = set()
    for piece in body.split('|'):
        grams |= _word_bigrams(piece)
    return kinds | {g for g in grams if g not in T.MEMORY_GENERIC_BIGRAMS}


def _word_bigrams(text: str) -> Set[str]:
    """Content bigrams of ``text``: character bigrams inside jieba's words unless both characters are function
    characters (没有, 我们), and across a boundary with a one-character word when neither is one (jieba cuts 花呗 and
    老蔡 into characters, 每周四 into 每周|四); never across two longer words (小区|打篮球 gives no 区打). So 啦啦队
    keeps 啦队 while 推着 (推|着) gives nothing."""
    function = T.MEMORY_FUNCTION_CHARS
    tokens = _jieba().lcut(text) if text else []
    out = set()
    for a, b in zip([''] + tokens, tokens):
        out |= {g for g in (b[i:i + 2] for i in range(len(b) - 1)) if not set(g) <= function}
        if a and (len(a) == 1 or len(b) == 1) and not {a[-1], b[0]} & function:
            out.add(a[-1] + b[0])
    return out


def shared_units(memory: str, reply: str, language: str) -> Tuple[Set[str], Set[str]]:
    """(units of ``memory``, those of them that ``reply`` has)."""
    want = units(memory, language)
    if language == 'en':
        have = units(reply, language)
    else:
        have = {'rel:' + kind for kind, _ in _relations_in(reply, language)}
        for piece in _without_relations(reply).split('|'):
            have |= char_ngrams(piece, 2)
    return want, want & have


def _show(found: Set[str]) -> List[str]:
    return sorted(u.replace('rel:', '') for u in found)


def _memories(inputs: Mapping[str, Any]) -> List[str]:
    value = inputs.get('memories')
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [m for m in (value or []) if isinstance(m, str) and m.strip()]


def _clip(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[:n] + '…'


# --------------------------------------------------------------------------- recollection_synthesize

SYNTH_NAMES = ('memory_format', 'memory_grounded')


def _is_nothing(reply: str, language: str) -> bool:
    """The reply is exactly the instruction's "nothing to remember" phrase (a trailing full stop tolerated)."""
    core = reply.strip().rstrip('。.！!').strip()
    want = T.SYNTH_NOTHING[language]
    return core.lower() == want.lower() if language == 'en' else core == want


def _split_line(line: str, language: str) -> Optional[Tuple[str, str, str]]:
    parts = [p.strip() for p in line.split(T.SYNTH_SEPARATOR[language])]
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else None


def _line_error(line: str, language: str) -> Optional[str]:
    """Why one line is not ``类别｜内容｜时效`` with the instruction's lists, or None when it is."""
    sep = T.SYNTH_SEPARATOR[language]
    cells = _split_line(line, language)
    if cells is None:
        other = '|' if sep == '｜' else '｜'
        hint = f" (it uses {other!r}; the instruction's separator is {sep!r})" if other in line else ''
        return f'{_clip(line)!r} is not category{sep}content{sep}duration{hint}'
    category, content, duration = cells
    if language == 'en':
        category, duration = category.lower(), duration.lower()
    if category not in T.SYNTH_CATEGORIES[language]:
        return f'category {category!r} is not in the instruction\'s list'
    if duration not in T.SYNTH_DURATIONS[language]:
        return f'duration {duration!r} is not one of {list(T.SYNTH_DURATIONS[language])}'
    prefix = T.SYNTH_CONTENT_PREFIX[language]
    starts = re.match(rf'{prefix}\b', content, re.I) if language == 'en' else content.startswith(prefix)
    if not starts:
        return f'content {_clip(content)!r} does not start with {prefix!r}'
    n, most = length(content, language), T.SYNTH_CONTENT_MAX[language]
    if n > most:
        unit = 'words' if language == 'en' else 'characters'
        return f'content {_clip(content)!r} has {n} {unit} (at most {most})'
    return None


def check_memory_format(reply: str, ctx: Context) -> CheckResult:
    """「每条一行，格式为“类别｜内容｜时效”：类别从…中选一个；内容以“用户”开头，不超过20个字；时效写“短期”…“中期”…或
    “长期”」 and 「如果没有值得记住的信息，只输出“无可记录的信息”」: every non-blank line is a well-formed memory line,
    or the whole reply is the nothing-phrase; a reply that mixes the two fails."""
    language = _lang(ctx)
    if _is_nothing(reply, language):
        return ok('memory_format', f'only {T.SYNTH_NOTHING[language]!r}')
    lines = [ln.strip() for ln in reply.splitlines() if ln.strip()]
    nothing = T.SYNTH_NOTHING[language]
    errors = []
    for i, line in enumerate(lines, start=1):
        if normalize(nothing).lower() in normalize(line).lower():
            errors.append(f'line {i} says {nothing!r} beside other lines (the instruction says to output only it)'
                          if len(lines) > 1 else f'{_clip(line)!r} is not exactly {nothing!r}')
            continue
        err = _line_error(line, language)
        if err:
            errors.append(f'line {i}: {err}')
    if errors:
        more = f' (+{len(errors) - 1} more)' if len(errors) > 1 else ''
        return fail('memory_format', errors[0] + more)
    return ok('memory_format', f'{len(lines)} well-formed memory line(s)')


def _user_said(inputs: Mapping[str, Any]) -> str:
    """Everything the user says in the dialogue: the user turns of the history, then a current message if any."""
    history = inputs.get('history') or []
    out = [t.get('content', '') for t in history if isinstance(t, Mapping) and t.get('role') == 'user']
    if isinstance(inputs.get('user_message'), str):
        out.append(inputs['user_message'])
    return '\n'.join(out)


def check_memory_grounded(reply: str, ctx: Context) -> CheckResult:
    """「只记录用户亲口说出的信息，不做推测」: the fact words of every memory line's content occur in the user's turns
    (share at least ``SYNTH_MIN_SUPPORT``), and it claims no degree (最, 总是, …) the user did not state (zh). Lines
    that are not three cells are the format check's business; a reply with no memory line (the nothing-phrase, or
    prose) has nothing to ground."""
    language = _lang(ctx)
    if _is_nothing(reply, language):
        return not_applicable('memory_grounded', 'no memory line (nothing to remember)')
    said = _user_said(ctx.inputs)
    contents = [c[1] for c in (_split_line(ln, language) for ln in reply.splitlines() if ln.strip()) if c]
    if not contents:
        return not_applicable('memory_grounded', 'no category|content|duration line to ground')
    for i, content in enumerate(contents, start=1):
        words = key_words(content, language)
        share = support(words, said, language)
        if share < T.SYNTH_MIN_SUPPORT:
            return fail('memory_grounded', f'memory {i} {_clip(content)!r}: {share:.0%} of its words are in the '
                                           f'user\'s turns (< {T.SYNTH_MIN_SUPPORT:.0%}); not said: '
                                           f'{_missing(words, said, language)}')
        if language == 'zh':
            degree = next((w for w in T.SYNTH_DEGREE_WORDS if w in content and w not in said), None)
            if degree:
                return fail('memory_grounded', f'memory {i} {_clip(content)!r} says {degree!r}, which the user never '
                                               f'said (an inference)')
    return ok('memory_grounded', f'{len(contents)} memory line(s) rest on the user\'s words')


def synthesize_checks(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_memory_format(reply, ctx), check_memory_grounded(reply, ctx)]


# --------------------------------------------------------------------------- recollection_refine

REFINE_NAMES = ('one_line', 'first_person', 'keeps_memory', 'no_new_facts')


def check_one_line(reply: str, ctx: Context) -> CheckResult:
    """「改写成用户口吻的第一人称短句…只写一件事」: a short line is one line."""
    lines = [ln for ln in reply.splitlines() if ln.strip()]
    if len(lines) > 1:
        return fail('one_line', f'{len(lines)} lines')
    return ok('one_line', 'one line')


def check_first_person(reply: str, ctx: Context) -> CheckResult:
    """「改写成用户口吻的第一人称短句」: the rewrite says 我 (I/me/my) and does not narrate 用户 ("the user") in the
    third person."""
    language = _lang(ctx)
    third = (_THIRD_USER_EN if language == 'en' else _THIRD_USER_ZH).search(reply)
    if third:
        return fail('first_person', f'narrates {third.group(0)!r} in the third person')
    first = _FIRST_PERSON_EN.search(reply) if language == 'en' else re.search(r'[我咱俺]', reply)
    if not first:
        return fail('first_person', 'no first-person word (我 / I, me, my)')
    return ok('first_person', f'first person ({first.group(0)!r})')


def check_keeps_memory(reply: str, ctx: Context) -> CheckResult:
    """「保持原意」: the rewrite keeps at least ``REFINE_MIN_KEPT`` of the memory's units (content bigrams and
    relatives; English: content-word stems)."""
    language = _lang(ctx)
    memory = '\n'.join(_memories(ctx.inputs))
    if not memory:
        return not_applicable('keeps_memory', 'no memory in the inputs')
    want, kept = shared_units(memory, reply, language)
    if not want:
        return not_applicable('keeps_memory', 'the memory has no content unit to keep')
    share = len(kept) / len(want)
    if share < T.REFINE_MIN_KEPT:
        return fail('keeps_memory', f'keeps {share:.0%} of the memory (< {T.REFINE_MIN_KEPT:.0%}): '
                                    f'{_show(kept)} of {_show(want)}')
    return ok('keeps_memory', f'keeps {share:.0%} of the memory ({_show(kept)})')


def _en_entities(text: str) -> List[str]:
    """English specifics: digits, number words, weekdays and months, and capitalised words inside a sentence
    (names)."""
    found = []
    for m in _EN_WORD.finditer(text or ''):
        w = m.group(0)
        before = text[:m.start()].rstrip()
        inside = bool(before) and before[-1] not in '.!?"“(（'
        if w.isdigit() or w.lower() in _EN_NUMBERS or w.lower() in _EN_TIME:
            found.append(w)
        elif inside and w[0].isupper() and w not in ('I', "I'm", "I've", "I'll", "I'd"):
            found.append(w)
    return list(dict.fromkeys(found))


def new_facts(reply: str, sources: str, language: str, names: Sequence[str] = ()) -> List[str]:
    """Specifics of ``reply`` absent from ``sources``: the audit's entities (quantities, numbers, weekdays, quoted
    names, places; English: numbers, dates, names) and relations (a kind of relative none of whose words the
    sources use, or imply: ``RELATION_IMPLIES``). ``names`` are the forms of the user's name."""
    if language == 'en':
        have = {_stem(w) for w in _EN_WORD.findall(sources)}
        new = [e for e in _en_entities(reply) if _stem(e) not in have]
    else:
        # 十个小时 and 十小时 are one fact: compare without the measure word 个 (as the audit does).
        have_text = normalize(sources).replace('个', '')
        new = [e for e in entities(without_actions(reply)) if normalize(e).replace('个', '') not in have_text]
    known = {kind for kind, _ in _relations_in(sources, language)}
    known |= {implied for kind in known for implied in T.RELATION_IMPLIES.get(kind, ())}
    for name in names:
        # A relation word right after the user's name calls the user, it names no one (「晓雯闺女」).
        for _kind, form in _relations_in(reply, language):
            reply = reply.replace(name + form, name)
    new.extend(word for kind, word in _relations_in(reply, language) if kind not in known)
    return list(dict.fromkeys(new))


def check_no_new_facts_refine(reply: str, ctx: Context) -> CheckResult:
    """「不添加记忆里没有的信息」: no number, date, place, quoted name or relative that the memory does not give."""
    language = _lang(ctx)
    new = new_facts(reply, as_text(ctx.inputs), language)
    if new:
        return fail('no_new_facts', f'adds {new}, not in the memory')
    return ok('no_new_facts', 'no number, name, place or relative beyond the memory')


def refine_checks(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_one_line(reply, ctx), check_first_person(reply, ctx), check_keeps_memory(reply, ctx),
            check_no_new_facts_refine(reply, ctx)]


# --------------------------------------------------------------------------- recollection_initialize

INIT_NAMES = ('refers_to_memory', 'addresses_user', 'no_new_facts', 'ends_with_question')


def check_refers_to_memory(reply: str, ctx: Context) -> CheckResult:
    """「从下面的一条记忆自然切入」: the message shares at least ``INIT_MIN_MEMORY_UNITS`` units (content bigrams,
    relatives; English: content-word stems) with one memory. Memories may be third-person (「用户…」) or first-person
    rewrites (「我家老公…」, issue 22): units do not depend on the voice."""
    language = _lang(ctx)
    memories = _memories(ctx.inputs)
    if not memories:
        return not_applicable('refers_to_memory', 'no memory in the inputs')
    best, best_memory = set(), memories[0]
    for memory in memories:
        _, found = shared_units(memory, reply, language)
        if len(found) > len(best):
            best, best_memory = found, memory
    if len(best) < T.INIT_MIN_MEMORY_UNITS:
        return fail('refers_to_memory', f'takes up none of the {len(memories)} memories (no content shared)')
    return ok('refers_to_memory', f'takes up {_clip(best_memory)!r} ({_show(best)})')


#: Honorifics around a name (海燕姐, 老吕, 小梁, 程叔): stripped to find the name's core.
_HONORIFICS = ('姐', '哥', '叔', '姨', '阿姨', '伯', '婶', '爷', '奶', '老师', '医生', '师傅')
_HONORIFIC = re.compile(r'^[老小阿]|(?:' + '|'.join(_HONORIFICS) + r')$')


def _name_forms(name: str) -> List[str]:
    """Ways a message may call the user: the full name, the name without an honorific, the given name of a
    three-character name, the surname with 小/老 or an honorific (林景行 -> 景行, 小林, 林哥...); longest first."""
    name = (name or '').strip()
    if not name:
        return []
    if re.match(r'[A-Za-z]', name):
        return sorted({name, name.split()[0]}, key=len, reverse=True)
    forms = {name}
    core = _HONORIFIC.sub('', name)
    forms.add(core)
    if len(name) == 3 and core == name:
        forms.add(name[1:])
    surname = core[:1]
    if re.match(r'[\u4e00-\u9fff]', surname):
        forms.update(['小' + surname, '老' + surname] + [surname + h for h in _HONORIFICS])
    return sorted((f for f in forms if len(f) >= 2), key=len, reverse=True)


def _asks(reply: str) -> bool:
    """The reply asks something: a question mark anywhere, or a question particle at its end."""
    particles = ''.join(T.QUESTION_PARTICLES)
    return bool(re.search(rf'[？?]|[{particles}][。！!～~…]*$', without_actions(reply).strip()))


def check_addresses_user(reply: str, ctx: Context) -> CheckResult:
    """「请主动给用户发一条消息」: the message speaks to the user — by name (the name given, its given name or a
    surname with an honorific), by 你/您 ("you"), or by asking a question (Chinese drops the 你 in 「手冲咖啡练得怎么样
    了？」) — and never narrates 用户 ("the user") in the third person."""
    language = _lang(ctx)
    third = (_THIRD_USER_EN if language == 'en' else _THIRD_USER_ZH).search(reply)
    if third:
        return fail('addresses_user', f'narrates {third.group(0)!r} in the third person')
    for form in _name_forms(_user_name(ctx)):
        if (re.search(rf'\b{re.escape(form)}\b', reply) if language == 'en' else form in reply):
            return ok('addresses_user', f'calls the user {form!r}')
    second = (_SECOND_PERSON_EN if language == 'en' else _SECOND_PERSON_ZH).search(reply)
    if second:
        return ok('addresses_user', f'says {second.group(0)!r}')
    if _asks(reply):
        return ok('addresses_user', 'asks the user a question')
    return fail('addresses_user', 'neither the user\'s name, nor 你/您 (you), nor a question to the user')


def check_no_new_facts_initialize(reply: str, ctx: Context) -> CheckResult:
    """「不编造记忆里没有的事实」: no number, date, place, quoted name or relative that neither the memories nor the
    persona (the system prompt, when known) give."""
    language = _lang(ctx)
    sources = as_text(ctx.inputs) + '\n' + (ctx.system_prompt or '')
    new = new_facts(reply, sources, language, _name_forms(_user_name(ctx)))
    if new:
        return fail('no_new_facts', f'states {new}, in neither the memories nor the persona')
    return ok('no_new_facts', 'no number, name, place or relative beyond the memories and persona')


def check_ends_with_question(reply: str, ctx: Context) -> CheckResult:
    """「最后用一个轻松的问题收尾」: the last sentence (a trailing parenthesised action aside) ends with ？/? or with a
    question particle (``QUESTION_PARTICLES``) before its closing mark."""
    body = without_actions(reply).strip()
    # Closing marks and decorations after the last word: 「…吗～」「…？！」「…呢？😊」.
    tail = re.sub(r'[\s～~…。！!.\U0001F300-\U0001FAFF\u2600-\u27BF]+$', '', body)
    question = bool(tail) and (tail[-1] in '？?' or tail[-1] in T.QUESTION_PARTICLES)
    if question:
        return ok('ends_with_question', 'ends with a question')
    return fail('ends_with_question', f'ends with {_clip(body[-12:])!r}, not a question')


def initialize_checks(reply: str, ctx: Context) -> List[CheckResult]:
    return [check_refers_to_memory(reply, ctx), check_addresses_user(reply, ctx),
            check_no_new_facts_initialize(reply, ctx), check_ends_with_question(reply, ctx)]


def _user_name(ctx: Context) -> str:
    name = ctx.inputs.get('user_name')
    return name if isinstance(name, str) else ''


def _lang(ctx: Context) -> str:
    return 'en' if ctx.language == 'en' else 'zh'


CHECKS = {'recollection_synthesize': (SYNTH_NAMES, synthesize_checks),
          'recollection_refine': (REFINE_NAMES, refine_checks),
          'recollection_initialize': (INIT_NAMES, initialize_checks)}
