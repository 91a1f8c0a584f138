"""Exact messages each SAP wrapper sends: SAP exactly once, merged with the dataset system turn,
absent for the twin. The vLLM path is exercised without vllm (fake engine and tokenizer)."""
import json
import types

import pytest
from mmengine.config import Config
from opencompass.models import vllm_with_tf_above_v4_33 as oc_vllm
from opencompass.openicl.icl_prompt_template import PromptTemplate

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate, SAPOpenAISDK, SAPVLLMwithChatTemplate
from opencompass_h2htalk.models.sap import SYSTEM_META_TEMPLATE
from opencompass_h2htalk.sap import SEPARATOR, load_sap

from ..conftest import REPO
from ..servers import RecordingChatServer
from ..tiny_model import build_tiny_chat_model, record_chat_templates

SAP = load_sap('v1', 'zh')
ROW = load_rows('dialogue_emotion')[0]


def dataset_prompt():
    """The PromptList GenInferencer hands to the model for one H2HTalk row in the block rendering (SYSTEM + one
    HUMAN turn, configs/datasets/h2htalk/h2htalk_block_gen.py); the chat turns the shipped configs send reach the
    wrappers through the same code (tests/pipeline/test_chat_history_api.py, test_hf_tiny_model.py)."""
    cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_common.py'))
    template = PromptTemplate(cfg.h2htalk_prompt_template['template'])
    return template.generate_item({'system_prompt': ROW['system_prompt'], 'user_prompt': ROW['user_prompt']})


def expected(sap_on, system=ROW['system_prompt'], user=ROW['user_prompt']):
    sys_text = SAP.text + SEPARATOR + system if sap_on else system
    return [{'role': 'system', 'content': sys_text}, {'role': 'user', 'content': user}]


# ----------------------------------------------------------------------------- HF
@pytest.fixture(scope='module')
def tiny_dir(tmp_path_factory):
    return build_tiny_chat_model(str(tmp_path_factory.mktemp('tiny')))


@pytest.mark.parametrize('sap', ['v1', None])
def test_hf_wrapper_sends_sap_once_in_the_system_message(tiny_dir, sap, monkeypatch):
    model = SAPHuggingFacewithChatTemplate(path=tiny_dir, sap=sap, model_kwargs=dict(device_map='cpu'),
                                           max_seq_len=4096)
    sent = record_chat_templates(model, monkeypatch)
    # generate_from_template is what GenInferencer calls, with a batch of prompts as a tuple.
    out = model.generate_from_template((dataset_prompt(), dataset_prompt()), max_out_len=4)
    assert len(out) == 2 and all(isinstance(o, str) for o in out)
    assert sent == [expected(sap is not None)] * 2
    assert model.sap_info['sap'] == ('sap_v1-zh' if sap else None)


def test_hf_wrapper_plain_string_prompt_gets_sap_system_turn(tiny_dir):
    model = SAPHuggingFacewithChatTemplate(path=tiny_dir, sap='v1', model_kwargs=dict(device_map='cpu'))
    parsed = model.parse_template('你好呀', mode='gen')
    assert [(t['role'], t['prompt']) for t in parsed] == [('SYSTEM', SAP.text), ('HUMAN', '你好呀')]


def test_bad_sap_option_fails_before_loading_weights():
    with pytest.raises(ValueError, match='unknown SAP version'):
        SAPHuggingFacewithChatTemplate(path='/no/such/model', sap='v7')


# ----------------------------------------------------------------------------- vLLM
def test_vllm_wrapper_without_vllm_fails_clearly_at_construction():
    if oc_vllm.LLM is not None:
        pytest.skip('vllm is installed here')
    with pytest.raises(ImportError, match=r"needs vllm.*vLLM environment \(docs/real_models.md\)"):
        SAPVLLMwithChatTemplate(path='Qwen/Qwen2.5-7B-Instruct', sap='v1')


@pytest.mark.parametrize('sap,fold', [('v1', False), (None, False), ('v1', True)])
def test_vllm_wrapper_messages(sap, fold, monkeypatch):
    """Runs VLLMwithChatTemplate.generate with a fake engine and records the chat-template input."""
    sent = []

    class FakeTokenizer:
        def apply_chat_template(self, messages, add_generation_prompt, tokenize, **kwargs):
            sent.append(messages)
            return 'RENDERED'

        def encode(self, text, add_special_tokens=False):
            return [1, 2, 3]

    class FakeLLM:
        def generate(self, prompts, params):
            return [types.SimpleNamespace(prompt=p['prompt'], outputs=[types.SimpleNamespace(text='好的')])
                    for p in prompts]

    monkeypatch.setattr(oc_vllm, 'SamplingParams', lambda **kw: kw)
    model = SAPVLLMwithChatTemplate.__new__(SAPVLLMwithChatTemplate)
    model._setup_sap(sap, 'zh', fold)
    model.template_parser = oc_vllm._get_meta_template(SYSTEM_META_TEMPLATE)
    model.tokenizer, model.model, model.logger = FakeTokenizer(), FakeLLM(), types.SimpleNamespace(info=lambda *a: None)
    model.fastchat_template, model.chat_template_kwargs, model.lora_path = None, {}, None
    model.stop_words, model.generation_kwargs = [], {}

    assert model.generate_from_template((dataset_prompt(),), max_out_len=8) == ['好的']
    if fold:  # system text moved into the user turn for templates without a system role
        assert sent == [[{'role': 'user', 'content': SAP.text + SEPARATOR + ROW['system_prompt'] + SEPARATOR
                          + ROW['user_prompt']}]]
    else:
        assert sent == [expected(sap is not None)]


# ----------------------------------------------------------------------------- OpenAI-compatible API
@pytest.mark.parametrize('sap', ['v1', None])
def test_openai_wrapper_request_body(tiny_dir, sap, monkeypatch):
    monkeypatch.setenv('H2HTALK_TEST_KEY', 'sk-local-test')
    with RecordingChatServer(lambda req: '我在这里陪着你。') as server:
        model = SAPOpenAISDK(path='local-model', sap=sap, key='ENV:H2HTALK_TEST_KEY', openai_api_base=server.base_url,
                             tokenizer_path=tiny_dir, retry=1, temperature=0.0)
        out = model.generate_from_template((dataset_prompt(), '你好'), max_out_len=32)
    assert out == ['我在这里陪着你。'] * 2
    plain = [{'role': 'system', 'content': SAP.text}] if sap else []
    want = [expected(sap is not None), plain + [{'role': 'user', 'content': '你好'}]]
    # The two requests run in a thread pool: compare without order.
    key = lambda msgs: json.dumps(msgs, ensure_ascii=False, sort_keys=True)  # noqa: E731
    assert sorted(map(key, (r['messages'] for r in server.requests))) == sorted(map(key, want))


def test_openai_wrapper_missing_key_variable(monkeypatch):
    monkeypatch.delenv('H2HTALK_NO_SUCH_KEY', raising=False)
    with pytest.raises(ValueError, match=r'\$H2HTALK_NO_SUCH_KEY is not set'):
        SAPOpenAISDK(path='m', key='ENV:H2HTALK_NO_SUCH_KEY')


def test_chatml_message_list_is_one_prompt_not_a_batch(tiny_dir, monkeypatch):
    """RawPromptTemplate datasets hand over ChatML lists; SAP merges into their system message."""
    monkeypatch.setenv('H2HTALK_TEST_KEY', 'sk-local-test')
    with RecordingChatServer(lambda req: '好') as server:
        model = SAPOpenAISDK(path='local-model', sap='v1', key='ENV:H2HTALK_TEST_KEY', openai_api_base=server.base_url,
                             tokenizer_path=tiny_dir, retry=1)
        chat = [{'role': 'system', 'content': 'S'}, {'role': 'user', 'content': 'U'}]
        assert model.generate_from_template((chat,), max_out_len=8) == ['好']
    assert server.requests[0]['messages'] == [{'role': 'system', 'content': SAP.text + SEPARATOR + 'S'},
                                              {'role': 'user', 'content': 'U'}]


# ----------------------------------------------------------------------------- meta_template
_NO_SYSTEM = dict(round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)])
_SYSTEM_AS_USER = dict(_NO_SYSTEM, reserved_roles=[dict(role='SYSTEM', api_role='HUMAN')])


@pytest.mark.parametrize('wrapper,kwargs', [
    (SAPHuggingFacewithChatTemplate, dict(path='/no/such/model')),            # rejected before loading weights
    (SAPVLLMwithChatTemplate, dict(path='Qwen/Qwen2.5-7B-Instruct')),         # ... and before the vllm check
    (SAPOpenAISDK, dict(path='m', key='ENV:H2HTALK_NO_SUCH_KEY_VARIABLE')),   # ... and before the key lookup
])
@pytest.mark.parametrize('sap', ['v1', None])
@pytest.mark.parametrize('meta_template,reason', [(_NO_SYSTEM, 'has no SYSTEM role'),
                                                  (_SYSTEM_AS_USER, r"maps the SYSTEM role to api_role \['HUMAN'\]")])
def test_meta_template_without_a_system_role_is_rejected(wrapper, kwargs, sap, meta_template, reason):
    # Such a template would put the persona into the HUMAN turn but SAP into a system message.
    with pytest.raises(ValueError, match=f'{wrapper.__name__}: meta_template {reason}.*reserved_roles=') as err:
        wrapper(sap=sap, meta_template=meta_template, **kwargs)
    assert 'twins differ' in str(err.value) or 'not be sent as a system message' in str(err.value)


def test_meta_template_with_a_system_role_keeps_the_system_turn(tiny_dir):
    own = dict(_NO_SYSTEM, reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')])
    model = SAPHuggingFacewithChatTemplate(path=tiny_dir, sap='v1', meta_template=own,
                                           model_kwargs=dict(device_map='cpu'))
    parsed = model.parse_template(dataset_prompt(), mode='gen')
    assert [(t['role'], t['prompt']) for t in parsed] == [('SYSTEM', SAP.text + SEPARATOR + ROW['system_prompt']),
                                                          ('HUMAN', ROW['user_prompt'])]
