"""What a chat-template model (HF / vLLM wrappers) really receives for an H2HTalk prompt."""
from mmengine.config import Config
from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages, _get_meta_template
from opencompass.openicl.icl_prompt_template import PromptTemplate

from opencompass_h2htalk.data.loader import load_rows

from ..conftest import REPO

CHAT_META = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
                 reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')])


def _messages(meta_template, subtask='recollection_refine'):
    """The messages a chat-template model gets for the first scenario of ``subtask``, through its shipped config."""
    cfg = Config.fromfile(str(REPO / f'configs/datasets/h2htalk/h2htalk_{subtask}_gen.py'))
    dataset = cfg[f'h2htalk_{subtask}_datasets'][0]
    spec = dict(dataset['infer_cfg']['prompt_template'])
    kind = spec.pop('type')
    template = kind(**spec) if kind is not PromptTemplate else PromptTemplate(spec['template'])
    row = load_rows(subtask, history_format=dataset.get('history_format', 'block'))[0]
    prompt = template.generate_item({k: row[k] for k in dataset['reader_cfg']['input_columns']})
    parsed = _get_meta_template(meta_template).parse_template(prompt, mode='gen')
    return _convert_chat_messages([parsed])[0], row


def test_system_turn_reaches_the_chat_template_with_the_model_meta_template():
    messages, row = _messages(CHAT_META)
    assert [m['role'] for m in messages] == ['system', 'user']
    assert messages[0]['content'] == row['system_prompt'] and messages[1]['content'] == row['user_prompt']


def test_a_conversation_reaches_the_chat_template_as_its_turns():
    """The shipped dialogue_base config (history as chat turns): system, then the turns, the latest message last."""
    import json
    messages, row = _messages(CHAT_META, 'dialogue_base')
    expected = json.loads(row['messages'])
    role = {'SYSTEM': 'system', 'HUMAN': 'user', 'BOT': 'assistant'}
    assert [m['role'] for m in messages] == [role[m['role']] for m in expected]
    assert [m['content'] for m in messages] == [m['prompt'] for m in expected]
    assert messages[0]['role'] == 'system' and messages[-1]['role'] == 'user' and 'assistant' in {
        m['role'] for m in messages}


def test_without_meta_template_opencompass_folds_system_into_user():
    # Why every model config in configs/models/ sets reserved_roles: the default merges them.
    messages, row = _messages(None)
    assert [m['role'] for m in messages] == ['user']
    assert messages[0]['content'].startswith(row['system_prompt'])
