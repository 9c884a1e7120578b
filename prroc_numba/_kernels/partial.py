"""Partial areas: each estimator of :mod:`.area` restricted to a range of the x axis.

Every function takes one curve's vertices ``tp``, ``fp`` (origin first, as
:func:`.sweep._sweep_one` gives them, or the hull's) and the range ``[lo, hi]`` in
units of the x axis, and returns the area over that range only (not standardized).
These are compiled on first partial use and read the curve between vertices through
:mod:`.pr_interp` (the DG trapezoids are :func:`.pr_interp.dg_area`, the whole-curve
estimator's own, given a TP range).

* ROC (``_roc_partial``): the trapezoid curve (straight lines between vertices, which is
  exact in counts: TP and FP both grow linearly between two vertices) over an FPR range
  (``focus=FOCUS_FPR``), or -- pROC's ``focus="se"`` -- the area between the curve and
  FPR = 1 over a TPR range (``FOCUS_TPR``: the integral of specificity over
  sensitivity). Over [0, 1] both are the AUC.
* PR (:func:`_pr_area`), over a recall range ``[lo, hi]`` (TP in ``[lo P, hi P]``):
  ``INTEGRAL`` -- the exact area under the count-interpolated curve, in closed form on
  each clipped segment; ``DG`` -- the Davis & Goadrich points joined by trapezoids, the
  piece cut by an end of the range valued there exactly in counts (precision of the
  count-interpolated curve at that recall, never a straight PR line); ``AP`` -- the step
  curve (each vertex's precision over its recall step); ``PR_TRAPEZOID`` -- its own
  straight lines in PR space from (0, 1), cut by straight-line interpolation (the
  over-optimistic estimator, offered to compare). Over [0, 1] each is its
  whole-curve area, bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .area import AP, DG, INTEGRAL, PR_TRAPEZOID, ROC_TRAPEZOID
from .hull import _hull_indices
from .pr_interp import dg_area, integral_term, precision
from .resample import _curve_vertices, _item_counts

FOCUS_FPR = 0
FOCUS_TPR = 1


@jit
def _polyline_area(x, y, lo, hi):
    """Area under the polyline through ``(x[i], y[i])`` (``x`` non-decreasing) over
    ``[lo, hi]``; a vertical step (equal ``x``) has no width.
    """
    s = 0.0
    for i in range(1, x.size):
        xa = x[i - 1]
        xb = x[i]
        if xb <= xa:
            continue
        x0 = max(xa, lo)
        x1 = min(xb, hi)
        if x1 <= x0:
            continue
        ya = y[i - 1]
        dy = (y[i] - ya) / (xb - xa)
        s += (x1 - x0) * (ya + 0.5 * dy * ((x0 - xa) + (x1 - xa)))
    return s


@jit
def _roc_partial(tp, fp, lo, hi, focus):
    P = tp[-1]
    N = fp[-1]
    if P <= 0.0 or N <= 0.0:
        return np.nan
    if focus == FOCUS_FPR:
        return _polyline_area(fp / N, tp / P, lo, hi)
    return _polyline_area(tp / P, 1.0 - fp / N, lo, hi)


# :mod:`.area`'s PR estimators over a TP range ``[L, H]`` (``L = lo P``, ``H = hi P``),
# not divided by ``P`` yet. Over ``[0, P]`` each gives its whole-curve area bit for bit
# (an uncut piece takes the same operations; halving is exact). The whole-curve loop
# (:func:`.area._area`) does not go through these: AP, trapezoid and integral through
# their range versions cost it compile time (measured: ``_area`` 2.2 -> 3.4-4.2 s CPU);
# DG shares :func:`.pr_interp.dg_area` (its range is ``[0, inf]`` there).


@jit
def _pr_ap_range(tp, fp, L, H):
    """Average precision: ``sum (R_i - R_{i-1}) P_i`` over the vertices (a step curve).

    Reproduces scikit-learn's ``average_precision_score``. Assumes each threshold's
    precision holds over its whole recall step (no interpolation); it is not the area
    under any achievable curve. A top score block with no positives has recall step 0
    and adds nothing. On hull vertices: the step sum over the achievable curve's
    vertices.
    """
    area = 0.0
    for i in range(1, tp.size):
        t0 = max(tp[i - 1], L)
        t1 = min(tp[i], H)
        if t1 > t0:
            area += (t1 - t0) * precision(tp[i], fp[i])
    return area


@jit
def _pr_trapezoid_range(tp, fp, L, H):
    """Straight lines in PR space through the vertices, from scikit-learn's (0, 1).

    What ``sklearn.metrics.auc(recall, precision)`` over ``precision_recall_curve``
    gives. Linear interpolation in PR space is wrong (Davis & Goadrich 2006, section 4):
    precision is not linear in recall between two thresholds, and this area is
    over-optimistic (the paper's Figure 6: 0.50 instead of 0.03). Offered only to
    compare. A top score block with no positives drops the curve to precision 0 at
    recall 0 (as scikit-learn's points do), and the next segment starts from there. A
    cut end of the range is valued on the straight line.
    """
    area = 0.0
    prev = 1.0  # scikit-learn's (recall 0, precision 1) end point
    for i in range(1, tp.size):
        p = precision(tp[i], fp[i])
        ta = tp[i - 1]
        dt = tp[i] - ta
        if dt > 0.0:
            t0 = max(ta, L)
            t1 = min(tp[i], H)
            if t1 > t0:
                v0 = prev if t0 == ta else prev + (p - prev) * (t0 - ta) / dt
                v1 = p if t1 == tp[i] else prev + (p - prev) * (t1 - ta) / dt
                area += 0.5 * (t1 - t0) * (v0 + v1)
        prev = p
    return area


@jit
def _pr_dg_range(tp, fp, L, H):
    """Davis & Goadrich interpolation + trapezoids (PRROC's ``auc.davis.goadrich``) over
    TP ``[L, H]``: the points and trapezoids of :func:`.pr_interp.dg_area`, vertex after
    vertex; a piece cut by an end of the range is valued there exactly in counts (never
    a straight PR line).
    """
    area = 0.0
    for i in range(1, tp.size):
        if tp[i] > tp[i - 1]:
            area = dg_area(area, tp[i - 1], fp[i - 1], tp[i], fp[i], L, H)
    return area


@jit
def _pr_integral_range(tp, fp, L, H):
    """Exact area under the count-interpolated PR curve (PRROC's ``auc.integral``).

    Between vertices A and B, ``FP = FP_A + s (TP - TP_A)`` with ``s`` the local skew,
    integrated in closed form (:func:`.pr_interp.integral_term`). Exact for any counts
    (sample weights, soft labels). The segment from the origin is a ray of constant
    precision (a flat start at the first vertex's precision); after a top block of
    negatives only the curve rises from precision 0, as in PRROC. On hull vertices: the
    exact area under the achievable PR curve.
    """
    area = 0.0
    for i in range(1, tp.size):
        ta = tp[i - 1]
        dt = tp[i] - ta
        if dt <= 0.0:
            continue
        t0 = max(ta, L)
        t1 = min(tp[i], H)
        if t1 > t0:
            # t0 + FP(t0) > 0 here
            area += integral_term(t0, t1, ta, fp[i - 1], (fp[i] - fp[i - 1]) / dt)
    return area


@jit
def _pr_area(tp, fp, method, lo, hi):
    """PR area of estimator ``method`` over recall ``[lo, hi]`` (not standardized);
    NaN without positives.
    """
    P = tp[-1]
    if P <= 0.0:
        return np.nan
    L = lo * P
    H = hi * P
    if method == INTEGRAL:
        a = _pr_integral_range(tp, fp, L, H)
    elif method == DG:
        a = _pr_dg_range(tp, fp, L, H)
    elif method == AP:
        a = _pr_ap_range(tp, fp, L, H)
    elif method == PR_TRAPEZOID:
        a = _pr_trapezoid_range(tp, fp, L, H)
    else:
        a = np.nan
    return a / P


@jit
def _partial_area(tp, fp, method, lo, hi, focus):
    """Partial area of one curve; ``lo``/``hi`` are FPR (or TPR) for ROC, recall for
    PR (:func:`_pr_area`). NaN where
    the area is undefined (no positives; ROC: or no negatives).
    """
    if method == ROC_TRAPEZOID:
        return _roc_partial(tp, fp, lo, hi, focus)
    return _pr_area(tp, fp, method, lo, hi)


@jit(parallel=True)
def _partial_batch(tp, fp, offsets, method, lo, hi, focus):
    """Partial area of every curve of a ragged vertex batch (``[offsets[c]:offsets[c+1]]``
    is curve ``c``, origin first).
    """
    n_curves = offsets.size - 1
    out = np.empty(n_curves)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        out[c] = _partial_area(tp[a:b], fp[a:b], method, lo, hi, focus)
    return out


@jit
def _boot_partial(rows, draw, seed, b0, b1, spec, out, t0, t1):
    """Partial areas of replicates ``b0 .. b1-1`` of every curve: the paired draws and
    walks of :func:`.resample._boot_paired` (the same ``rows``, ``draw``, items ``t0 ..
    t1-1`` and streams; slots are rows, or clusters), then :func:`_partial_area` with
    ``spec = (method, hull, lo, hi, focus)``. Merging a run of negative-only blocks into
    one segment keeps every partial area: the ROC curve is straight along it, and the
    PR estimators only read the vertex at its end. Writes ``out[c, 0, b]``.
    """
    n_models, n_pos_slots, hard = rows[6], draw[4], draw[5]
    method, with_hull, lo, hi, focus = spec
    for t in range(t0, t1):
        g, b, cnt = _item_counts(draw, seed, t, b0, b1)
        if cnt.size == 0:
            continue
        for mdl in range(n_models):
            c = g * n_models + mdl
            tp, fp = _curve_vertices(rows, c, cnt, hard, n_pos_slots[g])
            if with_hull:
                idx = _hull_indices(tp, fp)
                out[c, 0, b] = _partial_area(tp[idx], fp[idx], method, lo, hi, focus)
            else:
                out[c, 0, b] = _partial_area(tp, fp, method, lo, hi, focus)
