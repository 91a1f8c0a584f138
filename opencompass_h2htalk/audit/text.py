"""Text helpers shared by the checks: n-grams, content words, entities, clock times (pure)."""
from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import List, Optional, Set

_PUNCT = re.compile(r'[\s\u3000，。！？、；：“”‘’「」『』《》（）()【】\[\]…—\-~·,.!?;:\'"]+')
#: Clock times such as 14:00 / 7:30 (the schedule format) — returns minutes since midnight.
CLOCK = re.compile(r'(?<!\d)([01]?\d|2[0-3])[:：]([0-5]\d)(?!\d)')
_NUM = r'[0-9０-９]+|[零一二两三四五六七八九十百千万半]+'
#: Numbers with a unit or a time word: 三十岁, 12个, 两三小时, 下周五, 3月5日, 八点.
_QUANTITY = re.compile(rf'(?:{_NUM})\s*(?:个月|个|岁|年|月|日|号|天|周|星期|小时|分钟|点半?|块|元|斤|公里|次|只|本|页|楼|层|度|%|％)')
_WEEKDAY = re.compile(r'(?:下下|下|上|这|本)?(?:周|星期|礼拜)[一二三四五六日天末]')
_VAGUE = re.compile(r'^(?:一|半|几|两)(?:个|点|本|次|只|页|块|天|小时|会儿)?$|^(?:一|半|几)[^0-9零二三四五六七八九十百千万]{0,2}$')
_QUOTED = re.compile(r'[“「《"]([^”」》"]{1,20})[”」》"]')
_DIGITS = re.compile(r'[0-9０-９]{2,}')


def normalize(text: str) -> str:
    """Removes punctuation and whitespace (for exact and n-gram comparison)."""
    return _PUNCT.sub('', text or '')


def char_ngrams(text: str, n: int) -> Set[str]:
    """Set of character n-grams of ``text`` without punctuation (the whole text if shorter than n)."""
    s = normalize(text)
    if len(s) < n:
        return {s} if s else set()
    return {s[i:i + n] for i in range(len(s) - n + 1)}


def bigram_cover(part: str, whole: str) -> float:
    """Share of ``part``'s character bigrams (punctuation removed) that occur in ``whole`` (0.0 for an empty part)."""
    grams = char_ngrams(part, 2)
    return len(grams & char_ngrams(whole, 2)) / len(grams) if grams else 0.0


def jaccard(a: Set[str], b: Set[str]) -> float:
    """|a ∩ b| / |a ∪ b| (0.0 for two empty sets)."""
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def clock_minutes(text: str) -> List[int]:
    """Every HH:MM clock time in ``text``, as minutes since midnight."""
    return [int(h) * 60 + int(m) for h, m in CLOCK.findall(text or '')]


def parse_hhmm(value: str) -> Optional[int]:
    """'14:30' -> 870; None when it is not a clock time."""
    m = CLOCK.fullmatch((value or '').strip())
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


@lru_cache(maxsize=1)
def _jieba():
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


#: Words of two or more characters that carry no fact (function words, the "user" subject of memory lines).
_STOPWORDS = frozenset('''用户 自己 我们 你们 他们 她们 这个 那个 一个 一些 已经 还是 就是 因为 所以 但是 不过 可是
然后 而且 或者 如果 虽然 什么 怎么 这样 那样 这么 那么 时候 现在 目前 一下 一直 可能 觉得 感觉 有点 比较 非常 特别
'''.split())


def content_words(text: str) -> List[str]:
    """jieba tokens of two or more characters (or any number), minus stopwords — the words a fact rests on."""
    words = []
    for w in _jieba().lcut(normalize(text)):
        if (len(w) >= 2 or w.isdigit()) and w not in _STOPWORDS:
            words.append(w)
    return words


#: jieba's dictionary (HMM off) tags a few common words as places; they are not places.
_NOT_PLACES = frozenset({'城市', '中考', '刚跑', '家乡', '老家', '海边', '市场'})


def places(text: str) -> List[str]:
    """Place names: jieba dictionary words tagged ``ns`` (2-3 characters, HMM off so unknown strings are not
    guessed as places)."""
    found = [p.word for p in _jieba().posseg.lcut(text or '', HMM=False)
             if p.flag == 'ns' and 2 <= len(p.word) <= 3 and p.word not in _NOT_PLACES]
    return found


def entities(text: str) -> List[str]:
    """Checkable specifics of a text: quantities and numbers, weekday expressions, quoted names and places.
    Person names are not guessed (jieba's POS tags call 小狗 and 寿星 names); the ones that matter in this data
    are quoted or are the user's name, which is an input."""
    text = text or ''
    found: List[str] = []
    for pat in (_QUANTITY, _WEEKDAY, _DIGITS):
        found.extend(m.group(0) for m in pat.finditer(text))
    # "一本" "一点" "半个" "几天" are manners of speaking, not facts.
    found = [f for f in found if not _VAGUE.match(f)]
    found.extend(m.group(1) for m in _QUOTED.finditer(text))
    found.extend(places(text))
    return list(dict.fromkeys(e.strip() for e in found if e.strip()))


#: jieba POS flags of the words a fact rests on: nouns of every kind, numerals, time words, foreign words.
_FACT_FLAGS = ('n', 'm', 't', 'eng', 'q')


def fact_words(text: str) -> List[str]:
    """Nouns, numbers and time words (two or more characters, or digits) of a fact — its specifics, as opposed
    to the predicate a memory line may paraphrase (希望被称呼为 / 叫我)."""
    out = []
    for p in _jieba().posseg.lcut(normalize(text)):
        if p.flag.startswith(_FACT_FLAGS) and (len(p.word) >= 2 or p.word.isdigit()) and p.word not in _STOPWORDS:
            out.append(p.word)
    return out


def quoted_names(text: str) -> List[str]:
    """Names written in quotes or book-title marks (“年糕”, 《笑傲江湖》)."""
    return list(dict.fromkeys(m.group(1).strip() for m in _QUOTED.finditer(text or '') if m.group(1).strip()))
