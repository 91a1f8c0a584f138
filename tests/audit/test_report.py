"""Literal tests for the distribution report (audit/report.py) and `h2htalk audit --report`."""
from opencompass_h2htalk.audit.frame import Frame
from opencompass_h2htalk.audit.model import Record
from opencompass_h2htalk.audit.report import TARGETS_1_0, distribution_report
from opencompass_h2htalk.cli import main as h2htalk

FRAME = Frame(path='frame.json', version='t', vocab={'emotion': ['开心', '难过'], 'topic': ['工作']}, motifs=['年糕'],
              max_user_name_share=0.01, max_motif_share=0.02, min_cell=2)


def _rec(i, subtask, reference, persona='p1', name=None, chain=None, **tags):
    inputs = {'user_name': name} if name else {}
    data = {'id': f'{subtask}-{i:03d}', 'subtask': subtask, 'persona': persona, 'inputs': inputs,
            'reference': reference, 'tags': tags}
    if chain:
        data.update(chain=chain, stage=1)
    return Record('x.jsonl', i, data)


def test_report_counts_targets_cast_tags_and_motifs():
    records = [_rec(1, 'dialogue_base', '年糕很好', name='小王', emotion='开心', topic='工作'),
               _rec(2, 'dialogue_base', '好的呀好的', persona='p2', name='小王', emotion='开心', topic='工作',
                    chain='c1'),
               _rec(3, 'recollection_synthesize', '无可记录的信息', emotion='难过', topic='工作')]
    text = distribution_report(records, FRAME)
    assert '| dialogue_base | 2 | 700 | 0% | 1 (50%) | 4.5 | 0.11 |  |'  # lengths 4 and 5: pstdev 0.5 / 4.5 in text
    assert '| recollection_synthesize | 1 | 450 | 0% | 0 (0%) | 7.0 | - | 无可记录的信息: 100% |' in text
    assert f'Total: 3 of {sum(TARGETS_1_0.values())} target records (0%).' in text
    assert '| p1 | 2 | 66.7% |' in text and '| p2 | 1 | 33.3% |' in text
    assert '1 distinct names in 2 named scenarios; most used: 小王 (2); cap 3 scenarios (1% of 3)' in text
    assert '开心 2, 难过 1' in text and 'min_cell 2: 1 of 2 values below (难过)' in text
    assert 'most used: 年糕 1' in text


def test_report_without_a_frame_says_so():
    text = distribution_report([_rec(1, 'safety', '打120', risk_category='self_harm')], None)
    assert 'no sampling frame: nothing to compare with' in text
    assert 'self_harm 1' in text


def test_cli_prints_the_report_after_the_findings(capsys):
    assert h2htalk(['audit', '--no-semantic', '--report']) == 0
    out = capsys.readouterr().out
    assert out.index('audit of ') < out.index('# Distribution report') and '## Records per subtask' in out
