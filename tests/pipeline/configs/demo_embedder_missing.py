# Test config: the demo on two subtasks with an embedder that cannot load (BGE-M3 from a directory that does not
# exist, offline), as happens to a user without BGE-M3: evaluation fails, opencompass still exits 0, and the
# summary must say which results are missing and which log to read.
from mmengine.config import read_base

with read_base():
    from ....configs.eval.h2htalk_demo import datasets as _demo_datasets
    from ....configs.eval.h2htalk_demo import eval, infer, models, summarizer

datasets = [
    dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=dict(d['eval_cfg']['evaluator'],
                                                        embedder='bge-m3:/nonexistent/h2htalk-test/bge-m3')))
    for d in _demo_datasets if d['abbr'] in ('h2htalk_dialogue_base', 'h2htalk_itinerary_feedback')
]
