"""Upper convex hull of ROC points (Davis & Goadrich 2006, section 3).

Works on counts (``fp`` on x, ``tp`` on y), which is ROC space up to an axis scaling
that preserves convexity, so weights and soft labels need nothing special.

* :func:`_hull_indices` -- one curve's hull vertex indices;
* :func:`_hull_batch` -- every curve of a ragged sweep (as
  :func:`prroc_numba._drivers.sweep.sweep_batch` returns it) at once, parallel over curves.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .layout import _offsets_from_counts


@jit
def _hull_into(tp, fp, stack):
    """Write the hull vertex indices of one curve into ``stack``; return their number.

    ``stack`` is int64 scratch of length ``tp.size``; see :func:`_hull_indices`.
    """
    n = tp.size
    m = 0
    for i in range(n):
        # skip a point identical to the previous vertex (repeated points, e.g. two
        # given thresholds between the same scores)
        if m > 0 and tp[i] == tp[stack[m - 1]] and fp[i] == fp[stack[m - 1]]:
            if i == n - 1:  # the end vertex is always the last index
                if m == 1:
                    stack[m] = i
                    m += 1
                else:
                    stack[m - 1] = i
            continue
        while m >= 2:
            o = stack[m - 2]
            a = stack[m - 1]
            # cross product of (a - o) x (i - o) in (fp, tp); >= 0 means a is not
            # strictly above the chord o -> i
            cross = (fp[a] - fp[o]) * (tp[i] - tp[o]) - (tp[a] - tp[o]) * (fp[i] - fp[o])
            if cross >= 0.0:
                m -= 1
            else:
                break
        stack[m] = i
        m += 1
    return m


@jit
def _hull_indices(tp, fp):
    """Indices of the upper convex hull's vertices of the points ``(fp[i], tp[i])``.

    The points must be in sweep order (``tp`` and ``fp`` non-decreasing, origin first),
    as :func:`.sweep._sweep_one` returns them. Monotone chain, O(n): a point is popped
    while it lies on or below the chord from its predecessor to the new point, so
    collinear points are dropped. The result always starts at the first point (the
    origin) and ends at the last (``(N, P)``), i.e. runs from ROC (0,0) to (1,1).
    """
    stack = np.empty(tp.size, dtype=np.int64)
    m = _hull_into(tp, fp, stack)
    return stack[:m].copy()


@jit(parallel=True)
def _hull_batch(tp, fp, offsets):
    """Hull vertices of every curve of a ragged sweep.

    ``tp[offsets[c]:offsets[c + 1]]`` (and ``fp``) is curve ``c`` in sweep order.
    Returns ``(idx, out_offsets)``: ``idx[out_offsets[c]:out_offsets[c + 1]]`` are the
    *global* indices (into ``tp``/``fp``/the sweep's thresholds) of curve ``c``'s hull
    vertices, in sweep order, first and last point always included.
    """
    n_curves = offsets.size - 1
    scratch = np.empty(tp.size, dtype=np.int64)
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        counts[c] = _hull_into(tp[a:b], fp[a:b], scratch[a:b])
    return _hull_gather(offsets, counts, scratch)


@jit(parallel=True)
def _hull_gather(offsets, counts, scratch):
    """``(idx, out_offsets)`` of :func:`_hull_batch` from each curve's hull count and
    its hull's local indices, ``scratch[offsets[c]:offsets[c] + counts[c]]``.
    """
    n_curves = offsets.size - 1
    out_offsets = _offsets_from_counts(counts)
    idx = np.empty(out_offsets[n_curves], dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        u = out_offsets[c]
        for j in range(counts[c]):
            idx[u + j] = a + scratch[a + j]
    return idx, out_offsets
