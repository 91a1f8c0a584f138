"""A record's language picks the prompt language; the prompt hash covers it."""
import json
import re
import shutil

import pytest

from opencompass_h2htalk.data.loader import data_fingerprint, load_rows, load_subtask
from opencompass_h2htalk.data.paths import default_data_dir
from opencompass_h2htalk.data.personas import load_personas
from opencompass_h2htalk.data.prompts import (INSTRUCTIONS_EN, INSTRUCTIONS_ZH, prompt_hash, system_prompt,
                                              user_prompt)
from opencompass_h2htalk.data.schema import LANGUAGES, SUBTASKS

CJK = re.compile(r'[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]')


def test_every_subtask_has_an_instruction_in_every_language():
    assert set(INSTRUCTIONS_ZH) == set(INSTRUCTIONS_EN) == set(SUBTASKS)
    assert LANGUAGES == ('zh', 'en')


@pytest.mark.parametrize('subtask', list(SUBTASKS))
def test_english_prompts_are_english_and_keep_the_persona_as_written(subtask):
    persona = load_personas()['lin_che']
    scenario = load_subtask(subtask)[0]
    system = system_prompt(persona, subtask, 'en')
    assert system.startswith('[Persona]\n' + persona.description + '\n\n[Task] ')
    rest = system[len('[Persona]\n' + persona.description):]
    assert 'Always answer in English' in rest and not CJK.search(rest), rest
    human = user_prompt(subtask, scenario.inputs, 'en')
    # Labels and the closing line are English; only the scenario's own (Chinese) content is not.
    labels = re.findall(r'^\[([^\]]+)\]$', human, flags=re.M)
    assert labels and not any(CJK.search(label) for label in labels), labels
    assert not CJK.search(human.rsplit('\n\n', 1)[-1]) and '【' not in human
    assert system_prompt(persona, subtask, 'zh') == system_prompt(persona, subtask)  # zh stays the default
    assert '请始终使用简体中文' in system_prompt(persona, subtask, 'zh')


def test_history_speakers_follow_the_language():
    inputs = {'history': [{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': 'hello'}],
              'user_message': 'I am tired.'}
    assert 'User: hi\nYou: hello' in user_prompt('dialogue_base', inputs, 'en')
    assert '用户：hi\n你：hello' in user_prompt('dialogue_base', inputs, 'zh')


def test_unknown_language_is_an_error():
    with pytest.raises(ValueError, match="no prompt texts for language 'fr'"):
        system_prompt(load_personas()['lin_che'], 'dialogue_base', 'fr')


def test_prompt_hash_covers_the_language():
    zh, en, both = prompt_hash(['zh']), prompt_hash(['en']), prompt_hash(['en', 'zh'])
    assert len({zh, en, both}) == 3 and prompt_hash() == zh and prompt_hash(['zh', 'en']) == both


def test_an_english_record_gets_english_prompts_end_to_end(tmp_path):
    data = tmp_path / 'data'
    shutil.copytree(default_data_dir(), data)
    path = data / 'dialogue_emotion.jsonl'
    lines = path.read_text(encoding='utf-8').splitlines()
    rec = json.loads(lines[2])
    rec.update(language='en', reference='(sits down beside you) That sounds exhausting. I am here.')
    rec['inputs']['user_message'] = 'I failed my exam again and I feel useless.'
    lines[2] = json.dumps(rec, ensure_ascii=False)
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    rows = load_rows('dialogue_emotion', str(data), verify=False)
    assert rows[2]['language'] == 'en'
    assert 'Always answer in English' in rows[2]['system_prompt'] and '简体中文' not in rows[2]['system_prompt']
    assert rows[2]['user_prompt'].startswith("[The user's latest message]\nI failed my exam")
    assert '请始终使用简体中文' in rows[1]['system_prompt'] and rows[1]['language'] == 'zh'
    fp = data_fingerprint('dialogue_emotion', str(data))
    assert fp['prompt_hash'] == prompt_hash(['en', 'zh']) != data_fingerprint('dialogue_base', str(data))['prompt_hash']


def test_the_retrieval_baseline_recognises_english_prompts():
    from opencompass_h2htalk.baselines.retrieval import RetrievalBaseline
    persona = load_personas()['su_xiaoman']
    for subtask in SUBTASKS:
        assert RetrievalBaseline.subtask_of(system_prompt(persona, subtask, 'en')) == subtask
