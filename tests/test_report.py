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
    assert page.count('<tr data-subtask=') == 2 * 2 * 12


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
            'data-u="10.0000" data-judge=""><td>m@nosap</td><td>h2htalk_dialogue_base-0</td>'
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
    from .test_runlogs import EVAL_LOG, INFER_LOG

    # m@nosap: 2 items of 3 + 3 characters in, 2 out, and the inference log's 14.26 s (Task line renamed to it).
    folder = run / 'predictions' / 'm@nosap'
    folder.mkdir(parents=True)
    for d in DATASETS:
        (folder / f'{d}.json').write_text(json.dumps({'0': {'origin_prompt': '我难过', 'prediction': '抱抱'}}))
    for kind, text in (('infer', INFER_LOG.replace('m/', 'm@nosap/')), ('eval', EVAL_LOG)):
        (run / 'logs' / kind / 'm@nosap').mkdir(parents=True)
        (run / 'logs' / kind / 'm@nosap' / f'{DATASETS[0]}.out').write_text(text, encoding='utf-8')
    # m@sap-v1: predictions but no logs at all: times unknown, never 0.
    (run / 'predictions' / 'm@sap-v1').mkdir(parents=True)
    (run / 'predictions' / 'm@sap-v1' / f'{DATASETS[0]}.json').write_text(
        json.dumps({'0': {'origin_prompt': '你好', 'prediction': '在呢'}}))
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert '<h2>Cost and throughput</h2>' in page
    why = "no tokenizer: m@nosap is not among the models of the run&#x27;s dumped config"
    assert (f'<tr><td>m@nosap</td><td>2</td><td>6</td><td>4</td><td>-</td><td>-</td><td class="small">{why}</td>'
            '<td data-v="14.2600">14.26 s</td><td data-v="2.0100">2.01 s</td>'
            f'<td data-v="{2 / 14.26:.4f}">0.14 items/s</td><td data-v="{4 / 14.26:.4f}">0.28 chars/s</td></tr>') in page
    assert ('<td data-v="">unknown</td><td data-v="">unknown</td><td data-v="">unknown</td><td data-v="">unknown</td>'
            '</tr>') in page
    assert 'm@sap-v1: no inference task log (a --debug run logs to the terminal' in page


def test_cost_section_names_models_without_predictions(run, tmp_path):  # noqa: F811
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert 'no predictions/ in this run: nothing to measure.' in page
    for model in ('m@nosap', 'm@sap-v1'):
        assert f'{model}: results but no predictions/{model} in this run' in page
