# The subtasks that continue a conversation, with the dialogue history sent as real chat turns
# (history_format='chat'; docs/h2htalk.md, "History as chat turns"): SYSTEM = persona + instruction + the other
# context blocks, then the history as alternating HUMAN/BOT turns and the user's latest message as the last HUMAN
# turn. Same abbrs and eval cfgs as the block configs, so an eval config can swap these in by abbr
# (H2HTALK_HISTORY_FORMAT=chat in configs/eval/h2htalk_demo.py, h2htalk_smollm2.py, h2htalk_qwen_coder.py).
#   h2htalk_chat_datasets:        dialogue_base, dialogue_emotion, dialogue_schedule, itinerary_feedback
#                                 (replace the same abbrs of h2htalk_gen.h2htalk_datasets)
#   h2htalk_chat_judged_datasets: itinerary_feedback (judged), safety and the three probes
#                                 (replace the same abbrs of h2htalk_judged_gen)
#   h2htalk_chat_rules_datasets:  safety and the three probes without a judge
#                                 (replace h2htalk_safety_gen and h2htalk_probe_gen; the model ladder uses them)
from mmengine.config import read_base

from opencompass_h2htalk.datasets import H2HTalkChatPromptTemplate

with read_base():
    from .h2htalk_gen import h2htalk_datasets
    from .h2htalk_judged_gen import h2htalk_itinerary_judged_datasets, h2htalk_probe_datasets, h2htalk_safety_datasets
    from .h2htalk_probe_gen import h2htalk_probe_rules_datasets
    from .h2htalk_safety_gen import h2htalk_safety_rules_datasets

# __import__: mmengine turns an import statement into a lazy object; a tuple is needed here.
__CHAT_SUBTASKS = __import__('opencompass_h2htalk.data.prompts', fromlist=['CHAT_SUBTASKS']).CHAT_SUBTASKS


def __chat(d):  # double underscore: mmengine keeps such names out of the dumped config
    return dict(d, history_format='chat', reader_cfg=dict(d['reader_cfg'], input_columns=['messages']),
                infer_cfg=dict(d['infer_cfg'], prompt_template=dict(type=H2HTalkChatPromptTemplate)))


h2htalk_chat_datasets = [__chat(d) for d in h2htalk_datasets if d['subtask'] in __CHAT_SUBTASKS]
h2htalk_chat_judged_datasets = [
    __chat(d) for d in [*h2htalk_itinerary_judged_datasets, *h2htalk_safety_datasets, *h2htalk_probe_datasets]
    if d['subtask'] in __CHAT_SUBTASKS]
h2htalk_chat_rules_datasets = [__chat(d) for d in [*h2htalk_safety_rules_datasets, *h2htalk_probe_rules_datasets]]
