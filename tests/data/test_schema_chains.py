"""Schema 1.1: the optional chain/stage fields of linked chains, and 1.0 records still accepted."""
import copy
import json

import pytest

from opencompass_h2htalk.data.schema import (ACCEPTED_SCHEMA_VERSIONS, CHAIN_PIPELINES, SCHEMA_VERSION,
                                             ScenarioError, validate_file, validate_record)

BASIC = {
    'id': 'itinerary_basic-900', 'subtask': 'itinerary_basic', 'dimension': 'itinerary', 'language': 'zh',
    'persona': 'lin_che', 'inputs': {'hobbies': ['做饭'], 'memories': ['用户这周在赶论文']},
    'reference': '今天，林澈上午开店，下午修书，晚上和用户视频聊聊论文进度，十点半睡下。',
    'tags': {'emotion': '疲惫', 'topic': '学业'},
}
MIDDLE = {
    'id': 'itinerary_middle-900', 'subtask': 'itinerary_middle', 'dimension': 'itinerary', 'language': 'zh',
    'persona': 'lin_che', 'inputs': {'day_overview': BASIC['reference']},
    'reference': '09:00 开店\n14:00 修书\n20:00 视频聊论文\n22:30 睡觉\n\n（备注：晚上留给用户。）',
    'tags': {'emotion': '疲惫', 'topic': '学业'},
}
PERSONAS = ['lin_che']


def chained(record, chain='trip-01', stage=1, **extra):
    rec = copy.deepcopy(record)
    rec.update({'chain': chain, 'stage': stage}, **extra)
    return rec


def test_version_is_1_1_and_1_0_is_still_read():
    assert SCHEMA_VERSION == '1.1' and ACCEPTED_SCHEMA_VERSIONS == ('1.0', '1.1')
    # a 1.0 record (no chain/stage) validates and round-trips without the new fields
    s = validate_record(BASIC, personas=PERSONAS)
    assert s.chain is None and s.stage is None and s.to_dict() == BASIC


def test_chained_record_round_trips():
    rec = chained(MIDDLE, stage=2)
    s = validate_record(rec, personas=PERSONAS)
    assert (s.chain, s.stage) == ('trip-01', 2)
    assert s.to_dict() == rec and list(s.to_dict())[-2:] == ['chain', 'stage']


@pytest.mark.parametrize('record,field,message', [
    ({**BASIC, 'stage': 1}, 'chain', 'a record with a stage needs a chain id'),
    ({**BASIC, 'chain': 'trip-01'}, 'stage', 'needs its stage'),
    (chained(BASIC, stage=0), 'stage', 'expected an integer >= 1, got 0'),
    (chained(BASIC, stage='1'), 'stage', "expected an integer >= 1, got '1'"),
    (chained(BASIC, stage=True), 'stage', 'expected an integer >= 1, got True'),
    (chained(BASIC, chain=''), 'chain', 'must be a string matching'),
    (chained(BASIC, chain=7), 'chain', 'must be a string matching'),
    (chained(BASIC, stage=2), 'stage', 'itinerary_basic is stage 1 of the itinerary chain'),
    (chained(MIDDLE, stage=3), 'stage', 'itinerary_middle is stage 2 of the itinerary chain'),
])
def test_bad_chain_fields_name_the_field(record, field, message):
    with pytest.raises(ScenarioError) as e:
        validate_record(record, 'itinerary.jsonl', 4, PERSONAS)
    assert e.value.field == field and message in e.value.message
    assert str(e.value).startswith(f"itinerary.jsonl:4: field '{field}': ")


def test_judged_subtasks_cannot_be_chained():
    rec = {'id': 'probe_implicit_help-900', 'subtask': 'probe_implicit_help', 'dimension': 'instruction_following',
           'language': 'zh', 'persona': 'lin_che', 'inputs': {'user_message': '好累'}, 'reference': '先歇会儿。',
           'tags': {'if_category': 'implicit_help', 'need': '休息'}, 'chain': 'x-01', 'stage': 1}
    with pytest.raises(ScenarioError, match="probe_implicit_help records cannot be in a chain"):
        validate_record(rec, personas=PERSONAS)


def test_pipelines_are_the_papers_two():
    assert CHAIN_PIPELINES['itinerary'] == (('itinerary_basic',), ('itinerary_middle',), ('itinerary_advanced',),
                                            ('itinerary_feedback',), ('itinerary_initialize',))
    assert CHAIN_PIPELINES['recollection'][1:] == (('recollection_synthesize',), ('recollection_refine',),
                                                   ('recollection_initialize',))
    assert 'dialogue_base' in CHAIN_PIPELINES['recollection'][0]


def _write(path, records):
    path.write_text(''.join(json.dumps(r, ensure_ascii=False) + '\n' for r in records), encoding='utf-8')
    return str(path)


def test_a_chain_has_one_record_per_stage_across_files(tmp_path):
    stages = {}
    first = _write(tmp_path / 'a.jsonl', [chained(BASIC)])
    validate_file(first, PERSONAS, seen_stages=stages)
    dup = chained(BASIC, id='itinerary_basic-901')
    second = _write(tmp_path / 'b.jsonl', [dup])
    with pytest.raises(ScenarioError) as e:
        validate_file(second, PERSONAS, seen_stages=stages)
    assert str(e.value).startswith(f"{second}:1: field 'stage': chain 'trip-01' already has stage 1 (at {first}:1)")
    # other chains and other stages of the same chain are fine
    ok = _write(tmp_path / 'c.jsonl', [chained(MIDDLE, stage=2), chained(BASIC, chain='trip-02',
                                                                        id='itinerary_basic-902')])
    assert [s.stage for s in validate_file(ok, PERSONAS, seen_stages=stages)] == [2, 1]
