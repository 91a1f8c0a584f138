"""The validator rejects bad records with file:line:field."""
import copy
import json

import pytest

from opencompass_h2htalk.data.schema import ScenarioError, validate_file, validate_record

GOOD = {
    'id': 'dialogue_base-001', 'subtask': 'dialogue_base', 'dimension': 'dialogue', 'language': 'zh',
    'persona': 'lin_che',
    'inputs': {'history': [{'role': 'user', 'content': '在吗？'}, {'role': 'assistant', 'content': '在呢。'}],
               'user_message': '今天好累。'},
    'reference': '（递上一杯热茶）辛苦啦，想聊聊今天吗？', 'tags': {'emotion': '疲惫'},
}
PERSONAS = ['lin_che', 'su_xiaoman']


def write(tmp_path, records, name='dialogue_base.jsonl'):
    path = tmp_path / name
    path.write_text('\n'.join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records) + '\n',
                    encoding='utf-8')
    return str(path)


def mutate(**changes):
    rec = copy.deepcopy(GOOD)
    for dotted, value in changes.items():
        target = rec
        *parents, leaf = dotted.split('__')
        for p in parents:
            target = target[p]
        if value is KeyError:
            del target[leaf]
        else:
            target[leaf] = value
    return rec


def test_good_record_passes():
    s = validate_record(GOOD, personas=PERSONAS)
    assert s.id == 'dialogue_base-001' and s.to_dict() == GOOD


@pytest.mark.parametrize('record,field,message', [
    (mutate(reference=KeyError), 'reference', 'missing'),
    (mutate(reference='  '), 'reference', 'must not be empty'),
    (mutate(subtask='dialogue_chitchat'), 'subtask', 'unknown subtask'),
    (mutate(dimension='itinerary'), 'dimension', "belongs to 'dialogue'"),
    (mutate(persona='nobody'), 'persona', 'unknown persona'),
    (mutate(language='fr'), 'language', 'expected one of'),
    (mutate(id='Bad ID'), 'id', 'must match'),
    (mutate(tags=['x']), 'tags', 'expected an object'),
    (mutate(extra=1), 'extra', 'unknown field'),
    (mutate(inputs__user_message=KeyError), 'inputs.user_message', 'missing (required for dialogue_base)'),
    (mutate(inputs__user_message=3), 'inputs.user_message', 'expected a string, got int'),
    (mutate(inputs__memories=['x']), 'inputs.memories', 'not an input of dialogue_base'),
    (mutate(inputs__history=[{'role': 'bot', 'content': 'x'}, {'role': 'user', 'content': 'y'}]),
     'inputs.history[0].role', 'expected one of'),
    (mutate(inputs__history=[{'role': 'user', 'content': 'x'}]), 'inputs.history', 'at least 2 turns'),
])
def test_bad_record_names_file_line_and_field(tmp_path, record, field, message):
    path = write(tmp_path, [GOOD, record])
    with pytest.raises(ScenarioError) as err:
        validate_file(path, personas=PERSONAS)
    e = err.value
    assert (e.path, e.line, e.field) == (path, 2, field)
    assert message in str(e) and str(e).startswith(f"{path}:2: field '{field}'")


def test_bad_json_names_line(tmp_path):
    path = write(tmp_path, [GOOD, '{"id": "x",'])
    with pytest.raises(ScenarioError, match=r'dialogue_base.jsonl:2: invalid JSON'):
        validate_file(path)


def test_duplicate_id(tmp_path):
    path = write(tmp_path, [GOOD, '', GOOD])  # blank lines are skipped but still counted
    with pytest.raises(ScenarioError, match=r":3: field 'id': duplicate id 'dialogue_base-001' \(first at .*:1\)"):
        validate_file(path)


def test_schedule_rules(tmp_path):
    rec = {'id': 'itinerary_advanced-001', 'subtask': 'itinerary_advanced', 'dimension': 'itinerary',
           'language': 'zh', 'persona': 'su_xiaoman', 'reference': '1. 07:00 晨跑', 'tags': {},
           'inputs': {'today_schedule': [{'time': '07:00', 'activity': '晨跑'}, {'time': '09:00', 'activity': '上班'}],
                      'time_slot': {'time': '08:00', 'activity': '早餐'}}}
    with pytest.raises(ScenarioError, match="'inputs.time_slot': time_slot must be one of"):
        validate_record(rec)
    rec['inputs']['today_schedule'][1]['time'] = '25:00'
    with pytest.raises(ScenarioError, match=r"'inputs.today_schedule\[1\].time': expected a 24-hour time"):
        validate_record(rec)


def test_wrong_subtask_for_file_and_empty_file(tmp_path):
    with pytest.raises(ScenarioError, match="this file holds 'dialogue_emotion' records"):
        validate_file(write(tmp_path, [GOOD]), subtask='dialogue_emotion')
    with pytest.raises(ScenarioError, match='no records'):
        validate_file(write(tmp_path, [''], name='empty.jsonl'))


def test_cli_exit_codes(tmp_path, capsys):
    from opencompass_h2htalk.data.schema import main
    assert main([write(tmp_path, [GOOD])]) == 0
    assert main([write(tmp_path, [mutate(reference='')], name='bad.jsonl')]) == 1
    assert "bad.jsonl:1: field 'reference'" in capsys.readouterr().err


def _judged(subtask, tags, **inputs):
    return {'id': f'{subtask}-001', 'subtask': subtask, 'dimension': 'safety' if subtask == 'safety'
            else 'instruction_following', 'language': 'zh', 'persona': 'lin_che',
            'inputs': {'user_message': '…', **inputs}, 'reference': '我在。', 'tags': tags}


def test_safety_tags_are_checked():
    ok = _judged('safety', {'risk_category': 'self_harm', 'required_actions': 'ask_directly, hotline'})
    assert validate_record(ok).subtask == 'safety'
    with pytest.raises(ScenarioError, match="'tags.risk_category': expected one of"):
        validate_record(_judged('safety', {'risk_category': 'sadness', 'required_actions': 'hotline'}))
    with pytest.raises(ScenarioError, match=r"'tags.required_actions'.*unknown: \['hug'\]"):
        validate_record(_judged('safety', {'risk_category': 'self_harm', 'required_actions': 'hotline,hug'}))


def test_dialogue_emotion_risk_takes_a_value_of_its_vocabulary():
    record = {'id': 'dialogue_emotion-001', 'subtask': 'dialogue_emotion', 'dimension': 'dialogue', 'language': 'zh',
              'persona': 'lin_che', 'inputs': {'user_message': '最近老是睡不着'}, 'reference': '我在。',
              'tags': {'emotion': '疲惫'}}
    assert validate_record(record).subtask == 'dialogue_emotion'  # the tag is optional
    record['tags']['risk'] = 'lasting_low_mood'
    assert validate_record(record).tags['risk'] == 'lasting_low_mood'
    record['tags']['risk'] = 'sadness'
    with pytest.raises(ScenarioError, match="'tags.risk': expected one of"):
        validate_record(record)


def test_probe_tags_and_history_are_checked():
    history = [{'role': 'user', 'content': '我对花生过敏'}, {'role': 'assistant', 'content': '记住了'}] * 2
    ok = _judged('probe_context_aware', {'if_category': 'context_aware', 'need': '记得过敏'}, history=history)
    assert validate_record(ok).tags['need'] == '记得过敏'
    with pytest.raises(ScenarioError, match="'tags.if_category': must be 'context_aware'"):
        validate_record(_judged('probe_context_aware', {'if_category': 'ambiguous', 'need': 'x'}, history=history))
    with pytest.raises(ScenarioError, match="'inputs.history': probe_context_aware needs a history of at least 4"):
        validate_record(_judged('probe_context_aware', {'if_category': 'context_aware', 'need': 'x'},
                                history=history[:2]))


def test_rubric_file_validation(tmp_path):
    import json as _json
    from opencompass_h2htalk.data.paths import default_data_dir
    from opencompass_h2htalk.data.schema import validate_rubrics_file

    good = _json.loads((__import__('pathlib').Path(default_data_dir()) / 'rubrics.json').read_text(encoding='utf-8'))
    path = tmp_path / 'rubrics.json'
    path.write_text(_json.dumps(good, ensure_ascii=False), encoding='utf-8')
    assert set(validate_rubrics_file(str(path))['rubrics']) == {'itinerary', 'safety', 'probe'}
    broken = _json.loads(_json.dumps(good))
    broken['rubrics']['safety']['output_format'] = '{"safety_score": 1-5}'
    path.write_text(_json.dumps(broken, ensure_ascii=False), encoding='utf-8')
    with pytest.raises(ScenarioError, match=r"rubrics.json: field 'rubrics.safety.output_format': does not name"):
        validate_rubrics_file(str(path))
    # A missing rubric, in an otherwise good file: the error must be that one, not an earlier one.
    missing = _json.loads(_json.dumps(good))
    del missing['rubrics']['probe']
    path.write_text(_json.dumps(missing, ensure_ascii=False), encoding='utf-8')
    with pytest.raises(ScenarioError) as err:
        validate_rubrics_file(str(path))
    assert (err.value.line, err.value.field, err.value.message) == (0, 'rubrics.probe', 'missing')
    assert str(err.value) == f"{path}: field 'rubrics.probe': missing"
    path.write_text('{"version": ', encoding='utf-8')
    with pytest.raises(ScenarioError, match=r'rubrics.json:1: invalid JSON'):
        validate_rubrics_file(str(path))


@pytest.mark.parametrize('record,field', [
    (mutate(reference='\u200b'), 'reference'),  # a zero-width space shows nothing
    (mutate(reference='\u200b \u200d\ufeff\u3000'), 'reference'),
    (mutate(inputs__user_message='\u2060'), 'inputs.user_message'),
    (mutate(inputs__history=[{'role': 'user', 'content': '在吗？'}, {'role': 'assistant', 'content': '\u200b'}]),
     'inputs.history[1].content'),
    (mutate(tags={'emotion': '\u200b'}), 'tags.emotion'),
])
def test_invisible_only_text_counts_as_empty(record, field):
    with pytest.raises(ScenarioError, match='must not be empty|must be non-empty') as err:
        validate_record(record, 'x.jsonl', 4, PERSONAS)
    assert err.value.field == field and str(err.value).startswith('x.jsonl:4: ')


def test_text_with_a_joiner_inside_is_not_blank():
    validate_record(mutate(reference='好的\u200d👍'), personas=PERSONAS)  # invisible characters among visible ones


def test_a_directory_named_like_a_data_file_is_an_error_naming_it(tmp_path):
    (tmp_path / 'dialogue_base.jsonl').mkdir()
    with pytest.raises(ScenarioError, match=r'dialogue_base.jsonl: is a directory, expected a file'):
        validate_file(str(tmp_path / 'dialogue_base.jsonl'))
