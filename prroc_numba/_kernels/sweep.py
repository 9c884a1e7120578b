"""The confusion-matrix sweep: cumulative TP/FP at every distinct score.

For one curve, rows sorted by descending score are walked once; a vertex is emitted at
the last row of every block of tied scores (a positive is ``score >= threshold``, so a
tie block is one step). Vertex 0 is the origin: threshold ``+inf``, ``tp = fp = 0``.
Counts are float64 so sample weights and soft labels work unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .layout import _offsets_from_counts
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


@jit(parallel=True)
def _sweep_batch(values, offsets, pos, neg, label_start):
    """Sweep every curve of a ragged batch.

    Returns ``(thr, tp, fp, out_offsets)``: curve ``c``'s vertices are
    ``[out_offsets[c]:out_offsets[c + 1]]``, origin first, thresholds descending.
    """
    n_curves = offsets.size - 1
    if n_curves == 1:  # one curve: no batch-wide copies of the order and sorted scores
        ls = label_start[0]
        thr, tp, fp = _sweep_one(values, pos[ls : ls + values.size], neg[ls : ls + values.size])
        out_offsets = np.zeros(2, dtype=np.int64)
        out_offsets[1] = thr.size
        return thr, tp, fp, out_offsets
    order = np.empty(values.size, dtype=np.int64)
    sorted_values = np.empty(values.size)
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        o, xs = _sort_desc(values[a:b])
        order[a:b] = o
        sorted_values[a:b] = xs
        counts[c] = _n_vertices_sorted(xs)
    out_offsets = _offsets_from_counts(counts)
    total = out_offsets[n_curves]
    thr = np.empty(total)
    tp = np.empty(total)
    fp = np.empty(total)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        u = out_offsets[c]
        v = out_offsets[c + 1]
        _fill_sweep_sorted(
            sorted_values[a:b],
            pos[ls : ls + b - a],
            neg[ls : ls + b - a],
            order[a:b],
            thr[u:v],
            tp[u:v],
            fp[u:v],
        )
    return thr, tp, fp, out_offsets
