"""Thinking models in the zoo (issue 23): the thinking-off configs render their prompts with thinking off, the
thinking-on variants with it on, through OpenCompass's own vLLM wrapper and a local tokenizer whose chat template
carries Qwen3's switch (an empty ``<think></think>`` block when ``enable_thinking`` is false)."""
from types import SimpleNamespace

import pytest
from mmengine.config import Config

from opencompass_h2htalk.partitioners.sweep import model_thinks

from ..conftest import REPO
from .test_sap_wrappers import SAP, dataset_prompt

# Qwen3's generation prompt, reduced to the switch: thinking off pre-fills an empty reasoning block, so the model
# answers at once; thinking on leaves the block for the model to open.
QWEN3_STYLE = ("{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
               "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n"
               "{% if enable_thinking is defined and enable_thinking is false %}<think>\n\n</think>\n\n{% endif %}"
               "{% endif %}")
THINK_OFF = '<|im_start|>assistant\n<think>\n\n</think>\n\n'


@pytest.fixture(scope='module')
def qwen3_style_tokenizer(tmp_path_factory):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(['我今天很难过。', '深呼吸，慢慢来。'] * 5, trainers.BpeTrainer(
        vocab_size=300, special_tokens=['<|endoftext|>', '<|im_start|>', '<|im_end|>'],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    out = tmp_path_factory.mktemp('qwen3-style')
    PreTrainedTokenizerFast(tokenizer_object=tok, eos_token='<|im_end|>', chat_template=QWEN3_STYLE).save_pretrained(out)
    return str(out)


def _render(config: str, tokenizer_dir: str, monkeypatch) -> str:
    """The prompt text the model config's wrapper hands to the vLLM engine for one H2HTalk row (the engine
    replaced by a recorder: no weights, no vLLM needed; the chat template and its arguments are the real ones)."""
    import opencompass.models.vllm_with_tf_above_v4_33 as vllm_wrapper

    monkeypatch.setattr(vllm_wrapper, 'LLM', object, raising=False)              # "vLLM is installed"
    monkeypatch.setattr(vllm_wrapper, 'SamplingParams', dict, raising=False)
    model = Config.fromfile(str(REPO / 'configs/models' / config))['models'][0]
    kwargs = {k: v for k, v in model.items() if k not in ('type', 'abbr', 'run_cfg', 'max_out_len', 'batch_size')}
    wrapper = model['type'](**dict(kwargs, path=tokenizer_dir, tokenizer_only=True))
    sent = []

    def generate(prompts, sampling):
        sent.extend(p['prompt'] for p in prompts)
        return [SimpleNamespace(prompt=p['prompt'], outputs=[SimpleNamespace(text='好的')]) for p in prompts]

    wrapper.model = SimpleNamespace(generate=generate)
    prompt = wrapper.parse_template(dataset_prompt(), mode='gen')  # one H2HTalk row, as GenInferencer hands it
    assert wrapper.generate([prompt], max_out_len=16) == ['好的']
    assert len(sent) == 1
    return sent[0]


@pytest.mark.parametrize('config', ['vllm_qwen3_8b_nosap.py', 'vllm_qwen3_8b_sap.py', 'vllm_qwen3_32b_sap.py',
                                    'vllm_glm4_5_air_sap.py'])
def test_thinking_off_configs_prefill_an_empty_reasoning_block(config, qwen3_style_tokenizer, monkeypatch):
    text = _render(config, qwen3_style_tokenizer, monkeypatch)
    assert text.endswith(THINK_OFF), text
    assert text.count(SAP.text) == (0 if config.endswith('_nosap.py') else 1)


@pytest.mark.parametrize('config', ['vllm_qwen3_8b_thinking_nosap.py', 'vllm_qwen3_8b_thinking_sap.py'])
def test_thinking_on_variants_leave_the_block_to_the_model(config, qwen3_style_tokenizer, monkeypatch):
    text = _render(config, qwen3_style_tokenizer, monkeypatch)
    assert text.endswith('<|im_start|>assistant\n') and '<think>' not in text, text


def test_the_sap_twin_sends_sap_once_and_the_same_switch(qwen3_style_tokenizer, monkeypatch):
    sap = _render('vllm_qwen3_8b_sap.py', qwen3_style_tokenizer, monkeypatch)
    nosap = _render('vllm_qwen3_8b_nosap.py', qwen3_style_tokenizer, monkeypatch)
    assert sap.count('<|im_start|>system') == nosap.count('<|im_start|>system') == 1
    assert sap.count(SAP.text) == 1 and SAP.text not in nosap
    assert sap.replace(SAP.text, '').endswith(nosap.split('<|im_start|>system\n', 1)[1])


def test_every_config_that_thinks_says_so_in_its_name():
    # Run thinking models the way their authors recommend for chat (thinking off); thinking on is a separate,
    # clearly named config.
    for path in sorted((REPO / 'configs/models').glob('*.py')):
        model = Config.fromfile(str(path))['models'][0]
        assert model_thinks(model) == ('_thinking_' in path.name), path.name
