"""runlogs on what a real OpenCompass run leaves on disk (the shared demo run): task times, datasets and sizes."""
import json

from opencompass_h2htalk.runs.logs import prediction_sizes, task_logs, throughput

MODEL = 'h2htalk-retrieval-baseline'


def test_the_demo_run_has_a_wall_time_per_task_and_the_sizes_of_its_predictions(demo_run):
    run, _ = demo_run
    tasks = task_logs(str(run))
    # The demo's NaivePartitioner puts all 11 datasets in one inference and one evaluation task.
    assert [(t.kind, t.model) for t in tasks] == [('infer', MODEL), ('eval', MODEL)], tasks
    for t in tasks:
        assert t.seconds is not None and t.seconds > 0, t
        assert t.start is not None and t.start.year == int(run.name[:4]) and t.start <= t.end, t
        # OpenCompass's own measurement sits within the span of the log's timestamps (2 s of slack: whole seconds).
        assert t.seconds <= (t.end - t.start).total_seconds() + 2, t
    datasets = sorted(p.stem for p in run.glob(f'results/{MODEL}/*.json'))
    assert len(datasets) == 11 and sorted(tasks[0].datasets) == [f'{MODEL}/{d}' for d in datasets]

    sizes = prediction_sizes(str(run), MODEL)
    details = {d: json.loads((run / 'results' / MODEL / f'{d}.json').read_text(encoding='utf-8'))['details']
               for d in datasets}
    assert sizes.items_by_dataset == {d: len(v) for d, v in details.items()} and sizes.items == 22
    # The characters out are those of the replies the evaluator scored (the baseline's replies need no cleaning).
    assert sizes.output_chars == sum(len(x['pred'][0]) for v in details.values() for x in v)
    assert sizes.input_chars > sizes.output_chars > 0 and sizes.unfinished == []
    t = throughput(sizes, tasks)
    assert t.notes == [] and t.items_per_s == sizes.items / tasks[0].seconds
