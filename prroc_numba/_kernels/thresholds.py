"""Counts at given thresholds: the confusion matrix of each curve at chosen cut-offs.

Used for the paper's tuning-set method (Davis & Goadrich 2006, end of section 3): the
hull thresholds found on tuning data are applied to test data.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .sweep import _sweep_one


@jit(parallel=True)
def _counts_at_batch(values, offsets, pos, neg, label_start, thr, thr_offsets):
    """TP and FP mass of every curve at its own thresholds.

    Curve ``c`` (scores ``values[offsets[c]:offsets[c + 1]]``, label rows from
    ``label_start[c]``, see :mod:`prroc_numba._kernels`) is evaluated at
    ``thr[thr_offsets[c]:thr_offsets[c + 1]]``, which must be in descending order (no
    NaN; ``+inf`` gives the origin, ``-inf`` every row). A row counts as predicted
    positive when ``score >= threshold``. Returns ``(tp, fp)`` laid out like ``thr``.
    One sort and sweep per curve, then a merge walk: O(n log n + m).
    """
    n_curves = offsets.size - 1
    tp = np.empty(thr.size)
    fp = np.empty(thr.size)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        sthr, stp, sfp = _sweep_one(values[a:b], pos[ls : ls + b - a], neg[ls : ls + b - a])
        k = sthr.size
        j = 0  # last sweep vertex with threshold >= t (vertex 0 is +inf)
        for i in range(thr_offsets[c], thr_offsets[c + 1]):
            t = thr[i]
            while j + 1 < k and sthr[j + 1] >= t:
                j += 1
            tp[i] = stp[j]
            fp[i] = sfp[j]
    return tp, fp
