"""The report of a real demo run, opened in headless Chromium (issue 12, item 5): the page renders.

Chromium (the Debian package) loads ``h2htalk report``'s page from disk with no network, writes a screenshot into the
test's ``tmp_path`` (kept by pytest as the test's artifact; its path is printed) and logs the page's console to stderr.
The page counts as rendered when its console is silent (no uncaught error), its script ran to the end (it marks
``<body data-script="ok">``), the DOM holds the leaderboard with a row per model and the chart, and the screenshot
is a real picture, not a blank page. A hand-made run with SAP twins checks the SAP-vs-no-SAP table the same way. The
item browser's filters (the failed-task-check filter included) are checked by loading filtered views from the URL.

Chromium or a Chinese font missing (the items are Chinese; without a font the screenshot shows boxes): the Debian
packages ``chromium`` and ``fonts-wqy-zenhei`` are installed with apt-get when running as root (like
tests/pipeline/test_slurm.py does for Slurm); elsewhere the tests skip saying why, and in CI (``CI`` set) they fail
instead of skipping.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple
from urllib.parse import quote

import pytest

from opencompass_h2htalk.cli import main

from ..conftest import in_ci

MODEL = 'h2htalk-retrieval-baseline'
DIMENSION_ORDER = ['dialogue_base', 'dialogue_emotion', 'dialogue_schedule', 'recollection_synthesize',
                   'recollection_refine', 'recollection_initialize', 'itinerary_basic', 'itinerary_middle',
                   'itinerary_advanced', 'itinerary_feedback', 'itinerary_initialize']
WINDOW = (1280, 2000)


def _find_chromium():
    return shutil.which('chromium') or shutil.which('chromium-browser')


def _has_chinese_font() -> bool:
    """A font for the page's Chinese text: without one the screenshot shows boxes instead of characters."""
    if not shutil.which('fc-list'):
        return False
    return bool(subprocess.run(['fc-list', ':lang=zh'], capture_output=True, text=True).stdout.strip())


def _missing_packages() -> List[str]:
    return ([] if _find_chromium() else ['chromium']) + ([] if _has_chinese_font() else ['fonts-wqy-zenhei'])


def _install(packages: List[str]) -> str:
    """apt-get installs the Debian ``packages``; returns why it could not, or '' when it did."""
    if os.geteuid() != 0:
        return f'{", ".join(packages)} not installed, and installing with apt-get needs root'
    if not shutil.which('apt-get'):
        return f'{", ".join(packages)} not installed, and apt-get is not available to install them'
    env = {**os.environ, 'DEBIAN_FRONTEND': 'noninteractive'}
    install = ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', *packages]
    for cmd in (['apt-get', 'update', '-qq'], install):
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            return f'`{" ".join(cmd)}` exited {proc.returncode}:\n{proc.stdout[-1500:]}\n{proc.stderr[-1500:]}'
    return ''


@pytest.fixture(scope='session')
def chromium():
    """The Chromium executable, with a Chinese font; both installed first when missing (root only)."""
    missing = _missing_packages()
    if missing:
        why = _install(missing)
        still = _missing_packages()
        if still:
            why = why or f'apt-get installed {", ".join(missing)} but still missing: {", ".join(still)}'
            if in_ci():
                pytest.fail(f'the browser test must run in CI: {why}')
            pytest.skip(f'cannot open the report in a browser here: {why}')
    return _find_chromium()


class Rendered(NamedTuple):
    console: List[str]   # the page's console messages, as Chromium logs them
    dom: str             # the DOM after the page's script ran
    screenshot: Path


def render(chromium: str, page: Path, out: Path) -> Rendered:
    """Opens ``page`` in headless Chromium twice: once for the screenshot and console log, once to dump the DOM."""
    common = [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars',
              f'--window-size={WINDOW[0]},{WINDOW[1]}']
    shot = out / f'{page.stem}.png'
    proc = subprocess.run([*common, f'--user-data-dir={out / "profile-shot"}', '--enable-logging=stderr', '--v=0',
                           f'--screenshot={shot}', page.as_uri()], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f'chromium --screenshot exited {proc.returncode}:\n{proc.stderr[-3000:]}'
    dom = subprocess.run([*common, f'--user-data-dir={out / "profile-dom"}', '--dump-dom', page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, f'chromium --dump-dom exited {dom.returncode}:\n{dom.stderr[-3000:]}'
    console = [line for line in proc.stderr.splitlines() if ':CONSOLE' in line]
    return Rendered(console, dom.stdout, shot)


def rendering_problems(r: Rendered, model: str = MODEL) -> List[str]:
    """What shows that the page did not render (``model``: one model the leaderboard must show); empty when it did."""
    problems = [f'console: {line}' for line in r.console]   # the page logs nothing, so any message is a defect
    body = re.search(r'<body[^>]*>', r.dom)
    if not body or 'data-script="ok"' not in body.group(0):
        problems.append('the page script did not run to its end (no <body data-script="ok"> in the DOM)')
    # One column per model (the subtasks are rows, so one model does not scroll sideways).
    head = re.search(r'<table[^>]*id="leaderboard"[^>]*><thead><tr>(.*?)</tr>', r.dom, flags=re.S)
    if not head or f'<th>{model}</th>' not in head.group(1):
        problems.append(f'no leaderboard column for {model} in the DOM')
    if not re.search(r'<div id="chart">\s*<svg', r.dom):
        problems.append('no chart (<svg> in #chart) in the DOM')
    if not r.screenshot.is_file():
        problems.append(f'no screenshot at {r.screenshot}')
    else:
        from PIL import Image

        with Image.open(r.screenshot) as img:
            colors = img.convert('RGB').getcolors(maxcolors=1 << 16)
            if img.size != WINDOW:
                problems.append(f'screenshot is {img.size}, not {WINDOW}')
        if colors is not None and len(colors) < 8:   # None: more colours than counted, certainly not blank
            problems.append(f'screenshot has only {len(colors)} colours: a blank page')
    return problems


@pytest.fixture(scope='module')
def demo_report(demo_run, tmp_path_factory):
    """``h2htalk report`` of the shared demo run, written outside the run folder."""
    run, _ = demo_run
    page = tmp_path_factory.mktemp('report') / 'report.html'
    assert main(['report', str(run), '-o', str(page)]) == 0
    return page


def test_demo_report_renders_in_chromium(chromium, demo_report, tmp_path):
    rendered = render(chromium, demo_report, tmp_path)
    print(f'screenshot: {rendered.screenshot}')
    assert rendering_problems(rendered) == []
    # The leaderboard has a row for the overall score, the three dimensions and the 11 subtasks in dimension order,
    # and one column for the one model, so it fits the window (no sideways scroll).
    board = re.search(r'<table[^>]*id="leaderboard".*?<tbody>(.*?)</tbody>', rendered.dom, flags=re.S).group(1)
    names = re.findall(r'<tr class="\w+"><td>([^<]*)</td>', board)
    assert names == ['overall', 'dialogue', 'recollection', 'itinerary'] + [s for s in DIMENSION_ORDER], names
    assert _width(chromium, demo_report, tmp_path, 'leaderboard') <= WINDOW[0], 'the leaderboard scrolls sideways'
    # The run check passed and says so first; n says the demo scored 2 of the mini data's 2 items each.
    assert '<div id="run-check" class="check-ok">' in rendered.dom
    # The chart: an error bar set and a floor line drawn (the mini data records a floor for every subtask).
    chart = re.search(r'<div id="chart">(.*?)</svg>', rendered.dom, flags=re.S).group(1)
    assert chart.count('<g id="LineCollection_') == 1 + 11, 'error bars and floor lines'


@pytest.mark.parametrize('breakage,expected', [
    # A script error half-way: the console shows it and the end-of-script mark is missing.
    (("document.querySelectorAll('table.sortable th')", "document.querySelectorAl('table.sortable th')"),
     ['Uncaught TypeError', 'did not run to its end']),
    # The chart gone: the DOM check sees it.
    (('<div id="chart">', '<div id="chart-gone">'), ['no chart']),
])
def test_a_broken_report_is_caught(chromium, demo_report, tmp_path, breakage, expected):
    page = demo_report.read_text(encoding='utf-8')
    assert breakage[0] in page
    broken = tmp_path / 'broken.html'
    broken.write_text(page.replace(breakage[0], breakage[1]), encoding='utf-8')
    problems = '\n'.join(rendering_problems(render(chromium, broken, tmp_path)))
    for text in expected:
        assert text in problems, problems


def test_a_twin_report_renders_its_sap_table(chromium, tmp_path):
    """A hand-made run with SAP twins (as tests/test_compare.py builds it): the SAP-vs-no-SAP table renders too."""
    from ..runs.test_compare import DATASETS, write

    run = tmp_path / 'work' / '20260101_000000'
    base = [float(10 + k % 5) for k in range(12)]
    for dataset in DATASETS:
        write(run, 'm@nosap', dataset, base)
        write(run, 'm@sap-v1', dataset, [s + 2 for s in base])
    page = tmp_path / 'report.html'
    assert main(['report', str(run), '-o', str(page)]) == 0
    rendered = render(chromium, page, tmp_path)
    assert rendering_problems(rendered, model='m@sap-v1') == []
    table = re.search(r'<table class="sortable sap-deltas">.*?<tbody>(.*?)</tbody>', rendered.dom, flags=re.S)
    assert table and table.group(1).count('<tr>') == len(DATASETS), rendered.dom[-3000:]


def visible_items(dom: str) -> Tuple[int, int]:
    """``(visible, total)`` rows of the item browser in a dumped DOM (the script hides a row with display: none)."""
    table = re.search(r'<table[^>]*id="items".*?<tbody>(.*?)</tbody>', dom, flags=re.S)
    rows = re.findall(r'<tr\b[^>]*>', table.group(1)) if table else []
    return sum('display: none' not in r for r in rows), len(rows)


def expected_items(run: Path, subtask: Optional[str] = None, tag: Optional[str] = None,
                   low: Optional[float] = None, high: Optional[float] = None, check: Optional[str] = None) -> int:
    """How many items of the run's results files a filter must leave, counted here from the files themselves
    (``check``: a task check that failed on the item, or ``checks_all``: any check failed)."""
    import json

    n = 0
    for path in sorted(run.glob('results/*/*.json')):
        if subtask and path.stem != subtask:
            continue
        for detail in json.loads(path.read_text(encoding='utf-8')).get('details') or []:
            one = {k: (v[0] if isinstance(v, list) and v else v) for k, v in detail.items()}
            tags = {f'{k}:{v}' for k, v in (one.get('tags') or {}).items()} | {f'persona:{one.get("persona")}'}
            failed = {name for name, c in (one.get('checks') or {}).items() if c['pass'] is False}
            failed |= {'checks_all'} if failed else set()
            u = one.get('unified')
            n += ((not tag or tag in tags) and (low is None or u >= low) and (high is None or u <= high)
                  and (not check or check in failed))
    return n


def dump(chromium: str, page: Path, out: Path, fragment: str) -> Rendered:
    """One headless load of ``page`` + ``fragment``: its console log and its DOM after the script ran (no shot)."""
    proc = subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                           f'--user-data-dir={out / "profile-filter"}', '--enable-logging=stderr', '--v=0',
                           '--dump-dom', page.as_uri() + fragment], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f'chromium --dump-dom exited {proc.returncode}:\n{proc.stderr[-3000:]}'
    return Rendered([line for line in proc.stderr.splitlines() if ':CONSOLE' in line], proc.stdout, out / 'none.png')


def filter_problems(chromium: str, page: Path, out: Path, query: Dict[str, str], expected: int) -> List[str]:
    """What is wrong with the view a URL fragment of ``query`` loads: console messages, the script not finishing,
    a visible-row count other than ``expected``, or an item count line that disagrees with the rows."""
    r = dump(chromium, page, out, '#' + '&'.join(f'{k}={quote(v)}' for k, v in query.items()))
    problems = [f'console: {line}' for line in r.console]
    body = re.search(r'<body[^>]*>', r.dom)
    if not body or 'data-script="ok"' not in body.group(0):
        problems.append('the page script did not run to its end')
    visible, total = visible_items(r.dom)
    if visible != expected:
        problems.append(f'{visible} of {total} item rows visible for {query}, expected {expected}')
    count = re.search(r'<span id="items-count">([^<]*)</span>', r.dom)
    if not count or count.group(1) != f'{visible} of {total} items shown':
        problems.append(f'item count line {count.group(1) if count else None!r} does not match the rows')
    return problems


def filter_views(run: Path) -> List[Tuple[Dict[str, str], int]]:
    """Views of the demo report, each narrowing on one filter (so a filter that ignores its value shows more rows),
    and one that needs all of them at once; with the number of rows each must leave, counted from the results."""
    import json

    scores = sorted(d['unified'][0] for p in run.glob('results/*/*.json')
                    for d in json.loads(p.read_text(encoding='utf-8'))['details'])
    # A bound in the widest gap between two scores near the middle, so rounding cannot put an item on either side.
    k = max(range(len(scores) // 4, 3 * len(scores) // 4 + 1), key=lambda i: scores[i] - scores[i - 1])
    cut = round((scores[k - 1] + scores[k]) / 2, 2)
    # The mini data: the two dialogue_emotion items are tagged 难过 and 烦乱, the other 20 平静.
    views = [({'tag': 'emotion:难过'}, expected_items(run, tag='emotion:难过')),
             ({'subtask': 'h2htalk_dialogue_base'}, expected_items(run, 'h2htalk_dialogue_base')),
             ({'min': str(cut)}, expected_items(run, low=cut)),
             ({'max': str(cut)}, expected_items(run, high=cut)),
             ({'subtask': 'h2htalk_dialogue_emotion', 'tag': 'emotion:烦乱', 'min': '0', 'score': 'u'},
              expected_items(run, 'h2htalk_dialogue_emotion', 'emotion:烦乱', 0)),
             # A failed task check (issue 21): the baseline answers itinerary_basic/advanced with another scenario's
             # reference, and the mini data's references are far shorter than the instructed 80-300 characters.
             ({'check': 'length'}, expected_items(run, check='length')),
             ({'check': 'length', 'subtask': 'h2htalk_itinerary_basic'},
              expected_items(run, 'h2htalk_itinerary_basic', check='length'))]
    total = expected_items(run)
    assert all(0 < n < total for _, n in views), (views, total)
    return views


def test_filtered_views_load_from_the_url_fragment(chromium, demo_run, demo_report, tmp_path):
    run, _ = demo_run
    for query, expected in filter_views(run):
        assert filter_problems(chromium, demo_report, tmp_path, query, expected) == [], query
    # Values the report does not have: no rows, and the page names what it did not find instead of showing all.
    r = dump(chromium, demo_report, tmp_path, '#subtask=h2htalk_nope&min=x')
    assert visible_items(r.dom)[0] == 0 and r.console == []
    assert 'no subtask "h2htalk_nope" in this report; min="x" is not a number: ignored' in r.dom
    # Any failed check; an unknown check is named, not ignored.
    assert filter_problems(chromium, demo_report, tmp_path, {'check': 'checks_all'},
                           expected_items(run, check='checks_all')) == []
    r = dump(chromium, demo_report, tmp_path, '#check=no_such_check')
    assert visible_items(r.dom)[0] == 0 and 'no check "no_such_check" in this report' in r.dom


def test_the_task_checks_render_and_each_item_shows_its_failed_checks(chromium, demo_run, demo_report, tmp_path):
    import json

    run, _ = demo_run
    r = render(chromium, demo_report, tmp_path)
    assert rendering_problems(r) == []
    table = re.search(r'<table[^>]*id="checks".*?<tbody>(.*?)</tbody>', r.dom, flags=re.S)
    assert table, 'no task-checks table in the DOM'
    rows = re.findall(r'<tr><td>([^<]*)</td><td data-v="([\d.]+)"[^>]*>', table.group(1))
    assert [name for name, _ in rows] == DIMENSION_ORDER
    for name, value in rows:   # the all-checks rate of each results file (2 items each: no interval, a star)
        result = json.loads((run / 'results' / MODEL / f'h2htalk_{name}.json').read_text(encoding='utf-8'))
        assert float(value) == pytest.approx(result['checks'][0]['all']['rate'], abs=1e-4), name
    assert re.search(r'<table[^>]*id="checks-per-check"', r.dom)
    # A failed check and its reason are shown in the item's row.
    row = re.search(r'<tr data-subtask="h2htalk_itinerary_basic"[^>]*data-failed="[^"]*length[^"]*"[^>]*>(.*?)</tr>',
                    r.dom, flags=re.S)
    assert row and re.search(r'<b>length</b>: \d+ characters; the instruction asks for 80-150', row.group(1)), row


@pytest.mark.parametrize('breakage', [
    ("(!s.tag||tags.indexOf(s.tag)>=0)", "true"),                          # every tag matches
    ("(!s.subtask||r.dataset.subtask===s.subtask)", "true"),               # every subtask matches
    ("(bounds.min===null||(!isNaN(n)&&n>=bounds.min))", "true"),           # the score floor ignored
    ("(bounds.max===null||(!isNaN(n)&&n<=bounds.max))", "true"),           # the score ceiling ignored
    ("window.addEventListener('hashchange',function(){applyItems(itemState());});\napplyItems(itemState());", ""),
    ("(!s.check||(r.dataset.failed||'')!==''&&(s.check==='checks_all'||failed.indexOf(s.check)>=0))", "true"),
])                                                                          # the fragment never read
def test_a_broken_filter_is_caught(chromium, demo_run, demo_report, tmp_path, breakage):
    run, _ = demo_run
    page = demo_report.read_text(encoding='utf-8')
    assert page.count(breakage[0]) == 1, breakage[0]
    broken = tmp_path / 'broken.html'
    broken.write_text(page.replace(breakage[0], breakage[1]), encoding='utf-8')
    for query, expected in filter_views(run):
        if filter_problems(chromium, broken, tmp_path, query, expected):
            return
    pytest.fail(f'no view of the filter test noticed the breakage {breakage}')


def test_the_cost_section_renders(chromium, demo_report, tmp_path):
    r = render(chromium, demo_report, tmp_path)
    assert rendering_problems(r) == []
    table = re.search(r'<table[^>]*id="cost".*?<tbody>(.*?)</tbody>', r.dom, flags=re.S)
    assert table, 'no cost table in the DOM'
    row = re.search(rf'<tr><td>{MODEL}</td>(.*?)</tr>', table.group(1), flags=re.S)
    assert row, table.group(1)
    cells = re.findall(r'<td[^>]*>(.*?)</td>', row.group(1))
    # items, input chars, output chars, tokens (none: the baseline has no tokenizer), wall times, rates.
    assert cells[0] == '22' and int(cells[1]) > 0 and int(cells[2]) > 0 and cells[3:5] == ['-', '-'], cells
    assert cells[5] == 'no tokenizer: the retrieval baseline answers with a stored reference and has none ' \
                       '(characters only)', cells
    assert re.fullmatch(r'\d+\.\d\d s', cells[6]) and re.fullmatch(r'\d+\.\d\d s', cells[7]), cells
    assert cells[8].endswith(' items/s') and cells[9].endswith(' chars/s'), cells


def _width(chromium: str, page: Path, out: Path, element: str) -> int:
    """The rendered width (CSS px) of the element with id ``element``, measured by a script added to a copy."""
    probe = out / f'width-{page.name}'
    probe.write_text(page.read_text(encoding='utf-8').replace(
        '</body>', f"<script>document.body.dataset.width=document.getElementById('{element}')"
                   ".getBoundingClientRect().width;</script></body>"), encoding='utf-8')
    r = dump(chromium, probe, out, '')
    found = re.search(r'data-width="([\d.]+)"', r.dom)
    assert found, r.dom[:500]
    return int(float(found.group(1)))


def test_a_failed_run_and_a_foreign_result_render_with_the_run_check_first(chromium, demo_run, tmp_path):
    """A copy of the demo run with one result gone (its eval log naming the error) and a gsm8k-style result added:
    the page names the missing result first, marks its cell, draws no bar for it, and leaves gsm8k out."""
    import json

    run, _ = demo_run
    copy = tmp_path / 'work' / run.name
    shutil.copytree(run, copy)
    gone = 'h2htalk_itinerary_initialize'
    (copy / 'results' / MODEL / f'{gone}.json').unlink()
    (copy / 'results' / MODEL / 'gsm8k.json').write_text(json.dumps(
        {'accuracy': 50.0, 'details': {'0': {'pred': '1', 'answer': '2', 'correct': False}}}), encoding='utf-8')
    page = tmp_path / 'failed.html'
    assert main(['report', str(copy), '-o', str(page), '--check']) == 1
    r = render(chromium, page, tmp_path)
    print(f'screenshot: {r.screenshot}')
    assert rendering_problems(r) == []
    check = re.search(r'<div id="run-check" class="check-fail">(.*?)</div>', r.dom, flags=re.S)
    assert check and r.dom.index('id="run-check"') < r.dom.index('id="run-card"')
    assert f'<td>MISSING</td><td>{MODEL}</td><td>{gone}</td>' in check.group(1), check.group(1)
    assert f'left out: {MODEL} × gsm8k: not an H2HTalk result' in check.group(1)
    board = re.search(r'<table[^>]*id="leaderboard".*?<tbody>(.*?)</tbody>', r.dom, flags=re.S).group(1)
    row = re.search(r'<tr class="subtask"><td>itinerary_initialize</td>(.*?)</tr>', board).group(1)
    assert row.startswith('<td class="missing" data-v="">MISSING</td>'), row
    assert 'not computed: itinerary_initialize missing' in re.search(
        r'<tr class="group"><td>overall</td>(.*?)</tr>', board).group(1)
    assert 'gsm8k' not in board
    chart = re.search(r'<div id="chart">(.*?)</svg>', r.dom, flags=re.S).group(1)
    full = re.search(r'<div id="chart">(.*?)</svg>', render(chromium, _demo_page(run, tmp_path), tmp_path).dom,
                     flags=re.S).group(1)
    assert full.count('<g id="patch_') - chart.count('<g id="patch_') == 1, 'a bar drawn for the missing score'


def _demo_page(run: Path, tmp_path: Path) -> Path:
    page = tmp_path / 'full.html'
    assert main(['report', str(run), '-o', str(page), '--check']) == 0
    return page
