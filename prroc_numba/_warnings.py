"""The package's warning classes (no dependencies: importable without loading kernels)."""

from __future__ import annotations


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for some curve (no positives or no negatives): it is NaN."""


class KernelCacheWarning(RuntimeWarning):
    """A cached compiled kernel could not be read; it was discarded and recompiled."""


class FewDataSetsWarning(UserWarning):
    """Too few data sets for the rank tests' large-sample approximations to be trusted."""


class SparkPathWarning(UserWarning):
    """A call on a Spark frame takes the slow score-range path (it says why and which
    conf changes it).
    """
