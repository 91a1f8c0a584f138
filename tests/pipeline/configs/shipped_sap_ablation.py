# Test config: configs/eval/h2htalk_sap_ablation.py as shipped (datasets, judge, eval partitioner and runner, summary),
# with its models replaced by SAP / no-SAP twins of an API model on 127.0.0.1:$H2HTALK_TEST_PORT (the shipped
# GPT-4o / vLLM models cannot run here). Inference runs as one task per model instead of the shipped 8 workers per
# model: 16 subprocesses for two-item datasets would only make the test slow, and inference is not under test.
# Everything else comes from the environment, as a user would set it: OC_JUDGE_* (the judge), H2HTALK_DATA (a
# small data copy), H2HTALK_BGE_M3_PATH (a tiny local embedder).

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLInferTask

with read_base():
    from .local_twins import models  # noqa: F401
    from ....configs.eval.h2htalk_sap_ablation import datasets, eval, summarizer, work_dir  # noqa: F401


infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
