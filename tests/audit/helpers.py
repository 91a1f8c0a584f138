"""Tiny record builders for the audit's literal tests."""
from opencompass_h2htalk.audit.model import Record


def rec(subtask, inputs, reference='好的。', persona='lin_che', tags=None, line=1, rid=None, **extra):
    """A Record of ``subtask`` at ``<subtask>.jsonl:line``."""
    data = {'id': rid or f'{subtask}-{line:03d}', 'subtask': subtask, 'persona': persona, 'inputs': inputs,
            'reference': reference, 'tags': tags or {}}
    data.update(extra)
    return Record(f'{subtask}.jsonl', line, data)


def checks(findings):
    """The check names of a list of findings."""
    return [f.check for f in findings]
