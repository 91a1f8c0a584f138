"""``h2htalk report`` on a hand-made run: a self-contained page with the run card, intervals, chart and items."""
import json
import re

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.stats import Subtask, group_intervals

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
