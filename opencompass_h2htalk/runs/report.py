"""``h2htalk report RUN``: one self-contained HTML page for a finished run (first step of issue 12, item 4).

What the page holds so far: a run card (plugin, OpenCompass and data versions, data SHA-256, history format, α,
embedder, tokenizer, judge and rubric hash where judged), a sortable leaderboard with bootstrap intervals for the
overall score, the dimensions and every subtask, a bar chart of the subtasks per model (matplotlib, inline SVG), the
SAP − no-SAP paired differences of every twin pair with intervals and p-values (the paper's Table 3 shape), the task
checks (pass rate of all checks and of each, per subtask and model, with intervals), judge reliability (parse rate,
retries, unparsed items, review queue) for judged results, cost and throughput per model (sizes from predictions/,
wall times from logs/, :mod:`.logs`), and a per-item browser filterable by subtask, tag, failed task check, score
range and text (each item shows its failed checks with their reasons), its state kept in the URL fragment. Nothing
is fetched at view time: styles, script and chart are inline.
No OpenCompass import.
"""
from __future__ import annotations

import glob
import html
import io
import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import __version__
from .checks_table import (ALL, cell as checks_cell, check_rows, checks_of, checks_version, render_version_conflict,
                           version_conflict)
from .compare import CompareError, compare_pair, history_formats, load_run, resolve_run, run_groups
from .intervals import run_intervals, score_groups
from .nocopy_table import nocopy_interval, nocopy_of
from .run_check import RunCheck, check_run, find_conflicts, meta_of, render_conflicts
from .twins import twin_pairs
from .versions import SOFTWARE, installed_version

_STYLE = """body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}th{background:#eee;cursor:pointer}
.warn{color:#a40}.small{font-size:85%}pre{white-space:pre-wrap;margin:0}.scroll{overflow-x:auto}
td.missing{background:#fde2dc;color:#a40;font-weight:bold}tr.group td:first-child{font-weight:bold}
#run-check{border:2px solid #393;padding:0 1em;margin:1em 0}#run-check.check-fail{border-color:#c30;background:#fff6f3}"""
# Click a header to sort its table; the item browser filters rows by subtask, tag, score range and text. The last
# statement marks the body once the whole script has run, so a browser test can tell a page whose script broke half-way.
_SCRIPT = """document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){
var t=th.closest('table'),b=t.tBodies[0],rows=Array.from(b.rows),asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,c=y.cells[i].dataset.v||y.cells[i].textContent;
var na=parseFloat(a),nc=parseFloat(c);var r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?r:-r;});
rows.forEach(function(r){b.appendChild(r);});});});
// The item browser's filter state lives in the URL fragment
// (#subtask=…&tag=key:value&check=…&score=u|judge&min=…&max=…&q=…), so a filtered view can be linked to and a
// headless browser can load one. Unknown values are named, not dropped. check: a task check's name (items where it
// failed) or checks_all (items where any check failed).
var ITEM_KEYS=['subtask','tag','check','score','min','max','q'];
function itemState(){var p=new URLSearchParams(location.hash.replace(/^#/,'')),s={};
ITEM_KEYS.forEach(function(k){s[k]=p.get(k)||'';});return s;}
function itemControls(){return {subtask:document.getElementById('f-subtask'),tag:document.getElementById('f-tag'),
check:document.getElementById('f-check'),score:document.getElementById('f-score'),min:document.getElementById('f-min'),max:document.getElementById('f-max'),
q:document.getElementById('f-text')};}
function applyItems(s){var c=itemControls(),notes=[],bounds={};
['subtask','tag','check'].forEach(function(k){c[k].value=s[k];if(s[k]&&c[k].value!==s[k]){c[k].value='';
notes.push('no '+k+' "'+s[k]+'" in this report');}});
if(s.score&&s.score!=='u'&&s.score!=='judge'){notes.push('score="'+s.score+'" is neither u nor judge: U is used');}
var key=s.score==='judge'?'judge':'u';c.score.value=key;
['min','max'].forEach(function(k){c[k].value=s[k];bounds[k]=s[k]===''?null:Number(s[k]);
if(s[k]!==''&&isNaN(bounds[k])){notes.push(k+'="'+s[k]+'" is not a number: ignored');bounds[k]=null;}});
c.q.value=s.q;var rows=document.querySelectorAll('#items tbody tr'),shown=0;
rows.forEach(function(r){var tags=(r.dataset.tags||'').split('|'),failed=(r.dataset.failed||'').split('|'),
v=r.dataset[key];
var n=(v===undefined||v==='')?NaN:Number(v);
var ok=(!s.subtask||r.dataset.subtask===s.subtask)&&(!s.tag||tags.indexOf(s.tag)>=0)&&
(!s.check||(r.dataset.failed||'')!==''&&(s.check==='checks_all'||failed.indexOf(s.check)>=0))&&
(bounds.min===null||(!isNaN(n)&&n>=bounds.min))&&(bounds.max===null||(!isNaN(n)&&n<=bounds.max))&&
(!s.q||r.textContent.indexOf(s.q)>=0);r.style.display=ok?'':'none';if(ok){shown++;}});
document.getElementById('items-count').textContent=shown+' of '+rows.length+' items shown';
document.getElementById('items-note').textContent=notes.join('; ');}
function filterItems(){var c=itemControls(),p=new URLSearchParams();
ITEM_KEYS.forEach(function(k){var v=c[k].value;if(v&&!(k==='score'&&v==='u')){p.set(k,v);}});
location.hash=p.toString();applyItems(itemState());}
window.addEventListener('hashchange',function(){applyItems(itemState());});
applyItems(itemState());
document.body.dataset.script='ok';"""


def _e(value: Any) -> str:
    return html.escape('' if value is None else str(value))


def _is_h2htalk(result: Mapping[str, Any]) -> bool:
    """An H2HTalk result: per-item ``details`` as a list of items with a unified score (OpenCompass's standard
    evaluators, gsm8k's for one, write ``details`` as a dict and no unified score)."""
    details = result.get('details')
    return isinstance(details, list) and bool(details) and all(isinstance(d, dict) and 'unified' in d
                                                               for d in details)


def _versions_card(results: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> List[List[str]]:
    """The software rows of the run card: the versions each result recorded at evaluation time (``meta.versions``).

    Results written before versions were recorded have none; only when no result has them are the versions of the
    environment writing the page shown, labelled as read at render time (a vLLM run reported from the CPU
    environment would otherwise say "vLLM not installed").
    """
    found: Dict[str, List[str]] = {}
    unrecorded = []
    for model, per in results.items():
        for dataset, result in per.items():
            versions = meta_of(dict(result)).get('versions')
            if isinstance(versions, dict):
                found.setdefault(json.dumps(versions, sort_keys=True), []).append(f'{model} × {dataset}')
            else:
                unrecorded.append(f'{model} × {dataset}')
    names = {'opencompass-h2htalk': 'opencompass-h2htalk', 'opencompass': 'OpenCompass',
             'transformers': 'transformers', 'vllm': 'vLLM'}
    if not found:
        return [[names[d], f'{installed_version(d) or "not installed"} (read at render time: the results do not '
                           'record it)'] for d in SOFTWARE]
    rows = []
    for dist in SOFTWARE:
        values: Dict[str, List[str]] = {}
        for key, where in found.items():
            values.setdefault(json.loads(key).get(dist) or 'not installed', []).extend(where)
        if len(values) == 1:
            rows.append([names[dist], f'{next(iter(values))} (recorded at evaluation)'])
        else:
            rows.append([names[dist], '; '.join(f'{v} ({len(w)} results, e.g. {w[0]})' for v, w in values.items())
                         + ' (recorded at evaluation: the results differ)'])
    if unrecorded:
        rows.append(['versions not recorded', f'{len(unrecorded)} result(s), e.g. {unrecorded[0]} (evaluated before '
                                              'versions were recorded)'])
    return rows


def _floor_of(result: Mapping[str, Any]) -> Optional[float]:
    floor = meta_of(dict(result)).get('floor')
    value = floor.get('score') if isinstance(floor, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _chart(intervals: Mapping[str, Mapping[str, Any]], datasets: Sequence[str], floors: Mapping[str, float],
           missing: Mapping[Tuple[str, str], str]) -> str:
    """An inline SVG bar chart: U of every subtask per model with its interval as an error bar, the subtask's
    metric floor as a marker, and no bar where a score is missing (the cell's problem is written there instead)."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    models = list(intervals)
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / max(1, len(models))
    for k, model in enumerate(models):
        xs, ys, lo, hi = [], [], [], []
        for i, d in enumerate(datasets):
            iv = intervals[model].get(d)
            x = i + k * width
            if iv is None:  # no bar: a missing score is not 0
                ax.text(x, 1, missing.get((model, d), 'missing').upper(), rotation=90, ha='center', va='bottom',
                        fontsize=7, color='#a40')
                continue
            xs.append(x)
            ys.append(iv.estimate)
            lo.append(iv.estimate - iv.low if iv.low is not None else 0)
            hi.append(iv.high - iv.estimate if iv.high is not None else 0)
        ax.bar(xs, ys, width=width, label=model, yerr=[lo, hi], capsize=2, error_kw={'elinewidth': 0.8})
    shown = [(i, floors[d]) for i, d in enumerate(datasets) if d in floors]
    for j, (i, value) in enumerate(shown):
        ax.hlines(value, i - width / 2 - 0.05, i + (len(models) - 0.5) * width + 0.05, colors='black',
                  linestyles='dashed', linewidth=1.2, label='metric floor' if j == 0 else None)
    ax.set_xticks([i + (len(models) - 1) * width / 2 for i in range(len(datasets))])
    ax.set_xticklabels([d.replace('h2htalk_', '') for d in datasets], rotation=45, ha='right', fontsize=8)
    ax.set_ylabel('U (0-100), 95 % interval')
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format='svg')
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index('<svg'):]


def _history_formats(results: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """How each dataset's dialogue history reached the models: ``chat: a, b; block: c`` (a result that records no
    format was rendered as the block; the run check has refused two formats of one dataset)."""
    by_format: Dict[str, List[str]] = {}
    for dataset, fmt in sorted({(d, f) for per in results.values() for d, f in history_formats(per).items()}):
        by_format.setdefault(fmt, []).append(dataset)
    return '; '.join(f"{fmt}: {', '.join(datasets)}" for fmt, datasets in sorted(by_format.items())) or '-'


def _run_card(results: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> List[List[str]]:
    """The run card; the caller has made sure the results agree on data version and scoring settings."""
    metas = [meta_of(dict(r)) for per in results.values() for r in per.values()]
    first = metas[0] if metas else {}
    emb = first.get('embedder') or {}
    tok = first.get('tokenizer') or {}
    judged = sorted({f"{m.get('judge')} (rubric {m.get('rubric')}, hash {m.get('rubric_hash')})"
                     for m in metas if m.get('judge')})
    return _versions_card(results) + [
        ['data version', str(first.get('data_version'))],
        ['history format', _history_formats(results)],
        ['α', str(first.get('alpha'))],
        ['embedder', f"{emb.get('name')} (revision {emb.get('revision')})" if isinstance(emb, dict) else str(emb)],
        ['tokenizer', f"{tok.get('name')} {tok.get('version')}" if isinstance(tok, dict) else str(tok)],
        ['judge', '; '.join(judged) or '(no judged results)'],
        ['report written with', f'opencompass-h2htalk {__version__}']]


def _sap_deltas(results: Mapping[str, Mapping[str, Mapping[str, Any]]], groups: Sequence[Mapping[str, Any]],
                order: Sequence[str]) -> List[str]:
    """The SAP − no-SAP table of every twin pair (the paper's Table 3 shape), paired on the items both have.

    Same numbers as ``h2htalk compare`` on the run; a pair that must not be compared is shown with the reason.
    """
    pairs = twin_pairs(list(results))
    if not pairs:
        return []
    parts = ['<h2>SAP vs no SAP</h2><p class="small">Paired difference of U (SAP − no SAP) on the items both twins '
             'have, with its 95 % paired-bootstrap interval and p-value; a tie when the interval holds 0, '
             '<span class="warn">*</span> too few items to resample. Same numbers as <code>h2htalk compare</code>.</p>']
    for a, b in pairs:
        try:
            diffs, means, notes = compare_pair(results, a, b, groups)
        except CompareError as e:
            parts.append(f'<div class="warn">{_e(b)} − {_e(a)}: not compared: <pre>{_e(e)}</pre></div>')
            continue
        rows = [r for r in order if r in diffs] + [r for r in diffs if r not in order]
        body = []
        for r in rows:
            d = diffs[r]
            if d.low is None:
                delta = f'{d.estimate:+.2f}<span class="warn" title="{_e(d.warning)}">*</span>'
                verdict = 'no interval'
            else:
                delta = f'{d.estimate:+.2f} <span class="small">[{d.low:+.2f}, {d.high:+.2f}]</span>'
                verdict = 'tie' if d.tie else ('SAP higher' if d.estimate > 0 else 'no SAP higher')
            body.append(f'<tr><td>{_e(r.replace("h2htalk_", ""))}</td><td>{d.n}</td><td>{means[r][0]:.2f}</td>'
                        f'<td>{means[r][1]:.2f}</td><td data-v="{d.estimate:.4f}">{delta}</td>'
                        f'<td>{"-" if d.p_value is None else f"{d.p_value:.3f}"}</td><td>{verdict}</td></tr>')
        parts.append(f'<h3>{_e(b)} − {_e(a)}</h3><div class="scroll"><table class="sortable sap-deltas"><thead><tr>'
                     f'<th>dataset</th><th>n</th><th>{_e(a)}</th><th>{_e(b)}</th><th>Δ [interval]</th><th>p</th>'
                     f'<th>verdict</th></tr></thead><tbody>{"".join(body)}</tbody></table></div>')
        parts.extend(f'<p class="small warn">{_e(n)}</p>' for n in notes)
    return parts


def _checks_section(results: Mapping[str, Mapping[str, Mapping[str, Any]]], datasets: Sequence[str]) -> List[str]:
    """Task checks: per dataset × model the pass rate of all checks with its interval, then of each check; a result
    without checks is ``-`` with the reason, results of two check revisions an error instead of the tables."""
    models = list(results)
    shown = [(m, d, results[m][d]) for m in models for d in datasets if d in results[m]]
    parts = ['<h2>Task checks</h2><p class="small">Deterministic checks of what each subtask\'s instruction asks for '
             '(docs/checks.md): a second score beside U, never part of it. Pass rate in % with its 95 % '
             'scenario-bootstrap interval; <span class="warn">*</span> too few items to resample; all: every check '
             'that applies to an item passed. The item browser below filters on a failed check.</p>']
    conflict = version_conflict(shown)
    if conflict:
        return parts + [f'<div class="warn" id="checks-error"><pre>{_e(render_version_conflict(conflict))}</pre></div>']
    if not any(checks_of(r)[0] for _, _, r in shown):
        return parts + ['<p class="warn" id="checks">No result of this run has task checks (evaluated before them, '
                        'or datasets they cannot read).</p>']

    def td(model: str, dataset: str, name: str) -> str:
        result = results[model].get(dataset)
        rates = checks_of(result)[0] if result is not None else None
        entry = None if rates is None else rates.get(name)
        text = checks_cell(entry)
        if entry is None or entry.get('rate') is None:
            return f'<td data-v="" class="small">{_e(text)}</td>'
        if text.endswith('*'):
            return (f'<td data-v="{entry["rate"]:.4f}" title="{_e(entry.get("warning"))}">{entry["rate"]:.2f}'
                    '<span class="warn">*</span></td>')
        return (f'<td data-v="{entry["rate"]:.4f}">{entry["rate"]:.2f} <span class="small">[{entry["ci_low"]:.2f}, '
                f'{entry["ci_high"]:.2f}]</span></td>')

    rows = check_rows(results, models, [d for d in datasets if any(d in results[m] for m in models)])
    head = ''.join(f'<th>{_e(m)}</th>' for m in models)
    versions = sorted({v for v in (checks_version(r) for _, _, r in shown) if v is not None})
    parts.append(f'<p class="small">checks revision {_e(", ".join(versions))}</p>')
    parts.append(f'<div class="scroll"><table class="sortable" id="checks"><thead><tr><th>dataset</th>{head}</tr>'
                 '</thead><tbody>' + ''.join(
                     f'<tr><td>{_e(d.replace("h2htalk_", ""))}</td>{"".join(td(m, d, c) for m in models)}</tr>'
                     for d, c in rows if c == ALL) + '</tbody></table></div>')
    parts.append(f'<details open><summary>per check</summary><div class="scroll"><table class="sortable small" '
                 f'id="checks-per-check"><thead><tr><th>dataset</th><th>check</th>{head}</tr></thead><tbody>' + ''.join(
                     f'<tr><td>{_e(d.replace("h2htalk_", ""))}</td><td>{_e(c)}</td>'
                     f'{"".join(td(m, d, c) for m in models)}</tr>' for d, c in rows if c != ALL)
                 + '</tbody></table></div></details>')
    for model, dataset, result in shown:
        why = checks_of(result)[1]
        if why:
            parts.append(f'<p class="small warn checks-missing">{_e(model)} × {_e(dataset)}: - is {_e(why)}, not 0</p>')
    return parts


def _agreement_cell(value: Any) -> str:
    if isinstance(value, str):  # the reason the statistic is undefined: never a number standing in for it
        return f'<td class="warn small" data-v="">{_e(value)}</td>'
    if value.low is None:
        return (f'<td data-v="{value.estimate:.4f}" title="{_e(value.warning)}">{value.estimate:.2f}'
                '<span class="warn">*</span></td>')
    mark = f'<span class="warn" title="{_e(value.warning)}">*</span>' if value.warning else ''
    return (f'<td data-v="{value.estimate:.4f}">{value.estimate:.2f} <span class="small">[{value.low:.2f}, '
            f'{value.high:.2f}]</span>{mark}</td>')


def _agreement_section(run: str, metas: Sequence[Mapping[str, Any]]) -> List[str]:
    """Judge–human agreement (weighted κ, Krippendorff's α) where review scores were merged; says so where not."""
    from ..judges.human_agreement import run_agreement
    from ..stats.agreement import BINNING

    thresholds = sorted({m['review_threshold'] for m in metas
                         if isinstance(m.get('review_threshold'), (int, float))})
    threshold = thresholds[0] if len(thresholds) == 1 else None
    try:
        found = run_agreement(run, threshold=threshold)
    except ValueError as e:
        return [f'<h3>Judge–human agreement</h3><p class="warn" id="agreement">not computed: {_e(e)}</p>']
    if found is None:
        return ['<h3>Judge–human agreement</h3><p id="agreement">No human review scores have been merged into this '
                'run, so there is no judge–human agreement to show. Export the review queue (<code>h2htalk review '
                'export</code>), score it, then <code>h2htalk review merge</code>.</p>']
    below = f'below {threshold:g}' if threshold is not None else 'below the review threshold'
    first = next((v for row in found.rows.values() for v in row.values() if not isinstance(v, str)), None)
    how = (f'{100 * first.level:g} % {_e(first.method)} interval ({first.resamples} resamples, seed {first.seed}; '
           'the unit is the scenario, or the chain)' if first else 'bootstrap interval')
    parts = ['<h3>Judge–human agreement</h3>',
             f'<p class="small">The judge\'s overall score against the human review score of the same items: '
             f'quadratic-weighted Cohen\'s κ (scores binned to the {_e(BINNING)}) and Krippendorff\'s α (interval '
             f'metric, scores as they are), each with its {how}. <span class="warn">*</span> no interval, or '
             'resamples left out (hover for why).</p>',
             f'<p class="warn small" id="agreement-caveat">Caveat: the review queue holds only the items the judge '
             f'scored {below}. On this restricted range κ and α are typically lower than agreement over all items '
             'would be (range restriction), so read them as agreement on the low end of the scale, not as the judge\'s '
             'overall reliability.</p>']
    if not found.rows:
        parts.append('<p class="warn" id="agreement">No reviewed item could be paired with its judgement.</p>')
    else:
        body = ''.join(f'<tr><td>{_e(name.replace("h2htalk_", ""))}</td><td>{found.n[name]}</td>'
                       + _agreement_cell(row['kappa']) + _agreement_cell(row['alpha']) + '</tr>'
                       for name, row in found.rows.items())
        parts.append('<table class="sortable" id="agreement"><thead><tr><th>dataset</th><th>n reviewed</th>'
                     f'<th>weighted κ [interval]</th><th>α [interval]</th></tr></thead><tbody>{body}</tbody></table>')
    parts.extend(f'<p class="warn small">not paired: {_e(p)}</p>' for p in found.problems)
    return parts


#: Tag keys whose values are free text (a probe's ``need``): no filter option, but still shown and searchable.
_FREE_TEXT_TAGS = ('need',)
#: Tag keys whose value is a comma-separated list (a safety record's ``required_actions``): one option per entry.
_LIST_TAGS = ('required_actions',)


def _item_tags(one: Mapping[str, Any]) -> List[str]:
    """The ``key:value`` filter tags of an item: its persona and the record's tags (results written since tags
    were added to the details; older results have none)."""
    tags = [f'persona:{one["persona"]}'] if one.get('persona') else []
    record = one.get('tags') if isinstance(one.get('tags'), dict) else {}
    for key, value in sorted(record.items()):
        if key in _FREE_TEXT_TAGS:
            continue
        values = [v.strip() for v in str(value).split(',')] if key in _LIST_TAGS else [str(value)]
        tags.extend(f'{key}:{v}' for v in values if v)
    return tags


def _number(value: Any) -> str:
    """A score for a ``data-`` attribute: the number, or '' when there is none (the filter then excludes it)."""
    return f'{value:.4f}' if isinstance(value, (int, float)) and not isinstance(value, bool) else ''


def _failed_checks(one: Mapping[str, Any]) -> Optional[List[Tuple[str, str]]]:
    """``[(check, reason), ...]`` of the checks an item failed; ``None`` when its result has no task checks."""
    checks = one.get('checks')
    if not isinstance(checks, dict):
        return None
    return [(name, str(c.get('reason', ''))) for name, c in checks.items() if isinstance(c, dict)
            and c.get('pass') is False]


def _item_browser(results: Mapping[str, Mapping[str, Mapping[str, Any]]], datasets: Sequence[str]) -> List[str]:
    """The per-item table with its filters: subtask, tag, failed task check, score range (U or the judge's overall)
    and text; each item shows the checks it failed, with their reasons."""
    rows, all_tags, untagged = [], set(), 0
    check_names: List[str] = []
    unchecked = 0
    for model, per in results.items():
        for dataset, result in per.items():
            for detail in result.get('details') or []:
                one = {k: (v[0] if isinstance(v, list) and v else v) for k, v in detail.items()}
                judge = one.get('judge')
                judge_text = json.dumps(judge, ensure_ascii=False) if judge else ''
                tags = _item_tags(one)
                all_tags.update(tags)
                untagged += not isinstance(one.get('tags'), dict)
                shown_tags = one['tags'] if isinstance(one.get('tags'), dict) else {}
                u = one.get('unified')
                failed = _failed_checks(one)
                unchecked += failed is None
                check_names.extend(n for n in (one['checks'] if failed is not None else {}) if n not in check_names)
                failed_cell = ('-' if failed is None else
                               '<br>'.join(f'<b>{_e(n)}</b>: {_e(r)}' for n, r in failed) or 'none')
                rows.append(
                    f'<tr data-subtask="{_e(dataset)}" data-tags="{_e("|".join(tags))}" data-u="{_number(u)}" '
                    f'data-failed="{_e("|".join(n for n, _ in failed or []))}" '
                    f'data-judge="{_number(judge.get("overall") if isinstance(judge, dict) else None)}">'
                    f'<td>{_e(model)}</td><td>{_e(one.get("id"))}</td>'
                    f'<td class="small">{_e(" ".join(f"{k}:{v}" for k, v in shown_tags.items()))}</td>'
                    f'<td>{_e(round(u, 2) if isinstance(u, (int, float)) else "")}</td>'
                    f'<td><pre>{_e(one.get("pred"))}</pre></td><td><pre>{_e(one.get("ref"))}</pre></td>'
                    f'<td><pre>{_e(judge_text)}</pre></td><td class="small failed-checks">{failed_cell}</td></tr>')
    subtasks = ''.join(f'<option value="{_e(d)}">{_e(d)}</option>' for d in datasets)
    tag_options = ''.join(f'<option value="{_e(t)}">{_e(t)}</option>' for t in sorted(all_tags))
    check_options = ('<option value="checks_all">any check</option>' if check_names else '') + ''.join(
        f'<option value="{_e(n)}">{_e(n)}</option>' for n in check_names)
    note = (f'<p class="small warn">{untagged} item(s) have no tags in their results (written before the results '
            'recorded them): a tag filter never shows them.</p>' if untagged and rows else '')
    if unchecked and rows:
        note += (f'<p class="small warn">{unchecked} item(s) have no task checks in their results (evaluated before '
                 'the checks, or a dataset they cannot read): a check filter never shows them.</p>')
    return ['<h2>Items</h2><p class="small">Filters are kept in the address (<code>#subtask=…&amp;'
            'tag=emotion:…&amp;check=…&amp;score=u|judge&amp;min=…&amp;max=…&amp;q=…</code>), so a filtered view can be '
            'linked to. A score bound hides the items without that score; a check shows only the items where that '
            'task check failed (any check: where one failed).</p>'
            '<p><select id="f-subtask" onchange="filterItems()"><option value="">all subtasks</option>'
            f'{subtasks}</select> <select id="f-tag" onchange="filterItems()"><option value="">all tags</option>'
            f'{tag_options}</select> <select id="f-check" onchange="filterItems()"><option value="">no check '
            f'filter</option>{check_options}</select> '
            '<select id="f-score" onchange="filterItems()"><option value="u">U</option>'
            '<option value="judge">judge overall</option></select> <input id="f-min" size="5" placeholder="min" '
            'oninput="filterItems()"> – <input id="f-max" size="5" placeholder="max" oninput="filterItems()"> '
            '<input id="f-text" placeholder="text" oninput="filterItems()"></p>'
            f'{note}<p class="small"><span id="items-count">{len(rows)} items</span> '
            '<span class="warn" id="items-note"></span></p>'
            '<table class="sortable small" id="items"><thead><tr><th>model</th><th>id</th><th>tags</th><th>U</th>'
            '<th>reply</th><th>reference</th><th>judge</th><th>failed checks</th></tr></thead><tbody>' + ''.join(rows)
            + '</tbody></table>']


def _rate(value: Optional[float], unit: str) -> str:
    return 'unknown' if value is None else f'{value:.2f} {unit}'


def _cost_section(run: str, scored: Sequence[str]) -> List[str]:
    """Cost and throughput per model: items, input/output size, wall time of the tasks, items/s and output/s.

    Sizes come from ``predictions/``, times from ``logs/`` (:mod:`.logs`); a time that cannot be derived is shown
    as "unknown" with the reason, never as 0. Tokens only where :mod:`.tokens` finds the model's tokenizer on
    this machine. ``scored``: the models with results; one without predictions is named, not left out silently.
    """
    from . import logs as runlogs, tokens as runtokens

    parts = ['<h2>Cost and throughput</h2><p class="small">Sizes from <code>predictions/</code> (prompt text as '
             'the model received it, reply as generated; a thinking model\'s reasoning is counted in its output, with '
             'its share in brackets, though only the answer is scored). Wall time: the sum of the model\'s task logs\' own '
             '<code>time elapsed</code> (OpenCompass times each task from its start to its end, after the Python '
             'imports). Rates divide by the inference time.</p>']
    tasks = runlogs.task_logs(run)
    models = sorted({os.path.basename(p) for p in glob.glob(os.path.join(run, 'predictions', '*'))
                     if os.path.isdir(p)})
    unmeasured = [f'{m}: results but no predictions/{m} in this run (a resumed run keeps them in the folder that '
                  'made them): not measured' for m in scored if m not in models]
    if not models:
        return parts + ['<p class="warn">no predictions/ in this run: nothing to measure.</p>'] + [
            f'<p class="small warn">{_e(n)}</p>' for n in unmeasured]
    rows, notes, configs = [], unmeasured, runtokens.run_models(run)
    for model in models:
        counter, why = runtokens.token_counter(run, model, configs)
        try:
            sizes = runlogs.prediction_sizes(run, model, counter, why)
        except runlogs.RunLogError as e:
            notes.append(f'{model}: sizes not measured: {e}')
            continue
        t = runlogs.throughput(sizes, tasks)
        tokens = sizes.input_tokens is not None
        # A thinking model's reasoning is part of its output (and its cost) but not of what is scored: say how much.
        of_chars = f' (reasoning {sizes.reasoning_chars})' if sizes.reasoning_chars else ''
        of_tokens = f' (reasoning {sizes.reasoning_tokens})' if tokens and sizes.reasoning_tokens else ''
        rows.append(
            f'<tr><td>{_e(model)}</td><td>{sizes.items}</td><td>{sizes.input_chars}</td>'
            f'<td data-v="{sizes.output_chars}">{sizes.output_chars}{of_chars}</td>'
            f'<td>{sizes.input_tokens if tokens else "-"}</td>'
            f'<td data-v="{sizes.output_tokens if tokens else ""}">{sizes.output_tokens if tokens else "-"}{of_tokens}</td>'
            f'<td class="small">{_e(sizes.tokens_why)}</td>'
            f'<td data-v="{_number(t.infer_seconds)}">{_rate(t.infer_seconds, "s")}</td>'
            f'<td data-v="{_number(t.eval_seconds)}">{_rate(t.eval_seconds, "s")}</td>'
            f'<td data-v="{_number(t.items_per_s)}">{_rate(t.items_per_s, "items/s")}</td>'
            f'<td data-v="{_number(t.output_per_s)}">{_rate(t.output_per_s, "tokens/s" if tokens else "chars/s")}'
            '</td></tr>')
        notes.extend(f'{model}: {n}' for n in t.notes)
        notes.extend(f'{model}: unfinished inference, not counted: {p}' for p in sizes.unfinished)
    parts.append('<div class="scroll"><table class="sortable" id="cost"><thead><tr><th>model</th><th>items</th>'
                 '<th>input chars</th><th>output chars</th><th>input tokens</th><th>output tokens</th>'
                 '<th>tokenizer</th><th>inference wall time</th><th>evaluation wall time</th><th>items/s</th>'
                 '<th>output/s</th></tr></thead><tbody>' + ''.join(rows) + '</tbody></table></div>')
    parts.extend(f'<p class="small warn">{_e(n)}</p>' for n in notes)
    parts.append('<details><summary>task logs</summary><table class="sortable small"><thead><tr><th>kind</th>'
                 '<th>model</th><th>task</th><th>datasets</th><th>wall time</th><th>first log line</th>'
                 '<th>last log line</th></tr></thead><tbody>' + ''.join(
                     f'<tr><td>{t.kind}</td><td>{_e(t.model)}</td><td>{_e(t.name)}</td>'
                     f'<td>{len(t.datasets) if t.datasets else "-"}</td>'
                     f'<td data-v="{_number(t.seconds)}">'
                     f'{_e(_rate(t.seconds, "s") if t.seconds is not None else t.why)}</td>'
                     f'<td>{_e(t.start or "-")}</td><td>{_e(t.end or "-")}</td></tr>' for t in tasks)
                 + '</tbody></table></details>')
    return parts


def _run_check_section(check: RunCheck, skipped: Sequence[str]) -> str:
    """The summarizer's run check, first on the page: every missing, failed or invalid result, with its log and the
    last error line in it; then the results left out because they are not H2HTalk results."""
    counts = {p: sum(n.problem == p for n in check.notes) for p in ('missing', 'failed', 'invalid')}
    ok = not check.notes
    head = (f'All {check.n_expected} expected results are present and valid.' if ok else
            f'{counts["missing"]} missing, {counts["failed"]} failed, {counts["invalid"]} invalid of '
            f'{check.n_expected} expected results. A cell marked MISSING, FAILED or INVALID below is one of these, '
            'not a score; the overall and dimension scores that need it are not computed.')
    rows = ''.join(f'<tr class="problem-{n.problem}"><td>{n.problem.upper()}</td><td>{_e(n.model)}</td>'
                   f'<td>{_e(n.dataset)}</td><td>{_e(n.detail)}</td><td class="small"><code>{_e(n.log or "-")}</code>'
                   f'</td><td class="small"><pre>{_e(n.log_line or "-")}</pre></td></tr>' for n in check.notes)
    table = ('<table id="run-check-table"><thead><tr><th>problem</th><th>model</th><th>dataset</th><th>detail</th>'
             f'<th>log</th><th>last error line in the log</th></tr></thead><tbody>{rows}</tbody></table>'
             if rows else '')
    left_out = ''.join(f'<p class="small warn skipped">left out: {_e(x)}</p>' for x in skipped)
    return (f'<div id="run-check" class="{"check-ok" if ok else "check-fail"}"><h2>Run check</h2>'
            f'<p><b>{"OK" if ok else "FAILED"}</b>: {_e(head)}</p>{table}{left_out}'
            f'<p class="small">Expected models and datasets: from {_e(check.source)}.</p></div>')


def _floors(results: Mapping[str, Mapping[str, Mapping[str, Any]]], groups: Sequence[Mapping[str, Any]]
            ) -> Dict[str, float]:
    """The metric floor of each subtask (``meta.floor`` of its results; the first model's where they differ) and of
    each score group (the same weighted mean as its score, where every member has a floor)."""
    floors: Dict[str, float] = {}
    for per in results.values():
        for dataset, result in per.items():
            value = _floor_of(result)
            if value is not None:
                floors.setdefault(dataset, value)
    for group in score_groups(groups):  # the summarizer's groups come in dependency order (overall last)
        names = [x if isinstance(x, str) else x[0] for x in group['subsets']]
        weights = group.get('weights') or {n: 1 for n in names}
        names = [n for n in names if weights.get(n, 0)]
        if names and all(n in floors for n in names):
            floors[group['name']] = sum(weights[n] * floors[n] for n in names) / sum(weights[n] for n in names)
    return floors


def _members(name: str, groups: Sequence[Mapping[str, Any]]) -> List[str]:
    """The subtasks a score group is made of (through nested groups)."""
    by_name = {g['name']: g for g in groups}
    if name not in by_name:
        return [name]
    return [d for x in by_name[name]['subsets'] for d in _members(x if isinstance(x, str) else x[0], groups)]


def _leaderboard(intervals: Mapping[str, Mapping[str, Any]], rows: Sequence[str], subtasks: Sequence[str],
                 groups: Sequence[Mapping[str, Any]], results: Mapping[str, Mapping[str, Mapping[str, Any]]],
                 problems: Mapping[Tuple[str, str], str], floors: Mapping[str, float]) -> List[str]:
    """One row per score (overall, dimensions, then the subtasks in dimension order), one column per model, then
    n (items scored of the subtask's items) and the metric floor."""
    models = list(intervals)
    sampled = []
    body = []
    for row in rows:
        cells = []
        members = _members(row, groups)
        for model in models:
            iv = intervals[model].get(row)
            bad = [(d, problems[(model, d)]) for d in members if (model, d) in problems]
            if iv is None:
                if row in subtasks:
                    what = problems.get((model, row), 'missing')
                    cells.append(f'<td class="missing" data-v="">{what.upper()}</td>')
                else:
                    need = ', '.join(f'{d.replace("h2htalk_", "")} {p}' for d, p in bad) or 'a subtask has no score'
                    cells.append(f'<td class="missing" data-v="">not computed: {_e(need)}</td>')
                continue
            mark = ''.join(f' <span class="warn">{p.upper()}</span>' for _, p in bad)
            if iv.low is None:
                cells.append(f'<td data-v="{iv.estimate:.4f}" title="{_e(iv.warning)}">{iv.estimate:.2f}'
                             f'<span class="warn">*</span>{mark}</td>')
            else:
                cells.append(f'<td data-v="{iv.estimate:.4f}">{iv.estimate:.2f} '
                             f'<span class="small">[{iv.low:.2f}, {iv.high:.2f}]</span>{mark}</td>')
        # n: items scored, of the items in the data (meta.n_data) where the results record it.
        scored = sorted({intervals[m][row].n for m in models if row in intervals[m]})
        in_data = [next((meta_of(dict(per[d])).get('n_data') for per in results.values() if d in per), None)
                   for d in members]
        total = sum(in_data) if in_data and all(isinstance(x, int) for x in in_data) else None
        n_text = '/'.join(map(str, scored)) or '-'
        if total is not None and scored:
            n_text += f' of {total}'
            if max(scored) < total:
                sampled.append(row)
        cells.append(f'<td data-v="{scored[0] if scored else ""}">{n_text}</td>')
        floor = floors.get(row)
        cells.append(f'<td data-v="{_number(floor)}">{"-" if floor is None else f"{floor:.2f}"}</td>')
        kind = 'subtask' if row in subtasks else 'group'
        body.append(f'<tr class="{kind}"><td>{_e(row.replace("h2htalk_", ""))}</td>{"".join(cells)}</tr>')
    head = ''.join(f'<th>{_e(m)}</th>' for m in models)
    # Many models are wider than the page: the table then scrolls inside its box instead of running off the page.
    parts = [f'<div class="scroll"><table class="sortable" id="leaderboard"><thead><tr><th>score</th>{head}<th>n</th>'
             f'<th>floor</th></tr></thead><tbody>{"".join(body)}</tbody></table></div>']
    subtask_rows = [r for r in sampled if r in subtasks]
    if subtask_rows:
        parts.append(f'<p class="warn" id="sample-note">Scored on a sample: {len(subtask_rows)} of '
                     f'{len([r for r in rows if r in subtasks])} subtasks were scored on fewer items than the data '
                     'holds (the n column: scored of the subtask\'s items; the demo scores the first 20 of each). '
                     'These are not full-benchmark scores.</p>')
    return parts


def _nocopy_section(results: Mapping[str, Mapping[str, Mapping[str, Any]]], datasets: Sequence[str]) -> List[str]:
    """Copy-free U beside U, per dataset × model, for the subtasks whose reply answers the user (none when no result
    has one: the other subtasks' task is to use their inputs, and results evaluated before copy-free U lack it)."""
    models = list(results)
    shown = [d for d in datasets if any(nocopy_of(results[m].get(d) or {}) for m in models)]
    if not shown:
        return []

    def td(model: str, dataset: str) -> str:
        result = results[model].get(dataset)
        found = nocopy_of(result) if result else None
        if found is None:
            return '<td data-v="" class="small">-</td>'
        u = result.get('score')
        ci = nocopy_interval(found)
        interval = f' <span class="small">[{ci[0]:.2f}, {ci[1]:.2f}]</span>' if ci else ''
        u_text = f'{u:.2f} → ' if isinstance(u, (int, float)) else ''
        return (f'<td data-v="{found["score"]:.4f}">{u_text}<b>{found["score"]:.2f}</b>{interval} '
                f'<span class="small">copied {found["copied"]:.0f} %</span></td>')

    head = ''.join(f'<th>{_e(m)}</th>' for m in models)
    body = ''.join(f'<tr><td>{_e(d.replace("h2htalk_", ""))}</td>{"".join(td(m, d) for m in models)}</tr>'
                   for d in shown)
    return ['<h2>Copy-free U</h2><p class="small">On the subtasks whose reply answers the user: U → U after removing '
            'from reply and reference every span of 6 or more characters the reply copies from its inputs (bold, with '
            'its 95 % scenario-bootstrap interval), and the mean share of each reply copied. A U well above its '
            'copy-free U is paid for echoing the user; docs/validity.md says how often each score orders replies of '
            'known quality correctly.</p>'
            f'<table class="sortable" id="nocopy"><thead><tr><th>dataset</th>{head}</tr></thead><tbody>{body}'
            '</tbody></table>']


def build_report(run_path: str) -> str:
    """The HTML page of a run folder (or the newest run of a work dir)."""
    return report_page(run_path)[0]


def report_page(run_path: str) -> Tuple[str, RunCheck]:
    """The HTML page of a run folder (or the newest run of a work dir) and the run check it shows at its top.

    Raises:
        CompareError: when the folder holds no readable results, or results of different data versions or scoring
            settings (they must not share one leaderboard; the error names what differs).
    """
    run = resolve_run(run_path)
    try:
        check = check_run(run)
    except ValueError as e:
        raise CompareError(str(e)) from e
    loaded = load_run(run)
    results: Dict[str, Dict[str, Dict[str, Any]]] = {}
    foreign: List[Tuple[str, str]] = []
    for model, per in loaded.items():
        for dataset, result in per.items():
            if _is_h2htalk(result):
                results.setdefault(model, {})[dataset] = result
            else:
                foreign.append((model, dataset))
    skipped = [f'{m} × {d}: not an H2HTalk result (no per-item unified scores in its details), so not on this page'
               for m, d in foreign]
    conflicts = find_conflicts((m, d, r) for m, per in results.items() for d, r in per.items())
    if conflicts:
        raise CompareError(f'{run}: no report: ' + render_conflicts(conflicts).replace(
            'no table is printed', 'no page is written'))
    groups, order = run_groups(run)
    intervals, not_resampled = run_intervals(results, groups)
    for model in check.models:  # a model whose every result is missing still gets its column
        if model not in results and any(n.model == model for n in check.notes):
            intervals.setdefault(model, {})
    known = [d for d in check.datasets if d not in {d for _, d in foreign}] + sorted(
        {d for per in results.values() for d in per} - set(check.datasets))
    subtasks = [d for d in order if d in known] + [d for d in known if d not in order]
    group_names = [g['name'] for g in score_groups(groups)]
    rows = [g for g in order if g in group_names] + [g for g in group_names if g not in order] + subtasks
    problems = {(n.model, n.dataset): n.problem for n in check.notes}
    floors = _floors(results, groups)

    parts = [f'<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>H2HTalk report: {_e(run)}</title>'
             f'<style>{_STYLE}</style></head><body><h1>H2HTalk report</h1><p class="small">{_e(run)}</p>']
    parts.append(_run_check_section(check, skipped))
    parts.append('<h2>Run card</h2><table id="run-card">' + ''.join(
        f'<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>' for k, v in _run_card(results)) + '</table>')
    shas = sorted({(d, meta_of(dict(r)).get('source_sha256')) for per in results.values() for d, r in per.items()})
    parts.append('<details><summary>data files (SHA-256)</summary><table class="small">' + ''.join(
        f'<tr><td>{_e(d)}</td><td><code>{_e(s)}</code></td></tr>' for d, s in shas) + '</table></details>')

    parts.append('<h2>Leaderboard</h2><p class="small">U with its 95 % scenario-bootstrap interval; '
                 '<span class="warn">*</span> too few items to resample. n: items scored (of the subtask\'s items). '
                 'floor: the metric floor, U of references scored against other scenarios\' references (what a reply '
                 'in the right format about the wrong scenario earns; read a score as its distance from the floor, '
                 'see docs/metric_floor.md). Click a header to sort. Two models whose intervals overlap may still '
                 'differ: use <code>h2htalk compare</code> (paired). U rewards parroting (an echo of the user\'s '
                 'message beats a caring reply on most items, docs/validity.md): read it with the task checks and, on '
                 'the subtasks that answer the user, the copy-free U below.</p>')
    parts.extend(_leaderboard(intervals, rows, subtasks, groups, results, problems, floors))
    parts.extend(_nocopy_section(results, subtasks))
    if subtasks and not any(d in floors for d in subtasks):
        parts.append('<p class="small warn">No metric floor: the results do not record one (evaluated before '
                     'floors were recorded); see docs/metric_floor.md.</p>')
    parts.extend(f'<p class="warn small">not resampled: {_e(p)}</p>' for p in not_resampled)

    parts.append('<h2>Subtasks</h2><p class="small">Bars: U per subtask and model, error bars its 95 % interval; '
                 'dashed line: the subtask\'s metric floor. A missing score has no bar.</p><div id="chart">'
                 + _chart(intervals, subtasks, floors, problems) + '</div>')
    parts.extend(_sap_deltas(results, groups, order))
    parts.extend(_checks_section(results, subtasks))

    judged = [(m, d, meta_of(dict(r)), r) for m, per in results.items() for d, r in per.items()
              if meta_of(dict(r)).get('judge')]
    if judged:
        parts.append('<h2>Judge reliability</h2><table class="sortable"><thead><tr><th>model</th><th>dataset</th>'
                     '<th>parse rate %</th><th>unparsed</th><th>retries</th><th>review queue</th><th>valid</th>'
                     '</tr></thead><tbody>' + ''.join(
                         f'<tr><td>{_e(m)}</td><td>{_e(d)}</td><td>{_e(r.get("parse_rate"))}</td>'
                         f'<td>{_e(r.get("judge_unparsed"))}</td><td>{_e(meta.get("judge_retries"))}</td>'
                         f'<td>{_e(meta.get("review_items"))}</td><td>{_e(meta.get("judge_valid"))}</td></tr>'
                         for m, d, meta, r in judged) + '</tbody></table>')
        parts.extend(_agreement_section(run, [meta for _, _, meta, _ in judged]))

    parts.extend(_cost_section(run, list(results)))
    parts.extend(_item_browser(results, subtasks))
    parts.append(f'<script>{_SCRIPT}</script></body></html>')
    return ''.join(parts), check


def write_report(run_path: str, output: Optional[str] = None) -> Tuple[str, RunCheck]:
    """Writes :func:`report_page`'s page to ``output`` (default ``<run>/report.html``).

    Returns:
        ``(path written, the run check)``.

    Raises:
        CompareError: ``output`` is a folder or in a folder that does not exist (nothing is written), or the run
            cannot be reported (:func:`report_page`).
    """
    path = output or os.path.join(resolve_run(run_path), 'report.html')
    if os.path.isdir(path):
        raise CompareError(f'-o {path}: is a folder; name the page to write, e.g. {os.path.join(path, "report.html")}')
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise CompareError(f'-o {path}: the folder {os.path.dirname(os.path.abspath(path))} does not exist')
    page, check = report_page(run_path)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(page)
    return path, check


__all__ = ['build_report', 'report_page', 'write_report']
