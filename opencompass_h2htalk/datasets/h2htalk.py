"""``H2HTalkDataset``: one H2HTalk-Open subtask as an OpenCompass dataset."""
from __future__ import annotations

from typing import Optional

from datasets import Dataset
from opencompass.datasets.base import BaseDataset
from opencompass.registry import LOAD_DATASET

from ..data.loader import data_fingerprint, load_rows


@LOAD_DATASET.register_module()
class H2HTalkDataset(BaseDataset):
    """Loads ``<data_dir>/<subtask>.jsonl`` after checking it against the manifest.

    Dataset config keys (besides ``abbr``/``reader_cfg``/``infer_cfg``/``eval_cfg``):
    ``subtask`` (required), ``data_dir`` (default ``$H2HTALK_DATA`` or the bundled
    H2HTalk-Open data), ``verify`` (manifest check, default on) and ``history_format`` (``'block'``, the default:
    the history as a labelled block in the HUMAN turn; ``'chat'``: real HUMAN/BOT turns, for the subtasks of
    :data:`~opencompass_h2htalk.data.prompts.CHAT_SUBTASKS` only, sent by ``H2HTalkChatPromptTemplate``).

    Columns: ``id, subtask, dimension, persona, persona_name, language, system_prompt, user_prompt, reference, inputs,
    tags, source_sha256, prompt_hash, data_version, subtask_items, history_format`` (``subtask_items``: the records in
    the whole file, so that a result scored on a ``test_range`` can say how many of how many it scored), and
    ``messages`` in chat mode.
    """

    @staticmethod
    def load(subtask: str, data_dir: Optional[str] = None, verify: bool = True,
             history_format: str = 'block') -> Dataset:
        rows = load_rows(subtask, data_dir, verify, history_format)
        fp = data_fingerprint(subtask, data_dir, history_format)
        for row in rows:
            row['history_format'] = history_format  # recorded in every result's meta
            row['source_sha256'] = fp['file_sha256'] or ''
            row['prompt_hash'] = fp['prompt_hash']
            row['data_version'] = fp['version'] or ''  # the manifest's version, recorded in every result's meta
            row['subtask_items'] = len(rows)
        return Dataset.from_list(rows)
