"""Areas under one curve's vertices, and the fused batch kernel.

Every estimator takes one curve's sweep vertices ``tp``, ``fp`` (float64, sweep order,
origin first, as :func:`.sweep._sweep_one` gives them, or a subset such as the hull
vertices) and returns a float. ``P = tp[-1]``, ``N = fp[-1]``. They return NaN when the
area is undefined (ROC without positives or negatives, PR without positives).

Estimator codes (shared with the public layer, see ``prroc_numba._checks``):

=====================  ==========================================================
``AP``                 average precision, step sum ``sum (R_i - R_{i-1}) P_i``
                       (scikit-learn's ``average_precision_score``)
``PR_TRAPEZOID``       straight lines in PR space through scikit-learn's
                       ``precision_recall_curve`` points, (0, 1) included
                       (over-optimistic; offered to compare)
``DG``                 Davis & Goadrich: one point per integer TP between vertices,
                       trapezoids, flat start at recall 0 (PRROC's
                       ``auc.davis.goadrich``)
``INTEGRAL``           exact area under the same count-interpolated curve
                       (PRROC's ``auc.integral``)
``ROC_TRAPEZOID``      trapezoids in ROC space (ties count half; Mann-Whitney U)
=====================  ==========================================================
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from .._numba import jit
from .hull import _hull_indices
from .sort import _sort_desc
from .sweep import _fill_sweep_sorted, _n_vertices_sorted

AP = 0
PR_TRAPEZOID = 1
DG = 2
INTEGRAL = 3
ROC_TRAPEZOID = 4


@jit
def _roc_trapezoid(tp, fp):
    """Trapezoids in ROC space: tied scores count half (the Mann-Whitney statistic).

    Reproduces scikit-learn's ``roc_auc_score``, PRROC's and pROC's AUC. Assumes
    nothing beyond monotone vertices; on hull vertices it is the area under the ROC
    convex hull. A top score block with no positives is a horizontal step at TPR 0 and
    adds nothing (the AUCCalculator jar drops such points and then reports a different
    AUC-ROC; we follow PRROC / scikit-learn).
    """
    P = tp[-1]
    N = fp[-1]
    if P <= 0.0 or N <= 0.0:
        return np.nan
    s = 0.0
    for i in range(1, tp.size):
        s += (fp[i] - fp[i - 1]) * (tp[i] + tp[i - 1])
    return 0.5 * s / (P * N)


@jit
def _precision(t, f):
    d = t + f
    return t / d if d > 0.0 else 0.0


@jit
def _pr_ap(tp, fp):
    """Average precision: ``sum (R_i - R_{i-1}) P_i`` over the vertices (a step curve).

    Reproduces scikit-learn's ``average_precision_score``. Assumes each threshold's
    precision holds over its whole recall step (no interpolation); it is not the area
    under any achievable curve. A top score block with no positives has recall step 0
    and adds nothing. On hull vertices: the step sum over the achievable curve's
    vertices.
    """
    P = tp[-1]
    if P <= 0.0:
        return np.nan
    s = 0.0
    for i in range(1, tp.size):
        d = tp[i] - tp[i - 1]
        if d != 0.0:
            s += d * _precision(tp[i], fp[i])
    return s / P


@jit
def _pr_trapezoid(tp, fp):
    """Straight lines in PR space through the vertices, from scikit-learn's (0, 1).

    What ``sklearn.metrics.auc(recall, precision)`` over ``precision_recall_curve``
    gives. Linear interpolation in PR space is wrong (Davis & Goadrich 2006, section 4):
    precision is not linear in recall between two thresholds, and this area is
    over-optimistic (the paper's Figure 6: 0.50 instead of 0.03). Offered only to
    compare. A top score block with no positives drops the curve to precision 0 at
    recall 0 (as scikit-learn's points do), and the next segment starts from there.
    """
    P = tp[-1]
    if P <= 0.0:
        return np.nan
    s = 0.0
    prev = 1.0  # scikit-learn's (recall 0, precision 1) end point
    for i in range(1, tp.size):
        p = _precision(tp[i], fp[i])
        s += (tp[i] - tp[i - 1]) * (p + prev)
        prev = p
    return 0.5 * s / P


@jit
def _pr_dg(tp, fp):
    """Davis & Goadrich interpolation + trapezoids, as PRROC's ``auc.davis.goadrich``.

    Between vertices A and B the points are ``TP_A + x`` for ``x = 1 .. TP_B - TP_A``
    with ``FP_A + x * (FP_B - FP_A) / (TP_B - TP_A)``, joined by trapezoids that start
    at A itself. At the origin precision is undefined, so the curve starts flat at
    recall 0 with the first point's precision; a top block of negatives only starts it
    at precision 0 instead (PRROC; the AUCCalculator jar drops such points). For
    non-integer TP steps (weights, soft labels) the points are unit TP steps from A and
    then B itself.
    """
    P = tp[-1]
    if P <= 0.0:
        return np.nan
    area = 0.0
    started = False
    prev_t = 0.0
    prev_p = 0.0
    for i in range(1, tp.size):
        ta = tp[i - 1]
        fa = fp[i - 1]
        dt = tp[i] - ta
        if dt <= 0.0:
            continue
        if ta + fa > 0.0:
            # the segment starts at vertex A (after any negatives-only steps, so the
            # curve has already dropped vertically to A's precision)
            prev_t = ta
            prev_p = ta / (ta + fa)
            started = True
        skew = (fp[i] - fa) / dt
        n_unit = int(math.floor(dt))
        n_pts = n_unit if ta + n_unit >= tp[i] else n_unit + 1
        for x in range(1, n_pts + 1):
            if x <= n_unit:
                t = ta + x
                f = fa + skew * x
            else:
                t = tp[i]
                f = fp[i]
            p = t / (t + f)
            if not started:
                area += t * p  # flat start: from recall 0 at this precision
                started = True
            else:
                area += (t - prev_t) * 0.5 * (p + prev_p)
            prev_t = t
            prev_p = p
    return area / P


@jit
def _pr_integral(tp, fp):
    """Exact area under the count-interpolated PR curve (PRROC's ``auc.integral``).

    Between vertices A and B, ``FP = FP_A + s (TP - TP_A)`` with ``s`` the local skew,
    so precision is ``TP / (a TP + b)`` with ``a = 1 + s`` and ``b = FP_A - s TP_A``,
    integrated in closed form over recall ``TP / P``. Exact for any counts (sample
    weights, soft labels). The segment from the origin is a ray of constant precision
    (a flat start at the first vertex's precision); after a top block of negatives only
    the curve rises from precision 0, as in PRROC. On hull vertices: the exact area
    under the achievable PR curve.
    """
    P = tp[-1]
    if P <= 0.0:
        return np.nan
    area = 0.0
    for i in range(1, tp.size):
        ta = tp[i - 1]
        fa = fp[i - 1]
        dt = tp[i] - ta
        if dt <= 0.0:
            continue
        s = (fp[i] - fa) / dt
        a = 1.0 + s
        b = fa - s * ta
        if b == 0.0:
            area += dt / a
        else:
            # a * ta + b == ta + fa > 0 here
            area += dt / a - (b / (a * a)) * math.log1p(a * dt / (ta + fa))
    return area / P


@jit
def _area(tp, fp, method):
    """Dispatch one curve's vertices to the estimator named by ``method``."""
    if method == AP:
        return _pr_ap(tp, fp)
    if method == PR_TRAPEZOID:
        return _pr_trapezoid(tp, fp)
    if method == DG:
        return _pr_dg(tp, fp)
    if method == INTEGRAL:
        return _pr_integral(tp, fp)
    return _roc_trapezoid(tp, fp)


@jit
def _area_of_sweep(tp, fp, method, hull):
    if hull:
        idx = _hull_indices(tp, fp)
        return _area(tp[idx], fp[idx], method)
    return _area(tp, fp, method)


@jit
def _areas_of_sweep(tp, fp, codes, hulls, out):
    """Write area ``k`` (estimator ``codes[k]``, on the hull where ``hulls[k]``) of one
    curve's sweep into ``out[k]``; the hull is taken once, whatever the number of areas.
    """
    need_hull = False
    for k in range(codes.size):
        need_hull = need_hull or hulls[k]
    if need_hull:
        idx = _hull_indices(tp, fp)
        htp = tp[idx]
        hfp = fp[idx]
    else:
        htp = tp[:0]
        hfp = fp[:0]
    for k in range(codes.size):
        if hulls[k]:
            out[k] = _area(htp, hfp, codes[k])
        else:
            out[k] = _area(tp, fp, codes[k])


@jit(parallel=True)
def _areas_batch(values, offsets, pos, neg, label_start, codes, hulls):
    """Fused sort + sweep (+ hull) + every requested area, for every curve of a batch.

    ``codes[k]``/``hulls[k]`` name area ``k``; returns float64 ``(n_curves, codes.size)``.
    One sort and one sweep per curve; nothing of size N outlives a curve. (Hard,
    unweighted labels take :func:`.split_sort._split_areas_range` instead, without the
    argsort.)
    """
    n_curves = offsets.size - 1
    out = np.empty((n_curves, codes.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        order, xs = _sort_desc(values[a:b])
        k = _n_vertices_sorted(xs)
        thr = np.empty(k)
        tp = np.empty(k)
        fp = np.empty(k)
        _fill_sweep_sorted(xs, pos[ls : ls + b - a], neg[ls : ls + b - a], order, thr, tp, fp)
        _areas_of_sweep(tp, fp, codes, hulls, out[c])
    return out


@jit
def _area_sorted(xs, pos, neg, order, method, hull):
    """Sweep (+ hull) + area of one curve given its descending order ``order`` and the
    sorted scores ``xs`` (``pos``/``neg`` unsorted, read through ``order``).
    """
    k = _n_vertices_sorted(xs)
    thr = np.empty(k)
    tp = np.empty(k)
    fp = np.empty(k)
    _fill_sweep_sorted(xs, pos, neg, order, thr, tp, fp)
    return _area_of_sweep(tp, fp, method, hull)


@jit(parallel=True)
def _area_sorted_batch(values, offsets, order, pos, neg, label_start, method, hull):
    """One area per curve, as :func:`_areas_batch`, for curves already sorted:
    ``order[offsets[c]:offsets[c+1]]`` is curve ``c``'s descending argsort (local row
    indices), as the bootstrap plan holds it. The same sweep and areas, bit for bit,
    without a second sort.
    """
    n_curves = offsets.size - 1
    out = np.empty(n_curves)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        o = order[a:b]
        xs = values[a:b][o]
        out[c] = _area_sorted(xs, pos[ls : ls + b - a], neg[ls : ls + b - a], o, method, hull)
    return out
