"""The sampling frame: a seeded, reproducible roster and closed vocabularies, shipped as data."""
import json
import os

import pytest

from opencompass_h2htalk.data import frame as fr
from opencompass_h2htalk.data.paths import default_data_dir

AUDIT_KEYS = ('emotion', 'topic', 'relationship', 'life_situation')


def test_roster_is_deterministic_and_seed_dependent():
    assert fr.build_roster(seed=7, size=50) == fr.build_roster(seed=7, size=50)
    assert fr.build_roster(seed=7, size=50) != fr.build_roster(seed=8, size=50)


def test_roster_has_500_plus_unique_users_with_fields_from_the_frame():
    frame = fr.build_frame()
    users = frame['users']
    assert len(users) >= 500
    assert len({u['name'] for u in users}) == len(users)
    assert len({u['call'] for u in users}) == len(users)  # the user-name quota counts the form of address
    fields = frame['roster_fields']
    for u in users:
        assert set(u) == {'name', 'call', 'age_band', 'gender', 'occupation', 'city_tier', 'life_stage'}
        assert u['age_band'] in fields['age_band'] and u['gender'] in ('female', 'male')
        assert u['city_tier'] in fields['city_tier']
        # occupation and life stage are drawn from the lists of the user's own age band
        assert u['occupation'] in fields['occupation'][u['age_band']], u
        assert u['life_stage'] in fields['life_stage'][u['age_band']], u
        assert 2 <= len(u['name']) <= 3 and 2 <= len(u['call']) <= 3
        wrong_gender = {'全职妈妈': 'male', '全职爸爸': 'female', '家政阿姨': 'male'}.get(u['occupation'])
        assert u['gender'] != wrong_gender, u
        if u['occupation'].startswith('全职'):
            assert '孩' in u['life_stage'] or '二胎' in u['life_stage'], u
    assert {u['age_band'] for u in users} == set(fields['age_band'])  # every band is present
    assert '退休教师' not in fields['occupation']['18-24'] and '大学生' not in fields['occupation']['65+']


def test_literal_start_of_the_roster():
    # Pins the generator: a change of name parts, weights or seed must show up here and in frame.json.
    first = fr.build_roster()[0]
    assert first == {'name': '袁宇航', 'call': '宇航', 'age_band': '18-24', 'gender': 'male',
                     'occupation': '游戏测试', 'city_tier': first['city_tier'], 'life_stage': '恋爱中'}


def test_vocabularies_are_closed_unique_lists_in_the_audit_format():
    frame = fr.build_frame()
    for key in AUDIT_KEYS + ('time_of_day', 'tone'):
        values = frame['vocab'][key]
        assert values and len(values) == len(set(values)), key
    assert len(frame['vocab']['emotion']) >= 20 and len(frame['vocab']['topic']) >= 12
    assert '职场' not in frame['vocab']['topic']  # one spelling per topic: 工作, not 职场/职场人际
    assert frame['motifs'][:2] == ['海堤', '年糕'] and len(set(frame['motifs'])) == len(frame['motifs'])
    q = frame['quotas']
    assert q['max_user_name_share'] == 0.01 and q['max_motif_share'] == 0.02 and q['min_cell'] >= 1


def test_bundled_frame_is_the_generator_output():
    path = os.path.join(default_data_dir(), fr.FRAME_NAME)
    with open(path, encoding='utf-8') as f:
        assert f.read() == fr.render(fr.build_frame())
    assert fr.load_frame()['users'][0]['name'] == '袁宇航'


def test_check_flags_an_edited_frame(tmp_path, capsys):
    (tmp_path / fr.FRAME_NAME).write_text(fr.render(fr.build_frame()), encoding='utf-8')
    assert fr.main(['--check', '--data-dir', str(tmp_path)]) == 0
    text = (tmp_path / fr.FRAME_NAME).read_text(encoding='utf-8').replace('袁宇航', '袁宇杭', 1)
    (tmp_path / fr.FRAME_NAME).write_text(text, encoding='utf-8')
    assert fr.main(['--check', '--data-dir', str(tmp_path)]) == 1
    assert 'differs from the generator' in capsys.readouterr().err
    (tmp_path / fr.FRAME_NAME).unlink()
    assert fr.main(['--check', '--data-dir', str(tmp_path)]) == 1


def test_bad_frame_json_names_file_and_line(tmp_path):
    (tmp_path / fr.FRAME_NAME).write_text('{\n  "version": "0.2.0",\n  oops\n}\n', encoding='utf-8')
    with pytest.raises(ValueError, match=r'frame.json:3: invalid JSON'):
        fr.load_frame(str(tmp_path))


def test_frame_is_pinned_in_the_manifest():
    with open(os.path.join(default_data_dir(), 'MANIFEST.json'), encoding='utf-8') as f:
        entry = json.load(f)['files'][fr.FRAME_NAME]
    assert entry['records'] == len(fr.build_frame()['users'])
