"""The curve frames' columns, written once into their final arrays.

``pr_curve``, ``roc_curve`` and ``confusion`` return a sweep's threshold and counts plus
two columns derived from the counts and the curve's class totals (recall and precision,
fpr and tpr, fn and tn). On one curve of a million points the numpy expressions for them
(per-point repeats of the totals, divisions, ``np.where``) cost more than the sweep;
:func:`_columns_range` writes both in one pass over rows ``r0 .. r1 - 1`` of the ragged
points (any rows: a thread pool cuts one large curve into row chunks; each row is
written by one thread alone, so the values do not depend on the thread count).

:func:`_split_sweep_range` is the sweep of a class-split sorted batch
(:mod:`.split_sort`) over a chunk of curves, for the thread pool
(:func:`prroc_numba._drivers.threads.run_curves`): a serial kernel, seconds cheaper to compile than
a
``prange`` one. :func:`_compact` closes the room that ties left between curves.
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .pr_interp import flat_start
from .split_sort import _merge

#: ``kind`` of :func:`_columns_range`: which two columns ``a``, ``b`` receive
ROC = 0  # fpr = fp / N, tpr = tp / P (NaN where the total is 0)
PR = 1  # recall = tp / P (NaN where P = 0), precision = tp / (tp + fp), flat start
CONFUSION = 2  # fn = P - tp, tn = N - fp


@jit
def _split_sweep_range(svals, offsets, npos, thr, tp, fp, counts, c0, c1):
    """Sweep curves ``c0 .. c1 - 1`` of a class-split sorted batch.

    ``svals``, ``offsets``, ``npos`` as :func:`.split_sort._merge` reads them (see
    :mod:`.split_sort`); curve ``c``'s sweep is written into ``thr``, ``tp``, ``fp`` at
    its largest possible start ``offsets[c] + c`` (room for ``n_c + 1`` vertices) and
    ``counts[c]`` receives its number of vertices.
    """
    for c in range(c0, c1):
        a = offsets[c]
        b = offsets[c + 1]
        m = a + npos[c]
        u = a + c
        v = b + c + 1
        counts[c] = _merge(svals[a:m], svals[m:b], thr[u:v], tp[u:v], fp[u:v])


@jit
def _compact(thr, tp, fp, src, out_offsets):
    """Move curve ``c``'s points from ``src[c]`` down to ``out_offsets[c]``, in curve
    order (a curve only moves down, over room that earlier curves freed).
    """
    for c in range(src.size):
        s = src[c]
        d = out_offsets[c]
        if s != d:
            for t in range(out_offsets[c + 1] - d):
                thr[d + t] = thr[s + t]
                tp[d + t] = tp[s + t]
                fp[d + t] = fp[s + t]


@jit
def _columns_range(tp, fp, offsets, P, N, kind, a, b, r0, r1):
    """Write rows ``r0 .. r1 - 1`` of the two derived columns ``a``, ``b``.

    ``tp``, ``fp``: ragged counts (curve ``c`` is ``[offsets[c]:offsets[c + 1]]``);
    ``P``, ``N``: each curve's positive and negative totals; ``kind``: :data:`ROC`,
    :data:`PR` or :data:`CONFUSION`. Where ``tp + fp = 0`` (the origin) precision is
    the curve's flat start (:func:`.pr_interp.flat_start`: the precision of its first
    point with ``tp + fp > 0``), the one convention at recall 0 of every PR curve,
    interpolation, band and area of the library.
    """
    if r0 >= r1:
        return
    lo = 0  # the curve of row r0: offsets[lo] <= r0 < offsets[lo + 1]
    hi = offsets.size - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if offsets[mid] <= r0:
            lo = mid
        else:
            hi = mid
    c = lo
    r = r0
    while r < r1:
        first = offsets[c]
        end = min(offsets[c + 1], r1)
        p = P[c]
        n = N[c]
        if kind == ROC:
            for i in range(r, end):
                a[i] = fp[i] / n if n > 0.0 else np.nan
                b[i] = tp[i] / p if p > 0.0 else np.nan
        elif kind == PR:
            fill = np.nan  # the flat start, found when a row needs it (rarely past row 1)
            found = False
            for i in range(r, end):
                t = tp[i]
                d = t + fp[i]
                a[i] = t / p if p > 0.0 else np.nan
                if d > 0.0:
                    b[i] = t / d
                else:
                    if not found:
                        fill = flat_start(tp[first : offsets[c + 1]], fp[first : offsets[c + 1]])
                        found = True
                    b[i] = fill
        else:
            for i in range(r, end):
                a[i] = p - tp[i]
                b[i] = n - fp[i]
        r = end
        c += 1
