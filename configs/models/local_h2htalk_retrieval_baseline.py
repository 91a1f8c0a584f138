# CPU lower bound shipped with the plugin: answers with the reference of the most similar
# *other* scenario of the same subtask (leave-one-out). No weights, no GPU.
from opencompass_h2htalk.models import H2HTalkRetrievalBaseline

models = [
    dict(type=H2HTalkRetrievalBaseline, abbr='h2htalk-retrieval-baseline', path='retrieval-baseline',
         max_out_len=512, batch_size=32, run_cfg=dict(num_gpus=0)),
]
