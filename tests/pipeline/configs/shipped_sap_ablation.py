# Test config: configs/eval/h2htalk_sap_ablation.py as shipped (datasets, judge, eval partitioner and runner, summary),
# with its models replaced by SAP / no-SAP twins of an API model on 127.0.0.1:$H2HTALK_TEST_PORT (the shipped
# GPT-4o / vLLM models cannot run here). Inference runs as one task per model instead of the shipped 8 workers per
# model: 16 subprocesses for two-item datasets would only make the test slow, and inference is not under test.
# Everything else comes from the environment, as a user would set it: OC_JUDGE_* (the judge), H2HTALK_DATA (a
# small data copy), H2HTALK_BGE_M3_PATH (a tiny local embedder).
import os as __os  # the double underscore keeps the module out of the dumped config

from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLInferTask

from opencompass_h2htalk.models import SAPOpenAISDK

with read_base():
    from ....configs.eval.h2htalk_sap_ablation import datasets, eval, summarizer, work_dir  # noqa: F401

_api = dict(type=SAPOpenAISDK, path='local-companion', key='EMPTY',
            tokenizer_path=__os.environ['H2HTALK_TEST_TOKENIZER'],
            openai_api_base=f"http://127.0.0.1:{__os.environ['H2HTALK_TEST_PORT']}/v1",
            query_per_second=100, retry=2, max_seq_len=8192, max_out_len=256, batch_size=4, temperature=0.0,
            run_cfg=dict(num_gpus=0))
models = [dict(_api, abbr='local-companion@nosap', sap=None), dict(_api, abbr='local-companion@sap-v1', sap='v1')]

infer = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
             runner=dict(type=LocalRunner, max_num_workers=2, task=dict(type=OpenICLInferTask)))
