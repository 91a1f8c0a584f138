"""The retrieval baseline is leave-one-out: it never answers with the scenario's own reference."""
import pytest

from opencompass_h2htalk.baselines.retrieval import RetrievalBaseline
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.data.schema import CORE_SUBTASKS as SUBTASKS


@pytest.fixture(scope='module')
def baseline():
    return RetrievalBaseline()


@pytest.mark.parametrize('subtask', list(SUBTASKS))
def test_never_returns_own_reference_but_a_same_subtask_one(baseline, subtask):
    rows = load_rows(subtask)
    by_prompt = {r['user_prompt']: r['reference'] for r in rows}
    for row in rows:
        source, answer = baseline.retrieve(row['system_prompt'], row['user_prompt'])
        assert source != row['user_prompt'] and by_prompt[source] == answer


def test_rejects_non_h2htalk_prompts(baseline):
    with pytest.raises(ValueError, match='cannot tell the H2HTalk subtask'):
        baseline.respond('You are a helpful assistant.', 'hi')
