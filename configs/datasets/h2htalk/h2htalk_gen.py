# All 11 H2HTalk-Open subtasks (dialogue, recollection, itinerary), in report order.
from mmengine.config import read_base

with read_base():
    from .h2htalk_dialogue_base_gen import h2htalk_dialogue_base_datasets
    from .h2htalk_dialogue_emotion_gen import h2htalk_dialogue_emotion_datasets
    from .h2htalk_dialogue_schedule_gen import h2htalk_dialogue_schedule_datasets
    from .h2htalk_recollection_synthesize_gen import h2htalk_recollection_synthesize_datasets
    from .h2htalk_recollection_refine_gen import h2htalk_recollection_refine_datasets
    from .h2htalk_recollection_initialize_gen import h2htalk_recollection_initialize_datasets
    from .h2htalk_itinerary_basic_gen import h2htalk_itinerary_basic_datasets
    from .h2htalk_itinerary_middle_gen import h2htalk_itinerary_middle_datasets
    from .h2htalk_itinerary_advanced_gen import h2htalk_itinerary_advanced_datasets
    from .h2htalk_itinerary_feedback_gen import h2htalk_itinerary_feedback_datasets
    from .h2htalk_itinerary_initialize_gen import h2htalk_itinerary_initialize_datasets

h2htalk_datasets = [
    *h2htalk_dialogue_base_datasets,
    *h2htalk_dialogue_emotion_datasets,
    *h2htalk_dialogue_schedule_datasets,
    *h2htalk_recollection_synthesize_datasets,
    *h2htalk_recollection_refine_datasets,
    *h2htalk_recollection_initialize_datasets,
    *h2htalk_itinerary_basic_datasets,
    *h2htalk_itinerary_middle_datasets,
    *h2htalk_itinerary_advanced_datasets,
    *h2htalk_itinerary_feedback_datasets,
    *h2htalk_itinerary_initialize_datasets,
]
