"""Throughput of the SAP inference path against the raw backend, same model and same final prompts.

    python bench/bench_sap_throughput.py [--model DIR] [--prompts 64] [--max-out-len 32] [--repeats 3]

Raw: OpenCompass's HuggingFacewithChatTemplate given prompts that already contain SAP in the system
turn. SAP: SAPHuggingFacewithChatTemplate given the dataset's prompts, injecting SAP itself. Both send
identical messages (checked: greedy outputs must match), so the ratio measures the wrapper's overhead.
Without --model a tiny random Qwen2 is built locally (CPU); on a GPU machine pass a real model dir.
Target: SAP tokens/s >= 95 % of raw.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--model', default=None, help='HF model directory (default: build a tiny one)')
    parser.add_argument('--prompts', type=int, default=64)
    parser.add_argument('--max-out-len', type=int, default=32)
    parser.add_argument('--batch-size', type=int, default=16)
    parser.add_argument('--repeats', type=int, default=3)
    args = parser.parse_args()

    from mmengine.config import Config
    from opencompass.models import HuggingFacewithChatTemplate
    from opencompass.openicl.icl_prompt_template import PromptTemplate

    from opencompass_h2htalk.data.loader import load_rows
    from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS
    from opencompass_h2htalk.models import SAPHuggingFacewithChatTemplate
    from opencompass_h2htalk.models.sap import SYSTEM_META_TEMPLATE
    from opencompass_h2htalk.sap import inject, load_sap

    model_dir = args.model
    if model_dir is None:
        sys.path.insert(0, str(REPO))
        from tests.tiny_model import build_tiny_chat_model
        model_dir = build_tiny_chat_model(tempfile.mkdtemp(prefix='tiny-model-'))

    cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_common.py'))
    template = PromptTemplate(cfg.h2htalk_prompt_template['template'])
    rows = [r for s in SUBTASKS for r in load_rows(s)][:args.prompts]
    prompts = [template.generate_item({'system_prompt': r['system_prompt'], 'user_prompt': r['user_prompt']})
               for r in rows]
    kwargs = dict(path=model_dir, model_kwargs=dict(device_map='auto'), max_seq_len=4096)
    raw = HuggingFacewithChatTemplate(meta_template=SYSTEM_META_TEMPLATE, **kwargs)
    sap_model = SAPHuggingFacewithChatTemplate(sap='v1', **kwargs)
    sap_text = load_sap('v1').text
    # The raw backend gets the very messages the wrapper builds, injected up front (not timed).
    raw_inputs = [inject(raw.parse_template(p, mode='gen'), sap_text) for p in prompts]

    batches = range(0, len(prompts), args.batch_size)

    def raw_fn(i):
        return raw.generate(raw_inputs[i:i + args.batch_size], max_out_len=args.max_out_len)

    def sap_fn(i):  # parse + inject inside the timed region, as in a real run
        return sap_model.generate_from_template(tuple(prompts[i:i + args.batch_size]), max_out_len=args.max_out_len)

    fns = {'raw': raw_fn, 'sap': sap_fn}
    raw_fn(0)  # warm-up
    # Paired timing: each batch runs on both paths back to back (order alternating), and each path keeps
    # its fastest time per batch over the repeats; this 2-core machine drifts by +-15 % between passes.
    best = {name: [float('inf')] * len(batches) for name in fns}
    outs = {name: [None] * len(batches) for name in fns}
    for rep in range(args.repeats):
        for b, i in enumerate(batches):
            for name in (('raw', 'sap') if (rep + b) % 2 == 0 else ('sap', 'raw')):
                start = time.perf_counter()
                outs[name][b] = fns[name](i)
                best[name][b] = min(best[name][b], time.perf_counter() - start)
    outs = {name: [o for batch in v for o in batch] for name, v in outs.items()}
    best = {name: sum(v) for name, v in best.items()}
    start = time.perf_counter()
    for _ in range(10):
        sap_model.parse_template(tuple(prompts), mode='gen')
    inject_us = (time.perf_counter() - start) / (10 * len(prompts)) * 1e6
    if outs['raw'] != outs['sap']:
        sys.exit('SAP and raw outputs differ: the two paths did not send the same messages')
    tokens = sum(len(raw.tokenizer.encode(o, add_special_tokens=False)) for o in outs['raw'])
    print(f'model: {model_dir}; {len(prompts)} prompts, batch {args.batch_size}, max_out_len {args.max_out_len}; '
          f'{tokens} generated tokens per pass; best of {args.repeats}')
    for name in ('raw', 'sap'):
        print(f'{name:4s}: {tokens / best[name]:10.1f} tokens/s  ({best[name]:.2f} s)')
    print(f'SAP / raw throughput: {best["raw"] / best["sap"] * 100:.1f} %  (target >= 95 %)')
    print(f'SAP parse + inject: {inject_us:.1f} us per prompt')


if __name__ == '__main__':
    main()
