"""Precision of one replicate's PR curve on a recall grid (for ``bootstrap_curve``).

This is the one place where :mod:`.resample` interpolates curves; it is kept apart so
that it can be swapped for the shared grid kernel of :mod:`.grid` (issue 4) without
touching the resampling code. Conventions (the same as :mod:`.grid` documents):

* count interpolation between vertices A and B: ``FP`` linear in ``TP``, precision
  ``t / (t + f)`` -- never a straight line in PR space;
* recall 0: the flat start, i.e. the precision of the first vertex holding a positive,
  or 0 when the curve first leaves the origin along negatives only;
* a recall reached by several vertices (a vertical drop): the best precision there
  (the first such vertex in sweep order);
* no positives: NaN.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .hull import _hull_indices


@jit
def _precision_at_recall_simple(tp, fp, grid, out):
    """Precision at each recall of ``grid`` (ascending, in [0, 1]) of one curve's
    vertices ``tp``, ``fp`` (sweep order, origin first)."""
    n = tp.size
    P = tp[n - 1]
    if P <= 0.0:
        out[:] = np.nan
        return
    j = 0
    while tp[j] <= 0.0:
        j += 1
    p0 = 0.0 if fp[j - 1] > 0.0 else tp[j] / (tp[j] + fp[j])
    i = 0
    for k in range(grid.size):
        r = grid[k]
        if r <= 0.0:
            out[k] = p0
            continue
        while i < n - 1 and tp[i] / P < r:
            i += 1
        ti = tp[i]
        if ti / P <= r:  # a vertex at this recall: the first one (lowest FP)
            out[k] = ti / (ti + fp[i])
        else:
            t = r * P
            ta = tp[i - 1]
            fa = fp[i - 1]
            f = fa + (t - ta) * (fp[i] - fa) / (ti - ta)
            out[k] = t / (t + f)


@jit
def _precision_on_grid(tp, fp, grid, out, hull):
    """Precision on ``grid`` of the curve (``hull=True``: of its achievable PR curve)."""
    if hull:
        idx = _hull_indices(tp, fp)
        _precision_at_recall_simple(tp[idx], fp[idx], grid, out)
    else:
        _precision_at_recall_simple(tp, fp, grid, out)


@jit(parallel=True)
def _grid_batch(tp, fp, offsets, grid, hull):
    """Precision on ``grid`` of every curve of a ragged vertex batch
    (``tp[offsets[c]:offsets[c + 1]]``); float64 ``(n_curves, grid.size)``."""
    n_curves = offsets.size - 1
    out = np.empty((n_curves, grid.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        _precision_on_grid(tp[a:b], fp[a:b], grid, out[c], hull)
    return out
