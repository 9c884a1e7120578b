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
  ranges' hull vertices (and the origin) is the curve's hull;
* :func:`_replicate_range_totals`, :func:`_replicate_range_areas` -- the same two
  passes over a range's *rows* in the Poisson bootstrap, every replicate at once: each
  row's count (:mod:`.poisson`) is drawn as the walk reaches it and added into its tie
  block's masses on the spot, so memory is the rows and the results, whatever the
  number of replicates.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .hull import _hull_gather, _hull_into
from .poisson import poisson_count_cpu, replicate_key_cpu
from .segments import segment_add, segment_area_cpu


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
    hidx, out_offsets = _hull_gather(offsets, counts, scratch)
    return tp[hidx], fp[hidx], hidx, out_offsets


# ------------------------------------------------- Poisson replicates of a range's rows


@jit(parallel=True)
def _replicate_range_totals(curve_rows, row, pos, neg, seed, tp, fp):
    """Replicates ``b < tp.shape[0]``: each curve's class totals over the range's rows
    (curve ``c``'s rows ``curve_rows[c]:curve_rows[c + 1]``, each weighted by its Poisson
    count, :mod:`.poisson`) into ``tp[b, c]``, ``fp[b, c]``. One replicate per item,
    rows summed in order: the same sums whatever the thread count.
    """
    C = curve_rows.size - 1
    for b in prange(tp.shape[0]):
        key = replicate_key_cpu(seed, np.int64(b))  # a prange index is unsigned
        for c in range(C):
            p = 0.0
            n = 0.0
            for i in range(curve_rows[c], curve_rows[c + 1]):
                k = poisson_count_cpu(key, row[i])
                p += k * pos[i]
                n += k * neg[i]
            tp[b, c] = p
            fp[b, c] = n


@jit(parallel=True)
def _replicate_range_areas(
    offsets, block_rows, row, pos, neg, tp0, fp0, seed, method, b0, n_boot, out
):
    """``out[c, j]``: plus the area terms (:func:`.segments.segment_add`) of the range's
    tie blocks of curve ``c`` (blocks ``offsets[c]:offsets[c + 1]``, block ``e``'s rows
    ``block_rows[e]:block_rows[e + 1]``) in replicate ``b = b0 + j``, from the start
    ``(tp0[j, c], fp0[j, c])``; replicate ``n_boot`` is the data's own (every count 1).
    Each term is added to ``out`` in sweep order, so a range started from the higher
    ranges' sum continues one left-to-right sum over the whole curve (the in-memory
    sweep's, to the bit). Each block's masses are summed from its rows' counts as they
    are drawn, so no replicate's masses are stored.
    """
    C = offsets.size - 1
    for j in prange(out.shape[1]):
        b = b0 + j
        key = replicate_key_cpu(seed, np.int64(b))
        for c in range(C):
            ta = tp0[j, c]
            fa = fp0[j, c]
            s = out[c, j]
            for e in range(offsets[c], offsets[c + 1]):
                p = 0.0
                n = 0.0
                for i in range(block_rows[e], block_rows[e + 1]):
                    k = poisson_count_cpu(key, row[i]) if b < n_boot else 1
                    p += k * pos[i]
                    n += k * neg[i]
                tb = ta + p
                fb = fa + n
                s = segment_add(method, s, ta, fa, tb, fb)
                ta = tb
                fa = fb
            out[c, j] = s
