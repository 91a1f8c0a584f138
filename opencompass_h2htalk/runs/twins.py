"""SAP / no-SAP twins in a summary: finds the pairs and compares their judged results on common items. Pure.

Model abbrs of twins share a base and differ after the last ``@``: ``<base>@nosap`` and ``<base>@sap-v1`` (the
zoo's convention). The summary table shows each twin's judge means over its *own* judged items; when the judge
failed on different items for the two twins, those means cover different items. This section restricts both to
the items both have judged (``judges.paired.paired_comparison``) and says how many each side lost.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Tuple

from ..judges.paired import paired_comparison

NOSAP_SUFFIX = 'nosap'


def twin_pairs(model_abbrs: List[str]) -> List[Tuple[str, str]]:
    """``(no-SAP abbr, SAP abbr)`` pairs among ``model_abbrs``, in the order the no-SAP twins appear.

    >>> twin_pairs(['m@nosap', 'x', 'm@sap-v1', 'n@sap-v1'])
    [('m@nosap', 'm@sap-v1')]
    """
    by_base: Dict[str, Dict[str, str]] = {}
    for abbr in model_abbrs:
        if '@' in abbr:
            base, variant = abbr.rsplit('@', 1)
            by_base.setdefault(base, {})[variant] = abbr
    pairs = []
    for abbr in model_abbrs:
        if '@' not in abbr or not abbr.endswith('@' + NOSAP_SUFFIX):
            continue
        variants = by_base[abbr.rsplit('@', 1)[0]]
        pairs.extend((abbr, twin) for variant, twin in sorted(variants.items()) if variant.startswith('sap'))
    return pairs


def _fmt(value: Any) -> str:
    return '-' if value is None else f'{value:.2f}'


def compare_twins(raw_results: Mapping[str, Mapping[str, Mapping[str, Any]]], model_abbrs: List[str],
                  dataset_abbrs: List[str]) -> List[Dict[str, Any]]:
    """One row per twin pair × judged dataset that both twins have results for.

    Args:
        raw_results: ``{model abbr: {dataset abbr: results dict}}`` (results files as loaded).
        model_abbrs: Models in table order.
        dataset_abbrs: Datasets in table order.

    Returns:
        Rows ``{'dataset', 'nosap', 'sap', 'comparison'}`` where ``comparison`` is
        :func:`paired_comparison`'s output, or ``{'error': message}`` when the two cannot be paired (for
        example, different item sets).
    """
    rows = []
    for nosap, sap in twin_pairs(model_abbrs):
        for dataset in dataset_abbrs:
            a, b = raw_results.get(nosap, {}).get(dataset), raw_results.get(sap, {}).get(dataset)
            if not a or not b or 'item_judgements' not in a or 'item_judgements' not in b:
                continue
            try:
                comparison = paired_comparison(a, b, names=(nosap, sap))
            except ValueError as e:
                comparison = {'error': str(e)}
            rows.append({'dataset': dataset, 'nosap': nosap, 'sap': sap, 'comparison': comparison})
    return rows


def render_twins(rows: List[Dict[str, Any]]) -> str:
    """The summary section for :func:`compare_twins`'s rows ('' when there are none)."""
    if not rows:
        return ''
    lines = ['SAP twins on the items both twins have judged (judge mean; where the rubric has them, the judge\'s '
             'violation rate and the rule checks\' violation rate):',
             'dataset | no-SAP | SAP | common items | only no-SAP judged | only SAP judged | no-SAP score | SAP score '
             '| no-SAP violation % | SAP violation % | no-SAP rule violation % | SAP rule violation %']
    for row in rows:
        c, nosap, sap = row['comparison'], row['nosap'], row['sap']
        if 'error' in c:
            lines.append(f"{row['dataset']} | {nosap} | {sap} | not comparable: {c['error']}")
            continue
        lines.append(' | '.join([row['dataset'], nosap, sap, str(c['n_common']), str(c['n_only'][nosap]),
                                 str(c['n_only'][sap]), _fmt(c[nosap]['score']), _fmt(c[sap]['score']),
                                 _fmt(c[nosap].get('violation_rate')), _fmt(c[sap].get('violation_rate')),
                                 _fmt(c[nosap].get('rule_violation_rate')),
                                 _fmt(c[sap].get('rule_violation_rate'))]))
    return '\n'.join(lines)


__all__ = ['compare_twins', 'render_twins', 'twin_pairs']
