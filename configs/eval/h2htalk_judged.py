# H2HTalk with the judged sets: the 11 subtasks (itinerary also scored by the rubric judge), the safety set
# and the instruction-following probes. Items judged below 3.5 go to the human review queue:
#
#   opencompass configs/eval/h2htalk_judged.py
#   h2htalk review export outputs/h2htalk_judged          # queue.jsonl / queue.csv / queue.html
#   h2htalk review merge outputs/h2htalk_judged           # fold <run>/review/queue.csv back (judge-only vs adjudicated)
#
# The judge: OC_JUDGE_MODEL / OC_JUDGE_API_BASE / OC_JUDGE_API_KEY / OC_JUDGE_TOKENIZER_PATH (default GPT-4o), or
# replace h2htalk_judge_cfg in configs/datasets/h2htalk/h2htalk_judged_gen.py.
# The subtasks that continue a conversation send its history as chat turns (the shipped default, docs/validity.md);
# for the paper's block format swap in configs/datasets/h2htalk/h2htalk_block_gen.py's datasets by abbr.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner, NumWorkerPartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.summarizers import H2HTalkSummarizer

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..datasets.h2htalk.h2htalk_judged_gen import (h2htalk_itinerary_judged_datasets, h2htalk_probe_datasets,
                                                       h2htalk_safety_datasets)
    from ..models.api_openai_gpt_4o_nosap import models as gpt_4o_nosap
    from ..models.api_openai_gpt_4o_sap import models as gpt_4o_sap
    from ..summarizers.h2htalk import (h2htalk_judged_abbrs, h2htalk_summary_abbrs, h2htalk_summary_groups,
                                       h2htalk_table3_abbrs, h2htalk_table3_groups)

_judged = {d['abbr']: d for d in h2htalk_itinerary_judged_datasets}
datasets = [_judged.get(d['abbr'], d) for d in h2htalk_datasets] + [*h2htalk_safety_datasets,
                                                                     *h2htalk_probe_datasets]
models = [*gpt_4o_nosap, *gpt_4o_sap]

infer = dict(partitioner=dict(type=NumWorkerPartitioner, num_worker=8, min_task_size=16),
             runner=dict(type=LocalRunner, max_num_workers=8, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=4, task=dict(type=OpenICLEvalTask)))

summarizer = dict(
    type=H2HTalkSummarizer,
    dataset_abbrs=[*h2htalk_table3_abbrs, '', *h2htalk_summary_abbrs, '', *h2htalk_judged_abbrs],
    summary_groups=[*h2htalk_summary_groups, *h2htalk_table3_groups],
)
work_dir = 'outputs/h2htalk_judged'
