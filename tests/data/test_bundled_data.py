"""H2HTalk-Open as shipped: complete, varied, ours."""
import json
import os
import shutil
from collections import Counter

import pytest

from opencompass_h2htalk.data.loader import load_subtask
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.personas import load_personas
from opencompass_h2htalk.data.schema import SUBTASKS

UPSTREAM = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared', 'upstream_h2htalk')


@pytest.mark.parametrize('subtask', list(SUBTASKS))
def test_each_subtask_has_at_least_20_varied_scenarios(subtask):
    scenarios = load_subtask(subtask)
    assert len(scenarios) >= 20
    personas = Counter(s.persona for s in scenarios)
    # Spread over personas: at least two, none carrying more than half of a subtask (with ten personas a
    # subtask of 22-33 records has only a few per persona, so no per-persona minimum).
    assert len(personas) >= 2 and max(personas.values()) <= len(scenarios) // 2
    # The null answer of memory extraction is the only reference allowed to repeat.
    refs = [s.reference for s in scenarios if s.reference != '无可记录的信息']
    assert len(set(refs)) == len(refs), 'duplicate references'
    if subtask in ('dialogue_base', 'dialogue_schedule', 'recollection_synthesize'):
        # multi-turn context where the subtask has one
        assert sum(len(s.inputs.get('history', [])) >= 3 for s in scenarios) >= len(scenarios) // 2


def test_at_least_two_personas():
    personas = load_personas()
    assert len(personas) >= 2 and all(p.description for p in personas.values())


#: Names of the upstream persona that must not appear anywhere in our data.
FORBIDDEN = ('竹内', '遥斗', 'Nathaniel')


def forbidden_hits(data_dir):
    """``(file, name)`` for every forbidden name found in the raw text of any data file."""
    hits = []
    for name in sorted(os.listdir(data_dir)):
        if name.endswith(('.json', '.jsonl')):
            with open(os.path.join(data_dir, name), encoding='utf-8') as f:
                text = f.read()
            hits += [(name, w) for w in FORBIDDEN if w.lower() in text.lower()]
    return hits


def test_no_upstream_persona_name_in_any_data_file():
    # Self-contained: runs with or without the upstream data beside the repository.
    assert forbidden_hits(default_data_dir()) == []


def test_the_forbidden_name_check_finds_a_planted_name(tmp_path):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    path = data / 'itinerary_advanced.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    rec = json.loads(lines[0])
    rec['reference'] = rec['reference'][:10] + '竹内' + rec['reference'][10:]
    lines[0] = json.dumps(rec, ensure_ascii=False)
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    (data / 'personas.json').write_text((data / 'personas.json').read_text(encoding='utf-8')
                                        .replace('林澈', 'NATHANIEL', 1), encoding='utf-8')
    assert forbidden_hits(str(data)) == [('itinerary_advanced.jsonl', '竹内'), ('personas.json', 'Nathaniel')]


@pytest.mark.skipif(not os.path.isdir(UPSTREAM), reason='../shared/upstream_h2htalk is not present beside the repo: '
                    'the reference-reuse check against upstream data did not run')
def test_no_upstream_reference_is_reused():
    upstream = set()
    for name in os.listdir(os.path.join(UPSTREAM, 'data')):
        with open(os.path.join(UPSTREAM, 'data', name), encoding='utf-8') as f:
            upstream |= {json.loads(line)['response'].strip()[:20] for line in f if line.strip()}
    ours = [s.reference.strip()[:20] for t in SUBTASKS for s in load_subtask(t)]
    reused = [r for r in ours if len(r) >= 12 and r in upstream]
    assert not reused


def test_safety_set_covers_every_risk_category_and_references_pass_the_rule_checks():
    from opencompass_h2htalk.data.schema import RISK_CATEGORIES
    from opencompass_h2htalk.judges.safety_checks import check_reply
    scenarios = load_subtask('safety')
    assert len(scenarios) >= 33  # the set grows (issue #10); the categories and rule checks below still bind
    assert {s.tags['risk_category'] for s in scenarios} == set(RISK_CATEGORIES)
    for s in scenarios:
        assert check_reply(s.reference, s.tags['required_actions'])['violations'] == [], s.id
