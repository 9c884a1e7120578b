"""The package's warning classes (no dependencies: importable without loading kernels)."""

from __future__ import annotations


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for some curve (no positives or no negatives): it is NaN."""


class KernelCacheWarning(RuntimeWarning):
    """A cached compiled kernel could not be read; it was discarded and recompiled."""


class FewDataSetsWarning(UserWarning):
    """Too few data sets for the rank tests' large-sample approximations to be trusted."""


class PrevalenceWarning(UserWarning):
    """Groups compared on raw AUC-PR have prevalences far apart: the gap mixes
    prevalence with ranking quality (pass ``normalize=True`` or ``curve="roc"``).
    """
