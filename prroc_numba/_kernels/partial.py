"""Partial areas: each estimator of :mod:`.area` restricted to a range of the x axis.

Every function takes one curve's vertices ``tp``, ``fp`` (origin first, as
:func:`.sweep._sweep_one` gives them, or the hull's) and the range ``[lo, hi]`` in
units of the x axis, and returns the area over that range only (not standardized).
The PR estimators are :mod:`.area`'s, which take the range (the whole curve is the
range [0, 1]); the ROC partial areas are here.

* ROC (``_roc_partial``): the trapezoid curve (straight lines between vertices, which is
  exact in counts: TP and FP both grow linearly between two vertices) over an FPR range
  (``focus=FOCUS_FPR``), or -- pROC's ``focus="se"`` -- the area between the curve and
  FPR = 1 over a TPR range (``FOCUS_TPR``: the integral of specificity over
  sensitivity). Over [0, 1] both are the AUC.
* PR (:func:`.area._pr_area`), over a recall range ``[lo, hi]`` (TP in ``[lo P, hi P]``):
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

from .._numba import jit
from .area import ROC_TRAPEZOID, _pr_area
from .hull import _hull_indices
from .resample import _fill_slot_counts, _walk_vertices
from .rng import _stream

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


@jit
def _partial_area(tp, fp, method, lo, hi, focus):
    """Partial area of one curve; ``lo``/``hi`` are FPR (or TPR) for ROC, recall for
    PR (:func:`.area._pr_area`, the estimators written once over a range). NaN where
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


@jit(parallel=True)
def _boot_partial(
    slot_order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    strata_offsets,
    n_strata,
    n_models,
    seed,
    b0,
    b1,
    count_type,
    method,
    hull,
    lo,
    hi,
    focus,
    out,
):
    """Partial areas of replicates ``b0 .. b1-1`` of every curve: the paired draws of
    :func:`.resample._boot_paired` (one slot-count vector per group and replicate, the
    same streams; slots are rows, or clusters), each model's replicate vertices walked
    by :func:`.resample._walk_vertices`, then :func:`_partial_area`. Merging a run of
    negative-only blocks into one segment keeps every partial area: the ROC curve is
    straight along it, and the PR estimators only read the vertex at its end. Writes
    ``out[c, b - b0]``.
    """
    n_groups = (offsets.size - 1) // n_models
    nb = b1 - b0
    for t in prange(n_groups * nb):
        g = t // nb
        j = t - g * nb
        n_slots = strata_offsets[(g + 1) * n_strata] - strata_offsets[g * n_strata]
        cnt = np.zeros(n_slots + 1, dtype=count_type.dtype)
        st = _stream(seed, g, b0 + j)
        _fill_slot_counts(st, strata_offsets, n_strata, g, cnt)
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
            tp = np.empty(se.size + 1)
            fp = np.empty(se.size + 1)
            nv = _walk_vertices(slot_order[u:v], se, ps[u:v], ns[u:v], cnt, tp, fp)
            if hull:
                idx = _hull_indices(tp[:nv], fp[:nv])
                out[c, j] = _partial_area(tp[idx], fp[idx], method, lo, hi, focus)
            else:
                out[c, j] = _partial_area(tp[:nv], fp[:nv], method, lo, hi, focus)
