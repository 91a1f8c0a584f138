"""A tiny HF chat model, built locally at test time, through HuggingFacewithChatTemplate."""
from ..conftest import REPO, load_json, run_dir, run_opencompass, task_logs
from ..tiny_model import build_tiny_chat_model


def test_tiny_hf_model_end_to_end(tmp_path):
    build_tiny_chat_model(str(tmp_path / 'tiny-model'))  # the config reads ./tiny-model
    run_opencompass(REPO / 'tests/pipeline/configs/tiny_hf.py', tmp_path)
    run = run_dir(tmp_path)
    for subtask in ('dialogue_base', 'itinerary_feedback'):
        res_path = run / 'results' / 'tiny-qwen2-random' / f'h2htalk_{subtask}.json'
        assert res_path.exists(), task_logs(run)
        result = load_json(res_path)
        preds = load_json(run / 'predictions' / 'tiny-qwen2-random' / f'h2htalk_{subtask}.json')
        assert len(preds) == 3 and len(result['details']) == 3
        # The chat template received a real system message carrying persona + instruction.
        prompt = preds['0']['origin_prompt']
        assert [turn['role'] for turn in prompt] == ['SYSTEM', 'HUMAN']
        assert prompt[0]['prompt'].startswith('【角色设定】') and '【任务】' in prompt[0]['prompt']
        assert '【用户的最新消息】' in prompt[1]['prompt'] or '【用户的评论】' in prompt[1]['prompt']
        assert isinstance(preds['0']['prediction'], str)
        # Random weights: low but well-defined scores; nothing empty-by-crash.
        assert 0 <= result['score'] < 50
        assert result['meta'][0]['n'] == 3
