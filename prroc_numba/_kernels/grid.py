"""Interpolation of curves onto shared grids (precision at recall, TPR at FPR).

Single-curve kernels take one curve's vertices ``tp``, ``fp`` (float64, sweep order:
``tp`` and ``fp`` non-decreasing, origin ``(0, 0)`` first, the end ``(P, N)`` last, as
:func:`.sweep._sweep_one` returns them, or a subset such as the hull vertices) and a
grid (float64, ascending), and write one value per grid point into ``out``.
``P = tp[-1]`` and ``N = fp[-1]``.

Interpolation is linear in ROC space (the only achievable one, Davis & Goadrich 2006,
section 4). In PR space that is the count interpolation: between consecutive vertices
A and B, ``FP`` grows linearly with ``TP`` (the local skew), so precision at recall
``r`` is ``t / (t + f)`` with ``t = r P`` and ``f = FP_A + (t - TP_A) (FP_B - FP_A) /
(TP_B - TP_A)`` -- never a straight line in PR space.

Conventions (shared by every caller, documented here once):

* **Precision at recall 0** is the limit from the right of the interpolated curve: the
  curve starts flat at the precision of the first vertex that holds a positive
  (``TP_1 / (TP_1 + FP_1)``) when the curve leaves the origin directly, and at 0 when
  the top block holds negatives only (the curve leaves ``(TP=0, FP>0)``). This is the
  start that the ``"dg"`` and ``"integral"`` estimators of :mod:`.area` integrate.
* **Several vertices at one TP** (a vertical drop in PR space, a horizontal run in
  ROC): at a grid recall equal to ``TP / P`` the value is the best precision there, i.e.
  the vertex with the lowest FP at that TP (the first one in sweep order). A grid value
  "equals" a vertex when ``tp[i] / P == r`` in floating point.
* **Several vertices at one FP** (a vertical ROC segment): at a grid FPR equal to
  ``FP / N`` the TPR is the highest one there (the last vertex in sweep order): the
  usual "upper" ROC interpolation.
* A curve without positives (PRECISION, TPR) or without negatives (TPR) gives NaN.
* Grid values outside [0, 1] give NaN (callers validate grids).

Batch kernels take the ragged layout ``tp[offsets[c]:offsets[c + 1]]`` (one curve's
vertices, sweep order), run ``prange`` over curves and return a dense
``(n_curves, n_grid)`` float64 matrix; ``hull=True`` interpolates the upper ROC hull
(:func:`.hull._hull_indices`) instead, i.e. the achievable PR curve in PR space.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .hull import _hull_indices


@jit
def _precision_at_recall(tp, fp, recall_grid, out):
    """Precision of the count-interpolated PR curve at each recall of ``recall_grid``.

    ``tp``, ``fp``: one curve's vertices in sweep order (see module docstring);
    ``recall_grid``: float64, ascending, in [0, 1]; ``out``: float64 of the grid's size,
    written in place. Recall 0 gives the flat start (limit from the right); a recall
    reached by several vertices gives the lowest-FP (best precision) one.
    """
    n = tp.size
    g = recall_grid.size
    P = tp[n - 1]
    if P <= 0.0:
        for k in range(g):
            out[k] = np.nan
        return
    # limit at recall 0+: the first segment that gains positives starts at the last
    # TP = 0 vertex j - 1; from the origin the precision is constant along it
    j = 0
    while tp[j] <= 0.0:
        j += 1
    if fp[j - 1] > 0.0:
        p0 = 0.0
    else:
        p0 = tp[j] / (tp[j] + fp[j])
    i = 0
    for k in range(g):
        r = recall_grid[k]
        if r == 0.0:
            out[k] = p0
            continue
        if not (r > 0.0 and r <= 1.0):
            out[k] = np.nan
            continue
        # first vertex whose recall reaches r (exists: the last one has recall 1)
        while tp[i] / P < r:
            i += 1
        if tp[i] / P == r:
            out[k] = tp[i] / (tp[i] + fp[i])
        else:
            # tp[i - 1] / P < r < tp[i] / P, i >= 1 since tp[0] / P = 0 < r
            ta = tp[i - 1]
            fa = fp[i - 1]
            t = r * P
            frac = (t - ta) / (tp[i] - ta)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            f = fa + frac * (fp[i] - fa)
            out[k] = t / (t + f)


@jit
def _tpr_at_fpr(tp, fp, fpr_grid, out):
    """TPR of the ROC curve (linear between vertices) at each FPR of ``fpr_grid``.

    ``tp``, ``fp``: one curve's vertices in sweep order; ``fpr_grid``: float64,
    ascending, in [0, 1]; ``out`` written in place. At an FPR shared by several vertices
    (a vertical segment) the highest TPR is taken.
    """
    n = tp.size
    g = fpr_grid.size
    P = tp[n - 1]
    N = fp[n - 1]
    if P <= 0.0 or N <= 0.0:
        for k in range(g):
            out[k] = np.nan
        return
    i = 0
    for k in range(g):
        x = fpr_grid[k]
        if not (x >= 0.0 and x <= 1.0):
            out[k] = np.nan
            continue
        # last vertex whose FPR is <= x
        while i < n - 1 and fp[i + 1] / N <= x:
            i += 1
        if i == n - 1 or fp[i] / N == x:
            out[k] = tp[i] / P
        else:
            fa = fp[i]
            frac = (x * N - fa) / (fp[i + 1] - fa)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            out[k] = (tp[i] + frac * (tp[i + 1] - tp[i])) / P


@jit
def _interp_one(tp, fp, grid, out, space_roc, hull):
    """One curve onto ``grid``: PR (``space_roc`` False) or ROC, optionally on the hull."""
    if hull:
        idx = _hull_indices(tp, fp)
        if space_roc:
            _tpr_at_fpr(tp[idx], fp[idx], grid, out)
        else:
            _precision_at_recall(tp[idx], fp[idx], grid, out)
    elif space_roc:
        _tpr_at_fpr(tp, fp, grid, out)
    else:
        _precision_at_recall(tp, fp, grid, out)


@jit(parallel=True)
def _precision_at_recall_batch(tp, fp, offsets, grid, hull):
    """Precision at each recall of ``grid`` for every curve of a ragged batch.

    ``tp[offsets[c]:offsets[c + 1]]`` (and ``fp``) are curve ``c``'s vertices in sweep
    order. Returns float64 ``(n_curves, grid.size)``.
    """
    n_curves = offsets.size - 1
    out = np.empty((n_curves, grid.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        _interp_one(tp[a:b], fp[a:b], grid, out[c], False, hull)
    return out


@jit(parallel=True)
def _tpr_at_fpr_batch(tp, fp, offsets, grid, hull):
    """TPR at each FPR of ``grid`` for every curve of a ragged batch (see the PR twin)."""
    n_curves = offsets.size - 1
    out = np.empty((n_curves, grid.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        _interp_one(tp[a:b], fp[a:b], grid, out[c], True, hull)
    return out
