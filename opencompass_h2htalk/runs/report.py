"""``h2htalk report RUN``: one self-contained HTML page for a finished run (first step of issue 12, item 4).

What the page holds so far: a run card (plugin, OpenCompass and data versions, data SHA-256, α, embedder, tokenizer,
judge and rubric hash where judged), a sortable leaderboard with bootstrap intervals for the overall score, the
dimensions and every subtask, a bar chart of the subtasks per model (matplotlib, inline SVG), the SAP − no-SAP
paired differences of every twin pair with intervals and p-values (the paper's Table 3 shape), judge reliability
(parse rate, retries, unparsed items, review queue) for judged results, cost and throughput per model (sizes from
predictions/, wall times from logs/, :mod:`.logs`), and a per-item browser filterable by subtask, tag, score range
and text, its state kept in the URL fragment. Nothing is fetched at view time: styles, script and chart are inline.
No OpenCompass import.
"""
from __future__ import annotations

import glob
import html
import io
import json
import os
from importlib import metadata
from typing import Any, Dict, List, Mapping, Optional, Sequence

from .. import __version__
from .compare import CompareError, compare_pair, load_run, resolve_run, run_groups
from .intervals import run_intervals
from .run_check import meta_of
from .twins import twin_pairs

_STYLE = """body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}th{background:#eee;cursor:pointer}
.warn{color:#a40}.small{font-size:85%}pre{white-space:pre-wrap;margin:0}.scroll{overflow-x:auto}"""
# Click a header to sort its table; the item browser filters rows by subtask, tag, score range and text. The last
# statement marks the body once the whole script has run, so a browser test can tell a page whose script broke half-way.
_SCRIPT = """document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){
var t=th.closest('table'),b=t.tBodies[0],rows=Array.from(b.rows),asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,c=y.cells[i].dataset.v||y.cells[i].textContent;
var na=parseFloat(a),nc=parseFloat(c);var r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?r:-r;});
rows.forEach(function(r){b.appendChild(r);});});});
// The item browser's filter state lives in the URL fragment
// (#subtask=…&tag=key:value&score=u|judge&min=…&max=…&q=…), so a filtered view can be linked to and a headless
// browser can load one. Unknown values are named, not dropped.
var ITEM_KEYS=['subtask','tag','score','min','max','q'];
function itemState(){var p=new URLSearchParams(location.hash.replace(/^#/,'')),s={};
ITEM_KEYS.forEach(function(k){s[k]=p.get(k)||'';});return s;}
function itemControls(){return {subtask:document.getElementById('f-subtask'),tag:document.getElementById('f-tag'),
score:document.getElementById('f-score'),min:document.getElementById('f-min'),max:document.getElementById('f-max'),
q:document.getElementById('f-text')};}
function applyItems(s){var c=itemControls(),notes=[],bounds={};
['subtask','tag'].forEach(function(k){c[k].value=s[k];if(s[k]&&c[k].value!==s[k]){c[k].value='';
notes.push('no '+k+' "'+s[k]+'" in this report');}});
if(s.score&&s.score!=='u'&&s.score!=='judge'){notes.push('score="'+s.score+'" is neither u nor judge: U is used');}
var key=s.score==='judge'?'judge':'u';c.score.value=key;
['min','max'].forEach(function(k){c[k].value=s[k];bounds[k]=s[k]===''?null:Number(s[k]);
if(s[k]!==''&&isNaN(bounds[k])){notes.push(k+'="'+s[k]+'" is not a number: ignored');bounds[k]=null;}});
c.q.value=s.q;var rows=document.querySelectorAll('#items tbody tr'),shown=0;
rows.forEach(function(r){var tags=(r.dataset.tags||'').split('|'),v=r.dataset[key];
var n=(v===undefined||v==='')?NaN:Number(v);
var ok=(!s.subtask||r.dataset.subtask===s.subtask)&&(!s.tag||tags.indexOf(s.tag)>=0)&&
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


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return '(not installed)'


def _chart(results: Mapping[str, Mapping[str, Mapping[str, Any]]], datasets: Sequence[str]) -> str:
    """An inline SVG bar chart: the unified score of every subtask, one bar per model."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    models = list(results)
    fig, ax = plt.subplots(figsize=(10, 4))
    width = 0.8 / max(1, len(models))
    for k, model in enumerate(models):
        values = [results[model].get(d, {}).get('score') for d in datasets]
        ax.bar([i + k * width for i in range(len(datasets))], [v if isinstance(v, (int, float)) else 0 for v in values],
               width=width, label=model)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(datasets))])
    ax.set_xticklabels([d.replace('h2htalk_', '') for d in datasets], rotation=45, ha='right', fontsize=8)
    ax.set_ylabel('U (0-100)')
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format='svg')
    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index('<svg'):]


def _run_card(results: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> List[List[str]]:
    metas = [meta_of(dict(r)) for per in results.values() for r in per.values()]
    first = metas[0] if metas else {}
    emb = first.get('embedder') or {}
    tok = first.get('tokenizer') or {}
    judged = sorted({f"{m.get('judge')} (rubric {m.get('rubric')}, hash {m.get('rubric_hash')})"
                     for m in metas if m.get('judge')})
    return [['opencompass-h2htalk', __version__], ['OpenCompass', _version('opencompass')],
            ['transformers', _version('transformers')], ['vLLM', _version('vllm')],
            ['data version', str(first.get('data_version'))],
            ['α', str(first.get('alpha'))],
            ['embedder', f"{emb.get('name')} (revision {emb.get('revision')})" if isinstance(emb, dict) else str(emb)],
            ['tokenizer', f"{tok.get('name')} {tok.get('version')}" if isinstance(tok, dict) else str(tok)],
            ['judge', '; '.join(judged) or '(no judged results)']]


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


def _item_browser(results: Mapping[str, Mapping[str, Mapping[str, Any]]], datasets: Sequence[str]) -> List[str]:
    """The per-item table with its filters: subtask, tag, score range (U or the judge's overall) and text."""
    rows, all_tags, untagged = [], set(), 0
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
                rows.append(
                    f'<tr data-subtask="{_e(dataset)}" data-tags="{_e("|".join(tags))}" data-u="{_number(u)}" '
                    f'data-judge="{_number(judge.get("overall") if isinstance(judge, dict) else None)}">'
                    f'<td>{_e(model)}</td><td>{_e(one.get("id"))}</td>'
                    f'<td class="small">{_e(" ".join(f"{k}:{v}" for k, v in shown_tags.items()))}</td>'
                    f'<td>{_e(round(u, 2) if isinstance(u, (int, float)) else "")}</td>'
                    f'<td><pre>{_e(one.get("pred"))}</pre></td><td><pre>{_e(one.get("ref"))}</pre></td>'
                    f'<td><pre>{_e(judge_text)}</pre></td></tr>')
    subtasks = ''.join(f'<option value="{_e(d)}">{_e(d)}</option>' for d in datasets)
    tag_options = ''.join(f'<option value="{_e(t)}">{_e(t)}</option>' for t in sorted(all_tags))
    note = (f'<p class="small warn">{untagged} item(s) have no tags in their results (written before the results '
            'recorded them): a tag filter never shows them.</p>' if untagged and rows else '')
    return ['<h2>Items</h2><p class="small">Filters are kept in the address (<code>#subtask=…&amp;'
            'tag=emotion:…&amp;score=u|judge&amp;min=…&amp;max=…&amp;q=…</code>), so a filtered view can be linked '
            'to. A score bound hides the items without that score.</p>'
            '<p><select id="f-subtask" onchange="filterItems()"><option value="">all subtasks</option>'
            f'{subtasks}</select> <select id="f-tag" onchange="filterItems()"><option value="">all tags</option>'
            f'{tag_options}</select> <select id="f-score" onchange="filterItems()"><option value="u">U</option>'
            '<option value="judge">judge overall</option></select> <input id="f-min" size="5" placeholder="min" '
            'oninput="filterItems()"> – <input id="f-max" size="5" placeholder="max" oninput="filterItems()"> '
            '<input id="f-text" placeholder="text" oninput="filterItems()"></p>'
            f'{note}<p class="small"><span id="items-count">{len(rows)} items</span> '
            '<span class="warn" id="items-note"></span></p>'
            '<table class="sortable small" id="items"><thead><tr><th>model</th><th>id</th><th>tags</th><th>U</th>'
            '<th>reply</th><th>reference</th><th>judge</th></tr></thead><tbody>' + ''.join(rows) + '</tbody></table>']


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
             'the model received it, reply as generated). Wall time: the sum of the model\'s task logs\' own '
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
        rows.append(
            f'<tr><td>{_e(model)}</td><td>{sizes.items}</td><td>{sizes.input_chars}</td><td>{sizes.output_chars}</td>'
            f'<td>{sizes.input_tokens if tokens else "-"}</td><td>{sizes.output_tokens if tokens else "-"}</td>'
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


def build_report(run_path: str) -> str:
    """The HTML page of a run folder (or the newest run of a work dir).

    Raises:
        CompareError: when the folder holds no readable results.
    """
    run = resolve_run(run_path)
    results = load_run(run)
    groups, order = run_groups(run)
    intervals, problems = run_intervals(results, groups)
    datasets = sorted({d for per in results.values() for d in per})
    group_names = [g['name'] for g in groups if g['name'] in {n for iv in intervals.values() for n in iv}]
    columns = [c for c in order if c in group_names] + [g for g in group_names if g not in order] + \
        [d for d in datasets if any(d in iv for iv in intervals.values())]

    parts = [f'<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"><title>H2HTalk report: {_e(run)}</title>'
             f'<style>{_STYLE}</style></head><body><h1>H2HTalk report</h1><p class="small">{_e(run)}</p>']
    parts.append('<h2>Run card</h2><table>' + ''.join(f'<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>'
                                                     for k, v in _run_card(results)) + '</table>')
    shas = sorted({(d, meta_of(dict(r)).get('source_sha256')) for per in results.values() for d, r in per.items()})
    parts.append('<details><summary>data files (SHA-256)</summary><table class="small">' + ''.join(
        f'<tr><td>{_e(d)}</td><td><code>{_e(s)}</code></td></tr>' for d, s in shas) + '</table></details>')

    parts.append('<h2>Leaderboard</h2><p class="small">U with its 95 % scenario-bootstrap interval; '
                 '<span class="warn">*</span> too few items to resample. Click a header to sort. Two models '
                 'whose intervals overlap may still differ: use <code>h2htalk compare</code> (paired).</p>')
    head = ''.join(f'<th>{_e(c.replace("h2htalk_", ""))}</th>' for c in columns)
    rows = []
    for model, ivs in intervals.items():
        cells = []
        for c in columns:
            iv = ivs.get(c)
            if iv is None:
                cells.append('<td data-v="">-</td>')
            elif iv.low is None:
                cells.append(f'<td data-v="{iv.estimate:.4f}" title="{_e(iv.warning)}">{iv.estimate:.2f}'
                             '<span class="warn">*</span></td>')
            else:
                cells.append(f'<td data-v="{iv.estimate:.4f}">{iv.estimate:.2f} '
                             f'<span class="small">[{iv.low:.2f}, {iv.high:.2f}]</span></td>')
        rows.append(f'<tr><td>{_e(model)}</td>{"".join(cells)}</tr>')
    # 16 columns are wider than the page: the table scrolls inside its box instead of running off the page.
    parts.append(f'<div class="scroll"><table class="sortable" id="leaderboard"><thead><tr><th>model</th>{head}</tr>'
                 f'</thead><tbody>{"".join(rows)}</tbody></table></div>')
    parts.extend(f'<p class="warn small">not resampled: {_e(p)}</p>' for p in problems)

    parts.append('<h2>Subtasks</h2><div id="chart">' + _chart(results, datasets) + '</div>')
    parts.extend(_sap_deltas(results, groups, order))

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
    parts.extend(_item_browser(results, datasets))
    parts.append(f'<script>{_SCRIPT}</script></body></html>')
    return ''.join(parts)


def write_report(run_path: str, output: Optional[str] = None) -> str:
    """Writes :func:`build_report`'s page to ``output`` (default ``<run>/report.html``); returns the path."""
    path = output or os.path.join(resolve_run(run_path), 'report.html')
    page = build_report(run_path)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(page)
    return path


__all__ = ['build_report', 'write_report']
