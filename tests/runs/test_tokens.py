"""Token counts for the cost section: the model's own tokenizer when it is on this machine, never a stand-in."""
import json

import pytest

from opencompass_h2htalk.runs.logs import prediction_sizes
from opencompass_h2htalk.runs.tokens import token_counter, tokenizer_source

# A word-level tokenizer whose counts can be checked by hand: one token per word and per special token.
VOCAB = {'[UNK]': 0, '<s>': 1, '<e>': 2, 'system': 3, 'user': 4, 'assistant': 5, '你': 6, '好': 7, '热': 8}
TEMPLATE = ("{% for m in messages %}<s>{{ m['role'] }} {{ m['content'] }}<e>{% endfor %}"
            "{% if add_generation_prompt %}<s>assistant{% endif %}")


def _tokenizer(path, chat_template):
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(VOCAB, unk_token='[UNK]'))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    hf = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token='[UNK]', additional_special_tokens=['<s>', '<e>'],
                                 chat_template=chat_template)
    hf.save_pretrained(str(path))
    return str(path)


def _run(tmp_path, model_path):
    run = tmp_path / '20261123_085214'
    (run / 'configs').mkdir(parents=True)
    (run / 'configs' / '20261123_085214_1.py').write_text(
        f"models=[dict(abbr='m', path={model_path!r}, type='x'), dict(abbr='api', path='gpt-x', type='y')]\n")
    (run / 'predictions' / 'm').mkdir(parents=True)
    chat = [{'role': 'SYSTEM', 'prompt': '你 好'}, {'role': 'HUMAN', 'prompt': '热'}]
    (run / 'predictions' / 'm' / 'd.json').write_text(json.dumps(
        {'0': {'origin_prompt': chat, 'prediction': '你 好 你'}}), encoding='utf-8')
    return str(run)


def test_tokens_through_the_chat_template_of_the_local_tokenizer(tmp_path):
    run = _run(tmp_path, _tokenizer(tmp_path / 'tok', TEMPLATE))
    count, how = token_counter(run, 'm')
    assert how == f'{tmp_path / "tok"} (PreTrainedTokenizerFast; prompts through its chat template)'
    # <s> system 你 好 <e> <s> user 热 <e> <s> assistant = 11 tokens; the reply 你 好 你 = 3.
    sizes = prediction_sizes(run, 'm', count, how)
    assert (sizes.input_tokens, sizes.output_tokens) == (11, 3)
    assert (sizes.input_chars, sizes.output_chars) == (5, 5)


def test_without_a_chat_template_the_prompt_text_is_counted(tmp_path):
    run = _run(tmp_path, _tokenizer(tmp_path / 'tok', None))
    count, how = token_counter(run, 'm')
    assert how.endswith('prompts as plain text (it has no chat template))')
    assert count([{'role': 'SYSTEM', 'prompt': '你 好'}, {'role': 'HUMAN', 'prompt': '热'}], '你') == (3, 1)


@pytest.mark.parametrize('model,path,why', [
    ('m', 'not/here/at-all/x', 'no tokenizer: not/here/at-all/x is not a directory here'),
    ('api', None, 'no tokenizer: gpt-x is not a directory here'),
    ('other', None, "no tokenizer: other is not among the models of the run's dumped config"),
])
def test_no_tokenizer_means_no_tokens_and_the_reason(tmp_path, model, path, why):
    run = _run(tmp_path, path or 'x')
    count, reason = token_counter(run, model)
    assert count is None and reason.startswith(why)
    sizes = prediction_sizes(run, 'm', count, reason)
    assert sizes.input_tokens is None and sizes.output_tokens is None and sizes.input_chars == 5


def test_a_folder_without_tokenizer_files_and_an_uncached_hub_id(tmp_path, monkeypatch):
    (tmp_path / 'weights').mkdir()
    assert tokenizer_source({'path': str(tmp_path / 'weights')}) == (
        None, f'no tokenizer: {tmp_path / "weights"} holds none of tokenizer.json, tokenizer_config.json, '
              'tokenizer.model, vocab.json')
    monkeypatch.setenv('HF_HUB_CACHE', str(tmp_path / 'empty-cache'))
    import huggingface_hub.constants as c

    monkeypatch.setattr(c, 'HF_HUB_CACHE', str(tmp_path / 'empty-cache'))
    assert tokenizer_source({'path': 'Qwen/Qwen2.5-7B-Instruct'}) == (
        None, 'no tokenizer: Qwen/Qwen2.5-7B-Instruct is not in the Hugging Face cache of this machine')
    assert tokenizer_source({'tokenizer_path': str(tmp_path / 'weights'), 'path': 'Qwen/Qwen2.5-7B-Instruct'})[0] \
        is None
    assert tokenizer_source({})[1] == 'no tokenizer: the model config names no tokenizer_path or path'


@pytest.mark.parametrize('kind', ['opencompass_h2htalk.models.baseline.H2HTalkRetrievalBaseline',
                                  'opencompass_h2htalk.models.H2HTalkRetrievalBaseline'])
def test_the_retrieval_baseline_has_no_tokenizer_rather_than_a_missing_path(kind):
    # Its path ('retrieval-baseline') is a label: the cell said "… is not a directory here", a path error.
    assert tokenizer_source({'type': kind, 'path': 'retrieval-baseline'}) == (
        None, 'no tokenizer: the retrieval baseline answers with a stored reference and has none (characters only)')
