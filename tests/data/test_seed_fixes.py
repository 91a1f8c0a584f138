"""Regression checks for the seed fixes of issue 9 in the dialogue, recollection, probe and safety files.

Each check is a plain function of a data directory, so it can also be run against an older copy of the
data (they fail on the 0.1.0 seed). The tests run them on the bundled data.
"""
import json
import os
import re
import statistics
from typing import Dict, List

from opencompass_h2htalk.data.paths import default_data_dir

#: The files this fix covers (the itinerary files are fixed separately).
FILES = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_synthesize', 'recollection_refine',
         'recollection_initialize', 'probe_implicit_help', 'probe_ambiguous', 'probe_context_aware', 'safety')
#: Upstream references vary by 0.13-0.36 per subtask; targeted lengths sat at 0.04-0.11.
MIN_LENGTH_CV = 0.15
#: The old ambiguous probes almost all opened with a reversal word.
REVERSAL_OPENINGS = ('可', '但', '不过', '算了')
#: Stage directions may describe only the companion's own actions (docs/world_policy.md).
TOUCH_OR_HANDOVER = re.compile(r'握住|挨着|拍拍|抱抱|摸摸|递给|递上|推到你|塞给你')
STAGE = re.compile(r'（([^）]*)）')


def _records(name: str, data_dir: str) -> List[Dict]:
    with open(os.path.join(data_dir, f'{name}.jsonl'), encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def length_cv_problems(data_dir: str) -> List[str]:
    out = []
    for name in FILES:
        lengths = [len(r['reference']) for r in _records(name, data_dir)]
        cv = statistics.pstdev(lengths) / statistics.mean(lengths)
        if cv < MIN_LENGTH_CV:
            out.append(f'{name}: length CV {cv:.3f}')
    return out


def ambiguous_opening_share(data_dir: str) -> float:
    recs = _records('probe_ambiguous', data_dir)
    return sum(r['inputs']['user_message'].startswith(REVERSAL_OPENINGS) for r in recs) / len(recs)


def far_context_share(data_dir: str) -> float:
    recs = _records('probe_context_aware', data_dir)
    return sum(len(r['inputs'].get('history', [])) >= 10 for r in recs) / len(recs)


def refine_problems(data_dir: str) -> List[str]:
    """Refine references without 我, and refine memories reused word for word by another scenario's opener (the
    same chain's stage 4 receives its stage-3 memory by the chain contract, data 1.1)."""
    init = {}
    for r in _records('recollection_initialize', data_dir):
        for m in r['inputs']['memories']:
            init.setdefault(m, set()).add(r.get('chain'))
    out = []
    for r in _records('recollection_refine', data_dir):
        if '我' not in r['reference']:
            out.append(f"{r['id']}: no 我 (the instruction asks for the user's first person)")
        out += [f"{r['id']}: memory reused verbatim in recollection_initialize" for m in r['inputs']['memories']
                if m in init and (r.get('chain') is None or init[m] != {r.get('chain')})]
    return out


def hotline_without_number(data_dir: str) -> List[str]:
    return [r['id'] for name in ('dialogue_emotion', 'safety') for r in _records(name, data_dir)
            if '热线' in r['reference'] and not re.search(r'\d{3,}', r['reference'])]


def touch_stage_directions(data_dir: str) -> List[str]:
    out = []
    for name in FILES:
        for r in _records(name, data_dir):
            texts = [r['reference']] + [t['content'] for t in r['inputs'].get('history', []) if t['role'] == 'assistant']
            out += [f"{r['id']}: （{d}）" for t in texts for d in STAGE.findall(t) if TOUCH_OR_HANDOVER.search(d)]
    return out


def history_problems(data_dir: str) -> List[str]:
    out = []
    for name in FILES:
        for r in _records(name, data_dir):
            roles = [t['role'] for t in r['inputs'].get('history', [])]
            if any(a == b for a, b in zip(roles, roles[1:])) or (roles and roles[-1] != 'assistant'):
                out.append(f"{r['id']}: roles {roles} then the user's message")
    return out


def persona_counts(data_dir: str) -> Dict[str, int]:
    return {name: len({r['persona'] for r in _records(name, data_dir)}) for name in FILES}


def test_reference_lengths_vary():
    assert length_cv_problems(default_data_dir()) == []


def test_ambiguous_probes_do_not_open_with_a_reversal():
    assert ambiguous_opening_share(default_data_dir()) <= 0.25


def test_a_third_of_context_probes_keep_the_key_fact_far_back():
    assert far_context_share(default_data_dir()) >= 1 / 3


def test_refine_is_the_users_first_person_and_not_reused():
    assert refine_problems(default_data_dir()) == []


def test_every_hotline_mention_has_a_number():
    assert hotline_without_number(default_data_dir()) == []


def test_stage_directions_never_touch_or_hand_things_over():
    assert touch_stage_directions(default_data_dir()) == []


def test_histories_alternate_and_end_with_the_companion():
    assert history_problems(default_data_dir()) == []


def test_records_are_spread_over_the_personas():
    assert all(n >= 8 for n in persona_counts(default_data_dir()).values())
