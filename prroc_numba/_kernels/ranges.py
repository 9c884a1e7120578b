"""Score ranges of a range-partitioned table (the Dask path for tables too big to merge).

A range holds, for every curve, the distinct scores falling in one score interval
(``pos``/``neg`` masses, curve-major, scores descending; ``offsets`` per curve). Its
sweep starts at the curve's cumulative ``(tp0, fp0)`` over the higher ranges (an
exclusive scan), which is also the previous range's last vertex, so:

* :func:`_range_areas` -- the sum of :func:`.segments.segment_area` over the range's
  segments, the first one from ``(tp0, fp0)``; summing over ranges and
  :func:`.segments.finish_area` give the whole area;
* :func:`_range_hulls` -- the upper hull of the range's own vertices (offsets applied)
  and their entries (whose scores are the vertices' thresholds); the hull of all
  ranges' hull vertices (and the origin) is the curve's hull.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .hull import _hull_into
from .layout import _offsets_from_counts
from .segments import segment_area_cpu


@jit(parallel=True)
def _range_areas(offsets, pos, neg, tp0, fp0, method):
    n_curves = offsets.size - 1
    out = np.zeros(n_curves)
    for c in prange(n_curves):
        ta = tp0[c]
        fa = fp0[c]
        s = 0.0
        for i in range(offsets[c], offsets[c + 1]):
            tb = ta + pos[i]
            fb = fa + neg[i]
            s += segment_area_cpu(method, ta, fa, tb, fb)
            ta = tb
            fa = fb
        out[c] = s
    return out


@jit(parallel=True)
def _range_hulls(offsets, pos, neg, tp0, fp0):
    """``(tp, fp, idx, out_offsets)``: each curve's hull vertices of this range, in
    order, and their entries' indices (into ``pos``; their scores are the thresholds).
    """
    n_curves = offsets.size - 1
    tp = np.empty(pos.size)
    fp = np.empty(pos.size)
    scratch = np.empty(pos.size, dtype=np.int64)
    counts = np.zeros(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        t = tp0[c]
        f = fp0[c]
        for i in range(a, b):
            t += pos[i]
            f += neg[i]
            tp[i] = t
            fp[i] = f
        if b > a:
            counts[c] = _hull_into(tp[a:b], fp[a:b], scratch[a:b])
    out_offsets = _offsets_from_counts(counts)
    htp = np.empty(out_offsets[n_curves])
    hfp = np.empty(out_offsets[n_curves])
    hidx = np.empty(out_offsets[n_curves], dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        u = out_offsets[c]
        for j in range(counts[c]):
            hidx[u + j] = a + scratch[a + j]
            htp[u + j] = tp[a + scratch[a + j]]
            hfp[u + j] = fp[a + scratch[a + j]]
    return htp, hfp, hidx, out_offsets
