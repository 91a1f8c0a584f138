"""Distribution checks: reference length spread, one-template openers, closed tag vocabularies and the sampling
frame's quotas (user names, motifs, emotion/topic cells)."""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Dict, List, Optional, Tuple

from . import thresholds as T
from .frame import Frame
from .model import Finding, Record
from .text import char_ngrams, normalize


def _by_subtask(records: List[Record]) -> Dict[str, List[Record]]:
    groups: Dict[str, List[Record]] = defaultdict(list)
    for r in records:
        groups[r.subtask].append(r)
    return groups


def length_cv(lengths: List[int]) -> float:
    """Coefficient of variation (population std / mean) of a list of lengths."""
    mean = statistics.fmean(lengths)
    return statistics.pstdev(lengths) / mean if mean else 0.0


def check_length_spread(records: List[Record]) -> List[Finding]:
    """Per subtask: the reference length CV is at least ``MIN_LENGTH_CV`` (a file-level finding, line 0)."""
    out = []
    for subtask, group in _by_subtask(records).items():
        if len(group) < T.MIN_RECORDS_FOR_CV:
            continue
        cv = length_cv([len(r.reference) for r in group])
        if cv < T.MIN_LENGTH_CV:
            out.append(Finding(group[0].path, 0, 'dist.length_spread',
                               f'{subtask}: reference length CV {cv:.3f} < {T.MIN_LENGTH_CV} (lengths look targeted; '
                               f'upstream ranges 0.13-0.36)'))
    return out


#: Openers that turn against what came before; a probe set where most messages pivot this way tests a template.
ADVERSATIVE = ('可是', '可', '但是', '但', '不过', '算了', '然而', '只是', '其实', '可惜')


def opener_class(message: str) -> str:
    """'adversative' for a message opening with a turning connective, else its first two characters."""
    s = normalize(message).lstrip('…')
    if s.startswith(ADVERSATIVE):
        return 'adversative'
    return s[:2]


def check_opener_template(records: List[Record]) -> List[Finding]:
    """Per subtask: no opener class covers more than ``MAX_OPENER_SHARE`` of the user messages."""
    out = []
    for subtask, group in _by_subtask(records).items():
        msgs = [(r, r.inputs.get('user_message')) for r in group]
        msgs = [(r, m) for r, m in msgs if isinstance(m, str) and m.strip()]
        if len(msgs) < T.MIN_RECORDS_FOR_OPENER:
            continue
        classes = Counter(opener_class(m) for _, m in msgs)
        top, count = classes.most_common(1)[0]
        share = count / len(msgs)
        if share <= T.MAX_OPENER_SHARE:
            continue
        for r, m in msgs:
            if opener_class(m) == top:
                out.append(r.finding('dist.opener_template', f'user_message opens like {count} of {len(msgs)} '
                                                             f'{subtask} messages ({top!r}, {share:.0%} > '
                                                             f'{T.MAX_OPENER_SHARE:.0%})'))
    return out


def key_fact_distance(record: Record) -> Optional[int]:
    """probe_context_aware: how many history turns follow the user turn that holds the key fact (the user turn
    sharing most character bigrams with the ``need`` tag); None without a history or a need."""
    turns = [t for t in record.inputs.get('history') or [] if isinstance(t, dict) and isinstance(t.get('content'), str)]
    need = record.tags.get('need')
    if not turns or not isinstance(need, str):
        return None
    grams = char_ngrams(need, 2)
    scores = [len(grams & char_ngrams(t['content'], 2)) if t.get('role') == 'user' else -1 for t in turns]
    best = max(range(len(turns)), key=lambda k: scores[k])
    return len(turns) - best


def check_context_distance(records: List[Record]) -> List[Finding]:
    """probe_context_aware: at least ``MIN_FAR_CONTEXT_SHARE`` of the key facts lie more than
    ``FAR_CONTEXT_TURNS`` turns back (a file-level finding, line 0)."""
    group = [r for r in records if r.subtask == 'probe_context_aware']
    distances = [d for d in (key_fact_distance(r) for r in group) if d is not None]
    if len(distances) < T.MIN_RECORDS_FOR_OPENER:
        return []
    share = sum(1 for d in distances if d > T.FAR_CONTEXT_TURNS) / len(distances)
    if share >= T.MIN_FAR_CONTEXT_SHARE:
        return []
    return [Finding(group[0].path, 0, 'dist.context_distance',
                    f'probe_context_aware: {share:.0%} of key facts lie more than {T.FAR_CONTEXT_TURNS} turns back '
                    f'(< {T.MIN_FAR_CONTEXT_SHARE:.0%}; farthest {max(distances)})')]


def check_vocab(record: Record, frame: Frame) -> List[Finding]:
    """Tags named in the frame's closed vocabularies (emotion, topic, relationship, life_situation and any other
    vocabulary the frame lists, e.g. time_of_day) take one of its values."""
    out = []
    for key in frame.vocab:
        value = record.tags.get(key)
        if value is not None and value not in frame.vocab[key]:
            out.append(record.finding('dist.vocab', f'tags.{key} {value!r} is not in the frame vocabulary '
                                                    f'({len(frame.vocab[key])} values in {frame.path})'))
    return out


def _story(r: Record) -> str:
    """A chain is one story: its stages share a user and motifs by design."""
    return f'chain:{r.chain}' if r.chain else f'id:{r.id}'


def quota_cap(share: float, n_stories: int) -> int:
    """Most stories a name or motif may appear in: the share of all stories, never below ``MIN_QUOTA_FLOOR``."""
    return max(T.MIN_QUOTA_FLOOR, int(share * n_stories))


def _over_quota(records: List[Record], keys_of, share: float, check: str, what: str) -> List[Finding]:
    n_stories = len({_story(r) for r in records})
    cap = quota_cap(share, n_stories)
    stories: Dict[str, List[str]] = defaultdict(list)
    owners: Dict[str, List[Record]] = defaultdict(list)
    for r in records:
        for key in keys_of(r):
            owners[key].append(r)
            if _story(r) not in stories[key]:
                stories[key].append(_story(r))
    out = []
    for key, recs in owners.items():
        if len(stories[key]) <= cap:
            continue
        allowed = set(stories[key][:cap])
        for r in recs:
            if _story(r) not in allowed:
                out.append(r.finding(check, f'{what} {key!r} is in {len(stories[key])} of {n_stories} scenarios '
                                            f'(cap {cap} = max({T.MIN_QUOTA_FLOOR}, {share:.0%}))'))
    return out


def check_user_name_quota(records: List[Record], frame: Frame) -> List[Finding]:
    """No user name in more than the frame's share of scenarios (records past the cap are reported)."""
    def names(r: Record) -> List[str]:
        name = r.inputs.get('user_name')
        return [name] if isinstance(name, str) and name.strip() else []

    return _over_quota(records, names, frame.max_user_name_share, 'dist.user_name_quota', 'user name')


def record_text(r: Record) -> str:
    """All strings of a record's inputs and its reference."""
    parts: List[str] = [r.reference]

    def walk(v):
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(r.inputs)
    return '\n'.join(parts)


def check_motif_quota(records: List[Record], frame: Frame) -> List[Finding]:
    """No motif of the frame (a plain substring) in more than the frame's share of scenarios."""
    def motifs(r: Record) -> List[str]:
        text = record_text(r)
        return [m for m in frame.motifs if m in text]

    return _over_quota(records, motifs, frame.max_motif_share, 'dist.motif_quota', 'motif')


def cell_counts(records: List[Record]) -> Dict[Tuple[str, str], int]:
    """(tag, value) -> records, for the emotion and topic tags."""
    counts: Dict[Tuple[str, str], int] = Counter()
    for r in records:
        for key in ('emotion', 'topic'):
            value = r.tags.get(key)
            if isinstance(value, str):
                counts[(key, value)] += 1
    return counts


def min_cell_required(min_cell: int, n_records: int) -> int:
    """Records each emotion/topic value needs in a set of ``n_records``: ``min_cell``'s share of the 1.0 size.

    >>> min_cell_required(40, 5300), min_cell_required(40, 2650), min_cell_required(40, 9000)
    (40, 20, 40)
    """
    if n_records >= T.CELL_QUOTA_SCALE:
        return min_cell
    return max(1, min_cell * n_records // T.CELL_QUOTA_SCALE)


def check_min_cell(records: List[Record], frame: Frame) -> Tuple[List[Finding], List[str]]:
    """Every emotion and topic value of the frame has its share of ``min_cell`` records.

    ``min_cell`` is the minimum at the 1.0 size (``CELL_QUOTA_SCALE`` records); a smaller set needs the same share
    (:func:`min_cell_required`). Enforced from ``MIN_RECORDS_FOR_CELL_QUOTA`` records on; below that, and for the
    gap to the full ``min_cell``, the shortfall is returned as notices.
    """
    counts = cell_counts(records)
    short = [(k, v, counts.get((k, v), 0)) for k in ('emotion', 'topic') for v in frame.vocab[k]
             if counts.get((k, v), 0) < frame.min_cell]
    if not short:
        return [], []
    if len(records) < T.MIN_RECORDS_FOR_CELL_QUOTA:
        return [], [f'min_cell: {len(short)} emotion/topic values below {frame.min_cell} records (not enforced below '
                    f'{T.MIN_RECORDS_FOR_CELL_QUOTA} records)']
    required = min_cell_required(frame.min_cell, len(records))
    notices = []
    if required < frame.min_cell:
        notices.append(f'min_cell: {len(short)} emotion/topic values below the 1.0 minimum of {frame.min_cell} '
                       f'records; at {len(records)} records each needs {required} (its share of '
                       f'{T.CELL_QUOTA_SCALE})')
    return [Finding(frame.path, 0, 'dist.min_cell',
                    f'tags.{k} {v!r}: {n} records < {required} (min_cell {frame.min_cell} at {T.CELL_QUOTA_SCALE} '
                    f'records, scaled to {len(records)})')
            for k, v, n in short if n < required], notices


def key_turn(record: Record) -> Tuple[Optional[int], Optional[str]]:
    """probe_context_aware: (index of the history turn holding the key fact, None) from ``tags.key_turn``, or
    (None, why the tag is unusable)."""
    turns = record.inputs.get('history') or []
    raw = record.tags.get('key_turn')
    if raw is None:
        return None, 'no tags.key_turn (the 0-based index of the history turn that states the key fact)'
    try:
        k = int(str(raw))
    except ValueError:
        return None, f'tags.key_turn {raw!r} is not an integer'
    if not 0 <= k < len(turns):
        return None, f'tags.key_turn {k} is outside the history (0-{len(turns) - 1})'
    if not isinstance(turns[k], dict) or turns[k].get('role') != 'user':
        return None, f'tags.key_turn {k} is not a user turn'
    return k, None


def key_position(index: int, n_turns: int) -> str:
    """'early', 'middle' or 'late': the third of the history a turn lies in."""
    return 'early' if index < n_turns / 3 else ('middle' if index < 2 * n_turns / 3 else 'late')


def check_key_fact_position(records: List[Record]) -> List[Finding]:
    """probe_context_aware: every record names its key-fact turn; no position holds more than
    MAX_KEY_POSITION_SHARE of them, and at least MIN_LONG_CONTEXT_SHARE of histories are long."""
    group = [r for r in records if r.subtask == 'probe_context_aware']
    out, positions = [], Counter()
    for r in group:
        k, problem = key_turn(r)
        if problem:
            out.append(r.finding('dist.key_fact_position', problem))
        else:
            positions[key_position(k, len(r.inputs['history']))] += 1
    n = sum(positions.values())
    if n >= T.MIN_RECORDS_FOR_OPENER:
        top, count = positions.most_common(1)[0]
        if count / n > T.MAX_KEY_POSITION_SHARE:
            out.append(Finding(group[0].path, 0, 'dist.key_fact_position',
                               f'probe_context_aware: {count} of {n} key facts ({count / n:.0%}) are {top} in the '
                               f'history (> {T.MAX_KEY_POSITION_SHARE:.0%}); positions {dict(positions)}'))
        long = sum(1 for r in group if len(r.inputs.get('history') or []) >= T.LONG_CONTEXT_TURNS)
        if long / len(group) < T.MIN_LONG_CONTEXT_SHARE:
            out.append(Finding(group[0].path, 0, 'dist.key_fact_position',
                               f'probe_context_aware: {long} of {len(group)} histories ({long / len(group):.0%}) '
                               f'have {T.LONG_CONTEXT_TURNS}+ turns (< {T.MIN_LONG_CONTEXT_SHARE:.0%})'))
    return out
