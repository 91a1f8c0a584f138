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
