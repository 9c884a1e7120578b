"""Interpolation of curves onto shared grids (precision at recall, TPR at FPR).

Single-curve kernels take one curve's vertices ``tp``, ``fp`` (float64, sweep order:
``tp`` and ``fp`` non-decreasing, origin ``(0, 0)`` first, the end ``(P, N)`` last, as
:func:`.sweep._sweep_one` returns them, or a subset such as the hull vertices) and a
grid (float64, ascending), and write one value per grid point into ``out``.
``P = tp[-1]`` and ``N = fp[-1]``.

Interpolation is linear in ROC space (the only achievable one, Davis & Goadrich 2006,
section 4). In PR space that is the count interpolation (:mod:`.pr_interp`): between
consecutive vertices A and B, ``FP`` grows linearly with ``TP`` (the local skew), so
precision at recall
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
vertices, sweep order) and handle a chunk of curves ``c0 .. c1 - 1``; the drivers of
:mod:`prroc_numba._drivers.grid` run the chunks on the thread pool and return a dense
``(n_curves, n_grid)`` float64 matrix; ``hull=True`` interpolates the upper ROC hull
(:func:`.hull._hull_indices`) instead, i.e. the achievable PR curve in PR space.
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .hull import _hull_indices
from .pr_interp import flat_start, lerp, precision

# a product ``r * P`` is within 1 ulp of the real product and ``tp / P`` within 1 ulp
# of the real quotient, so ``tp < r P (1 - 4 eps)`` implies ``tp / P < r`` and
# ``tp > r P (1 + 4 eps)`` implies ``tp / P > r`` (both in floating point): the kernels
# divide only for the vertices within that band of a grid value (same results as
# dividing at every vertex, several times fewer divisions)
_BELOW = 1.0 - 4.0 * np.finfo(np.float64).eps
_ABOVE = 1.0 + 4.0 * np.finfo(np.float64).eps


@jit
def _tp_steps(tp):
    """How many vertices hold more TP than the one before (the starts of the segments
    that PR interpolation reads; the others only add FP at the same TP).
    """
    steps = 0
    prev = tp[0]
    rest = tp[1:]  # indexed from 0: the loop vectorizes on every CPU (see _counts_usual)
    for i in range(rest.size):
        x = rest[i]
        steps += x > prev
        prev = x
    return steps


@jit
def _unit_ascending(grid):
    """True when ``grid`` is ascending (repeats allowed) within [0, 1], without NaN."""
    ok = grid[0] >= 0.0 and grid[grid.size - 1] <= 1.0
    prev = grid[0]
    rest = grid[1:]
    for k in range(rest.size):
        x = rest[k]
        ok &= x >= prev
        prev = x
    return ok


@jit
def _segment_precision(recall_grid, P, k, e, ta, fa, tb, fb, out):
    """Grid points ``k .. e - 1`` on the segment from ``(ta, fa)`` to ``(tb, fb)``: the
    count interpolation of :func:`_precision_by_grid_point`, in a loop without exits,
    which the compiler vectorizes (a segment holding many grid points).
    """
    rs = recall_grid[k:e]  # indexed from 0: no select per load, vectorizes everywhere
    dst = out[k:e]
    for j in range(rs.size):
        t = rs[j] * P
        frac = (t - ta) / (tb - ta)
        if frac < 0.0:
            frac = 0.0
        elif frac > 1.0:
            frac = 1.0
        dst[j] = precision(t, lerp(fa, fb, frac))


@jit
def _steps_then_segments(tp, fp, recall_grid, out, P, k):
    """The walk by TP step from grid point ``k`` on, each segment's grid points found
    first and then interpolated in one loop without exits (vectorized).
    """
    g = recall_grid.size
    for i in range(1, tp.size):
        if k >= g:
            break
        ti = tp[i]
        ta = tp[i - 1]
        if ti > ta:
            q = ti / P  # the vertex's recall: one division per TP step
            e = k
            while e < g and recall_grid[e] <= q:
                e += 1
            _segment_precision(recall_grid, P, k, e, ta, fp[i - 1], ti, fp[i], out)
            _on_vertex(recall_grid, k, e, q, ti, fp[i], out)
            k = e
    return k


@jit
def _steps_point_by_point(tp, fp, recall_grid, out, P, k):
    """The walk by TP step from grid point ``k`` on, each grid point interpolated as it
    is found (fewer grid points per segment).
    """
    g = recall_grid.size
    for i in range(1, tp.size):
        if k >= g:
            break
        ti = tp[i]
        ta = tp[i - 1]
        if not (ti > ta):
            continue
        fa = fp[i - 1]
        fi = fp[i]
        q = ti / P
        e = k
        while e < g:
            r = recall_grid[e]
            if r > q:
                break
            t = r * P
            frac = (t - ta) / (ti - ta)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            out[e] = precision(t, lerp(fa, fi, frac))
            e += 1
        _on_vertex(recall_grid, k, e, q, ti, fi, out)
        k = e
    return k


@jit
def _on_vertex(recall_grid, k, e, q, ti, fi, out):
    """Of grid points ``k .. e - 1`` (recall at most ``q = ti / P``), the last ones that
    sit exactly on the vertex ``(ti, fi)`` take its own precision.
    """
    j = e - 1
    while j >= k and recall_grid[j] == q:
        out[j] = ti / (ti + fi)
        j -= 1


@jit
def _precision_by_step(tp, fp, recall_grid, out, P, long_segments):
    """:func:`_precision_at_recall` walked by the curve's TP steps instead of by grid
    point: for each vertex ``i`` with more TP than vertex ``i - 1``, the grid points
    not yet written whose recall is at most ``tp[i] / P`` -- exactly those whose first
    vertex reaching their recall is ``i`` -- are interpolated on the segment from
    ``i - 1`` to ``i``. The same comparisons and the same arithmetic per grid point as
    the walk by grid point (the same values, bit for bit), but no search per grid
    point: on curves with far fewer TP steps than grid points (skewed classes: many
    negatives between two positives) it takes a fraction of the time. A grid recall
    ``r`` belongs to the segment when ``r <= tp[i] / P`` in floating point: one division
    per TP step, the exact test that the walk by grid point reaches (its products only
    pass the clear cases without dividing).
    ``long_segments``: find each segment's grid points first, then interpolate them in
    one vectorized loop (:func:`_steps_then_segments`; pays when segments hold many
    grid points), else interpolate each as it is found (:func:`_steps_point_by_point`).
    Two loops, not one with a test inside: the compiler keeps each loop tight.
    ``recall_grid`` must be ascending within [0, 1] (:func:`_unit_ascending`).
    """
    g = recall_grid.size
    k = 0
    if recall_grid[0] == 0.0:  # the flat start at recall 0 (the grid's first values)
        p0 = flat_start(tp, fp)
        while k < g and recall_grid[k] == 0.0:
            out[k] = p0
            k += 1
    if long_segments:
        k = _steps_then_segments(tp, fp, recall_grid, out, P, k)
    else:
        k = _steps_point_by_point(tp, fp, recall_grid, out, P, k)
    for j in range(k, g):  # not reached when the last vertex has recall 1
        out[j] = np.nan


@jit
def _precision_at_recall(tp, fp, recall_grid, out):
    """Precision of the count-interpolated PR curve at each recall of ``recall_grid``.

    ``tp``, ``fp``: one curve's vertices in sweep order (see module docstring);
    ``recall_grid``: float64, ascending, in [0, 1]; ``out``: float64 of the grid's size,
    written in place. Recall 0 gives the flat start (limit from the right); a recall
    reached by several vertices gives the lowest-FP (best precision) one.

    Two walks give the same values, bit for bit: by TP step
    (:func:`_precision_by_step`) where the grid has at least two points per TP step of
    the curve (segments vectorized from eight points per step on), else by grid point
    (:func:`_precision_by_grid_point`: a search per grid point, the cheaper one when the
    grid is coarse).
    """
    n = tp.size
    g = recall_grid.size
    P = tp[n - 1]
    if P <= 0.0:
        for k in range(g):
            out[k] = np.nan
        return
    steps = _tp_steps(tp)
    if g > 0 and 2 * steps <= g and _unit_ascending(recall_grid):
        _precision_by_step(tp, fp, recall_grid, out, P, 8 * steps <= g)
    else:
        _precision_by_grid_point(tp, fp, recall_grid, out, P)


@jit
def _precision_by_grid_point(tp, fp, recall_grid, out, P):
    """:func:`_precision_at_recall` walked by grid point (``P = tp[-1] > 0``): for each
    grid recall the first vertex reaching it, found by a search that goes on from the
    previous grid point's. Any grid (values outside [0, 1] or NaN give NaN).
    """
    g = recall_grid.size
    p0 = flat_start(tp, fp)  # the limit at recall 0+
    i = 0
    for k in range(g):
        r = recall_grid[k]
        if r == 0.0:
            out[k] = p0
            continue
        if not (r > 0.0 and r <= 1.0):
            out[k] = np.nan
            continue
        # first vertex whose recall tp / P reaches r (exists: the last has recall 1).
        # Divisions are slow: vertices clearly below (tp < r P (1 - 4 eps)) are passed
        # on a product, which implies tp / P < r in floating point; the exact test
        # decides only near r.
        t = r * P
        lo = t * _BELOW
        hi = t * _ABOVE
        while tp[i] < lo:
            i += 1
        # now tp[i] >= lo; above hi, tp[i] / P > r for sure: no division
        while tp[i] <= hi and tp[i] / P < r:
            i += 1
        ti = tp[i]
        if ti <= hi and ti / P == r:
            out[k] = ti / (ti + fp[i])
        else:
            # tp[i - 1] / P < r < tp[i] / P, i >= 1 since tp[0] / P = 0 < r
            ta = tp[i - 1]
            fa = fp[i - 1]
            frac = (t - ta) / (ti - ta)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            out[k] = precision(t, lerp(fa, fp[i], frac))


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
        # last vertex whose FPR fp / N is <= x (products pass clear cases, as above)
        xn = x * N
        lo = xn * _BELOW
        hi = xn * _ABOVE
        while i < n - 1 and fp[i + 1] < lo:
            i += 1
        # fp[i + 1] >= lo now; above hi, fp[i + 1] / N > x for sure: no division
        while i < n - 1 and fp[i + 1] <= hi and fp[i + 1] / N <= x:
            i += 1
        if i == n - 1 or (fp[i] >= lo and fp[i] / N == x):
            out[k] = tp[i] / P
        else:
            fa = fp[i]
            frac = (xn - fa) / (fp[i + 1] - fa)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            out[k] = lerp(tp[i], tp[i + 1], frac) / P


@jit
def _precision_on_grid(tp, fp, grid, out, hull):
    """Precision on ``grid`` of one curve's vertices (``hull=True``: of its achievable
    PR curve), written into ``out`` (the replicate kernels' entry). Not through
    :func:`_interp_one`: a constant ``space_roc`` would compile that a second time,
    typed as a literal.
    """
    if hull:
        idx = _hull_indices(tp, fp)
        _precision_at_recall(tp[idx], fp[idx], grid, out)
    else:
        _precision_at_recall(tp, fp, grid, out)


@jit
def _fpr_at_tpr(tp, fp, tpr_grid, out):
    """FPR of the ROC curve (linear between vertices) at each TPR of ``tpr_grid``.

    The mirror of :func:`_tpr_at_fpr`: ``tpr_grid`` float64, ascending, in [0, 1];
    at a TPR shared by several vertices (a horizontal ROC run) the lowest FPR is taken
    (the first vertex in sweep order), so TPR 0 gives FPR 0.
    """
    n = tp.size
    g = tpr_grid.size
    P = tp[n - 1]
    N = fp[n - 1]
    if P <= 0.0 or N <= 0.0:
        for k in range(g):
            out[k] = np.nan
        return
    i = 0
    for k in range(g):
        r = tpr_grid[k]
        if not (r >= 0.0 and r <= 1.0):
            out[k] = np.nan
            continue
        while i < n - 1 and tp[i] / P < r:  # first vertex whose TPR reaches r
            i += 1
        if i == 0 or tp[i] / P == r:
            out[k] = fp[i] / N
        else:
            ta = tp[i - 1]
            frac = (r * P - ta) / (tp[i] - ta)
            if frac < 0.0:
                frac = 0.0
            elif frac > 1.0:
                frac = 1.0
            out[k] = lerp(fp[i - 1], fp[i], frac) / N


@jit
def _roc_on_grid(tp, fp, grid, out, hull, fpr_at_tpr):
    """TPR at the FPR ``grid`` (``fpr_at_tpr`` False) or FPR at the TPR ``grid`` of one
    curve's vertices (``hull=True``: of its ROC hull), into ``out`` (the replicate
    kernels' ROC entry, the twin of :func:`_precision_on_grid`).
    """
    if hull:
        idx = _hull_indices(tp, fp)
        if fpr_at_tpr:
            _fpr_at_tpr(tp[idx], fp[idx], grid, out)
        else:
            _tpr_at_fpr(tp[idx], fp[idx], grid, out)
    elif fpr_at_tpr:
        _fpr_at_tpr(tp, fp, grid, out)
    else:
        _tpr_at_fpr(tp, fp, grid, out)


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


@jit
def _interp_curves(tp, fp, offsets, grid, hull, space_roc, out, c0, c1):
    """Rows ``c0 .. c1 - 1`` of ``out``: curve ``c`` (``tp[offsets[c]:offsets[c + 1]]``)
    on ``grid`` (a chunk of the thread pool).
    """
    for c in range(c0, c1):
        a = offsets[c]
        b = offsets[c + 1]
        _interp_one(tp[a:b], fp[a:b], grid, out[c], space_roc, hull)
