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


class SparkPathWarning(UserWarning):
    """A call on a Spark frame takes the slow score-range path (it says why and which
    conf changes it).
    """


def outside_stacklevel() -> int:
    """The ``stacklevel`` of the first caller outside this package (the user's line)."""
    import os
    import sys

    here = os.path.dirname(__file__) + os.sep  # the package and its subpackages
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(here):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level
