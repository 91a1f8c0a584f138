"""SAP text and the pure injection rules."""
import pytest

from opencompass_h2htalk.sap import SEPARATOR, detect_sap, fold_system_into_user, inject, load_sap

SAP = load_sap('v1', 'zh')


@pytest.mark.parametrize('language,header', [('zh', '【安全依恋陪伴准则 SAP v1】'),
                                             ('en', '[Secure Attachment Persona guidelines, SAP v1]')])
def test_both_languages_ship_with_a_versioned_header(language, header):
    sap = load_sap('v1', language)
    assert sap.text.startswith(header + '\n') and len(sap.text) > 500
    assert sap.tag == f'sap_v1-{language}' and len(sap.sha256) == 64
    assert detect_sap(sap.text) == ['v1']


def test_sap_text_covers_the_principles():
    zh, en = load_sap('v1', 'zh').text, load_sap('v1', 'en').text
    for needle in ('12356', '120'):  # locale-appropriate crisis resources
        assert needle in zh and needle in en
    for name in ('Bowlby', 'Gottman', 'Gross', 'Fisher'):
        assert name.lower() in en.lower() or name in zh, name


def test_unknown_version_or_language():
    with pytest.raises(ValueError, match='unknown SAP version'):
        load_sap('v9')
    with pytest.raises(ValueError, match='unknown SAP language'):
        load_sap('v1', 'fr')


def test_string_prompt_gets_a_system_turn():
    assert inject('你好', SAP.text) == [{'role': 'SYSTEM', 'prompt': SAP.text}, {'role': 'HUMAN', 'prompt': '你好'}]


def test_merged_with_existing_system_turn_exactly_once():
    prompt = [{'role': 'SYSTEM', 'prompt': '数据集的系统指令'}, {'role': 'HUMAN', 'prompt': '问题'}]
    out = inject(prompt, SAP.text)
    assert out == [{'role': 'SYSTEM', 'prompt': SAP.text + SEPARATOR + '数据集的系统指令'},
                   {'role': 'HUMAN', 'prompt': '问题'}]
    assert prompt[0]['prompt'] == '数据集的系统指令'  # input untouched
    assert inject(out, SAP.text) == out and detect_sap(out) == ['v1']  # no double injection


def test_inserted_when_there_is_no_system_turn():
    out = inject([{'role': 'HUMAN', 'prompt': 'q'}, {'role': 'BOT', 'prompt': 'a'}, {'role': 'HUMAN', 'prompt': 'q2'}],
                 SAP.text)
    assert [m['role'] for m in out] == ['SYSTEM', 'HUMAN', 'BOT', 'HUMAN'] and out[0]['prompt'] == SAP.text


def test_chatml_messages():
    msgs = [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U'}]
    assert inject(msgs, SAP.text) == [{'role': 'system', 'content': SAP.text + SEPARATOR + 'S'},
                                      {'role': 'user', 'content': 'U'}]
    assert inject([{'role': 'user', 'content': 'U'}], SAP.text)[0] == {'role': 'system', 'content': SAP.text}


def test_fold_system_into_user_for_templates_without_a_system_role():
    prompt = inject([{'role': 'SYSTEM', 'prompt': 'S'}, {'role': 'HUMAN', 'prompt': 'U'}], SAP.text)
    assert fold_system_into_user(prompt) == [{'role': 'HUMAN', 'prompt': SAP.text + SEPARATOR + 'S' + SEPARATOR + 'U'}]
    assert fold_system_into_user('plain') == 'plain'
