"""Pass rates of the checks over items: not-applicable items left out, "all", chains as units."""
import pytest

from opencompass_h2htalk.checks import ALL, item_all, pass_rates


def _item(**outcomes):
    return {name: {'pass': value, 'reason': ''} for name, value in outcomes.items()}


def test_rates_leave_out_items_a_check_does_not_apply_to():
    items = [_item(a=True, b=None), _item(a=False, b=True), _item(a=True, b=False), _item(a=True, b=None)]
    rates = pass_rates(items, resamples=50)
    assert list(rates) == [ALL, 'a', 'b']
    assert rates['a']['rate'] == pytest.approx(75.0) and rates['a']['n'] == 4 and rates['a']['n_pass'] == 3
    assert rates['b']['rate'] == pytest.approx(50.0) and rates['b']['n'] == 2
    # "all": items 0 and 3 pass every check that applies to them.
    assert rates[ALL]['rate'] == pytest.approx(50.0) and rates[ALL]['n'] == 4
    assert item_all(items[0]) and not item_all(items[1])


def test_too_few_units_give_no_interval_but_a_warning():
    rates = pass_rates([_item(a=True)] * 5, resamples=50)
    assert rates['a']['ci_low'] is None and rates['a']['ci_high'] is None and rates['a']['warning']


def test_interval_brackets_the_rate_and_chains_resample_together():
    items = [_item(a=i % 3 != 0) for i in range(30)]
    rates = pass_rates(items, resamples=200, seed=1)
    lo, hi = rates['a']['ci_low'], rates['a']['ci_high']
    assert lo < rates['a']['rate'] < hi
    # One chain holding everything is a single unit: too few units for an interval.
    chained = pass_rates(items, chains=['c'] * 30, resamples=200)
    assert chained['a']['ci_low'] is None and 'warning' in chained['a']


def test_a_check_that_never_applies_has_no_rate():
    rates = pass_rates([_item(a=None)] * 12, resamples=50)
    assert rates['a']['rate'] is None and rates['a']['n'] == 0
