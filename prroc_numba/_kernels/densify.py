"""Points on the correctly interpolated PR curve between consecutive vertices.

Davis & Goadrich 2006, section 4: between two vertices A and B (consecutive points of a
sweep, or of its ROC convex hull) the counts are interpolated, never the precisions.
FP rises linearly with TP at the local skew ``s = (FP_B - FP_A) / (TP_B - TP_A)``
(:mod:`.pr_interp`, the one home of that interpolation), so
on recall ``r = TP / P`` the precision is ``r / (a r + b)`` with ``a = 1 + s`` and
``b = (FP_A - s TP_A) / P``: the exact curve that PRROC's ``auc.integral`` integrates.

Two ways to sample it (``mode``):

* ``DG`` -- the paper's points ``TP_A + x`` for integer ``x`` with
  ``TP_A < TP_A + x < TP_B`` and ``FP_A + s x``. For a non-integer TP step (sample
  weights, soft labels) the same rule is used: unit TP steps from A, then B itself
  (the points that :func:`.area._pr_dg` joins by trapezoids);
* ``CONTINUOUS`` -- ``k - 1`` evenly spaced TP values inside each segment, with
  ``k = ceil((TP_B - TP_A) / tp_step)``, so consecutive points are at most
  ``tp_step`` apart in TP (the public layer passes ``P * recall_step``).

Segments with ``TP_B = TP_A`` (only negatives: a vertical drop in PR space) get no
points. Input is ragged (``offsets``); outputs are ragged, sized by a counting pass;
interpolated points get threshold NaN, vertices keep theirs.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from .._jit.numba import jit
from .layout import _offsets_from_counts
from .pr_interp import dg_count, dg_point, flat_start, lerp

DG = 0
CONTINUOUS = 1


@jit
def _n_between(ta, tb, mode, tp_step):
    """Number of interpolated points strictly between vertices with TP ``ta`` and ``tb``."""
    dt = tb - ta
    if not dt > 0.0:
        return 0
    if mode == DG:
        return dg_count(ta, tb)[1] - 1  # the last Davis & Goadrich point is B itself
    k = int(math.ceil(dt / tp_step))
    return k - 1 if k > 1 else 0


@jit(parallel=True)
def _densify_batch(thr, tp, fp, offsets, tp_step, mode):
    """Insert interpolated points between consecutive vertices of every curve.

    ``thr``, ``tp``, ``fp`` are ragged by ``offsets`` (vertices in sweep order);
    ``tp_step`` (float64, one per curve) is the largest TP gap for ``CONTINUOUS``.
    Returns ``(thr, tp, fp, out_offsets)`` with the vertices and the new points in
    order; new points have threshold NaN.
    """
    n_curves = offsets.size - 1
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        k = b - a
        for i in range(a + 1, b):
            k += _n_between(tp[i - 1], tp[i], mode, tp_step[c])
        counts[c] = k
    out_offsets = _offsets_from_counts(counts)
    total = out_offsets[n_curves]
    othr = np.empty(total)
    otp = np.empty(total)
    ofp = np.empty(total)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        j = out_offsets[c]
        for i in range(a, b):
            if i > a:
                ta = tp[i - 1]
                fa = fp[i - 1]
                m = _n_between(ta, tp[i], mode, tp_step[c])
                skew = (fp[i] - fa) / (tp[i] - ta) if m > 0 else 0.0
                for x in range(1, m + 1):
                    othr[j] = np.nan
                    if mode == DG:
                        otp[j], ofp[j] = dg_point(
                            x, m + 1, ta, fa, tp[i], fp[i], skew
                        )  # x <= m: not B
                    else:
                        u = x / (m + 1.0)
                        otp[j] = lerp(ta, tp[i], u)
                        ofp[j] = lerp(fa, fp[i], u)
                    j += 1
            othr[j] = thr[i]
            otp[j] = tp[i]
            ofp[j] = fp[i]
            j += 1
    return othr, otp, ofp, out_offsets


@jit(parallel=True)
def _precision_flat_start(tp, fp, offsets):
    """Precision ``tp / (tp + fp)`` of ragged points, with the flat start at recall 0.

    Where ``tp + fp = 0`` (the origin, and zero-weight steps before the first counted
    row) precision is undefined; those points get the precision of the curve's first
    point with ``tp + fp > 0``, so the curve starts flat at recall 0 as the ``dg`` and
    ``integral`` areas assume (after a top block of negatives only, that is 0). NaN for
    a curve with no counted point at all.
    """
    n_curves = offsets.size - 1
    out = np.empty(tp.size)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        fill = flat_start(tp[a:b], fp[a:b])
        for i in range(a, b):
            d = tp[i] + fp[i]
            out[i] = tp[i] / d if d > 0.0 else fill
    return out
