"""Chain checks (schema 1.1 ``chain``/``stage``): the stages of one story follow a pipeline and each stage's
input is the previous stage's reference."""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Collection, Dict, List, Optional, Tuple

from .grounding import parse_schedule_lines, parse_synthesize
from .model import Finding, Record, history, schedule
from .text import bigram_cover, normalize

#: The paper's two pipelines, stage 1 first. Stage 1 of the memory pipeline is any dialogue subtask.
RECOLLECTION_PIPELINE = ('dialogue', 'recollection_synthesize', 'recollection_refine', 'recollection_initialize')
ITINERARY_PIPELINE = ('itinerary_basic', 'itinerary_middle', 'itinerary_advanced', 'itinerary_feedback',
                      'itinerary_initialize')
#: A feedback/initialize stage's current activity is "taken from" the previous stage when at least this share of
#: its character bigrams occurs there (it is a moment of the plan, reworded as what is happening now).
ACTIVITY_FROM_PLAN = 0.5


def _stage_name(subtask: str) -> str:
    return 'dialogue' if subtask.startswith('dialogue_') else subtask


def _dialogue_to_synthesize(prev: Record, nxt: Record) -> Optional[str]:
    said = [normalize(t['content']) for t in history(nxt)]
    if normalize(prev.reference) not in said:
        return 'its history does not contain the previous stage\'s reference as a turn'
    msg = prev.inputs.get('user_message')
    if isinstance(msg, str) and normalize(msg) not in said:
        return 'its history does not contain the previous stage\'s user_message'
    return None


def _synthesize_to_refine(prev: Record, nxt: Record) -> Optional[str]:
    facts = [normalize(content) for _, _, content, _ in parse_synthesize(prev.reference)[0]]
    memories = [normalize(m) for m in nxt.inputs.get('memories') or [] if isinstance(m, str)]
    if not any(m in facts for m in memories):
        return 'its memory is none of the facts the previous stage extracted'
    return None


def _refine_to_initialize(prev: Record, nxt: Record) -> Optional[str]:
    wanted = {normalize(prev.reference)} | {normalize(m) for m in prev.inputs.get('memories') or []
                                            if isinstance(m, str)}
    memories = {normalize(m) for m in nxt.inputs.get('memories') or [] if isinstance(m, str)}
    if not wanted & memories:
        return 'its memories contain neither the previous stage\'s memory nor its rewrite'
    return None


def _basic_to_middle(prev: Record, nxt: Record) -> Optional[str]:
    if normalize(nxt.inputs.get('day_overview') or '') != normalize(prev.reference):
        return 'its day_overview is not the previous stage\'s reference'
    return None


def _middle_to_advanced(prev: Record, nxt: Record) -> Optional[str]:
    planned = [(t, normalize(a)) for t, a in parse_schedule_lines(prev.reference)]
    given = []
    for e in schedule(nxt):
        h, m = e['time'].split(':')
        given.append((int(h) * 60 + int(m), normalize(e['activity'])))
    if planned != given:
        return 'its today_schedule is not the previous stage\'s timed schedule'
    return None


def _advanced_to_feedback(prev: Record, nxt: Record) -> Optional[str]:
    current = nxt.inputs.get('current_activity') or ''
    slot = prev.inputs.get('time_slot') or {}
    source = prev.reference + '\n' + str(slot.get('activity', ''))
    if bigram_cover(current, source) < ACTIVITY_FROM_PLAN:
        return 'its current_activity is not a moment of the previous stage\'s plan'
    return None


def _feedback_to_initialize(prev: Record, nxt: Record) -> Optional[str]:
    current = nxt.inputs.get('current_activity') or ''
    if bigram_cover(current, prev.inputs.get('current_activity') or '') < ACTIVITY_FROM_PLAN:
        return 'its current_activity is not the previous stage\'s current_activity'
    return None


LINKS: Dict[Tuple[str, str], Callable[[Record, Record], Optional[str]]] = {
    ('dialogue', 'recollection_synthesize'): _dialogue_to_synthesize,
    ('recollection_synthesize', 'recollection_refine'): _synthesize_to_refine,
    ('recollection_refine', 'recollection_initialize'): _refine_to_initialize,
    ('itinerary_basic', 'itinerary_middle'): _basic_to_middle,
    ('itinerary_middle', 'itinerary_advanced'): _middle_to_advanced,
    ('itinerary_advanced', 'itinerary_feedback'): _advanced_to_feedback,
    ('itinerary_feedback', 'itinerary_initialize'): _feedback_to_initialize,
}


PIPELINES: Dict[str, Tuple[str, ...]] = {'recollection': RECOLLECTION_PIPELINE, 'itinerary': ITINERARY_PIPELINE}


def _stages_problem(chain_id: str, members: List[Record]) -> str:
    """Why a chain's stages are not 1, 2, ... each once, against the stage count of its pipeline (not the
    number of records the chain happens to have)."""
    stages = [r.stage for r in members]
    names = {_stage_name(r.subtask) for r in members}
    kinds = [k for k, p in PIPELINES.items() if names & set(p)]
    if len(kinds) == 1:
        pipeline = PIPELINES[kinds[0]]
        size, where = len(pipeline), f'the {kinds[0]} pipeline: {" -> ".join(pipeline)}'
    else:  # records of both pipelines (or of neither): no single pipeline to count against
        size = max(len(p) for p in PIPELINES.values())
        where = 'one pipeline: ' + ' or '.join(f'{k}, {len(p)} stages' for k, p in PIPELINES.items())
    valid = [s for s in stages if s is not None]
    top = min(max(valid, default=1), size)
    parts = []
    missing = [s for s in range(1, top + 1) if s not in valid]
    repeated = sorted({s for s in valid if valid.count(s) > 1})
    beyond = sorted({s for s in valid if s > size})
    if missing:
        parts.append(f'missing {missing}')
    if repeated:
        parts.append(f'repeated {repeated}')
    if beyond:
        parts.append(f'beyond the last stage {beyond}')
    if len(valid) < len(stages):
        parts.append(f'{len(stages) - len(valid)} record(s) without an integer stage')
    return (f'chain {chain_id!r} has stages {stages}; expected 1, 2, ... each once, at most {size} ({where}): '
            f'{", ".join(parts) or "out of order"}')


def check_chains(records: List[Record], reported: Collection[str] = ()) -> List[Finding]:
    """Stages of each chain are 1..n of one pipeline, share persona and user, and link input to reference.

    Args:
        records: The schema-valid records.
        reported: Ids of chains with a record that failed the schema check; such a chain misses that stage for a
            reason already reported at the record's file:line, so it is not checked again (one bad line, one
            finding).
    """
    chains: Dict[str, List[Record]] = defaultdict(list)
    out = []
    for r in records:
        if r.chain is None:
            if r.stage is not None:
                out.append(r.finding('chain.stages', 'has a stage but no chain'))
            continue
        chains[r.chain].append(r)
    for chain_id, members in chains.items():
        if chain_id in reported:
            continue
        members.sort(key=lambda r: (r.stage if r.stage is not None else 0))
        stages = [r.stage for r in members]
        if stages != list(range(1, len(members) + 1)):
            out.append(members[-1].finding('chain.stages', _stages_problem(chain_id, members)))
            continue
        names = tuple(_stage_name(r.subtask) for r in members)
        pipeline = next((p for p in (RECOLLECTION_PIPELINE, ITINERARY_PIPELINE) if names == p[:len(names)]), None)
        if pipeline is None:
            out.append(members[0].finding('chain.stages', f'chain {chain_id!r} runs {list(names)}, which is no prefix '
                                                          f'of {list(RECOLLECTION_PIPELINE)} or '
                                                          f'{list(ITINERARY_PIPELINE)}'))
            continue
        personas = {r.persona for r in members}
        users = {r.inputs['user_name'] for r in members if isinstance(r.inputs.get('user_name'), str)}
        if len(personas) > 1 or len(users) > 1:
            out.append(members[0].finding('chain.stages', f'chain {chain_id!r} mixes personas {sorted(personas)} or '
                                                          f'users {sorted(users)}'))
        for prev, nxt in zip(members, members[1:]):
            problem = LINKS[(_stage_name(prev.subtask), _stage_name(nxt.subtask))](prev, nxt)
            if problem:
                out.append(nxt.finding('chain.link', f'chain {chain_id!r} stage {nxt.stage}: {problem} '
                                                     f'({prev.where()})'))
    return out
