"""personas.json is checked: errors name the file, the line (bad JSON) or the persona index and field."""
import json
import shutil

import pytest

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.personas import load_personas
from opencompass_h2htalk.data.schema import ScenarioError

GOOD = {'id': 'he_yu', 'name': '何雨', 'gender': 'female', 'age': 31, 'language': 'zh',
        'description': '你是何雨，31岁，在社区图书馆做管理员。'}


def write(tmp_path, obj):
    path = tmp_path / 'personas.json'
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, indent=2), encoding='utf-8')
    return str(path)


def test_bundled_personas_load():
    personas = load_personas()
    assert {'lin_che', 'su_xiaoman'} <= set(personas)
    assert all(isinstance(p.age, int) and p.description.strip() for p in personas.values())


def test_invalid_json_names_file_and_line(tmp_path):
    path = write(tmp_path, '{\n  "personas": [\n    {"id": "he_yu",}\n  ]\n}\n')
    with pytest.raises(ScenarioError) as err:
        load_personas(str(tmp_path))
    assert str(err.value).startswith(f'{path}:3: invalid JSON')


def test_not_utf8_names_file(tmp_path):
    (tmp_path / 'personas.json').write_bytes(json.dumps({'personas': [GOOD]}, ensure_ascii=False).encode('gb18030'))
    with pytest.raises(ScenarioError, match=r'personas.json: not valid UTF-8'):
        load_personas(str(tmp_path))


@pytest.mark.parametrize('change,field,message', [
    ({'age': '31'}, 'personas[1].age', "expected an integer, got str (persona 'he_yu')"),
    ({'age': True}, 'personas[1].age', 'expected an integer, got bool'),
    ({'age': 0}, 'personas[1].age', 'must be positive'),
    ({'description': 5}, 'personas[1].description', 'expected a string, got int'),
    ({'description': '  '}, 'personas[1].description', 'must not be empty'),
    ({'name': None}, 'personas[1].name', 'expected a string, got NoneType'),
    ({'language': 'fr'}, 'personas[1].language', "expected one of ['zh', 'en'], got 'fr'"),
    ({'id': 'lin_che'}, 'personas[1].id', "duplicate persona id 'lin_che'"),
    ({'hobby': '读书'}, 'personas[1].hobby', 'unknown field'),
    ({'gender': KeyError}, 'personas[1].gender', 'missing'),
])
def test_wrong_entries_name_index_and_field(tmp_path, change, field, message):
    bad = {**GOOD, **change}
    bad = {k: v for k, v in bad.items() if v is not KeyError}
    path = write(tmp_path, {'personas': [{**GOOD, 'id': 'lin_che'}, bad]})
    with pytest.raises(ScenarioError) as err:
        load_personas(str(tmp_path))
    assert (err.value.path, err.value.field) == (path, field)
    assert str(err.value).startswith(f"{path}: field '{field}': ") and message in str(err.value)


@pytest.mark.parametrize('obj,field,message', [
    ([GOOD], '', 'expected a JSON object'),
    ({'persona': [GOOD]}, 'personas', 'missing'),
    ({'personas': {'he_yu': GOOD}}, 'personas', 'expected a list, got dict'),
    ({'personas': []}, 'personas', 'no personas defined'),
    ({'personas': ['he_yu']}, 'personas[0]', 'expected an object, got str'),
])
def test_wrong_file_shape(tmp_path, obj, field, message):
    write(tmp_path, obj)
    with pytest.raises(ScenarioError) as err:
        load_personas(str(tmp_path))
    assert err.value.field == field and message in str(err.value)


def test_cli_reports_broken_personas_with_the_file_and_no_traceback(tmp_path, capsys):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    personas = data / 'personas.json'
    raw = json.loads(personas.read_text(encoding='utf-8'))
    raw['personas'][1]['age'] = '26岁'
    personas.write_text(json.dumps(raw, ensure_ascii=False, indent=2), encoding='utf-8')
    for verb in ('validate', 'manifest'):
        assert main([verb, str(data)]) == 1
        err = capsys.readouterr().err
        assert f"{personas}: field 'personas[1].age': expected an integer, got str" in err, (verb, err)
    personas.write_text('{"personas": [\n', encoding='utf-8')
    assert main(['manifest', str(data)]) == 1
    assert f'{personas}:2: invalid JSON' in capsys.readouterr().err


def test_schema_command_reports_broken_personas(tmp_path, monkeypatch, capsys):
    from opencompass_h2htalk.data.schema import main as schema_main
    write(tmp_path, {'personas': [{**GOOD, 'age': 'thirty'}]})
    monkeypatch.setenv('H2HTALK_DATA', str(tmp_path))
    assert schema_main([str(tmp_path / 'x.jsonl')]) == 1
    assert f"{tmp_path / 'personas.json'}: field 'personas[0].age'" in capsys.readouterr().err
