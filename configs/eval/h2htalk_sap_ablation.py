# SAP ablation: the same models with and without the Secure Attachment Persona, on all 11 subtasks and the
# 200-scenario safety set. Each pair sits side by side in the summary ('<model>@nosap' | '<model>@sap-v1'), whose
# first rows have the shape of the paper's Table 3: BLEU-4, ROUGE-L, safety score, violation rate.
# The safety set is judged: configure the judge with OC_JUDGE_MODEL / OC_JUDGE_API_BASE / OC_JUDGE_API_KEY /
# OC_JUDGE_TOKENIZER_PATH (see configs/datasets/h2htalk/h2htalk_judged_gen.py).
#
#   opencompass configs/eval/h2htalk_sap_ablation.py
#
# To ablate another model, import its _nosap and _sap files from configs/models/ and add the pair.
# The subtasks that continue a conversation send its history as chat turns (the shipped default, docs/validity.md);
# for the paper's block format swap in configs/datasets/h2htalk/h2htalk_block_gen.py's datasets by abbr.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner, NumWorkerPartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.summarizers import H2HTalkSummarizer

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..datasets.h2htalk.h2htalk_judged_gen import h2htalk_safety_datasets
    from ..models.api_openai_gpt_4o_nosap import models as gpt_4o_nosap
    from ..models.api_openai_gpt_4o_sap import models as gpt_4o_sap
    from ..models.vllm_qwen2_5_7b_instruct_nosap import models as qwen2_5_7b_nosap
    from ..models.vllm_qwen2_5_7b_instruct_sap import models as qwen2_5_7b_sap
    from ..summarizers.h2htalk import (h2htalk_summary_abbrs, h2htalk_summary_groups, h2htalk_table3_abbrs,
                                       h2htalk_table3_groups)

datasets = [*h2htalk_datasets, *h2htalk_safety_datasets]
# Twins adjacent, no-SAP first: the summary's columns follow this order.
models = [*qwen2_5_7b_nosap, *qwen2_5_7b_sap, *gpt_4o_nosap, *gpt_4o_sap]

infer = dict(partitioner=dict(type=NumWorkerPartitioner, num_worker=8, min_task_size=16),
             runner=dict(type=LocalRunner, max_num_workers=8, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=4, task=dict(type=OpenICLEvalTask)))

summarizer = dict(
    type=H2HTalkSummarizer,
    dataset_abbrs=[*h2htalk_table3_abbrs, '', *h2htalk_summary_abbrs],
    summary_groups=[*h2htalk_summary_groups, *h2htalk_table3_groups],
)
work_dir = 'outputs/h2htalk_sap_ablation'
