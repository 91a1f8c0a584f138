"""Literal tests: history shape, the refine voice, schedule hygiene."""
from opencompass_h2htalk.audit.hygiene import check_schedule_entries, state_reason
from opencompass_h2htalk.audit.shape import check_history_shape, check_refine_voice

from .helpers import checks, rec

U, A = 'user', 'assistant'


def _hist(*roles):
    return [{'role': r, 'content': f'第{i}句'} for i, r in enumerate(roles)]


def test_alternating_history_passes():
    assert check_history_shape(rec('dialogue_base', {'history': _hist(U, A, U, A), 'user_message': '嗯'})) == []


def test_two_user_turns_in_a_row_fail():
    found = check_history_shape(rec('dialogue_base', {'history': _hist(U, U, A), 'user_message': '嗯'}))
    assert checks(found) == ['history.alternation']
    assert 'turns 0 and 1' in found[0].message


def test_history_ending_with_user_before_user_message_fails():
    """dialogue_schedule-005: the last history turn and user_message are both the user's."""
    found = check_history_shape(rec('dialogue_schedule', {'history': _hist(U, A, U), 'user_message': '嗯'}))
    assert checks(found) == ['history.alternation']


def test_user_initiated_subtask_must_start_with_user():
    found = check_history_shape(rec('safety', {'history': _hist(A, U, A), 'user_message': '嗯'}))
    assert checks(found) == ['history.first_role']
    # itinerary_feedback may open with the companion sharing its activity.
    assert check_history_shape(rec('itinerary_feedback', {'history': _hist(A, U)})) == []


def test_refine_reference_needs_first_person():
    assert checks(check_refine_voice(rec('recollection_refine', {}, '下周三去面试，加油！'))) == ['format.first_person']
    assert check_refine_voice(rec('recollection_refine', {}, '下周三我要去面试啦，给自己打气！')) == []
    assert check_refine_voice(rec('recollection_initialize', {}, '下周三去面试？')) == []


def test_state_entries():
    assert state_reason('刚晨跑完，在河边拉伸') is not None
    assert state_reason('骑车去渔港看日出的路上') is not None
    assert state_reason('正在修书') is not None
    assert state_reason('躺着发呆') is not None
    for activity in ('沿海堤骑车兜一圈', '在店里煮面当午饭', '关店，在店里听黑胶', '修补一本民国线装书'):
        assert state_reason(activity) is None, activity


def test_schedule_entries_are_checked_by_index():
    r = rec('itinerary_initialize', {'today_schedule': [{'time': '06:30', 'activity': '晨跑'},
                                                         {'time': '07:00', 'activity': '刚晨跑完，在河边拉伸'}]})
    found = check_schedule_entries(r)
    assert checks(found) == ['hygiene.state_entry'] and 'today_schedule[1] 07:00' in found[0].message
