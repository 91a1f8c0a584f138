# Test config written against the plugin's class paths as users' configs (and OpenCompass's dumped configs) name
# them, module by module: the dataset, evaluator, post-processor, model, partitioner and summarizer. Moving the
# package's internal modules must keep every one of these working. Two subtasks of the mini data, 2 items each.
from mmengine.config import read_base
from opencompass.partitioners import NaivePartitioner
from opencompass.runners import LocalRunner
from opencompass.tasks import OpenICLEvalTask, OpenICLInferTask

from opencompass_h2htalk.datasets.h2htalk import H2HTalkDataset
from opencompass_h2htalk.evaluators.unified import H2HTalkUnifiedEvaluator
from opencompass_h2htalk.models.baseline import H2HTalkRetrievalBaseline
from opencompass_h2htalk.partitioners.gpu_budget import GPUBudgetPartitioner
from opencompass_h2htalk.postprocessors import strip_reasoning
from opencompass_h2htalk.summarizers.h2htalk import H2HTalkSummarizer

with read_base():
    from ....configs.eval.h2htalk_demo import datasets as demo_datasets
    from ....configs.eval.h2htalk_demo import summarizer as demo_summarizer

datasets = [
    dict(d, type=H2HTalkDataset,
         eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'], type=H2HTalkUnifiedEvaluator),
                       pred_postprocessor=dict(type=strip_reasoning)))
    for d in demo_datasets if d['abbr'] in ('h2htalk_dialogue_base', 'h2htalk_recollection_refine')
]
models = [dict(type=H2HTalkRetrievalBaseline, abbr='h2htalk-retrieval-baseline', path='retrieval-baseline',
               max_out_len=512, batch_size=32, run_cfg=dict(num_gpus=0))]
infer = dict(partitioner=dict(type=GPUBudgetPartitioner, gpus=1, api_workers=1, min_task_size=4),
             runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLInferTask)))
eval = dict(partitioner=dict(type=NaivePartitioner, n=len(datasets)),
            runner=dict(type=LocalRunner, max_num_workers=1, task=dict(type=OpenICLEvalTask)))
summarizer = dict(demo_summarizer, type=H2HTalkSummarizer)
