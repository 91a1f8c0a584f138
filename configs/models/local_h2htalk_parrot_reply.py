# Ladder reference point (issue 24, docs/validity.md): the user's latest message (or the prompt's last input block) said back verbatim.
# No weights, no GPU; it answers the data's own prompts, so it has no SAP twin.
from opencompass_h2htalk.models import H2HTalkReferencePoint

models = [
    dict(type=H2HTalkReferencePoint, abbr='h2htalk-parrot-reply', path='parrot', max_out_len=512, batch_size=32,
         run_cfg=dict(num_gpus=0)),
]
