"""Uncertainty for H2HTalk scores: bootstrap intervals, paired differences, Wilson intervals, judge–human agreement.
No OpenCompass import."""
from .agreement import Agreement, AgreementUndefined, agreement, interval_alpha, krippendorff_alpha, weighted_kappa
from .bootstrap import (DEFAULT_RESAMPLES, DEFAULT_SEED, METHOD, MIN_UNITS, PAIRED_METHOD, Interval,
                        PairedDifference, Subtask, clusters_of, group_intervals, min_detectable_difference,
                        paired_difference, paired_groups, percentile, replicates, subtask_interval, wilson)

__all__ = ['Agreement', 'AgreementUndefined', 'agreement', 'interval_alpha', 'krippendorff_alpha', 'weighted_kappa',
           'DEFAULT_RESAMPLES', 'DEFAULT_SEED', 'Interval', 'METHOD', 'MIN_UNITS', 'PAIRED_METHOD',
           'PairedDifference', 'Subtask', 'clusters_of', 'group_intervals', 'min_detectable_difference',
           'paired_difference', 'paired_groups', 'percentile', 'replicates', 'subtask_interval', 'wilson']
