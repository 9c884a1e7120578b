"""The confusion-matrix sweep: cumulative TP/FP at every distinct score.

For one curve, rows sorted by descending score are walked once; a vertex is emitted at
the last row of every block of tied scores (a positive is ``score >= threshold``, so a
tie block is one step). Vertex 0 is the origin: threshold ``+inf``, ``tp = fp = 0``.
Counts are float64 so sample weights and soft labels work unchanged.
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .sort import _sort_desc


@jit
def _n_vertices_sorted(xs):
    """Number of sweep vertices (distinct scores + the origin) of sorted scores ``xs``."""
    n = xs.size
    k = 1
    for i in range(n):
        if i == n - 1 or xs[i + 1] != xs[i]:
            k += 1
    return k


@jit
def _fill_sweep_sorted(xs, pos, neg, order, thr, tp, fp):
    """Write one curve's sweep into ``thr``, ``tp``, ``fp`` (length ``_n_vertices_sorted(xs)``).

    ``xs`` are the curve's scores in descending order, ``order`` the matching argsort
    (``xs == x[order]``), ``pos``/``neg`` the rows' positive/negative mass (unsorted).
    """
    thr[0] = np.inf
    tp[0] = 0.0
    fp[0] = 0.0
    ctp = 0.0
    cfp = 0.0
    j = 0
    n = order.size
    for i in range(n):
        r = order[i]
        ctp += pos[r]
        cfp += neg[r]
        if i == n - 1 or xs[i + 1] != xs[i]:
            j += 1
            thr[j] = xs[i]
            tp[j] = ctp
            fp[j] = cfp


@jit
def _sweep_one(x, pos, neg):
    """Sort and sweep one curve; returns ``(thr, tp, fp)`` with the origin first."""
    order, xs = _sort_desc(x)
    k = _n_vertices_sorted(xs)
    thr = np.empty(k)
    tp = np.empty(k)
    fp = np.empty(k)
    _fill_sweep_sorted(xs, pos, neg, order, thr, tp, fp)
    return thr, tp, fp


@jit
def _sort_range(values, offsets, order, sorted_values, counts, c0, c1):
    """Sort curves ``c0 .. c1 - 1`` and count their vertices (pass 1 of the batch)."""
    for c in range(c0, c1):
        a = offsets[c]
        b = offsets[c + 1]
        o, xs = _sort_desc(values[a:b])
        for i in range(b - a):  # loops: a slice assignment compiles shape-error formatting
            order[a + i] = o[i]
            sorted_values[a + i] = xs[i]
        counts[c] = _n_vertices_sorted(xs)


@jit(inline="always")
def _curve_labels(offsets, label_start, pos, neg, c):
    """Curve ``c`` of a batch: its rows ``a .. b - 1`` and the slices of ``pos`` and
    ``neg`` that hold its labels (``label_start[c]`` on, one per row).
    """
    a = offsets[c]
    b = offsets[c + 1]
    ls = label_start[c]
    return a, b, pos[ls : ls + b - a], neg[ls : ls + b - a]


@jit
def _fill_range(
    sorted_values, offsets, pos, neg, label_start, order, out_offsets, thr, tp, fp, c0, c1
):
    """Sweep curves ``c0 .. c1 - 1`` into their output slices (pass 2 of the batch)."""
    for c in range(c0, c1):
        a, b, p, q = _curve_labels(offsets, label_start, pos, neg, c)
        u, v = out_offsets[c], out_offsets[c + 1]
        _fill_sweep_sorted(sorted_values[a:b], p, q, order[a:b], thr[u:v], tp[u:v], fp[u:v])
