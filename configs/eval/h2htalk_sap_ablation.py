# SAP ablation: the same models with and without the Secure Attachment Persona, on all subtasks.
# Each pair sits side by side in the summary ('<model>@nosap' | '<model>@sap-v1'), and the summary
# adds the BLEU-4 and ROUGE-L averages that the paper's Table 3 reports next to the unified score.
#
#   opencompass configs/eval/h2htalk_sap_ablation.py
#
# To ablate another model, import its _nosap and _sap files from configs/models/ and add the pair.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner, NumWorkerPartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..models.api_openai_gpt_4o_nosap import models as gpt_4o_nosap
    from ..models.api_openai_gpt_4o_sap import models as gpt_4o_sap
    from ..models.vllm_qwen2_5_7b_instruct_nosap import models as qwen2_5_7b_nosap
    from ..models.vllm_qwen2_5_7b_instruct_sap import models as qwen2_5_7b_sap
    from ..summarizers.h2htalk import h2htalk_summary_abbrs, h2htalk_summary_groups, h2htalk_table3_groups

datasets = [*h2htalk_datasets]
# Twins adjacent, no-SAP first: the summary's columns follow this order.
models = [*qwen2_5_7b_nosap, *qwen2_5_7b_sap, *gpt_4o_nosap, *gpt_4o_sap]

infer = dict(partitioner=dict(type=NumWorkerPartitioner, num_worker=8, min_task_size=16),
             runner=dict(type=LocalRunner, max_num_workers=8, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=4, task=dict(type=OpenICLEvalTask)))

summarizer = dict(
    dataset_abbrs=['h2htalk_overall_bleu4', 'h2htalk_overall_rougeL', *h2htalk_summary_abbrs],
    summary_groups=[*h2htalk_summary_groups, *h2htalk_table3_groups],
)
work_dir = 'outputs/h2htalk_sap_ablation'
