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

from .._numba import jit
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


# ------------------------------------------------------------- packing curves of points
# Status codes of :func:`prroc_numba._drivers.grid._check_points` (the public layer turns them into
# messages).
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
NOT_SORTED = 11  # rows of a curve not ordered by (TP, FP): the caller sorts, checks again
#: relative tolerance for class totals read from rates (tp / recall, fp / fpr)
RATE_TOL = 1e-6


#: kinds of :func:`_total_from_rate`'s answer (the caller names the class)
_RATE_UNKNOWN = 1
_RATE_DISAGREE = 2


@jit
def _total_from_rate(a, b, count, rate):
    """A curve's class total ``count / rate`` from its rows ``[a:b)``, read at the row of
    the largest rate; every row of rate > 0 must agree (``RATE_TOL``). Returns
    ``(total, kind, row)``: ``OK, -1`` when fine; ``_RATE_UNKNOWN, a`` when no row has a
    rate > 0 and the class is present (counts > 0 or rates not NaN);
    ``_RATE_DISAGREE`` and the first disagreeing row. A class that is absent (every
    count 0, every rate NaN = 0/0) has total 0. The status codes are not arguments:
    constants passed from jitted code are typed as literals, one compilation each.
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
        return 0.0, OK if absent else _RATE_UNKNOWN, -1 if absent else a
    for i in range(a, b):
        r = rate[i]
        if r > 0.0 and abs(count[i] / r - total) > RATE_TOL * total:
            return total, _RATE_DISAGREE, i
    return total, OK, -1


@jit
def _check_curve(a, b, tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, c):
    """Check rows ``[a:b)`` of curve ``c`` (sorted), reporting the first problem; set
    ``P[c]``, ``N[c]``. The exact, several-pass reference of :func:`_check_one`, run
    where its one pass finds anything unusual.

    Returns ``(status, row, complete)`` (see :func:`prroc_numba._drivers.grid._check_points`).
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
            Pc, kind, row = _total_from_rate(a, b, tp, p_rate)
            if kind != OK:
                return P_UNKNOWN if kind == _RATE_UNKNOWN else P_DISAGREE, row, False
        if n_rate.size > 0:
            Nc, kind, row = _total_from_rate(a, b, fp, n_rate)
            if kind != OK:
                return N_UNKNOWN if kind == _RATE_UNKNOWN else N_DISAGREE, row, False
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


#: the margins ``h`` of :func:`_rate_usual` are kept within these bounds, so every
#: product there is a normal number (no underflow, no overflow) and its error bounds hold
_TINY = 1e-290
_HUGE = 1e290


@jit
def _counts_usual(a, b, tp, fp):
    """True when rows ``[a:b)`` have finite counts, ``tp`` and ``fp`` both
    non-decreasing from 0 (so ordered by (TP, FP), each largest at the last row): the
    usual curve. Branch-free, one read of each.
    """
    usual = True
    tprev = 0.0
    fprev = 0.0
    # indices from 0: no negative-index select, so the loop vectorizes with plain loads
    # on every CPU (without it only CPUs with gathers, AVX2 on, vectorize it)
    ts = tp[a:b]
    fs = fp[a:b]
    for i in range(ts.size):
        t = ts[i]
        f = fs[i]
        usual &= (t >= tprev) & (f >= fprev)
        tprev = t
        fprev = f
    # non-decreasing from 0 (NaN fails every comparison), so finite when the last is
    return usual & (tprev < np.inf) & (fprev < np.inf)


@jit
def _in_order(a, b, tp, fp):
    """True when rows ``[a:b)`` are ordered by (TP, FP) (NaN never breaks the order)."""
    for i in range(a + 1, b):
        if tp[i] < tp[i - 1] or (tp[i] == tp[i - 1] and fp[i] < fp[i - 1]):
            return False
    return True


@jit
def _rate_usual(a, b, count, rate):
    """``(total, usual)``: the class total that :func:`_total_from_rate` reads from
    rows ``[a:b)``, and True when it would accept them -- proven without a division per
    row, for the usual rows only: rates non-decreasing (the largest first reached in
    the last run of equal rates) and every ``count`` within half the tolerance of
    ``rate * total`` (then ``|count / rate - total|`` is within the tolerance whatever
    the rounding: the margin is ~1e9 ulps). False: the exact pass decides.
    """
    ib = b - 1
    best = rate[ib]
    while ib > a and rate[ib - 1] == best:
        ib -= 1
    total = count[ib] / best
    half = 0.5 * (RATE_TOL * total)
    usual = (best > 0.0) & (total < np.inf)
    # rates non-decreasing: rows of rate <= 0 come first (nothing to check there but the
    # order), then rows of rate > 0, whose margins grow with the rate: the first and the
    # last bound them all
    k = a
    rprev = -np.inf
    while k < b and not (rate[k] > 0.0):
        usual &= rate[k] >= rprev
        rprev = rate[k]
        k += 1
    if k < b:
        usual &= (half * rate[k] >= _TINY) & (half * rate[b - 1] <= _HUGE)
    cs = count[k:b]  # indices from 0 (see _counts_usual)
    rs = rate[k:b]
    for i in range(rs.size):
        r = rs[i]
        usual &= (r >= rprev) & (np.abs(cs[i] - r * total) <= half * r)
        rprev = r
    return total, usual


@jit
def _rows_usual(a, b, P_row, N_row):
    """True when the per-row class totals of rows ``[a:b)`` are constant."""
    usual = True
    for i in range(a, b):
        usual &= (P_row[i] == P_row[a]) & (N_row[i] == N_row[a])
    return usual


@jit
def _check_one(a, b, tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, c):
    """Check rows ``[a:b)`` of curve ``c`` with one read of ``tp``, ``fp`` and each rate
    when the curve is usual (finite counts, TP and FP non-decreasing, constant or
    agreeing totals, no count above them): then set ``P[c]``, ``N[c]``, return ``(OK,
    -1, complete)``. Otherwise ``NOT_SORTED`` when the rows are not ordered by (TP,
    FP), else :func:`_check_curve` (the exact passes) reports the first problem.
    """
    usual = _counts_usual(a, b, tp, fp)
    Pc = tp[b - 1]  # the largest TP and FP when usual
    Nc = fp[b - 1]
    if usual and P_row.size > 0:
        usual = _rows_usual(a, b, P_row, N_row)
        Pc = P_row[a]
        Nc = N_row[a]
    else:
        if usual and p_rate.size > 0:
            Pc, usual = _rate_usual(a, b, tp, p_rate)
        if usual and n_rate.size > 0:
            Nc, usual = _rate_usual(a, b, fp, n_rate)
    if not (usual and tp[b - 1] <= Pc and fp[b - 1] <= Nc):
        if not _in_order(a, b, tp, fp):
            return NOT_SORTED, a, False
        return _check_curve(a, b, tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, c)
    P[c] = Pc
    N[c] = Nc
    complete = tp[a] == 0.0 and fp[a] == 0.0 and tp[b - 1] == Pc and fp[b - 1] == Nc
    return OK, -1, complete


@jit
def _check_curves(
    starts,
    tp,
    fp,
    P_row,
    N_row,
    p_rate,
    n_rate,
    tol,
    grid,
    hull,
    space_roc,
    out,
    P,
    N,
    st,
    rows,
    comp,
    c0,
    c1,
):
    """:func:`_check_one` on curves ``c0 .. c1 - 1`` (a chunk of the thread pool); a
    curve found complete is interpolated onto ``grid`` into ``out[c]`` right away, while
    its rows are in the cache (``out`` of 0 rows: no interpolation).
    """
    for c in range(c0, c1):
        a = starts[c]
        b = starts[c + 1]
        s, r, k = _check_one(a, b, tp, fp, P_row, N_row, p_rate, n_rate, tol, P, N, c)
        st[c] = s
        rows[c] = r
        comp[c] = k
        if k and out.shape[0] > 0:
            _interp_one(tp[a:b], fp[a:b], grid, out[c], space_roc, hull)


@jit
def _with_ends_batch(starts, tp, fp, P, N):
    """Copy sorted, checked points curve by curve between an added origin and end.

    Counts are clipped to ``(P, N)`` and FP made non-decreasing (rounding within the
    tolerance of :func:`prroc_numba._drivers.grid._check_points`). Returns ``(tp, fp, offsets)`` in
    the ragged
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
