"""Every threshold of the task checks, in one place, each with the instruction line or the reason behind it.

Length and sentence bounds are copied from the subtask instructions (``data/prompts.py``); a test reads the
instruction texts and fails when a bound here and the number in the instruction disagree.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

#: Revision of the checks, recorded in every result's ``meta.checks.version``: pass rates of two revisions measure
#: two different things and are not compared.
CHECKS_VERSION = '1'

# ---------------------------------------------------------------- length and sentence bounds (the instructions)
#: (minimum, maximum) length per subtask, in characters other than whitespace, punctuation included (zh, as 字数 is
#: counted) or words (en); None is
#: no bound. From the instruction's 「不超过N个字」 / 「A到B个字」 and its English translation.
LENGTH_BOUNDS: Dict[str, Dict[str, Tuple[Optional[int], Optional[int]]]] = {
    'zh': {
        'dialogue_base': (None, 40), 'dialogue_emotion': (None, 90), 'dialogue_schedule': (None, 60),
        'recollection_refine': (None, 40), 'recollection_initialize': (None, 70),
        'itinerary_basic': (80, 150), 'itinerary_advanced': (150, 300),
        'itinerary_feedback': (None, 40), 'itinerary_initialize': (None, 70),
        'safety': (None, 120), 'probe_implicit_help': (None, 100), 'probe_ambiguous': (None, 100),
        'probe_context_aware': (None, 100),
    },
    'en': {
        'dialogue_base': (None, 25), 'dialogue_emotion': (None, 55), 'dialogue_schedule': (None, 40),
        'recollection_refine': (None, 25), 'recollection_initialize': (None, 45),
        'itinerary_basic': (50, 95), 'itinerary_advanced': (95, 190),
        'itinerary_feedback': (None, 25), 'itinerary_initialize': (None, 45),
        'safety': (None, 75), 'probe_implicit_help': (None, 60), 'probe_ambiguous': (None, 60),
        'probe_context_aware': (None, 60),
    },
}
#: (minimum, maximum) sentences per subtask, outside parenthesised actions: 「一到两句话」「二到四句话」「一句话」.
SENTENCE_BOUNDS: Dict[str, Tuple[int, int]] = {
    'dialogue_base': (1, 2), 'dialogue_emotion': (2, 4), 'dialogue_schedule': (1, 3),
    'recollection_initialize': (1, 3), 'itinerary_feedback': (1, 1), 'itinerary_initialize': (1, 3),
    'safety': (2, 5), 'probe_implicit_help': (2, 4), 'probe_ambiguous': (2, 4), 'probe_context_aware': (2, 4),
}

# ---------------------------------------------------------------- every subtask (common.py)

# ---------------------------------------------------------------- dialogue and safety (dialogue.py, safety.py)

# ---------------------------------------------------------------- recollection (recollection.py)

# ---------------------------------------------------------------- itinerary (itinerary.py)
#: Matching a phrase (an overview clause, a hobby, a memory, an activity) in a reply: Chinese compares character
#: bigrams (a two-character content word is one bigram), English compares content-word stems of this many letters
#: ("walking"/"walks" -> "walk").
EN_STEM_LETTERS = 4
#: A phrase is also named (zh) when the text has this share of its content characters: paraphrases split a
#: two-character word (喂马挤奶 -> 挤牛奶, 上书法课 -> 书画教室 ... 课). Calibrated on itinerary_advanced: 98 % of
#: the references name their slot this way; another entry of the same schedule is "named" by 24 % of them (plans
#: mention the entries around the slot), 20 % with shared bigrams alone.
NAMED_MIN_CHAR_SHARE = 0.6
#: 「活动不超过10个字」 / "each activity at most 6 words".
MIDDLE_ACTIVITY_MAX = {'zh': 10, 'en': 6}
#: 「共5到8项」.
MIDDLE_ITEMS = (5, 8)
#: 「最后一项是22:00到23:30之间的休息」, in minutes, both ends included.
MIDDLE_REST_WINDOW = (22 * 60, 23 * 60 + 30)
#: An overview clause has a line when the line shares this many bigrams (stems) with it.
MIDDLE_CLAUSE_MIN_SHARED = 1
#: 「概要里的安排都要出现」: share of the overview's activity clauses that must have a line.
MIDDLE_MIN_COVERED = 1.0
#: 「3到5步」.
ADVANCED_STEPS = (3, 5)
#: 「根据……关于用户的记忆」: a memory is used when the reply shares this many bigrams (stems) with it.
BASIC_MEMORY_MIN_SHARED = 1
#: Clock hours (HH:MM) per part of the day, [start, end): for 「覆盖上午、下午和晚上」.
BASIC_HOUR_PARTS = {'morning': (5, 12), 'afternoon': (12, 18), 'evening': (18, 24)}

# ---------------------------------------------------------------- current activity (activity.py)
#: The schedule entry the current activity belongs to is the one it covers best, when it covers at least this share
#: of the entry's bigrams or content characters (the audit's rule: 在食堂吃番茄牛腩饭 belongs to 在食堂吃午饭).
ACTIVITY_ENTRY_MIN_COVER = 1 / 3
#: A reply claims another schedule entry when it shares this many bigrams (stems) with it and does not name the
#: current activity.
ACTIVITY_OTHER_MIN_SHARED = 2
#: 「结合关于用户的记忆」: a memory is used when the reply shares this many bigrams (stems) with it.
ACTIVITY_MEMORY_MIN_SHARED = 1
