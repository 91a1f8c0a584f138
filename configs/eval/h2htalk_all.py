# H2HTalk, all 11 subtasks, for the models in configs/models/ you list below: here the SAP v1 variants of
# vLLM Qwen2.5-7B-Instruct (TP 1, one GPU) and Qwen2.5-72B-Instruct (TP 4, four GPUs), GPT-4o (API) and the
# CPU retrieval baseline (configs/eval/h2htalk_sap_ablation.py runs models with and without SAP).
# `h2htalk plan configs/eval/h2htalk_all.py` prints the inference tasks: 8 per model on the bundled data.
#
#   opencompass configs/eval/h2htalk_all.py               # local GPUs
#   opencompass configs/eval/h2htalk_all.py -r            # resume the latest run
#
# Scoring follows the paper's setting: unified score with alpha = 0.6 and BGE-M3 embeddings.
# BGE-M3 is loaded from $H2HTALK_BGE_M3_PATH (a local directory) or the hub name BAAI/bge-m3;
# `pip install 'opencompass-h2htalk[bge]'`. If it cannot be loaded, evaluation fails (no fallback).
# The subtasks that continue a conversation send its history as chat turns (the shipped default, docs/validity.md);
# for the paper's block format swap in configs/datasets/h2htalk/h2htalk_block_gen.py's datasets by abbr.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner, NumWorkerPartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

with read_base():
    from ..datasets.h2htalk.h2htalk_gen import h2htalk_datasets
    from ..models.api_openai_gpt_4o_sap import models as gpt_4o
    from ..models.local_h2htalk_retrieval_baseline import models as retrieval_baseline
    from ..models.vllm_qwen2_5_72b_instruct_sap import models as qwen2_5_72b
    from ..models.vllm_qwen2_5_7b_instruct_sap import models as qwen2_5_7b
    from ..summarizers.h2htalk import h2htalk_summarizer

datasets = [*h2htalk_datasets]
models = [*qwen2_5_7b, *qwen2_5_72b, *gpt_4o, *retrieval_baseline]

# Inference: each model's subtasks split over up to 8 workers; vLLM batches within a task.
infer = dict(partitioner=dict(type=NumWorkerPartitioner, num_worker=8, min_task_size=16),
             runner=dict(type=LocalRunner, max_num_workers=8, task=dict(type=OpenICLInferTask)))
# Evaluation must not be split (split results break the summary).
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=4, task=dict(type=OpenICLEvalTask)))

summarizer = h2htalk_summarizer
work_dir = 'outputs/h2htalk_all'
