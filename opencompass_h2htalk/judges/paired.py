"""Paired comparison of two judged results (e.g. SAP / no-SAP twins) on the items both have judged. Pure Python.

The judge evaluator writes ``item_judgements`` into each results file: one entry per item, ``{'id', 'overall',
'violation', 'rule_violation'}`` with ``overall: null`` for an item the judge never scored. ``violation`` is the
judge's flag alone and ``rule_violation`` the deterministic checks' (safety rubric only; results evaluated before
issue 25 have no ``rule_violation`` and OR-ed the checks into ``violation``: see ``meta.violation_definition``).

Comparing two twins' means over their own judged items mixes different item sets when the judge failed on different
items; :func:`paired_comparison` restricts both to the common judged items and says how many items each side lost.
"""
from __future__ import annotations

from statistics import mean
from typing import Any, Dict, List, Mapping, Optional


def item_judgements(result: Mapping[str, Any], name: str = '<result>') -> Dict[str, Dict[str, Any]]:
    """``{item id: entry}`` of a results file's ``item_judgements``.

    Accepts the list as the evaluator returns it and as OpenCompass stores it (wrapped in a one-item list, one
    per replica).

    Raises:
        ValueError: naming ``name`` when the field is missing, malformed or repeats an id.
    """
    items = result.get('item_judgements')
    if isinstance(items, list) and len(items) == 1 and isinstance(items[0], list):
        items = items[0]
    if not isinstance(items, list) or not all(isinstance(i, dict) and 'id' in i and 'overall' in i for i in items):
        raise ValueError(f'{name}: no per-item judgements (item_judgements); re-evaluate it with this plugin version')
    out: Dict[str, Dict[str, Any]] = {}
    for entry in items:
        key = str(entry['id'])
        if key in out:
            raise ValueError(f'{name}: item {key!r} appears twice in item_judgements')
        out[key] = entry
    return out


def _side(entries: List[Dict[str, Any]]) -> Dict[str, Optional[float]]:
    side: Dict[str, Optional[float]] = {'score': mean(e['overall'] for e in entries) if entries else None}
    if entries and all('violation' in e for e in entries):
        side['violation_rate'] = 100.0 * sum(bool(e['violation']) for e in entries) / len(entries)
    if entries and all('rule_violation' in e for e in entries):
        side['rule_violation_rate'] = 100.0 * sum(bool(e['rule_violation']) for e in entries) / len(entries)
    return side


def paired_comparison(a: Mapping[str, Any], b: Mapping[str, Any], names=('a', 'b')) -> Dict[str, Any]:
    """Means of two judged results over the items both have judged.

    Args:
        a, b: Results dicts (or results files loaded as JSON) of the same dataset.
        names: Labels for error messages and the output.

    Returns:
        ``{'n_common', 'n_only': {name: n}, 'n_unjudged': {name: n}, name: {'score', 'violation_rate'?,
        'rule_violation_rate'?}, ...}``, all over the common judged items (``violation_rate``: the judge's flag;
        ``rule_violation_rate``: the rule checks'); the means are ``None`` when no item is judged on both sides
        (never a number standing in for nothing).

    Raises:
        ValueError: when the two results do not cover the same items.
    """
    ja, jb = item_judgements(a, names[0]), item_judgements(b, names[1])
    if set(ja) != set(jb):
        raise ValueError(f'{names[0]} and {names[1]} cover different items '
                         f'({len(set(ja) - set(jb))} only in {names[0]}, {len(set(jb) - set(ja))} only in {names[1]})')
    judged_a = {k for k, e in ja.items() if e['overall'] is not None}
    judged_b = {k for k, e in jb.items() if e['overall'] is not None}
    common = [k for k in ja if k in judged_a and k in judged_b]
    return {
        'n_common': len(common),
        'n_only': {names[0]: len(judged_a - judged_b), names[1]: len(judged_b - judged_a)},
        'n_unjudged': {names[0]: len(ja) - len(judged_a), names[1]: len(jb) - len(judged_b)},
        names[0]: _side([ja[k] for k in common]),
        names[1]: _side([jb[k] for k in common]),
    }
