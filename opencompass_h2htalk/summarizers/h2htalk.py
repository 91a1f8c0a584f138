"""``H2HTalkSummarizer``: OpenCompass's DefaultSummarizer plus a run check and a refusal to mix incomparable results."""
from __future__ import annotations

import math
import os.path as osp
from datetime import datetime
from typing import Any, Dict, List, Optional, Tuple

import mmengine
import tabulate
from opencompass.summarizers import DefaultSummarizer
from opencompass.summarizers.default import METRIC_BLACKLIST, METRIC_WHITELIST, model_abbr_from_cfg_used_in_summarizer
from opencompass.utils import dataset_abbr_from_cfg, get_infer_output_path, model_abbr_from_cfg
from opencompass.utils.prompt import get_prompt_hash

from ..runs.run_check import (ResultNote, find_conflicts, invalid_flags, log_for, missing_note, render_conflicts,
                        render_notes)
from ..runs.checks_table import render_checks, version_conflict, write_checks_csv
from ..runs.nocopy_table import render_nocopy
from ..runs.intervals import render_intervals, run_intervals, write_intervals_csv
from ..runs.twins import compare_twins, render_twins


class H2HTalkSummarizer(DefaultSummarizer):
    """DefaultSummarizer (same arguments, same table, same txt/csv/md files) that also says what went wrong.

    ``opencompass`` exits 0 when tasks fail and the table then shows ``-``. This summarizer adds a *run check*
    under the table, on stdout and in the ``.txt`` and ``.md`` summaries: every model × dataset result that is
    missing (with the infer or eval log to read and the last error line in it), failed (an ``error`` key), or
    marked invalid (a ``<name>_valid: false`` key, with its ``<name>_invalid_reason``).

    When the run holds SAP / no-SAP twins (``<base>@nosap`` and ``<base>@sap…``) with judged results, it also
    compares each pair on the items both twins have judged (:mod:`.twins`).

    It refuses to put incomparable results in one table: if the results differ in data version, α, embedder or
    tokenizer (or, per dataset, in the data file's SHA-256), it prints an error naming them and writes that error,
    not a table, into the ``.txt`` and ``.md`` summaries (no ``.csv``).

    Under the table it prints *score intervals*: each subtask, dimension and overall score with its 95 %
    scenario-bootstrap interval, recomputed from the results' per-item ``details`` with the summary groups'
    weights (:mod:`.intervals`); they are also written to ``summary/intervals_<ts>.csv``. The table itself and
    its ``.csv`` keep DefaultSummarizer's shape; ``ci_low``/``ci_high`` keys are not table rows.

    After the run check it prints the *task checks* (:mod:`opencompass_h2htalk.checks`, a second score beside U):
    per dataset and model the pass rate of all checks with its interval (``72.50 [64.00, 80.10]``), then one row
    per ``dataset:check`` (:mod:`..runs.checks_table`), also written to ``summary/checks_<ts>.csv`` (every dataset ×
    check × model). A result without checks (evaluated before them, a foreign dataset) shows ``-`` with a note, never
    0; results of different check revisions (``meta.checks.version``) give an error naming them instead of the checks
    tables, and the U table stays (U does not depend on the checks). The results' ``checks`` dict is not a row of
    the main table.

    Last, the *copy-free U* (:mod:`..runs.nocopy_table`) of the datasets that have one: per model U, copy-free U with
    its interval and the mean % copied (docs/validity.md); nothing is printed for runs without it.

    Unlike DefaultSummarizer it ignores booleans as metrics (``judge_valid``) and does not stop when the models
    of one dataset report different metric keys (an invalid judge run leaves its judge keys out): a metric a
    model lacks shows ``-``.
    """

    def __init__(self, config, dataset_abbrs: Optional[List] = None, summary_groups: List = [],  # noqa: B006
                 prompt_db=None) -> None:
        super().__init__(config, dataset_abbrs=dataset_abbrs, summary_groups=summary_groups, prompt_db=prompt_db)
        self.notes: List[ResultNote] = []
        self.full_results: List[Tuple[str, str, Dict[str, Any]]] = []
        self.detailed: Dict[str, Dict[str, Dict[str, Any]]] = {}

    # ------------------------------------------------------------------ reading results
    def _pick_up_results(self):
        raw_results: Dict[str, Dict[str, Any]] = {}
        parsed_results: Dict[str, Dict[str, Dict[str, float]]] = {}
        dataset_metrics: Dict[str, List[str]] = {}
        self.notes, self.full_results, self.detailed = [], [], {}
        dataset_order = [dataset_abbr_from_cfg(d) for d in self.dataset_cfgs]
        for model in self.model_cfgs:
            model_abbr = model_abbr_from_cfg_used_in_summarizer(model)
            parsed_results.setdefault(model_abbr, {})
            raw_results.setdefault(model_abbr, {})
            for dataset in self.dataset_cfgs:
                dataset_abbr = dataset_abbr_from_cfg(dataset)
                filepath = get_infer_output_path(model, dataset, osp.join(self.work_dir, 'results'))
                if not osp.exists(filepath):
                    self.notes.append(self._missing_note(model, dataset, dataset_order))
                    continue
                result = mmengine.load(filepath)
                details = result.pop('details', None)
                raw_results[model_abbr][dataset_abbr] = result
                if 'error' in result:
                    log = self._log(model, dataset_order, dataset_abbr, 'eval')
                    self.notes.append(ResultNote(model_abbr, dataset_abbr, 'failed', str(result['error']), log))
                    continue
                self.full_results.append((model_abbr, dataset_abbr, result))
                self.detailed.setdefault(model_abbr, {})[dataset_abbr] = dict(result, details=details)
                for key, reason in invalid_flags(result):
                    self.notes.append(ResultNote(model_abbr, dataset_abbr, 'invalid', f'{key} is false: {reason}'))
                # bool is an int in Python: `judge_valid` is a flag, not a metric.
                # Interval bounds are shown in the interval section, not as metric rows.
                metrics = {k: v for k, v in result.items()
                           if k not in METRIC_BLACKLIST and isinstance(v, (int, float)) and not isinstance(v, bool)
                           and not k.endswith(('ci_low', 'ci_high'))}
                # NaN/inf is a failed measurement, not a score: show '-' and say so.
                for key in [k for k, v in metrics.items() if not math.isfinite(v)]:
                    del metrics[key]
                    self.notes.append(ResultNote(model_abbr, dataset_abbr, 'invalid', f'{key} is not a number'))
                if not metrics:
                    self.logger.warning(f'no numeric metric in {filepath}')
                    continue
                known = dataset_metrics.setdefault(dataset_abbr, [])
                known.extend(m for m in metrics if m not in known)
                parsed_results[model_abbr][dataset_abbr] = metrics
        for abbr, metrics in dataset_metrics.items():
            metrics.sort(key=lambda m: METRIC_WHITELIST.index(m) if m in METRIC_WHITELIST else len(METRIC_WHITELIST))

        dataset_eval_mode: Dict[str, str] = {}
        for dataset in self.dataset_cfgs:
            inferencer = dataset.get('infer_cfg', {}).get('inferencer', {}).get('type', '')
            inferencer = inferencer if isinstance(inferencer, str) else inferencer.__name__
            # DefaultSummarizer's mode names (the 'mode' column).
            mode = ('gen' if 'GenInferencer' in inferencer else
                    'ppl' if 'PPLInferencer' in inferencer or 'PPLOnlyInferencer' in inferencer else
                    'll' if 'LLInferencer' in inferencer else 'unknown')
            dataset_eval_mode[dataset_abbr_from_cfg(dataset)] = mode
        return raw_results, parsed_results, dataset_metrics, dataset_eval_mode

    def _log(self, model, dataset_order: List[str], dataset_abbr: str, stage: str) -> Optional[str]:
        # Log folders are named by the model's abbr, not by its summarizer_abbr.
        return log_for(osp.join(self.work_dir, 'logs', stage), model_abbr_from_cfg(model), dataset_order, dataset_abbr)

    def _missing_note(self, model, dataset, dataset_order: List[str]) -> ResultNote:
        # Folders are named by the model's abbr; the note shows its summarizer_abbr (as the table does).
        return missing_note(self.work_dir, model_abbr_from_cfg(model), dataset_abbr_from_cfg(dataset), dataset_order,
                            model_abbr_from_cfg_used_in_summarizer(model))

    # ------------------------------------------------------------------ table (DefaultSummarizer's, one fix)
    def _format_table(self, parsed_results, dataset_metrics, dataset_eval_mode, required_dataset_abbrs=None,
                      skip_all_slash=False):
        """DefaultSummarizer's table, except that a metric one model lacks is ``-`` instead of a KeyError."""
        dataset_abbrs = [dataset_abbr_from_cfg(dataset) for dataset in self.dataset_cfgs]
        prompt_version = {dataset_abbr_from_cfg(d): get_prompt_hash(d)[:6] for d in self.dataset_cfgs}
        rows: List[Tuple[str, Optional[str]]] = []
        if required_dataset_abbrs is None:
            for dataset_abbr in dataset_abbrs:
                rows.extend((dataset_abbr, m) for m in dataset_metrics.get(dataset_abbr, [None]))
            for dataset_abbr, metrics in dataset_metrics.items():
                rows.extend((dataset_abbr, m) for m in metrics if (dataset_abbr, m) not in rows)
        else:
            for item in required_dataset_abbrs:
                rows.append((item, None) if isinstance(item, str) else (item[0], item[1]))
        table = [['dataset', 'version', 'metric', 'mode'] + self.model_abbrs]
        for dataset_abbr, metric in rows:
            if dataset_abbr not in dataset_metrics or (metric is not None
                                                       and metric not in dataset_metrics[dataset_abbr]):
                if not skip_all_slash:
                    table.append([dataset_abbr, '-', '-', '-'] + ['-'] * len(self.model_abbrs))
                continue
            metric = metric or dataset_metrics[dataset_abbr][0]
            row = [dataset_abbr, prompt_version.get(dataset_abbr, '-'), metric,
                   dataset_eval_mode.get(dataset_abbr, '-')]
            for model_abbr in self.model_abbrs:
                value = parsed_results[model_abbr].get(dataset_abbr, {}).get(metric)
                row.append('-' if value is None else '{:.02f}'.format(value))
            table.append(row)
        return table

    # ------------------------------------------------------------------ intervals
    def _interval_rows(self) -> List[str]:
        """Rows of the interval section: the table's rows on ``score``, else every dataset then every group."""
        if self.dataset_abbrs is not None:
            rows = [item if isinstance(item, str) else item[0] for item in self.dataset_abbrs
                    if item and (isinstance(item, str) or item[1] == 'score')]
        else:
            rows = [dataset_abbr_from_cfg(d) for d in self.dataset_cfgs] + [g['name'] for g in self.summary_groups]
        return list(dict.fromkeys(rows))

    def _intervals(self, time_str: str) -> str:
        intervals, problems = run_intervals(self.detailed, self.summary_groups)
        rows = self._interval_rows()
        text = render_intervals(intervals, self.model_abbrs, rows, problems)
        if text:
            path = osp.join(self.work_dir, 'summary', f'intervals_{time_str}.csv')
            mmengine.mkdir_or_exist(osp.dirname(path))
            write_intervals_csv(path, intervals, self.model_abbrs, rows)
        return text

    # ------------------------------------------------------------------ task checks
    def _dataset_rows(self) -> List[str]:
        """The run's datasets in the summary's order, then any the summary does not list."""
        datasets = [dataset_abbr_from_cfg(d) for d in self.dataset_cfgs]
        order = [r for r in self._interval_rows() if r in datasets]
        return order + [d for d in datasets if d not in order]

    def _checks(self, time_str: str) -> str:
        rows = self._dataset_rows()
        text = render_checks(self.detailed, self.model_abbrs, rows)
        shown = [(m, d, r) for m, per in self.detailed.items() for d, r in per.items()]
        if text and version_conflict(shown) is None:
            path = osp.join(self.work_dir, 'summary', f'checks_{time_str}.csv')
            mmengine.mkdir_or_exist(osp.dirname(path))
            write_checks_csv(path, self.detailed, self.model_abbrs, rows)
        return text

    # ------------------------------------------------------------------ output
    def _paths(self, output_path: Optional[str], time_str: str) -> Tuple[str, str, str]:
        if output_path is None:
            base = osp.join(self.work_dir, 'summary', f'summary_{time_str}')
            return base + '.txt', base + '.csv', base + '.md'
        return output_path, output_path.replace('.txt', '.csv'), output_path.replace('.txt', '.md')

    def summarize(self, output_path: str = None,
                  time_str: str = datetime.now().strftime('%Y%m%d_%H%M%S')):  # noqa: B008 - DefaultSummarizer's API
        raw_results, parsed_results, dataset_metrics, dataset_eval_mode = self._pick_up_results()
        txt_path, _, md_path = self._paths(output_path, time_str)
        n_expected = len(self.model_cfgs) * len(self.dataset_cfgs)
        notes = render_notes(self.notes, n_expected)

        conflicts = find_conflicts(self.full_results)
        if conflicts:
            error = render_conflicts(conflicts)
            print(error + '\n\n' + notes)
            mmengine.mkdir_or_exist(osp.dirname(txt_path))
            for path in (txt_path, md_path):
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(f'{time_str}\n\n{error}\n\n{notes}\n')
            self.logger.error(f'results of different data versions or scoring settings; see {osp.abspath(txt_path)}')
            return

        raw_results, parsed_results, dataset_metrics, dataset_eval_mode = self._calculate_group_metrics(
            raw_results, parsed_results, dataset_metrics, dataset_eval_mode)
        table = self._format_table(parsed_results, dataset_metrics, dataset_eval_mode,
                                   required_dataset_abbrs=self.dataset_abbrs)
        raw_txts = self._format_raw_txt(raw_results)
        # SAP twins compared on the items both have judged (the table's means may cover different items).
        twins = render_twins(compare_twins(raw_results, self.model_abbrs,
                                           [dataset_abbr_from_cfg(d) for d in self.dataset_cfgs]))
        if twins:
            notes = f'{twins}\n\n{notes}'
        intervals = self._intervals(time_str)
        if intervals:
            notes = f'{intervals}\n\n{notes}'
        checks = self._checks(time_str)
        nocopy = render_nocopy(self.detailed, self.model_abbrs, self._dataset_rows())
        print(tabulate.tabulate(table, headers='firstrow', floatfmt='.2f'))
        self._output_to_file(output_path, time_str, table, raw_txts)
        # The csv stays a plain table for machines; people read the notes in the txt/md and on stdout.
        with open(txt_path, 'a', encoding='utf-8') as f:
            f.write(f'\n{notes}\n' + (f'\n{checks}\n' if checks else '') + (f'\n{nocopy}\n' if nocopy else ''))
        with open(md_path, 'a', encoding='utf-8') as f:
            f.write(f'\n## Run check\n\n```\n{notes}\n```\n'
                    + (f'\n## Task checks\n\n```\n{checks}\n```\n' if checks else '')
                    + (f'\n## Copy-free U\n\n```\n{nocopy}\n```\n' if nocopy else ''))
        print(f'\n{notes}\n')
        if checks:
            print(f'{checks}\n')
        if nocopy:
            print(f'{nocopy}\n')


__all__ = ['H2HTalkSummarizer']
