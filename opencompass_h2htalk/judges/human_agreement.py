"""Judge–human agreement of a run whose review scores were merged (``h2htalk review merge``). Pure Python.

``merge`` records the human scores in ``<run>/review/adjudicated.json`` (``human_scores``: ``{review_id: score}``,
``review_id = <model>/<dataset>/<item id>``). The judge's score of each reviewed item is read from the run's results
(``details[k].judge.overall``), as ``merge`` reads it. Agreement is computed per judged dataset (all models of the run
together) and pooled over every dataset, with :func:`opencompass_h2htalk.stats.agreement`. The resampling unit is the
item's ``chain`` where it has one, else the scenario (``<dataset>/<item id>``), so the replies of several models to one
scenario are drawn together.

Caveat, always shown with the numbers: the queue holds only items the judge scored below the review threshold (3.5),
so the judge's side spans a restricted range; range restriction typically lowers κ and α against what agreement over
all items would be.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Union

from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, Agreement, AgreementUndefined, agreement

POOLED = 'all judged datasets (pooled)'
#: The statistics shown, by :func:`agreement`'s name.
STATISTICS = ('kappa', 'alpha')


@dataclass
class Pair:
    """One reviewed item: the judge's and the human's score, and its resampling key."""
    review_id: str
    judge: float
    human: float
    unit: str


@dataclass
class RunAgreement:
    """Agreement per dataset and pooled; a statistic that is undefined holds the reason as a string."""
    scores_file: str
    threshold: Optional[float]
    rows: Dict[str, Dict[str, Union[Agreement, str]]] = field(default_factory=dict)
    n: Dict[str, int] = field(default_factory=dict)
    problems: List[str] = field(default_factory=list)


def _details_by_id(path: str) -> Dict[str, Dict[str, Any]]:
    try:
        with open(path, encoding='utf-8') as f:
            result = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f'{path}: not valid JSON (line {e.lineno}): {e.msg}') from None
    except UnicodeDecodeError as e:
        raise ValueError(f'{path}: not UTF-8 ({e.reason} at byte {e.start})') from None
    out = {}
    for detail in result.get('details') or []:
        one = {k: (v[0] if isinstance(v, list) and v else v) for k, v in detail.items()}
        if one.get('id') is not None:
            out[str(one['id'])] = one
    return out


def human_judge_pairs(run: str) -> Optional[Tuple[Dict[str, List[Pair]], List[str], Dict[str, Any]]]:
    """``({dataset: [Pair]}, problems, adjudicated.json)`` of a run, or ``None`` when no human scores were merged.

    ``problems`` names reviewed items that cannot be paired (the results no longer hold the item or its judgement).

    Raises:
        ValueError: naming the file when ``adjudicated.json`` or a results file is not valid JSON, or
            ``adjudicated.json`` has no ``human_scores`` mapping.
    """
    path = os.path.join(run, 'review', 'adjudicated.json')
    if not os.path.exists(path):
        return None
    try:
        with open(path, encoding='utf-8') as f:
            report = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f'{path}: not valid JSON (line {e.lineno}): {e.msg}') from None
    except UnicodeDecodeError as e:
        raise ValueError(f'{path}: not UTF-8 ({e.reason} at byte {e.start})') from None
    human = report.get('human_scores') if isinstance(report, dict) else None
    if not isinstance(human, dict):
        raise ValueError(f'{path}: no "human_scores" mapping; merge the review again (h2htalk review merge)')
    pairs: Dict[str, List[Pair]] = {}
    problems: List[str] = []
    details: Dict[Tuple[str, str], Dict[str, Dict[str, Any]]] = {}
    for review_id, score in human.items():
        parts = str(review_id).split('/', 2)
        if len(parts) != 3:
            problems.append(f'{review_id}: not a review_id of the form model/dataset/id')
            continue
        model, dataset, item = parts
        if (model, dataset) not in details:
            result = os.path.join(run, 'results', model, f'{dataset}.json')
            details[model, dataset] = _details_by_id(result) if os.path.exists(result) else {}
        judgement = (details[model, dataset].get(item) or {}).get('judge')
        if not isinstance(judgement, dict) or not isinstance(judgement.get('overall'), (int, float)):
            problems.append(f'{review_id}: no judged item with this id in results/{model}/{dataset}.json')
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            problems.append(f'{review_id}: human score {score!r} in {path} is not a number')
            continue
        chain = details[model, dataset][item].get('chain')
        pairs.setdefault(dataset, []).append(Pair(review_id, float(judgement['overall']), float(score),
                                                  f'chain/{chain}' if chain else f'{dataset}/{item}'))
    return pairs, problems, report


def _one(pairs: List[Pair], statistic: str, stream: str, resamples: int, seed: int) -> Union[Agreement, str]:
    try:
        return agreement([p.judge for p in pairs], [p.human for p in pairs], statistic, [p.unit for p in pairs],
                         resamples, seed, stream)
    except AgreementUndefined as e:
        return f'undefined: {e}'
    except ValueError as e:
        return f'not computed: {e}'


def run_agreement(run: str, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                  threshold: Optional[float] = None) -> Optional[RunAgreement]:
    """κ and α per judged dataset, and pooled when there are several, for a run with merged human scores; ``None``
    when there are none.

    Args:
        run: A run folder (``<work_dir>/<timestamp>``).
        resamples, seed: Bootstrap settings (the project's defaults: 1,000 and 0).
        threshold: The review threshold the queue was cut at, for the caveat (the results' ``meta.review_threshold``).
    """
    found = human_judge_pairs(run)
    if found is None:
        return None
    pairs, problems, report = found
    out = RunAgreement(str(report.get('scores_file', '')), threshold, problems=problems)
    groups = [(d, pairs[d]) for d in sorted(pairs)]
    if len(groups) > 1:  # with one dataset the pooled row would repeat it
        groups.append((POOLED, [p for _, group in groups for p in group]))
    for name, group in groups:
        out.n[name] = len(group)
        out.rows[name] = {s: _one(group, s, f'agreement:{name}', resamples, seed) for s in STATISTICS}
    return out


__all__ = ['POOLED', 'Pair', 'RunAgreement', 'STATISTICS', 'human_judge_pairs', 'run_agreement']
