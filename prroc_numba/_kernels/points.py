"""Packing of curves given as points: the one-pass check of many curves' points, their
class totals, and the copy between added ends.

Rows of curve ``c`` are ``[starts[c]:starts[c + 1]]``; counts ``tp``, ``fp`` (float64)
ordered by (TP, FP) within a curve, as :func:`prroc_numba.pr_curve` returns them. The
rules these kernels check are those of :mod:`prroc_numba._core.points`; they answer
with the status codes below, which :func:`prroc_numba._core.point_frames.pack_points`
turns into messages. A curve found complete is interpolated onto the grid in the same
pass (:func:`.grid._interp_one`).
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .grid import _interp_one

# Status codes of :func:`prroc_numba._drivers.grid._check_points` (the public layer turns
# them into messages).
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
