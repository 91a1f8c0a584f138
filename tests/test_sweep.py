"""The sweep planner (opencompass_h2htalk/sweep.py): splitting, OpenCompass task shapes, scheduling, planning."""
import pytest

from opencompass_h2htalk.costmodel import DatasetLoad, ModelCost
from opencompass_h2htalk.sweep import (PlannedTask, make_tasks, max_shards, numworker_pieces, plan_sweep, simulate,
                                       split_even)

A, B = DatasetLoad('a', 5, 0, 0), DatasetLoad('b', 3, 0, 0)


def _model(name, gpus, load, tps=1.0):
    # decode 1 token/s x gpus, prefill never used (inputs are 0 chars); overhead 0
    return ModelCost(name, gpus, load, tps * gpus, 1e9, 1000, 0.0)


def test_split_even_is_contiguous_and_balanced():
    assert split_even([A, B], 3) == [[('a', 0, 2)], [('a', 2, 5)], [('b', 0, 3)]]
    assert split_even([A, B], 1) == [[('a', 0, 5), ('b', 0, 3)]]
    assert split_even([A, B], 2) == [[('a', 0, 4)], [('a', 4, 5), ('b', 0, 3)]]
    with pytest.raises(ValueError, match='cannot cut 8 items into 9 shards'):
        split_even([A, B], 9)


def test_numworker_pieces_match_opencompass():
    # 40 items, num_worker 2, min 16: step max(20, 16) = 20 -> 2 chunks; 10 items <= 16 stay whole.
    d1, d2 = DatasetLoad('x', 40, 0, 0), DatasetLoad('y', 10, 0, 0)
    assert numworker_pieces([d1, d2], 2) == [[('x', 0, 20), ('y', 0, 10)], [('x', 20, 40)]]
    # step max(ceil(40/8), 16) = 16 -> chunks of 16, 16, 8 dealt to 8 buckets: 4 tasks, the rest empty
    assert numworker_pieces([d1, d2], 8) == [[('x', 0, 16)], [('x', 16, 32)], [('x', 32, 40)], [('y', 0, 10)]]


def test_simulate_waits_for_enough_free_gpus():
    t = [PlannedTask('w', 2, (), 10.0, 8.0), PlannedTask('n', 1, (), 4.0, 3.0), PlannedTask('n', 1, (), 4.0, 3.0),
         PlannedTask('w', 2, (), 10.0, 8.0)]
    s = simulate(t, 3)
    assert s.starts == (0.0, 0.0, 4.0, 10.0) and s.makespan == 20.0
    assert s.infer_gpu_seconds == 2 * 8 + 3 + 3 + 2 * 8 and s.efficiency == pytest.approx(38 / 60)
    with pytest.raises(ValueError, match="model 'w': a task needs 2 GPUs but the budget is 1"):
        simulate(t, 1)


def test_one_model_on_a_big_budget_is_split():
    data = [DatasetLoad('d', 1000, 0, 1 / 0.7)]  # 1 output token per item -> 1 s per item on 1 token/s
    m = _model('m', 1, load=10.0)
    assert max_shards(m, data, 64) == 64  # floor: >= 10 items per task (10 s of load) -> <= 100, budget 64
    plan = plan_sweep([(m, data)], 64)
    assert plan.shards == {'m': 64} and sum(t.items for t in plan.tasks) == 1000
    assert plan.schedule.makespan == pytest.approx(10 + 16)  # 1000 / 64 -> tasks of 15 or 16 items


def test_many_models_share_the_budget():
    data = [DatasetLoad('d', 100, 0, 1 / 0.7)]
    models = [_model(f'm{i}', 1, load=50.0) for i in range(8)]
    plan = plan_sweep([(m, data) for m in models], 8)
    # 8 models, 8 GPUs: each runs whole (50 + 100 s); splitting would only add loads.
    assert plan.shards == {f'm{i}': 1 for i in range(8)} and plan.schedule.makespan == pytest.approx(150)
    assert plan.schedule.efficiency == pytest.approx(100 / 150)


def test_plan_beats_one_task_per_model_and_is_lpt_ordered():
    data = [DatasetLoad('d', 400, 0, 1 / 0.7)]
    big, small = _model('big', 2, load=10.0, tps=0.5), _model('small', 1, load=10.0, tps=4.0)
    plan = plan_sweep([(big, data), (small, data)], 4)
    # big: 2 x (10 + 200 s) on all 4 GPUs, then small: 4 x (10 + 25 s); whole tasks would take 10 + 400 s.
    assert plan.shards == {'big': 2, 'small': 4} and plan.schedule.makespan == pytest.approx(245)
    seconds = [t.seconds for t in plan.tasks]
    assert seconds == sorted(seconds, reverse=True)
    naive = simulate(make_tasks(big, data, [[('d', 0, 400)]]) + make_tasks(small, data, [[('d', 0, 400)]]), 4)
    assert plan.schedule.makespan < naive.makespan


def test_api_models_run_beside_the_gpus():
    data = [DatasetLoad('d', 20, 0, 10)]
    api = ModelCost('api', 0, 0.0, float('inf'), float('inf'), 512, 20.0)
    plan = plan_sweep([(api, data), (_model('m', 1, 5.0), data)], 2, api_shards=4)
    assert [t.items for t in plan.tasks if t.model == 'api'] == [5, 5, 5, 5]
    assert plan.shards == {'api': 4, 'm': 2}  # every model has its shard count, API models included
    alone = plan_sweep([(api, data), (ModelCost('cpu', 0, 0.0, 1.0, 1.0, 8, 0.0), data)], 2, api_shards=2)
    assert alone.shards == {'api': 2, 'cpu': 2} and alone.schedule.makespan == 0.0
    with pytest.raises(ValueError, match="model 'm': a task needs 1 GPUs but the budget is 0|budget must be >= 1"):
        plan_sweep([(_model('m', 1, 5.0), data)], 0)
