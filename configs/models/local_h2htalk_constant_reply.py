# Ladder reference point (issue 24, docs/validity.md): a fixed caring sentence for every item: what a reply that reads nothing earns.
# No weights, no GPU; it answers the data's own prompts, so it has no SAP twin.
from opencompass_h2htalk.models import H2HTalkReferencePoint

models = [
    dict(type=H2HTalkReferencePoint, abbr='h2htalk-constant-reply', path='constant', max_out_len=512, batch_size=32,
         run_cfg=dict(num_gpus=0)),
]
