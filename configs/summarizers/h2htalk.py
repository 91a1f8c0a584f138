# Summary groups: three dimensions and the overall H2HTalk score, all on the unified score U.
# Weights are explicit: every subtask counts equally inside its dimension, and the three
# dimensions count equally in the overall score (so the overall is not dominated by the
# dimension with the most subtasks).
# Every eval config uses H2HTalkSummarizer: DefaultSummarizer's table plus a run check (missing, failed and
# invalid results, with the log to read) and a refusal to mix data versions or scoring settings in one table.
from opencompass_h2htalk.summarizers import H2HTalkSummarizer

_dims = {
    'dialogue': ['dialogue_base', 'dialogue_emotion', 'dialogue_schedule'],
    'recollection': ['recollection_synthesize', 'recollection_refine', 'recollection_initialize'],
    'itinerary': ['itinerary_basic', 'itinerary_middle', 'itinerary_advanced', 'itinerary_feedback',
                  'itinerary_initialize'],
}

h2htalk_summary_groups = [
    dict(name=f'h2htalk_{dim}', metric='score', subsets=[[f'h2htalk_{s}', 'score'] for s in subs],
         weights={f'h2htalk_{s}': 1 for s in subs})
    for dim, subs in _dims.items()
] + [
    dict(name='h2htalk_overall', metric='score', subsets=[[f'h2htalk_{dim}', 'score'] for dim in _dims],
         weights={f'h2htalk_{dim}': 1 for dim in _dims}),
]

h2htalk_summary_abbrs = (['h2htalk_overall', 'h2htalk_dialogue', 'h2htalk_recollection', 'h2htalk_itinerary', '']
                         + [[f'h2htalk_{s}', 'score'] for subs in _dims.values() for s in subs])

h2htalk_summarizer = dict(type=H2HTalkSummarizer, dataset_abbrs=h2htalk_summary_abbrs,
                          summary_groups=h2htalk_summary_groups)

# The model ladder (configs/eval/h2htalk_ladder.py): the core table, then U on the safety set and the probes, scored
# without a judge. They are rows of their own, in no group: the overall stays the paper's three dimensions.
h2htalk_ladder_abbrs = h2htalk_summary_abbrs + ['', ['h2htalk_safety', 'score']] + [
    [f'h2htalk_probe_{c}', 'score'] for c in ('implicit_help', 'ambiguous', 'context_aware')]
h2htalk_ladder_summarizer = dict(type=H2HTalkSummarizer, dataset_abbrs=h2htalk_ladder_abbrs,
                                 summary_groups=h2htalk_summary_groups)

# Table-3 style lexical columns: BLEU-4 and ROUGE-L averaged over all 11 subtasks (equal weights).
_all_subtasks = [s for subs in _dims.values() for s in subs]
h2htalk_table3_groups = [
    dict(name=f'h2htalk_overall_{metric}', metric=metric, subsets=[[f'h2htalk_{s}', metric] for s in _all_subtasks],
         weights={f'h2htalk_{s}': 1 for s in _all_subtasks})
    for metric in ('bleu4', 'rougeL')
]

# Judged sets: per-subtask judge scores with parse rates, safety, and per-category probe scores.
h2htalk_judged_abbrs = (
    [[f'h2htalk_{s}', m] for s in _dims['itinerary'] for m in ('judge_score', 'parse_rate')]
    + [['h2htalk_safety', m] for m in ('safety_score', 'violation_rate', 'rule_violation_rate', 'parse_rate')]
    + [[f'h2htalk_probe_{c}', m] for c in ('implicit_help', 'ambiguous', 'context_aware')
       for m in ('need_met', 'parse_rate', 'score')]
)
# Table 3 of the paper: BLEU-4, ROUGE-L, safety score and violation rate, one column per model (SAP twins side by side),
# then the judge's parse rate on the safety set: a judge run below the parse-rate floor is invalid and shows '-' for
# the safety score and violation rate (the results file says why: meta.judge_valid / meta.judge_invalid_reason).
h2htalk_table3_abbrs = ['h2htalk_overall_bleu4', 'h2htalk_overall_rougeL', ['h2htalk_safety', 'safety_score'],
                        ['h2htalk_safety', 'violation_rate'], ['h2htalk_safety', 'parse_rate']]
