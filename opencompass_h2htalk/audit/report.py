"""Distribution report of a data directory: counts against the 1.0 targets, and the frame's quotas as measured.

``h2htalk audit --report`` prints it after the findings, so anyone can see how far the data is from paper scale
and whether the cast, the tags and the motifs stay within the quotas (issue 10). Pure: it reads records that the
audit already loaded.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from statistics import mean
from typing import Dict, List, Optional

from ..data.schema import RISK_CATEGORIES
from .distribution import _story, length_cv, quota_cap, record_text
from .frame import Frame
from .model import Record

#: Records per subtask of H2HTalk-Open 1.0 (issue 10: the paper's 4,650 core scenarios, 200 safety, 450 probes).
TARGETS_1_0: Dict[str, int] = {
    'dialogue_base': 700, 'dialogue_emotion': 500, 'dialogue_schedule': 400,
    'recollection_synthesize': 450, 'recollection_refine': 400, 'recollection_initialize': 350,
    'itinerary_basic': 350, 'itinerary_middle': 350, 'itinerary_advanced': 350,
    'itinerary_feedback': 400, 'itinerary_initialize': 400,
    'safety': 200, 'probe_implicit_help': 150, 'probe_ambiguous': 150, 'probe_context_aware': 150,
}
#: Each safety risk category needs at least this many records at 1.0 (issue 10).
MIN_PER_RISK_CATEGORY = 15
NOTHING_TO_RECORD = '无可记录的信息'


def _table(header: List[str], rows: List[List[object]]) -> List[str]:
    out = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    out += ['| ' + ' | '.join(str(c) for c in row) + ' |' for row in rows]
    return out


def _subtask_rows(records: List[Record]) -> List[List[object]]:
    by_subtask: Dict[str, List[Record]] = defaultdict(list)
    for r in records:
        by_subtask[r.subtask].append(r)
    rows = []
    for subtask in [*TARGETS_1_0, *sorted(set(by_subtask) - set(TARGETS_1_0))]:
        recs = by_subtask.get(subtask, [])
        target = TARGETS_1_0.get(subtask)
        lengths = [len(r.reference) for r in recs]
        chained = sum(r.chain is not None for r in recs)
        extra = ''
        if subtask == 'recollection_synthesize' and recs:
            extra = f'{NOTHING_TO_RECORD}: {sum(r.reference.strip() == NOTHING_TO_RECORD for r in recs) / len(recs):.0%}'
        rows.append([subtask, len(recs), target if target is not None else '-',
                     f'{len(recs) / target:.0%}' if target else '-',
                     f'{chained} ({chained / len(recs):.0%})' if recs else '0',
                     f'{mean(lengths):.1f}' if lengths else '-', f'{length_cv(lengths):.2f}' if len(lengths) > 1 else '-',
                     extra])
    return rows


def distribution_report(records: List[Record], frame: Optional[Frame]) -> str:
    """The report as Markdown: subtasks vs targets, personas, user names, emotion/topic cells, motifs, risks.

    Args:
        records: Every record of the data directory (as :func:`audit.runner.load_records` returns them).
        frame: The sampling frame, or ``None`` (then the quota sections say they have nothing to compare with).
    """
    lines = [f'# Distribution report ({len(records)} records)', '', '## Records per subtask (target: data 1.0)', '']
    lines += _table(['subtask', 'records', 'target', 'of target', 'chained', 'mean length', 'length CV', 'note'],
                    _subtask_rows(records))
    core = [r for r in records if r.subtask in TARGETS_1_0]
    total, target = len(core), sum(TARGETS_1_0.values())
    lines += ['', f'Total: {total} of {target} target records ({total / target:.0%}).']

    personas = Counter(r.persona for r in records)
    lines += ['', f'## Personas ({len(personas)})', '']
    lines += _table(['persona', 'records', 'share'],
                    [[p, n, f'{n / len(records):.1%}'] for p, n in personas.most_common()])

    stories = len({_story(r) for r in records})
    names: Dict[str, set] = defaultdict(set)
    for r in records:
        name = r.inputs.get('user_name')
        if isinstance(name, str) and name.strip():
            names[name].add(_story(r))
    lines += ['', '## User names', '']
    if names:
        top = sorted(names.items(), key=lambda kv: -len(kv[1]))[:5]
        cap = quota_cap(frame.max_user_name_share, stories) if frame else None
        lines.append(f'{len(names)} distinct names in {sum(len(s) for s in names.values())} named scenarios; '
                     f'most used: ' + ', '.join(f'{n} ({len(s)})' for n, s in top)
                     + (f'; cap {cap} scenarios ({frame.max_user_name_share:.0%} of {stories})' if frame else ''))
    else:
        lines.append('no record names its user')

    for key in ('emotion', 'topic'):
        counts = Counter(r.tags.get(key) for r in records if isinstance(r.tags.get(key), str))
        lines += ['', f'## {key.capitalize()} tags', '']
        values = frame.vocab.get(key, []) if frame else sorted(counts)
        below = [v for v in values if counts.get(v, 0) < frame.min_cell] if frame else []
        lines.append(', '.join(f'{v} {counts.get(v, 0)}' for v in values))
        if frame:
            lines.append(f'min_cell {frame.min_cell}: {len(below)} of {len(values)} values below'
                         + (f' ({", ".join(below)})' if below else ''))

    lines += ['', '## Motifs', '']
    if frame:
        cap = quota_cap(frame.max_motif_share, stories)
        motif_stories: Dict[str, set] = defaultdict(set)
        for r in records:
            text = record_text(r)
            for m in frame.motifs:
                if m in text:
                    motif_stories[m].add(_story(r))
        top = sorted(motif_stories.items(), key=lambda kv: -len(kv[1]))[:10]
        lines.append(f'cap {cap} scenarios ({frame.max_motif_share:.0%} of {stories}); most used: '
                     + (', '.join(f'{m} {len(s)}' for m, s in top) or 'none'))
    else:
        lines.append('no sampling frame: nothing to compare with')

    risks = Counter(r.tags.get('risk_category') for r in records if r.subtask == 'safety')
    if risks:
        lines += ['', f'## Safety risk categories (target ≥ {MIN_PER_RISK_CATEGORY} each)', '']
        lines.append(', '.join(f'{c} {risks.get(c, 0)}' for c in RISK_CATEGORIES))
    return '\n'.join(lines) + '\n'


__all__ = ['MIN_PER_RISK_CATEGORY', 'TARGETS_1_0', 'distribution_report']
