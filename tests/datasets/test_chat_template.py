"""H2HTalkChatPromptTemplate and the dataset's history_format: what every model wrapper receives in chat mode."""
import json
import types

import pytest
from opencompass.models import vllm_with_tf_above_v4_33 as oc_vllm
from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages, _get_meta_template
from opencompass.registry import ICL_PROMPT_TEMPLATES

from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.datasets import H2HTalkChatPromptTemplate, H2HTalkDataset
from opencompass_h2htalk.models import (H2HTalkReferencePoint, H2HTalkRetrievalBaseline, SAPHuggingFacewithChatTemplate,
                                        SAPOpenAISDK, SAPVLLMwithChatTemplate)
from opencompass_h2htalk.models.sap import SYSTEM_META_TEMPLATE
from opencompass_h2htalk.sap import SEPARATOR, detect_sap, load_sap

from ..conftest import REPO
from ..servers import RecordingChatServer
from ..tiny_model import build_tiny_chat_model, record_chat_templates

SAP = load_sap('v1', 'zh')
ROW = load_rows('dialogue_base', history_format='chat')[0]
MESSAGES = json.loads(ROW['messages'])
CHATML = [{'role': {'SYSTEM': 'system', 'HUMAN': 'user', 'BOT': 'assistant'}[m['role']], 'content': m['prompt']}
          for m in MESSAGES]


def prompt(row=ROW):
    return ICL_PROMPT_TEMPLATES.build(dict(type=H2HTalkChatPromptTemplate)).generate_item(row)


def with_sap(messages):
    return [dict(messages[0], content=SAP.text + SEPARATOR + messages[0]['content'])] + messages[1:]


def test_the_template_sends_system_then_alternating_turns_with_the_latest_message_last():
    assert [m['role'] for m in CHATML] == ['system'] + ['user', 'assistant'] * 3 + ['user']
    parsed = _get_meta_template(SYSTEM_META_TEMPLATE).parse_template(prompt(), mode='gen')
    assert _convert_chat_messages([parsed])[0] == CHATML
    assert CHATML[-1]['content'] == json.loads(ROW['inputs'])['user_message']


def test_the_template_refuses_a_block_row_and_a_malformed_one():
    block = load_rows('dialogue_base')[0]
    with pytest.raises(ValueError, match="no 'messages' column; load the dataset with history_format='chat'"):
        prompt(block)
    with pytest.raises(ValueError, match='ending with HUMAN'):
        prompt(dict(ROW, messages=json.dumps(MESSAGES[:-1], ensure_ascii=False)))


def test_the_dataset_records_the_history_format_and_refuses_chat_without_a_conversation():
    chat = H2HTalkDataset.load('dialogue_base', history_format='chat')
    assert chat[0]['messages'] == ROW['messages'] and chat[0]['history_format'] == 'chat'
    assert chat[0]['prompt_hash'] != '6950b9deb76b'
    block = H2HTalkDataset.load('dialogue_base')
    assert block[0]['history_format'] == 'block' and block[0]['prompt_hash'] == '6950b9deb76b'
    assert 'messages' not in block.column_names
    with pytest.raises(ValueError, match="subtask 'itinerary_middle' has no conversation to continue"):
        H2HTalkDataset.load('itinerary_middle', history_format='chat')


@pytest.fixture(scope='module')
def tiny_dir(tmp_path_factory):
    return build_tiny_chat_model(str(tmp_path_factory.mktemp('tiny')))


@pytest.mark.parametrize('sap', ['v1', None])
def test_hf_wrapper_puts_sap_once_into_the_system_message_of_a_chat_prompt(tiny_dir, sap, monkeypatch):
    model = SAPHuggingFacewithChatTemplate(path=tiny_dir, sap=sap, model_kwargs=dict(device_map='cpu'),
                                           max_seq_len=4096)
    sent = record_chat_templates(model, monkeypatch)
    model.generate_from_template((prompt(), prompt()), max_out_len=4)
    assert sent == [with_sap(CHATML) if sap else CHATML] * 2
    assert all(len(detect_sap(m)) == (1 if sap else 0) for m in sent)
    assert all(m['content'].strip() for msgs in sent for m in msgs)  # no empty turn


@pytest.mark.parametrize('sap', ['v1', None])
def test_openai_wrapper_sends_the_chat_turns(tiny_dir, sap):
    with RecordingChatServer(lambda req: '好') as server:
        model = SAPOpenAISDK(path='local-model', sap=sap, key='EMPTY', openai_api_base=server.base_url,
                             tokenizer_path=tiny_dir, retry=1, temperature=0.0)
        assert model.generate_from_template((prompt(),), max_out_len=8) == ['好']
    assert server.requests[0]['messages'] == (with_sap(CHATML) if sap else CHATML)


def test_vllm_wrapper_folding_the_system_text_keeps_one_user_turn_first(monkeypatch):
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
    model._setup_sap('v1', 'zh', True)
    model.template_parser = oc_vllm._get_meta_template(SYSTEM_META_TEMPLATE)
    model.tokenizer, model.model, model.logger = FakeTokenizer(), FakeLLM(), types.SimpleNamespace(info=lambda *a: None)
    model.fastchat_template, model.chat_template_kwargs, model.lora_path = None, {}, None
    model.stop_words, model.generation_kwargs = [], {}
    assert model.generate_from_template((prompt(),), max_out_len=8) == ['好的']
    first = {'role': 'user', 'content': SAP.text + SEPARATOR + CHATML[0]['content'] + SEPARATOR + CHATML[1]['content']}
    assert sent == [[first] + CHATML[2:]]


def test_the_baseline_models_answer_chat_prompts_like_block_prompts():
    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from mmengine.config import Config
    cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_common.py'))
    block = PromptTemplate(cfg.h2htalk_prompt_template['template'])
    rows = load_rows('dialogue_base', history_format='chat')[:3]
    block_prompts = [block.generate_item(r) for r in rows]
    reference = H2HTalkReferencePoint(path='reference')
    retrieval = H2HTalkRetrievalBaseline()
    for model in (reference, retrieval):
        chat = model.generate([model.parse_template(prompt(r), mode='gen') for r in rows])
        assert chat == model.generate([model.parse_template(p, mode='gen') for p in block_prompts])
    assert reference.generate([reference.parse_template(prompt(r), mode='gen') for r in rows]) == [
        r['reference'] for r in rows]
