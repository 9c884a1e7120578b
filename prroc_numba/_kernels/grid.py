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
vertices, sweep order), run ``prange`` over curves and return a dense
``(n_curves, n_grid)`` float64 matrix; ``hull=True`` interpolates the upper ROC hull
(:func:`.hull._hull_indices`) instead, i.e. the achievable PR curve in PR space.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .hull import _hull_indices
from .pr_interp import flat_start, lerp, precision

# a product ``r * P`` is within 1 ulp of the real product and ``tp / P`` within 1 ulp
# of the real quotient, so ``tp < r P (1 - 4 eps)`` implies ``tp / P < r`` and
# ``tp > r P (1 + 4 eps)`` implies ``tp / P > r`` (both in floating point)
_BELOW = 1.0 - 4.0 * np.finfo(np.float64).eps
_ABOVE = 1.0 + 4.0 * np.finfo(np.float64).eps


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
        while tp[i] < t * _BELOW:
            i += 1
        while tp[i] / P < r:
            i += 1
        ti = tp[i]
        if ti <= t * _ABOVE and ti / P == r:
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
        while i < n - 1 and fp[i + 1] < xn * _BELOW:
            i += 1
        while i < n - 1 and fp[i + 1] / N <= x:
            i += 1
        if i == n - 1 or (fp[i] >= xn * _BELOW and fp[i] / N == x):
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
def _interp_batch_into(tp, fp, offsets, grid, hull, space_roc, out):
    """Fill ``out`` (float64 ``(n_curves, grid.size)``, C order): row ``c`` is curve
    ``c`` (``tp[offsets[c]:offsets[c + 1]]``) on ``grid``; ``prange`` over curves.
    """
    for c in prange(offsets.size - 1):
        a = offsets[c]
        b = offsets[c + 1]
        _interp_one(tp[a:b], fp[a:b], grid, out[c], space_roc, hull)


# The two wrappers below are plain Python on purpose: called from jitted code, the
# constant ``space_roc`` would be typed as a literal and compile ``_interp_batch_into``
# (and its callees) twice; from Python it is a runtime bool: one specialisation
# (tests/test_specialisations.py).


def _precision_at_recall_batch(tp, fp, offsets, grid, hull):
    """Precision at each recall of ``grid`` for every curve of a ragged batch.

    ``tp[offsets[c]:offsets[c + 1]]`` (and ``fp``) are curve ``c``'s vertices in sweep
    order. Returns float64 ``(n_curves, grid.size)``.
    """
    out = np.empty((offsets.size - 1, grid.size))
    _interp_batch_into(tp, fp, offsets, grid, bool(hull), False, out)
    return out


def _tpr_at_fpr_batch(tp, fp, offsets, grid, hull):
    """TPR at each FPR of ``grid`` for every curve of a ragged batch (see the PR twin)."""
    out = np.empty((offsets.size - 1, grid.size))
    _interp_batch_into(tp, fp, offsets, grid, bool(hull), True, out)
    return out


# ------------------------------------------------------------- packing curves of points
# Status codes of :func:`_check_points` (the public layer turns them into messages).
OK = 0
BAD_TP = 1  # NaN, infinite or negative TP
BAD_FP = 2  # NaN, infinite or negative FP
TP_OVER = 3  # TP above the curve's P
FP_OVER = 4  # FP above the curve's N (beyond the tolerance)
NOT_MONOTONE = 5  # FP decreases as TP grows (beyond the tolerance)
TOTALS_VARY = 6  # per-row class totals differ within a curve
P_UNKNOWN = 7  # no row with recall > 0 (and positives present): P cannot be read
N_UNKNOWN = 8  # no row with fpr > 0 (and negatives present): N cannot be read
P_DISAGREE = 9  # tp / recall differs between rows of a curve
N_DISAGREE = 10  # fp / fpr differs between rows of a curve
#: relative tolerance for class totals read from rates (tp / recall, fp / fpr)
RATE_TOL = 1e-6


@jit
def _is_sorted(codes, tp, fp):
    """True when rows are ordered by (curve code, TP, FP) already (no sort needed)."""
    for i in range(1, codes.size):
        if codes[i] < codes[i - 1]:
            return False
        if codes[i] == codes[i - 1] and (
            tp[i] < tp[i - 1] or (tp[i] == tp[i - 1] and fp[i] < fp[i - 1])
        ):
            return False
    return True


@jit
def _total_from_rate(a, b, count, rate):
    """A curve's class total ``count / rate`` from its rows ``[a:b)``, read at the row of
    the largest rate; every row of rate > 0 must agree (``RATE_TOL``). Returns
    ``(total, bad_row)``: ``bad_row`` -1 when fine, ``-2`` when no row has a rate > 0
    and the class is present (counts > 0 or rates not NaN), else the disagreeing row.
    A class that is absent (every count 0, every rate NaN = 0/0) has total 0.
    """
    best = -1.0
    total = 0.0
    absent = True
    for i in range(a, b):
        r = rate[i]
        if count[i] != 0.0 or not np.isnan(r):
            absent = False
        if r > 0.0 and r > best:
            best = r
            total = count[i] / r
    if best < 0.0:
        return 0.0, -1 if absent else -2
    for i in range(a, b):
        r = rate[i]
        if r > 0.0 and abs(count[i] / r - total) > RATE_TOL * total:
            return total, i
    return total, -1


@jit
def _check_curve(a, b, tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, c):
    """Check rows ``[a:b)`` of curve ``c``; set ``P[c]``, ``N[c]``.

    Returns ``(status, row, complete)`` (see :func:`_check_points`).
    """
    for i in range(a, b):
        if not (tp[i] >= 0.0 and tp[i] < np.inf):
            return BAD_TP, i, False
        if not (fp[i] >= 0.0 and fp[i] < np.inf):
            return BAD_FP, i, False
    if P_row.size > 0:
        Pc = P_row[a]
        Nc = N_row[a]
        for i in range(a + 1, b):
            if P_row[i] != Pc or N_row[i] != Nc:
                return TOTALS_VARY, i, False
    else:
        Pc = 0.0
        Nc = 0.0
        for i in range(a, b):
            Pc = max(Pc, tp[i])
            Nc = max(Nc, fp[i])
        if p_rate.size > 0:
            Pc, bad = _total_from_rate(a, b, tp, p_rate)
            if bad == -2:
                return P_UNKNOWN, a, False
            if bad >= 0:
                return P_DISAGREE, bad, False
        if n_rate.size > 0:
            Nc, bad = _total_from_rate(a, b, fp, n_rate)
            if bad == -2:
                return N_UNKNOWN, a, False
            if bad >= 0:
                return N_DISAGREE, bad, False
    P[c] = Pc
    N[c] = Nc
    complete = tp[a] == 0.0 and fp[a] == 0.0 and tp[b - 1] == Pc and fp[b - 1] == Nc
    for i in range(a, b):
        if tp[i] > Pc:
            if tp[i] > Pc * (1.0 + tol):
                return TP_OVER, i, False
            complete = False
        if fp[i] > Nc:
            if fp[i] > Nc * (1.0 + tol):
                return FP_OVER, i, False
            complete = False
        if i > a and fp[i] < fp[i - 1]:
            if fp[i] < fp[i - 1] - tol * Nc:
                return NOT_MONOTONE, i, False
            complete = False
    return OK, -1, complete


@jit(parallel=True)
def _check_points(starts, tp, fp, P_row, N_row, p_rate, n_rate, tol):
    """Validate sorted points of many curves and find each curve's totals.

    Rows of curve ``c`` are ``[starts[c]:starts[c + 1]]`` (non-empty), ordered by
    (TP, FP). ``P_row``/``N_row``: per-row class totals, or empty arrays to read them
    from the rates ``p_rate`` (recall or TPR: ``P = tp / rate``) and ``n_rate`` (FPR)
    where given (non-empty), else to take each curve's largest TP and FP.
    Returns ``(status, row, P, N, complete)``: the problem
    of the first curve that has one (a status code above and the sorted row it
    concerns; for ``NOT_MONOTONE`` the later of the two rows), and whether every curve
    already starts at the origin, ends at ``(P, N)`` and needs no rounding fix (then
    the input can be used as it is).
    """
    n_curves = starts.size - 1
    P = np.empty(n_curves)
    N = np.empty(n_curves)
    st = np.empty(n_curves, dtype=np.int64)
    rows = np.empty(n_curves, dtype=np.int64)
    comp = np.empty(n_curves, dtype=np.bool_)
    for c in prange(n_curves):
        # np.int64: the prange index is typed differently in the parallel body
        s, r, k = _check_curve(
            starts[c], starts[c + 1], tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, np.int64(c)
        )
        st[c] = s
        rows[c] = r
        comp[c] = k
    complete = True
    for c in range(n_curves):
        if st[c] != OK:
            return st[c], rows[c], P, N, False
        complete = complete and comp[c]
    return OK, -1, P, N, complete


@jit
def _with_ends_batch(starts, tp, fp, P, N):
    """Copy sorted, checked points curve by curve between an added origin and end.

    Counts are clipped to ``(P, N)`` and FP made non-decreasing (rounding within the
    tolerance of :func:`_check_points`). Returns ``(tp, fp, offsets)`` in the ragged
    layout of the grid kernels; each curve gets two more vertices than it had rows.
    """
    n_curves = starts.size - 1
    offsets = np.empty(n_curves + 1, dtype=np.int64)
    offsets[0] = 0
    for c in range(n_curves):
        offsets[c + 1] = offsets[c] + (starts[c + 1] - starts[c]) + 2
    T = np.empty(offsets[n_curves])
    F = np.empty(offsets[n_curves])
    for c in range(n_curves):
        u = offsets[c]
        T[u] = 0.0
        F[u] = 0.0
        prev = 0.0
        j = u + 1
        for i in range(starts[c], starts[c + 1]):
            t = min(tp[i], P[c])
            f = max(min(fp[i], N[c]), prev)
            T[j] = t
            F[j] = f
            prev = f
            j += 1
        T[j] = P[c]
        F[j] = N[c]
    return T, F, offsets
