"""Throughput of the SAP vLLM path against raw ``vllm.LLM.chat``, same engine, same prompts; and of the served path.

Run it in the vLLM environment (scripts/setup_vllm_env.sh) after `h2htalk model fetch smollm2`:

    VLLM_CPU_KVCACHE_SPACE=1 .venv-vllm/bin/python bench/bench_vllm_sap.py \
        [--model DIR] [--prompts 22] [--max-out-len 32] [--repeats 2] [--no-served]

Raw: ``llm.chat(messages)`` with the messages the SAP wrapper sends (SAP already in the system turn; built outside
the timed region). SAP: ``SAPVLLMwithChatTemplate.generate_from_template`` on the dataset's prompt templates, i.e.
template parsing, SAP injection and chat-template rendering inside the timed region, on the SAME ``vllm.LLM``
engine (so the ratio measures the wrapper, not two engines). Greedy outputs of the two must be equal. Served
(measured first, with no in-process engine alive): the same messages sent to
``python -m vllm.entrypoints.openai.api_server`` on 127.0.0.1, all requests in flight at once. Every path is timed
after a warm-up pass over all its prompts, so vLLM's prefix cache is equally warm for all three (without that, the
in-process passes reuse cached prompts and the server does not, which made the server look 5x slower). Everything is printed from one run. Target: SAP tokens/s >= 95 % of raw.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENGINE_KWARGS = dict(dtype='float32', max_model_len=8192, enforce_eager=True, seed=0)


def _prompts(n: int):
    """The first scenarios of each core subtask in turn, as OpenCompass prompt templates would render them."""
    from mmengine.config import Config
    from opencompass.openicl.icl_prompt_template import PromptTemplate

    from opencompass_h2htalk.data.loader import load_rows
    from opencompass_h2htalk.data.schema import CORE_SUBTASKS

    cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_common.py'))
    template = PromptTemplate(cfg.h2htalk_prompt_template['template'])
    rows_by_subtask = [load_rows(s) for s in CORE_SUBTASKS]
    rows = [rows[i] for i in range(n) for rows in rows_by_subtask if i < len(rows)][:n]
    return [template.generate_item({'system_prompt': r['system_prompt'], 'user_prompt': r['user_prompt']})
            for r in rows]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _served_tokens_per_s(model_dir: str, messages, max_out_len: int, concurrency: int):
    """Starts the OpenAI-compatible server, sends every message list once (after one warm-up request)."""
    port = _free_port()
    cmd = [sys.executable, '-m', 'vllm.entrypoints.openai.api_server', '--model', model_dir, '--served-model-name',
           'bench', '--host', '127.0.0.1', '--port', str(port), '--dtype', 'float32', '--max-model-len', '8192',
           '--enforce-eager', '--seed', '0']
    log = open(os.path.join(os.environ.get('TMPDIR', '/tmp'), f'bench_vllm_server_{port}.log'), 'w')
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f'http://127.0.0.1:{port}/v1'
    try:
        start = time.time()
        while True:
            if proc.poll() is not None:
                sys.exit(f'server exited with {proc.returncode}; see {log.name}')
            try:
                urllib.request.urlopen(f'{base}/models', timeout=5).close()
                break
            except OSError:
                if time.time() - start > 900:
                    sys.exit(f'server not ready after 900 s; see {log.name}')
                time.sleep(2)
        ready_s = time.time() - start

        def ask(msgs):
            body = json.dumps({'model': 'bench', 'messages': msgs, 'max_tokens': max_out_len, 'temperature': 0,
                               'seed': 0}).encode()
            req = urllib.request.Request(f'{base}/chat/completions', body, {'Content-Type': 'application/json'})
            with urllib.request.urlopen(req, timeout=900) as resp:
                out = json.load(resp)
            return out['choices'][0]['message']['content'], out['usage']['completion_tokens']

        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(ask, messages))  # warm-up: every prompt once, as the in-process warm-up does
            start = time.perf_counter()
            results = list(pool.map(ask, messages))
        elapsed = time.perf_counter() - start
        return sum(n for _, n in results) / elapsed, elapsed, ready_s, [text for text, _ in results]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--model', default=None, help='HF model dir (default: the fetched SmolLM2)')
    parser.add_argument('--prompts', type=int, default=22, help='prompts per pass (default: 2 per core subtask)')
    parser.add_argument('--max-out-len', type=int, default=32)
    parser.add_argument('--repeats', type=int, default=2)
    parser.add_argument('--sap-language', default='en', choices=['en', 'zh'],
                        help='SAP text (en: ~1,450 SmolLM2 tokens; zh: ~2,960)')
    parser.add_argument('--no-served', action='store_true', help='skip the OpenAI-server measurement')
    args = parser.parse_args()

    from vllm import LLM, SamplingParams

    from opencompass_h2htalk.localmodels.smollm2 import default_model_dir, is_complete
    from opencompass_h2htalk.models import SAPVLLMwithChatTemplate

    model_dir = args.model or default_model_dir()
    if args.model is None and not is_complete(model_dir):
        sys.exit(f'{model_dir} is not a converted SmolLM2: run `h2htalk model fetch smollm2` first')
    prompts = _prompts(args.prompts)
    # The wrapper without its own engine (tokenizer_only), then given the raw engine: one engine for both paths.
    sap_model = SAPVLLMwithChatTemplate(path=model_dir, sap='v1', sap_language=args.sap_language,
                                        tokenizer_only=True, max_seq_len=8192)
    from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages
    messages = _convert_chat_messages(sap_model.parse_template(tuple(prompts), mode='gen'))
    tok = sap_model.tokenizer
    prompt_tokens = sum(len(tok.encode(tok.apply_chat_template(m, add_generation_prompt=True, tokenize=False),
                                       add_special_tokens=False)) for m in messages)
    served = None
    if not args.no_served:
        # The server first, and alone: an in-process engine alive beside it keeps a core busy with its scheduler.
        served = _served_tokens_per_s(model_dir, messages, args.max_out_len, concurrency=len(messages))
    t0 = time.perf_counter()
    llm = LLM(model_dir, **ENGINE_KWARGS)
    init_s = time.perf_counter() - t0
    sap_model.model = llm
    params = SamplingParams(temperature=0, max_tokens=args.max_out_len, stop=['<|im_end|>'])

    def raw():
        outs = llm.chat(messages, params, use_tqdm=False)
        return [o.outputs[0].text for o in outs], sum(len(o.outputs[0].token_ids) for o in outs)

    def sap():
        return sap_model.generate_from_template(tuple(prompts), max_out_len=args.max_out_len)

    raw()  # warm-up
    best = {'raw': float('inf'), 'sap': float('inf')}
    for rep in range(args.repeats):
        for name in (('raw', 'sap') if rep % 2 == 0 else ('sap', 'raw')):
            start = time.perf_counter()
            out = raw() if name == 'raw' else sap()
            best[name] = min(best[name], time.perf_counter() - start)
            if name == 'raw':
                raw_texts, tokens = out
            else:
                sap_texts = out
    if [t.strip() for t in raw_texts] != [t.strip() for t in sap_texts]:
        sys.exit('SAP and raw outputs differ: the two paths did not send the same messages')
    print(f'model: {model_dir}; engine init {init_s:.1f} s; {len(prompts)} prompts ({prompt_tokens} prompt tokens, '
          f'SAP v1 {args.sap_language}), max_out_len {args.max_out_len}; {tokens} generated tokens per pass; '
          f'best of {args.repeats}')
    for name in ('raw', 'sap'):
        print(f'{name:6s}: {tokens / best[name]:8.1f} output tokens/s  ({best[name]:.2f} s a pass)')
    print(f'SAP / raw throughput: {best["raw"] / best["sap"] * 100:.1f} %  (target >= 95 %)')
    if served is not None:
        served_tps, served_s, ready_s, served_texts = served
        same = sum(a.strip() == b.strip() for a, b in zip(served_texts, raw_texts))
        print(f'served: {served_tps:8.1f} output tokens/s  ({served_s:.2f} s a pass; server ready in {ready_s:.0f} s); '
              f'served / raw: {served_tps / (tokens / best["raw"]) * 100:.1f} %; {same}/{len(raw_texts)} replies '
              'identical to raw')


if __name__ == '__main__':  # vLLM starts its engine core in a spawned process
    main()
