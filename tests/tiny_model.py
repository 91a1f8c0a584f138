"""Builds a tiny random Qwen2 chat model with a locally trained BPE tokenizer (offline, ~1 s).

Used by tests that need a real HuggingFace model: the weights are random, so outputs are
gibberish, but tokenisation, the chat template and generation run for real.
"""
import sys
from pathlib import Path

CORPUS_ZH = ['我今天很难过，因为考试没考好。', '别担心，下次一定会更好的。', '你愿意听我说说心里话吗？',
             '谢谢你一直陪着我。', '我觉得很孤独，没有人理解我。', '最近工作压力很大，睡不着觉。',
             '深呼吸，慢慢来，我在这里陪你。', '今天天气真好，心情也不错。', '和朋友吵架了，不知道怎么办。']
CHAT_TEMPLATE = ("{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
                 "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def build_tiny_chat_model(out_dir: str) -> str:
    """Writes model + tokenizer to ``out_dir`` and returns it."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator([s for _ in range(20) for s in CORPUS_ZH], trainers.BpeTrainer(
        vocab_size=600, special_tokens=['<|pad|>', '<|endoftext|>', '<|im_start|>', '<|im_end|>'],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token='<|pad|>', eos_token='<|im_end|>',
                                     chat_template=CHAT_TEMPLATE, model_input_names=['input_ids', 'attention_mask'])
    hf_tok.save_pretrained(out_dir)
    cfg = Qwen2Config(vocab_size=len(hf_tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096,
                      pad_token_id=hf_tok.pad_token_id, eos_token_id=hf_tok.eos_token_id, bos_token_id=None,
                      tie_word_embeddings=True, initializer_range=0.5)
    model = Qwen2ForCausalLM(cfg).float()
    model.generation_config = GenerationConfig(eos_token_id=hf_tok.eos_token_id, pad_token_id=hf_tok.pad_token_id,
                                               do_sample=False)
    model.save_pretrained(out_dir)
    return out_dir


if __name__ == '__main__':
    print(build_tiny_chat_model(sys.argv[1] if len(sys.argv) > 1 else str(Path.cwd() / 'tiny-model')))


def record_chat_templates(model, monkeypatch) -> list:
    """Records every message list ``model.tokenizer.apply_chat_template`` renders (and still renders it): what an HF
    chat wrapper actually sends to the model. Returns the list the calls append to."""
    sent = []
    original = model.tokenizer.apply_chat_template

    def recording(messages, *args, **kwargs):
        sent.append(messages)
        return original(messages, *args, **kwargs)

    monkeypatch.setattr(model.tokenizer, 'apply_chat_template', recording)
    return sent


def build_tiny_xlmr(out_dir: str) -> str:
    """Writes a tiny random XLM-RoBERTa + tokenizer that FlagEmbedding's BGEM3FlagModel can load offline."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast, XLMRobertaConfig, XLMRobertaModel

    torch.manual_seed(0)
    specials = ['<s>', '<pad>', '</s>', '<unk>', '<mask>']
    tok = Tokenizer(models.BPE(unk_token='<unk>'))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator([s for _ in range(20) for s in CORPUS_ZH], trainers.BpeTrainer(
        vocab_size=500, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.post_processor = processors.TemplateProcessing(
        single='<s> $A </s>', pair='<s> $A </s> </s> $B </s>',
        special_tokens=[('<s>', tok.token_to_id('<s>')), ('</s>', tok.token_to_id('</s>'))])
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token='<s>', cls_token='<s>', eos_token='</s>',
                                     sep_token='</s>', pad_token='<pad>', unk_token='<unk>', mask_token='<mask>',
                                     model_input_names=['input_ids', 'attention_mask'])
    hf_tok.save_pretrained(out_dir)
    cfg = XLMRobertaConfig(vocab_size=len(hf_tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=514, pad_token_id=hf_tok.pad_token_id)
    XLMRobertaModel(cfg, add_pooling_layer=False).save_pretrained(out_dir)
    return out_dir
