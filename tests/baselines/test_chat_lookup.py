"""The baselines answer chat-rendered prompts (history_format='chat') as they answer the block rendering."""
import json

import pytest

from opencompass_h2htalk.baselines.reference_points import ReferencePoint
from opencompass_h2htalk.baselines.retrieval import RetrievalBaseline
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.personas import load_personas
from opencompass_h2htalk.data.prompts import CHAT_SUBTASKS, chat_prompt

from ..conftest import REPO

MINI = str(REPO / 'tests/fixtures/h2htalk_mini')
MINI_CHAT = ('dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'itinerary_feedback')


def block(row):
    return [{'role': 'SYSTEM', 'prompt': row['system_prompt']}, {'role': 'HUMAN', 'prompt': row['user_prompt']}]


@pytest.mark.parametrize('kind', ['parrot', 'reference'])
def test_reference_points_answer_both_renderings_alike(kind):
    point = ReferencePoint(kind, MINI)
    for subtask in MINI_CHAT:
        for row in load_rows(subtask, MINI, history_format='chat'):
            chat = json.loads(row['messages'])
            chat[-1]['prompt'] += '\n'  # a chat template adding a newline does not change the scenario
            assert point.respond_messages(chat) == point.respond_messages(block(row)) == point.respond(
                row['system_prompt'], row['user_prompt'])
            if kind == 'reference':
                assert point.respond_messages(chat) == row['reference']


def test_reference_points_refuse_a_chat_prompt_that_is_not_a_scenario():
    row = load_rows('dialogue_base', MINI, history_format='chat')[0]
    chat = json.loads(row['messages'])
    chat[0]['prompt'] = '【SAP v1】\n' + chat[0]['prompt']
    with pytest.raises(KeyError, match='not a scenario of the H2HTalk data .* without SAP'):
        ReferencePoint('parrot', MINI).respond_messages(chat)


def test_retrieval_answers_a_chat_prompt_as_its_block_rendering():
    subtasks = ['dialogue_base', 'safety', 'itinerary_feedback']
    baseline = RetrievalBaseline(subtasks=subtasks)
    for subtask in subtasks:
        for row in load_rows(subtask, history_format='chat')[:15]:
            assert baseline.respond_messages(json.loads(row['messages'])) == baseline.respond(
                row['system_prompt'], row['user_prompt']), row['id']


def test_retrieval_tells_the_subtask_of_any_chat_prompt_and_answers_one_not_in_the_data():
    persona = load_personas()['su_xiaoman']
    inputs = {'history': [{'role': 'user', 'content': '在吗'}, {'role': 'assistant', 'content': '在'}],
              'user_message': '我家兔子今天不吃东西', 'user_feedback': '好香', 'current_activity': '做饭',
              'today_schedule': [{'time': '08:00', 'activity': '做饭'}]}
    for subtask in CHAT_SUBTASKS:
        for language in ('zh', 'en'):
            system = chat_prompt(persona, subtask, inputs, language)[0]['prompt']
            assert RetrievalBaseline.subtask_of(system) == subtask, (subtask, language)
    baseline = RetrievalBaseline(subtasks=['dialogue_base'])
    references = {r['reference'] for r in load_rows('dialogue_base')}
    assert baseline.respond_messages(chat_prompt(persona, 'dialogue_base', inputs)) in references
