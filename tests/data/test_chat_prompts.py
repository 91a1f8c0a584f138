"""The chat rendering (history_format='chat'): the history as real HUMAN/BOT turns, the latest message last."""
import json

import pytest

from opencompass_h2htalk.data.loader import data_fingerprint, load_rows
from opencompass_h2htalk.data.personas import Persona
from opencompass_h2htalk.data.prompts import (CHAT_INSTRUCTIONS_EN, CHAT_INSTRUCTIONS_ZH, CHAT_SUBTASKS,
                                              COMMON_RULES_EN, COMMON_RULES_ZH, INSTRUCTIONS_EN, INSTRUCTIONS_ZH,
                                              chat_instruction, chat_prompt, messages_key, prompt_hash,
                                              prompt_messages, system_prompt, user_prompt)
from opencompass_h2htalk.data.schema import INPUT_FIELDS, SUBTASKS

PERSONA = Persona(id='p', name='阿青', gender='女', age=30, language='zh', description='你是阿青，开花店。')
HEAD_ZH = '【角色设定】\n你是阿青，开花店。\n\n'


def test_dialogue_history_becomes_alternating_turns_with_the_latest_message_last():
    inputs = {'user_name': '小林',
              'history': [{'role': 'user', 'content': '在吗'}, {'role': 'assistant', 'content': '在呢'},
                          {'role': 'user', 'content': '今天好累'}, {'role': 'assistant', 'content': '怎么了？'}],
              'user_message': '加班到十点'}
    assert chat_prompt(PERSONA, 'dialogue_base', inputs) == [
        {'role': 'SYSTEM', 'prompt': HEAD_ZH + CHAT_INSTRUCTIONS_ZH['dialogue_base'] + '\n' + COMMON_RULES_ZH
         + '\n\n【用户的称呼】\n小林'},
        {'role': 'HUMAN', 'prompt': '在吗'}, {'role': 'BOT', 'prompt': '在呢'},
        {'role': 'HUMAN', 'prompt': '今天好累'}, {'role': 'BOT', 'prompt': '怎么了？'},
        {'role': 'HUMAN', 'prompt': '加班到十点'}]


def test_consecutive_turns_of_one_role_merge_and_a_trailing_user_turn_takes_the_latest_message():
    inputs = {'history': [{'role': 'user', 'content': 'a'}, {'role': 'user', 'content': 'b'},
                          {'role': 'assistant', 'content': 'c'}, {'role': 'assistant', 'content': 'd'},
                          {'role': 'user', 'content': 'e'}],
              'user_message': 'f'}
    assert [(m['role'], m['prompt']) for m in chat_prompt(PERSONA, 'safety', inputs)[1:]] == [
        ('HUMAN', 'a\nb'), ('BOT', 'c\nd'), ('HUMAN', 'e\nf')]


def test_a_history_that_starts_with_the_assistant_puts_those_turns_into_the_system_message():
    inputs = {'history': [{'role': 'assistant', 'content': '早呀'}, {'role': 'assistant', 'content': '醒了吗？'},
                          {'role': 'user', 'content': '醒了'}, {'role': 'assistant', 'content': '睡得好吗'}],
              'user_message': '不太好'}
    messages = chat_prompt(PERSONA, 'probe_ambiguous', inputs)
    assert messages[0]['prompt'].endswith('\n\n【你先前发给用户的消息】\n早呀\n醒了吗？')
    assert [(m['role'], m['prompt']) for m in messages[1:]] == [('HUMAN', '醒了'), ('BOT', '睡得好吗'),
                                                                ('HUMAN', '不太好')]
    only_assistant = {'history': [{'role': 'assistant', 'content': '早呀'}], 'user_message': '早'}
    assert [m['role'] for m in chat_prompt(PERSONA, 'safety', only_assistant)] == ['SYSTEM', 'HUMAN']


def test_without_history_the_latest_message_is_the_only_human_turn():
    assert chat_prompt(PERSONA, 'dialogue_emotion', {'user_message': '睡不着'})[1:] == [
        {'role': 'HUMAN', 'prompt': '睡不着'}]


def test_itinerary_feedback_answers_the_comment_and_keeps_the_activity_in_the_system_message():
    inputs = {'user_name': '阿博', 'current_activity': '给花材醒水', 'user_feedback': '好香啊'}
    system, human = chat_prompt(PERSONA, 'itinerary_feedback', inputs)
    assert system['prompt'].endswith('\n\n【用户的称呼】\n阿博\n\n【你此刻正在做的事】\n给花材醒水')
    assert INSTRUCTIONS_ZH['itinerary_feedback'] in system['prompt'] and '用户的评论' not in system['prompt']
    assert human == {'role': 'HUMAN', 'prompt': '好香啊'}


def test_english_chat_prompt():
    inputs = {'history': [{'role': 'user', 'content': 'hi'}, {'role': 'assistant', 'content': 'hello'}],
              'user_message': 'I am tired.', 'user_name': 'Sam'}
    system = chat_prompt(PERSONA, 'dialogue_base', inputs, 'en')[0]['prompt']
    assert system == ('[Persona]\n你是阿青，开花店。\n\n' + CHAT_INSTRUCTIONS_EN['dialogue_base'] + '\n' + COMMON_RULES_EN
                      + '\n\n[What you call the user]\nSam')


def test_chat_instructions_never_point_at_a_history_block():
    for subtask in CHAT_SUBTASKS:
        zh, en = chat_instruction(subtask, 'zh'), chat_instruction(subtask, 'en')
        assert '对话记录' not in zh and '阅读对话' not in zh, subtask
        assert 'Read the conversation' not in en, subtask
    # The block wording is kept where it never referred to the block.
    assert chat_instruction('dialogue_emotion') == INSTRUCTIONS_ZH['dialogue_emotion']
    assert chat_instruction('probe_ambiguous', 'en') == INSTRUCTIONS_EN['probe_ambiguous']
    assert '请阅读对话记录' in INSTRUCTIONS_ZH['dialogue_base']  # the block instruction itself is unchanged


def test_chat_subtasks_are_the_subtasks_with_a_history_and_a_message_to_answer():
    expected = {s for s, (required, optional) in INPUT_FIELDS.items()
                if 'history' in required + optional and {'user_message', 'user_feedback'} & set(required)}
    assert set(CHAT_SUBTASKS) == expected
    assert CHAT_SUBTASKS == ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'itinerary_feedback',
                             'safety', 'probe_implicit_help', 'probe_ambiguous', 'probe_context_aware')


def test_subtasks_without_a_conversation_and_unknown_formats_are_refused():
    with pytest.raises(ValueError, match="'recollection_synthesize' has no conversation to continue"):
        chat_prompt(PERSONA, 'recollection_synthesize', {'history': [{'role': 'user', 'content': 'x'}]})
    with pytest.raises(ValueError, match=r"history_format 'turns': choose one of \['block', 'chat'\]"):
        prompt_messages(PERSONA, 'dialogue_base', {}, history_format='turns')
    with pytest.raises(ValueError, match='inputs.user_message .* missing or empty'):
        chat_prompt(PERSONA, 'safety', {'history': []})


def test_block_messages_are_the_block_turns():
    inputs = {'user_message': '睡不着'}
    assert prompt_messages(PERSONA, 'dialogue_emotion', inputs) == [
        {'role': 'SYSTEM', 'prompt': system_prompt(PERSONA, 'dialogue_emotion')},
        {'role': 'HUMAN', 'prompt': user_prompt('dialogue_emotion', inputs)}]


def test_messages_key_merges_roles_strips_and_reads_both_shapes():
    assert messages_key([{'role': 'SYSTEM', 'prompt': ' s \n'}, {'role': 'HUMAN', 'prompt': 'a'},
                         {'role': 'HUMAN', 'prompt': 'b'}, {'role': 'BOT', 'prompt': ''}]) == (
        ('SYSTEM', 's'), ('HUMAN', 'a\nb'))
    assert messages_key([{'role': 'user', 'content': 'a'}]) == (('user', 'a'),)


def test_the_block_prompt_hash_is_the_one_recorded_before_chat_mode():
    # Literal values computed on main before chat mode existed: block results stay comparable with older ones.
    assert prompt_hash() == prompt_hash(['zh'], 'block') == '6950b9deb76b'
    assert prompt_hash(['en', 'zh']) == '55670099ed18' and prompt_hash(['en']) == '2d2678c6662a'
    chat = {prompt_hash(['zh'], 'chat'), prompt_hash(['en'], 'chat'), prompt_hash(['en', 'zh'], 'chat')}
    assert len(chat) == 3 and not chat & {'6950b9deb76b', '55670099ed18', '2d2678c6662a'}
    with pytest.raises(ValueError, match='choose one of'):
        prompt_hash(['zh'], 'Chat')


def test_loader_rows_in_chat_mode_carry_the_messages_and_keep_the_block_columns():
    block, chat = load_rows('dialogue_base'), load_rows('dialogue_base', history_format='chat')
    assert 'messages' not in block[0]
    assert [{k: v for k, v in r.items() if k != 'messages'} for r in chat] == block
    messages = json.loads(chat[0]['messages'])
    history = json.loads(chat[0]['inputs'])['history']
    assert [m['role'] for m in messages] == ['SYSTEM'] + ['HUMAN', 'BOT'] * (len(history) // 2) + ['HUMAN']
    assert messages[-1]['prompt'] == json.loads(chat[0]['inputs'])['user_message']
    assert data_fingerprint('dialogue_base')['prompt_hash'] == '6950b9deb76b'
    assert data_fingerprint('dialogue_base', history_format='chat')['prompt_hash'] == prompt_hash(['zh'], 'chat')


def test_loader_refuses_chat_mode_for_a_subtask_without_a_conversation():
    with pytest.raises(ValueError, match="subtask 'itinerary_basic' has no conversation to continue"):
        load_rows('itinerary_basic', history_format='chat')


@pytest.mark.parametrize('subtask', CHAT_SUBTASKS)
def test_every_bundled_chat_prompt_alternates_and_ends_with_the_user(subtask):
    for row in load_rows(subtask, history_format='chat'):
        roles = [m['role'] for m in json.loads(row['messages'])]
        assert roles[0] == 'SYSTEM' and roles[-1] == 'HUMAN' and 'SYSTEM' not in roles[1:], row['id']
        assert all(a != b for a, b in zip(roles[1:], roles[2:])), row['id']
        assert all(m['prompt'].strip() for m in json.loads(row['messages'])), row['id']
        assert '【对话记录】' not in row['messages'], row['id']
    assert set(SUBTASKS) >= set(CHAT_SUBTASKS)
