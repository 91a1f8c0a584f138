"""Loader for the sampling frame (``<data_dir>/frame.json``) that the quota and vocabulary checks read.

Expected keys (extra keys are ignored; of the user roster ``users`` only each call name's age band is read)::

    {"version": "0.2.0",
     "vocab": {"emotion": [...], "topic": [...], "relationship": [...], "life_situation": [...]},
     "motifs": ["海堤骑车", "年糕", ...],
     "quotas": {"max_user_name_share": 0.01, "max_motif_share": 0.02, "min_cell": 5}}
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..data.frame import load_frame as read_frame_file

FRAME_FILE = 'frame.json'
VOCAB_KEYS = ('emotion', 'topic', 'relationship', 'life_situation')
QUOTA_KEYS = ('max_user_name_share', 'max_motif_share', 'min_cell')


class FrameError(ValueError):
    """A frame file that does not have the expected keys; the message names the file and the key."""


@dataclass(frozen=True)
class Frame:
    """What the audit needs from the sampling frame."""

    path: str
    version: str
    vocab: Dict[str, List[str]]
    motifs: List[str]
    max_user_name_share: float
    max_motif_share: float
    min_cell: int
    ages_by_call: Dict[str, str] = field(default_factory=dict)  # the roster: call name -> age band (may be empty)


def parse_frame(obj: Any, path: str = FRAME_FILE) -> Frame:
    """Checks and converts a decoded frame.

    Raises:
        FrameError: naming the file and the offending key.
    """
    def fail(key: str, message: str) -> FrameError:
        return FrameError(f'{path}: key {key!r}: {message}')

    if not isinstance(obj, dict):
        raise FrameError(f'{path}: expected a JSON object, got {type(obj).__name__}')
    for key in ('version', 'vocab', 'motifs', 'quotas'):
        if key not in obj:
            raise fail(key, 'missing')
    if not isinstance(obj['version'], str) or not obj['version']:
        raise fail('version', 'must be a non-empty string')
    vocab = obj['vocab']
    if not isinstance(vocab, dict):
        raise fail('vocab', 'must be an object')
    for key in VOCAB_KEYS:
        values = vocab.get(key)
        if not isinstance(values, list) or not values or not all(isinstance(v, str) and v for v in values):
            raise fail(f'vocab.{key}', 'must be a non-empty list of non-empty strings')
        if len(set(values)) != len(values):
            raise fail(f'vocab.{key}', 'has repeated values')
    motifs = obj['motifs']
    if not isinstance(motifs, list) or not all(isinstance(m, str) and m for m in motifs):
        raise fail('motifs', 'must be a list of non-empty strings')
    quotas = obj['quotas']
    if not isinstance(quotas, dict):
        raise fail('quotas', 'must be an object')
    for key in QUOTA_KEYS:
        if key not in quotas:
            raise fail(f'quotas.{key}', 'missing')
    for key in ('max_user_name_share', 'max_motif_share'):
        v = quotas[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
            raise fail(f'quotas.{key}', f'must be a number in (0, 1], got {v!r}')
    if isinstance(quotas['min_cell'], bool) or not isinstance(quotas['min_cell'], int) or quotas['min_cell'] < 0:
        raise fail('quotas.min_cell', f'must be an integer >= 0, got {quotas["min_cell"]!r}')
    # Further closed vocabularies (e.g. time_of_day, tone) are checked against the tag of the same name.
    for key, values in vocab.items():
        if key not in VOCAB_KEYS and (not isinstance(values, list) or not all(isinstance(v, str) and v
                                                                              for v in values)):
            raise fail(f'vocab.{key}', 'must be a list of non-empty strings')
    # The roster is optional (a hand-made frame has none); only well-formed users count for the casting check.
    users = obj.get('users') if isinstance(obj.get('users'), list) else []
    ages = {u['call']: u['age_band'] for u in users if isinstance(u, dict) and isinstance(u.get('call'), str)
            and isinstance(u.get('age_band'), str)}
    return Frame(path, obj['version'], {k: list(v) for k, v in vocab.items()}, list(motifs),
                 float(quotas['max_user_name_share']), float(quotas['max_motif_share']), int(quotas['min_cell']),
                 ages)


def load_frame(data_dir: str) -> Optional[Frame]:
    """The frame of a data directory, or None when it has no ``frame.json``.

    Raises:
        FrameError: the file exists but is not valid JSON or lacks a key.
    """
    path = os.path.join(data_dir, FRAME_FILE)
    if not os.path.exists(path):  # a directory named frame.json is an error below, not a missing frame
        return None
    try:
        obj = read_frame_file(data_dir)  # the data layer's reader; its error names file:line
    except ValueError as e:
        raise FrameError(str(e)) from None
    return parse_frame(obj, path)
