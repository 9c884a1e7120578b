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
``PRG``                trapezoids in Precision-Recall-Gain space from recall gain 0
                       (AUPRG, Flach & Kull 2015; :func:`_prg_area`)
=====================  ==========================================================

A top score block with no positives adds nothing to ROC (a horizontal step at TPR 0)
nor to AP (recall step 0); it drops the trapezoid curve to precision 0 at recall 0 (as
scikit-learn's points do) and starts the DG and integral curves at precision 0 (PRROC;
the AUCCalculator jar drops such points and reports other values). Linear interpolation
in PR space (``PR_TRAPEZOID``) is over-optimistic (Davis & Goadrich 2006, section 4; the
paper's Figure 6: 0.50 instead of 0.03). On hull vertices each estimator is the area
under the achievable curve. The per-segment terms are :mod:`.segments`' (one switch in
one loop, :func:`_area`), the count interpolation :mod:`.pr_interp`'s.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .hull import _hull_indices
from .segments import finish_area_cpu, segment_add
from .sort import _sort_desc
from .sweep import _fill_sweep_sorted, _n_vertices_sorted

AP = 0
PR_TRAPEZOID = 1
DG = 2
INTEGRAL = 3
ROC_TRAPEZOID = 4
#: the area under the Precision-Recall-Gain curve (:func:`_prg_area`)
PRG = 5


@jit
def _prg_gains(t, f, P, N):
    """Recall and precision gain of the vertex ``(t, f)`` (``t > 0``) of a curve with
    class totals ``P``, ``N``; ``(1, 0)`` where every row is predicted positive. The
    same operations as :func:`prroc_numba.gains._gains`, so the same bits.
    """
    if (P - t) + (N - f) == 0.0:
        return 1.0, 0.0
    ratio = P / N
    return 1.0 - ratio * ((P - t) / t), 1.0 - ratio * (f / t)


@jit
def _prg_area(tp, fp):
    """AUPRG of one curve's vertices (origin first, ``P = tp[-1]``, ``N = fp[-1]``):
    trapezoids in PRG space from recall gain 0, where ``TP = P^2 / (P + N)`` on the
    count-space line into the first vertex with recall gain >= 0, to recall gain 1.
    The clipping point depends on the totals, so it is found per curve (per
    replicate: its own totals). The same operations in the same order as
    :func:`prroc_numba.gains._auprg` (trapezoids summed in vertex order, the entry
    piece added last). NaN without positives or negatives, or without a vertex of
    recall gain >= 0 after the first.
    """
    n = tp.size
    P = tp[n - 1]
    N = fp[n - 1]
    if not (P > 0.0 and N > 0.0):
        return np.nan
    j = -1
    total = 0.0
    prev_rg = 0.0
    prev_pg = 0.0
    first_rg = 0.0
    first_pg = 0.0
    for k in range(n):
        if tp[k] <= 0.0:
            continue
        rg, pg = _prg_gains(tp[k], fp[k], P, N)
        if j >= 0:
            total += (rg - prev_rg) * (pg + prev_pg) / 2.0
        elif rg >= 0.0:
            j = k
            first_rg = rg
            first_pg = pg
        prev_rg = rg
        prev_pg = pg
    if j <= 0:
        return np.nan
    i = j - 1
    t0 = P * P / (P + N)
    dtp = tp[j] - tp[i]
    a = (t0 - tp[i]) / dtp if dtp > 0.0 else 0.5
    f0 = fp[i] + a * (fp[j] - fp[i])
    pg0 = 1.0 - (P / N) * (f0 / t0)
    return total + first_rg * (pg0 + first_pg) / 2.0


@jit
def _area(tp, fp, method):
    """Area of estimator ``method`` under one curve's vertices: one loop over the
    segments, the estimator a switch inside it (:func:`.segments.segment_add`, the
    terms every engine shares), then :func:`.segments.finish_area`. One small loop
    compiles seconds faster than a body per estimator. :data:`PRG` clips at a point
    that depends on the class totals, so it takes the whole vertex list
    (:func:`_prg_area`).
    """
    if method == PRG:
        return _prg_area(tp, fp)
    total = 0.0
    for i in range(1, tp.size):
        total = segment_add(method, total, tp[i - 1], fp[i - 1], tp[i], fp[i])
    return finish_area_cpu(method, total, tp[-1], fp[-1])


@jit
def _area_of_sweep(tp, fp, method, hull):
    if hull:
        idx = _hull_indices(tp, fp)
        return _area(tp[idx], fp[idx], method)
    return _area(tp, fp, method)


@jit
def _plain_areas(tp, fp, codes, hulls, out):
    """Write area ``k`` (estimator ``codes[k]``) of one curve's vertices into ``out[k]``
    for every ``k`` not asked on the hull (``hulls[k]`` false).
    """
    for k in range(codes.size):
        if not hulls[k]:
            out[k] = _area(tp, fp, codes[k])


@jit
def _hull_areas(tp, fp, codes, hulls, out):
    """Write area ``k`` under the upper ROC hull of one curve's vertices into ``out[k]``
    for every ``k`` asked on the hull (``hulls[k]``); the hull is taken once.
    """
    idx = _hull_indices(tp, fp)
    htp = tp[idx]
    hfp = fp[idx]
    for k in range(codes.size):
        if hulls[k]:
            out[k] = _area(htp, hfp, codes[k])


@jit
def _areas_of_sweep(tp, fp, codes, hulls, out):
    """Write area ``k`` (estimator ``codes[k]``, on the hull where ``hulls[k]``) of one
    curve's sweep into ``out[k]``; the hull is taken once, whatever the number of areas.
    """
    _plain_areas(tp, fp, codes, hulls, out)
    for k in range(codes.size):
        if hulls[k]:
            _hull_areas(tp, fp, codes, hulls, out)
            return


@jit
def _hull_areas_range(tp, fp, slots, nv, codes, hulls, out, c0, c1):
    """The areas asked on the hull (``hulls[k]``) of curves ``c0 .. c1 - 1`` of a ragged
    vertex batch, curve ``c``'s vertices ``[slots[c]:slots[c] + nv[c]]``, into
    ``out[c]`` (run over chunks of curves by :func:`prroc_numba._drivers.threads.run_curves`). A
    kernel of
    its own, so the hull compiles only when a hull is asked for.
    """
    for c in range(c0, c1):
        u = slots[c]
        v = u + nv[c]
        _hull_areas(tp[u:v], fp[u:v], codes, hulls, out[c])


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
