"""The zoo table (opencompass_h2htalk/planning/zoo.py, `h2htalk zoo`): literal rows, and docs/zoo.md shows what the
command prints."""
from opencompass_h2htalk.cli import main
from opencompass_h2htalk.planning.costmodel import model_cost
from opencompass_h2htalk.planning.nodes import NodeSpec
from opencompass_h2htalk.planning.zoo import format_zoo, pair_stems, zoo_rows

from ..conftest import REPO


def test_rows_say_what_each_model_needs():
    vllm = 'opencompass_h2htalk.models.SAPVLLMwithChatTemplate'
    configs = [
        ('vllm_big_nosap', dict(type=vllm, path='Qwen/Qwen3-235B-A22B-Instruct-2507'),
         model_cost('big', 'Qwen/Qwen3-235B-A22B-Instruct-2507', 8, 1024), False),
        ('vllm_small_nosap', dict(type=vllm, path='Qwen/Qwen3-8B'), model_cost('s', 'Qwen/Qwen3-8B', 1, 1024), True),
        ('vllm_huge_nosap', dict(type=vllm, path='deepseek-ai/DeepSeek-V3.1'),
         model_cost('h', 'deepseek-ai/DeepSeek-V3.1', 8, 1024), False),
        ('api_x_nosap', dict(type='opencompass_h2htalk.models.SAPOpenAISDK', path='gpt-4.1'),
         model_cost('a', 'gpt-4.1', 0, 1024), False),
    ]
    big, small, huge, api = zoo_rows(configs)
    assert (big.stem, big.gpus, big.weights_gb, big.fit) == ('vllm_big', 8, 470, 'whole node')
    assert small.thinking and small.fit == 'one GPU' and small.decode_tps == 2500
    assert huge.fit == 'does not fit: weights too large' and huge.weights_gb == 671
    assert zoo_rows(configs[2:3], NodeSpec(gpu_memory_gb=141))[0].fit == 'whole node'
    assert (api.backend, api.fit, api.load_s) == ('api', 'API', None)
    table = format_zoo([big, small, huge, api]).splitlines()
    assert table[2].split()[:7] == ['vllm_big', 'vllm', '8', '470', '89', '3200', 'off']
    assert table[-2].split()[:3] == ['api_x', 'api', '0']
    assert pair_stems(['a_nosap', 'a_sap', 'b_nosap', 'c_sap']) == {'a_nosap': ['a_sap'], 'b_nosap': []}


def test_docs_zoo_table_is_what_the_command_prints(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    assert main(['zoo']) == 0
    printed = capsys.readouterr().out.splitlines()
    doc = (REPO / 'docs/zoo.md').read_text(encoding='utf-8')
    start = doc.index('config (_sap / _nosap)')
    block = doc[start:doc.index('```', start)].rstrip('\n').splitlines()
    assert block == printed[:len(block)]
    assert len(block) >= 30
