# The subtasks that continue a conversation, with the dialogue history as a labelled text block in one HUMAN turn
# (history_format='block': 【对话记录】…【用户的最新消息】, as upstream's templates and the paper send it). The shipped
# configs send their history as chat turns (h2htalk_common.py; the model ladder chose it, docs/validity.md); these
# are the same datasets, items, abbrs and eval cfgs in the paper's format, so an eval config swaps them in by abbr
# (H2HTALK_HISTORY_FORMAT=block in configs/eval/h2htalk_demo.py, h2htalk_smollm2.py, h2htalk_qwen_coder.py,
# h2htalk_ladder.py).
#   h2htalk_block_datasets:        dialogue_base, dialogue_emotion, dialogue_schedule, itinerary_feedback
#                                  (replace the same abbrs of h2htalk_gen.h2htalk_datasets)
#   h2htalk_block_judged_datasets: itinerary_feedback (judged), safety and the three probes
#                                  (replace the same abbrs of h2htalk_judged_gen)
#   h2htalk_block_rules_datasets:  safety and the three probes without a judge
#                                  (replace h2htalk_safety_gen and h2htalk_probe_gen)
from mmengine.config import read_base

with read_base():
    from .h2htalk_common import h2htalk_prompt_template, h2htalk_reader_cfg
    from .h2htalk_gen import h2htalk_datasets
    from .h2htalk_judged_gen import h2htalk_itinerary_judged_datasets, h2htalk_probe_datasets, h2htalk_safety_datasets
    from .h2htalk_probe_gen import h2htalk_probe_rules_datasets
    from .h2htalk_safety_gen import h2htalk_safety_rules_datasets


def __block(d):  # double underscore: mmengine keeps such names out of the dumped config
    return dict(d, history_format='block', reader_cfg=h2htalk_reader_cfg,
                infer_cfg=dict(d['infer_cfg'], prompt_template=h2htalk_prompt_template))


h2htalk_block_datasets = [__block(d) for d in h2htalk_datasets if d.get('history_format') == 'chat']
h2htalk_block_judged_datasets = [
    __block(d) for d in [*h2htalk_itinerary_judged_datasets, *h2htalk_safety_datasets, *h2htalk_probe_datasets]
    if d.get('history_format') == 'chat']
h2htalk_block_rules_datasets = [__block(d) for d in [*h2htalk_safety_rules_datasets, *h2htalk_probe_rules_datasets]]
