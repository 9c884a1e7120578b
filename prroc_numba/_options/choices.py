"""The choices of the public calls (``interval=``, ``band=``, ``test=``, ...) and the
checks every family shares: a choice, ``n_boot`` with ``level``, the operating points'
options, and whether the data live outside memory.
"""

from __future__ import annotations

import numpy as np

from .. import _backends
from .._checks import check_level, check_n_boot

INTERVALS = ("percentile", "basic", "bca")
BANDS = ("pointwise", "simultaneous")
ADJUSTMENTS = ("holm", "bonferroni", "bh", "none")
TESTS = ("bootstrap", "delong", "venkatraman")
P_VALUES = ("wald", "percentile")


def check_choice(name, value, choices):
    """``value`` is one of ``choices``, or a ValueError naming the argument."""
    if value not in choices:
        raise ValueError(f"{name}={value!r} is not known; use one of {choices}")


def check_boot(n_boot, level):
    """``n_boot`` (an int >= 2) and ``level`` (in (0, 1)) of a bootstrap call."""
    check_n_boot(n_boot)
    check_level(level)


def distributed(data) -> bool:
    """``data`` lives outside memory (a Dask or Spark frame): its wing answers."""
    return _backends.engine(data) != _backends.MEMORY


# ----------------------------------------------------------- operating points


def check_operating(beta, n_boot, level, cluster):
    """The options of :func:`~prroc_numba.operating_points`: returns ``beta`` as a
    float (F-beta's weight, positive); ``n_boot`` and ``level`` when intervals are asked
    for; ``cluster=`` only with them.
    """
    if (
        isinstance(beta, bool)
        or not isinstance(beta, (int, float, np.integer, np.floating))
        or not np.isfinite(beta)
        or beta <= 0
    ):
        raise ValueError(f"beta must be a positive number (1 gives F1), got {beta!r}")
    if n_boot is not None:
        check_boot(n_boot, level)
    elif cluster is not None:
        raise ValueError("cluster= only changes the bootstrap intervals; pass n_boot= too")
    return float(beta)
