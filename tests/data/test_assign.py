"""Literal tests for the assignment drawer (data/assign.py)."""
from collections import Counter

import pytest

from opencompass_h2htalk.data.assign import DRAWN_VOCABS, draw, main

FRAME = {'vocab': {'emotion': ['开心', '难过', '生气'], 'topic': ['工作', '家庭'], 'relationship': ['无', '朋友']},
         'users': [{'name': f'用户{i}', 'call': f'阿{i}'} for i in range(5)]}


def test_counts_are_balanced_within_one():
    items = draw(FRAME, ['a', 'b'], 10, seed=1)
    assert [i['index'] for i in items] == list(range(10))
    assert sorted(Counter(i['emotion'] for i in items).values()) == [3, 3, 4]
    assert Counter(i['topic'] for i in items) == {'工作': 5, '家庭': 5}
    assert Counter(i['persona'] for i in items) == {'a': 5, 'b': 5}
    assert Counter(i['user']['name'] for i in items) == {f'用户{i}': 2 for i in range(5)}


def test_same_seed_same_sequence_and_skip_continues_it():
    whole = draw(FRAME, ['a', 'b'], 8, seed=3)
    assert draw(FRAME, ['a', 'b'], 8, seed=3) == whole
    assert draw(FRAME, ['a', 'b'], 3, seed=3, skip=5) == whole[5:]
    assert draw(FRAME, ['a', 'b'], 8, seed=4) != whole


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match='n and skip'):
        draw(FRAME, ['a'], -1, seed=0)
    with pytest.raises(ValueError, match='relationship'):
        draw({'vocab': {'emotion': ['x'], 'topic': ['y']}, 'users': FRAME['users']}, ['a'], 1, seed=0)


def test_cli_draws_from_the_bundled_frame(capsys):
    assert main(['dialogue_base', '4', '--seed', '7']) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 4 and all('"subtask": "dialogue_base"' in line for line in lines)
    assert set(DRAWN_VOCABS) == {'emotion', 'topic', 'relationship'}


def test_a_negative_seed_is_refused_naming_the_option(capsys):
    # random.Random(-1) draws what random.Random(1) draws: two writers' seeds would silently collide.
    with pytest.raises(ValueError, match=r'seed \(--seed\) must be an integer >= 0, got -1'):
        draw(FRAME, ['a', 'b'], 3, seed=-1)
    assert main(['safety', '3', '--seed', '-1']) == 1
    captured = capsys.readouterr()
    assert captured.out == '' and 'error: seed (--seed) must be an integer >= 0, got -1' in captured.err
