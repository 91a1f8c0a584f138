"""The ladder's reference points (pure): every scenario of the data answered, unknown prompts refused clearly."""
import json

import pytest

from opencompass_h2htalk.baselines.reference_points import KINDS, ReferencePoint
from opencompass_h2htalk.data.loader import load_rows
from opencompass_h2htalk.metrics.validity import GENERIC_CARING, last_input_block

from ..conftest import REPO

MINI = str(REPO / 'tests/fixtures/h2htalk_mini')


@pytest.mark.parametrize('subtask', ['dialogue_base', 'recollection_initialize', 'itinerary_advanced', 'itinerary_feedback'])
def test_every_scenario_gets_its_reply(subtask):
    points = {kind: ReferencePoint(kind, MINI) for kind in KINDS}
    for row in load_rows(subtask, MINI):
        # A trailing newline on either turn (a chat template adding one) does not change the scenario.
        system, user = row['system_prompt'] + '\n', row['user_prompt']
        assert points['constant'].respond(system, user) == GENERIC_CARING
        assert points['parrot'].respond(system, user) == last_input_block(json.loads(row['inputs']))
        assert points['reference'].respond(system, user) == row['reference']


def test_a_prompt_that_is_not_a_scenario_is_refused_by_name():
    row = load_rows('dialogue_base', MINI)[0]
    point = ReferencePoint('parrot', MINI)
    with pytest.raises(KeyError, match='not a scenario of the H2HTalk data .* without SAP'):
        point.respond('【SAP v1】\n' + row['system_prompt'], row['user_prompt'])
    with pytest.raises(ValueError, match=r"reference point 'oracle': choose one of \['constant', 'parrot', 'reference'\]"):
        ReferencePoint('oracle', MINI)
