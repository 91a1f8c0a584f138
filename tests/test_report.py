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
