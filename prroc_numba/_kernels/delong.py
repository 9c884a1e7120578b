"""DeLong placement values in O(N log N) (Sun & Xu 2014), from the sorted order.

For a positive row ``i`` the placement value is ``V10_i = (#negatives scored below
x_i + 0.5 #negatives tied with x_i) / N`` and for a negative row ``j``
``V01_j = (#positives scored above y_j + 0.5 #positives tied with y_j) / P``: the
mean of ``psi(x, y) = 1{x > y} + 0.5 * 1{x = y}`` over the other class. Both depend on a
row only through its tied block, so one walk down the descending order gives them all
(the midrank formulation of Sun & Xu, without the ranks). Hard 0/1 labels, unweighted.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .sort import _argsort_desc


@jit
def _placements_one(x, pos, order, out):
    """Write each row's placement value into ``out`` (row order); ``pos`` is 0/1."""
    n = order.size
    P = 0.0
    for i in range(n):
        P += pos[i]
    N = n - P
    tp_above = 0.0
    fp_above = 0.0
    i = 0
    while i < n:
        j = i
        kp = 0.0
        while True:
            kp += pos[order[j]]
            if j == n - 1 or x[order[j + 1]] != x[order[j]]:
                break
            j += 1
        kn = (j - i + 1) - kp
        v10 = (N - fp_above - 0.5 * kn) / N if N > 0 else np.nan
        v01 = (tp_above + 0.5 * kp) / P if P > 0 else np.nan
        for q in range(i, j + 1):
            r = order[q]
            out[r] = v10 if pos[r] > 0.0 else v01
        tp_above += kp
        fp_above += kn
        i = j + 1


@jit(parallel=True)
def _placements_batch(values, offsets, pos, label_start):
    """Placement values of every curve of a ragged batch, laid out like ``values``."""
    n_curves = offsets.size - 1
    out = np.empty(values.size)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        x = values[a:b]
        order = _argsort_desc(x)
        _placements_one(x, pos[ls : ls + b - a], order, out[a:b])
    return out
