"""What a chat-template model (HF / vLLM wrappers) really receives for an H2HTalk prompt."""
from mmengine.config import Config
from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages, _get_meta_template
from opencompass.openicl.icl_prompt_template import PromptTemplate

from opencompass_h2htalk.data.loader import load_rows

from ..conftest import REPO

CHAT_META = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
                 reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')])


def _messages(meta_template):
    cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_dialogue_base_gen.py'))
    template = PromptTemplate(cfg.h2htalk_dialogue_base_datasets[0]['infer_cfg']['prompt_template']['template'])
    row = load_rows('dialogue_base')[0]
    prompt = template.generate_item({'system_prompt': row['system_prompt'], 'user_prompt': row['user_prompt']})
    parsed = _get_meta_template(meta_template).parse_template(prompt, mode='gen')
    return _convert_chat_messages([parsed])[0], row


def test_system_turn_reaches_the_chat_template_with_the_model_meta_template():
    messages, row = _messages(CHAT_META)
    assert [m['role'] for m in messages] == ['system', 'user']
    assert messages[0]['content'] == row['system_prompt'] and messages[1]['content'] == row['user_prompt']


def test_without_meta_template_opencompass_folds_system_into_user():
    # Why every model config in configs/models/ sets reserved_roles: the default merges them.
    messages, row = _messages(None)
    assert [m['role'] for m in messages] == ['user']
    assert messages[0]['content'].startswith(row['system_prompt'])
