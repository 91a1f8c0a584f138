"""The sweep planner (opencompass_h2htalk/planning/sweep.py): splitting, OpenCompass task shapes, scheduling,
planning."""
import pytest

from opencompass_h2htalk.planning.costmodel import CostSettings, DatasetLoad, ModelCost
from opencompass_h2htalk.planning.sweep import (PlannedTask, _Cutter, fill_to_target, make_tasks, makespan_bound,
                                                max_shards, numworker_pieces, plan_sweep, simulate, split_even)

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
    # 62 slots filled to 26 s (16 items each); the last 24 items become 14 + 10 so that no task holds fewer
    # than the 10-item floor: 63 tasks, one load fewer than 64 even shards, same 26 s makespan.
    assert plan.shards == {'m': 63} and sum(t.items for t in plan.tasks) == 1000
    assert sorted(t.items for t in plan.tasks) == [10, 14] + [16] * 61
    assert plan.schedule.makespan == pytest.approx(10 + 16) and plan.schedule.gpu_seconds == pytest.approx(1630)


def test_many_models_share_the_budget():
    data = [DatasetLoad('d', 100, 0, 1 / 0.7)]
    models = [_model(f'm{i}', 1, load=50.0) for i in range(8)]
    plan = plan_sweep([(m, data) for m in models], 8)
    # 8 models, 8 GPUs: each runs whole (50 + 100 s); splitting would only add loads.
    assert plan.shards == {f'm{i}': 1 for i in range(8)} and plan.schedule.makespan == pytest.approx(150)
    assert plan.schedule.efficiency == pytest.approx(100 / 150)


def test_plan_fills_the_tail_of_a_wide_model_with_a_narrow_one():
    data = [DatasetLoad('d', 400, 0, 1 / 0.7)]
    big, small = _model('big', 2, load=10.0, tps=0.5), _model('small', 1, load=10.0, tps=4.0)
    plan = plan_sweep([(big, data), (small, data)], 4)
    # Even shards: big 2 x (10 + 200 s) on all 4 GPUs, then small 4 x (10 + 25 s) -> 245 s. Filled: big is cut
    # unevenly (231 + 169 items) so that small's two tasks (10 + 51.25, 10 + 48.75 s) run in the 62 s left behind
    # big's shorter piece: 241 s and two loads fewer. Lower bound: for 210 < M < 400 big needs 2 tasks (2 GPUs x
    # (2 x 10 + 400 s) = 840 GPU-s) and small one (110), so 4 x M >= 950 -> M >= 237.5 s.
    assert plan.shards == {'big': 2, 'small': 2} and plan.schedule.makespan == pytest.approx(241)
    assert [(t.model, t.items) for t in plan.tasks] == [('big', 231), ('big', 169), ('small', 205), ('small', 195)]
    assert plan.schedule.starts == (0.0, 0.0, 179.0, 179.0)
    assert makespan_bound([(big, data), (small, data)], 4) == pytest.approx(237.5, abs=1e-3)
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


def test_makespan_bound_by_hand():
    data = [DatasetLoad('d', 100, 0, 1 / 0.7)]  # 100 s of inference
    one = _model('m', 1, load=10.0)
    # 1 GPU: one task of 110 s. 4 GPUs: M tasks s = ceil(100 / (M - 10)), 10 s + 100 s area <= 4 M:
    # M = 37.5 needs 4 tasks (140 s of area = 4 x 35 < 150), M = 35 needs 4 tasks and 4 x 35 = 140 -> exactly 35.
    assert makespan_bound([(one, data)], 1) == pytest.approx(110)
    assert makespan_bound([(one, data)], 4) == pytest.approx(35, abs=1e-3)
    # Two such models on 2 GPUs: each whole (110 s) is the bound, splitting only adds area (2 x 110 = 220 = 2 x 110).
    assert makespan_bound([(one, data), (_model('n', 1, load=10.0), data)], 2) == pytest.approx(110, abs=1e-3)
    assert makespan_bound([], 8) == 0.0
    with pytest.raises(ValueError, match='GPU budget 1 is smaller than a task'):
        makespan_bound([(_model('w', 2, 1.0), data)], 1)


def test_fill_cuts_by_seconds_where_the_slot_ends():
    # Items of 'slow' take 2 s, of 'fast' 1 s: a cut by seconds, not by item count.
    data = [DatasetLoad('slow', 10, 0, 2 / 0.7), DatasetLoad('fast', 20, 0, 1 / 0.7)]
    m = _model('m', 1, load=5.0)  # 40 s of inference, floor 5 s per task
    tasks = fill_to_target([_Cutter(m, data, CostSettings())],
                           2, target=25.0)
    # GPU 0: 5 + 20 s = the 10 slow items; GPU 1: 5 + 20 s = the 20 fast ones.
    assert [t.slices for t in tasks] == [(('slow', 0, 10),), (('fast', 0, 20),)]
    assert [t.seconds for t in tasks] == [25.0, 25.0] and simulate(tasks, 2).makespan == 25.0
    # A target too short for the floor: the slot takes the model's whole remainder instead of a sliver.
    tasks = fill_to_target([_Cutter(m, data, CostSettings())],
                           1, target=8.0)
    assert [t.items for t in tasks] == [30]


def test_fill_orders_models_widest_or_longest_first():
    data = [DatasetLoad('d', 10, 0, 1 / 0.7)]
    wide, narrow = _model('w', 2, load=1.0), _model('n', 1, load=1.0)  # 1 + 5 s on 2 GPUs; 1 + 10 s on 1 GPU
    cutters = [_Cutter(narrow, data, CostSettings()), _Cutter(wide, data, CostSettings())]
    assert [t.model for t in fill_to_target(cutters, 2, 100.0)] == ['w', 'n']
    longest = fill_to_target(cutters, 2, 100.0, widest_first=False)
    assert [(t.model, t.seconds) for t in longest] == [('n', 11.0), ('w', 6.0)]
    assert simulate(longest, 2).starts == (0.0, 11.0)  # the wide task waits for the GPU the narrow one holds


def test_simulate_keeps_each_task_on_one_node():
    # Two nodes of 4, two 3-wide tasks: a pool of 8 would start the 2-wide task at 0 on the two idle GPUs, one on
    # each node; on nodes it waits until a node has two free GPUs (t=5).
    t = [PlannedTask('n', 3, (), 5.0, 5.0), PlannedTask('n', 3, (), 5.0, 5.0), PlannedTask('w', 2, (), 10.0, 10.0)]
    assert simulate(t, 8).starts == (0.0, 0.0, 0.0)
    nodes = simulate(t, 8, gpus_per_node=4)
    assert nodes.starts == (0.0, 0.0, 5.0) and nodes.makespan == 15.0
    with pytest.raises(ValueError, match="model 'n': a task needs 3 GPUs but a node has 2"):
        simulate(t, 6, gpus_per_node=2)
    from opencompass_h2htalk.planning.sweep import node_sizes
    assert node_sizes(20, 8) == [8, 8, 4] and node_sizes(20) == [20]


def test_plan_refuses_a_model_wider_than_a_node():
    with pytest.raises(ValueError, match="model 'w': a task needs 16 GPUs but a node has 8"):
        plan_sweep([(_model('w', 16, 1.0), [A])], 64, gpus_per_node=8)
