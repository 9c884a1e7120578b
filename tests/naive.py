"""Slow, obviously-correct references. Loops on purpose: clarity over speed.

Every function here takes one curve as plain arrays (scores, positive mass, negative
mass) and follows the definitions literally, so the fast kernels can be checked
against them on random input.
"""

from __future__ import annotations

import math

import numpy as np


def sweep(score, pos, neg):
    """(thresholds, tp, fp): origin first, then each distinct score descending.

    tp(t) = sum of pos over rows with score >= t (the definition, one threshold at a
    time: O(n * distinct)). Rows with no mass (weight 0) add no threshold.
    """
    thresholds = sorted(
        set(float(s) for s, p, q in zip(score, pos, neg) if p + q > 0), reverse=True
    )
    thr, tp, fp = [math.inf], [0.0], [0.0]
    for t in thresholds:
        thr.append(t)
        tp.append(sum(float(p) for s, p in zip(score, pos) if s >= t))
        fp.append(sum(float(q) for s, q in zip(score, neg) if s >= t))
    return np.array(thr), np.array(tp), np.array(fp)


def roc_auc_pairs(score, pos, neg):
    """ROC AUC as the weighted Mann-Whitney statistic over all (positive, negative) pairs:
    P(score_pos > score_neg) + 0.5 P(tie)."""
    num = 0.0
    for si, pi in zip(score, pos):
        if pi == 0:
            continue
        for sj, nj in zip(score, neg):
            if nj == 0:
                continue
            num += pi * nj * (1.0 if si > sj else 0.5 if si == sj else 0.0)
    P, N = float(np.sum(pos)), float(np.sum(neg))
    return num / (P * N)


def average_precision(tp, fp):
    """sum over thresholds of (recall step) x (precision at that threshold)."""
    P = tp[-1]
    total = 0.0
    for i in range(1, len(tp)):
        if tp[i] > tp[i - 1]:
            total += (tp[i] - tp[i - 1]) / P * tp[i] / (tp[i] + fp[i])
    return total


def pr_integral_numeric(tp, fp, steps=2000):
    """Area under the count-interpolated PR curve by midpoint integration of each
    segment (FP linear in TP between vertices, precision = TP / (TP + FP))."""
    P = tp[-1]
    area = 0.0
    for i in range(1, len(tp)):
        ta, tb, fa, fb = tp[i - 1], tp[i], fp[i - 1], fp[i]
        if tb <= ta:
            continue
        h = (tb - ta) / steps
        for k in range(steps):
            t = ta + (k + 0.5) * h
            f = fa + (fb - fa) * (t - ta) / (tb - ta)
            area += h * t / (t + f)
    return area / P


def upper_hull(tp, fp):
    """Indices of the upper ROC hull by brute force: a point is a vertex iff it is not
    on or below any chord between two other points that straddle it (or equal to
    another point), plus the two end points. Of duplicated points the first copy is
    kept, except for the end point (N, P), which is the last index. O(n^3)."""
    pts = list(zip(fp, tp))
    n = len(pts)
    keep = []
    for k in range(n):
        xk, yk = pts[k]
        if k in (0, n - 1):
            keep.append(k)
            continue
        if pts[k] == pts[n - 1]:
            continue  # a copy of the end point: the end vertex is the last index
        dominated = False
        for i in range(n):
            for j in range(n):
                if i == k or j == k:
                    continue
                xi, yi = pts[i]
                xj, yj = pts[j]
                if (xi, yi) == (xk, yk) or (xj, yj) == (xk, yk):
                    # a duplicate of k: keep the first copy only, never use it as a chord
                    if i < k and (xi, yi) == (xk, yk):
                        dominated = True
                        break
                    continue
                if xi <= xk <= xj and xi < xj:
                    y_on = yi + (yj - yi) * (xk - xi) / (xj - xi)
                    if yk <= y_on:
                        dominated = True
                elif xi == xk == xj and yi < yk < yj:
                    dominated = True
                if dominated:
                    break
            if dominated:
                break
        if not dominated:
            keep.append(k)
    return np.array(keep)


# ------------------------------------------------------------------ issue 3: hull, DG,
# thresholds (references for tests/test_hull.py, test_interpolate_dg.py, test_thresholds.py)


def counts_at(score, pos, neg, thresholds):
    """(tp, fp) at each threshold, by the definition: mass of rows with score >= t."""
    tp = [sum(float(p) for s, p in zip(score, pos) if s >= t) for t in thresholds]
    fp = [sum(float(q) for s, q in zip(score, neg) if s >= t) for t in thresholds]
    return np.array(tp), np.array(fp)


def dg_points(tp, fp):
    """The paper's interpolated points (section 4) through vertices with integer TP:
    every vertex, and between A and B the points TP_A + x for x = 1 .. TP_B - TP_A - 1
    with FP_A + x (FP_B - FP_A) / (TP_B - TP_A). Returns (tp, fp) arrays."""
    out_t, out_f = [tp[0]], [fp[0]]
    for i in range(1, len(tp)):
        ta, tb, fa, fb = tp[i - 1], tp[i], fp[i - 1], fp[i]
        steps = int(round(tb - ta))
        for x in range(1, steps):
            out_t.append(ta + x)
            out_f.append(fa + (fb - fa) / (tb - ta) * x)
        out_t.append(tb)
        out_f.append(fb)
    return np.array(out_t, dtype=float), np.array(out_f, dtype=float)


def flat_start_precision(tp, fp):
    """Precision of each point; where tp + fp = 0 the first defined precision after it
    (the curve starts flat at recall 0)."""
    prec = [t / (t + f) if t + f > 0 else None for t, f in zip(tp, fp)]
    first = next((p for p in prec if p is not None), float("nan"))
    return np.array([first if p is None else p for p in prec])


def trapezoid_pr(tp, fp):
    """Trapezoids in PR space through the points, flat start at recall 0."""
    P = tp[-1]
    prec = flat_start_precision(tp, fp)
    area = 0.0
    for i in range(1, len(tp)):
        area += (tp[i] - tp[i - 1]) / P * (prec[i] + prec[i - 1]) / 2
    return area


def polyline_range(x, y, q):
    """(lowest, highest) y of the polyline through the points (x[i], y[i]) (x
    non-decreasing, joined in order) at x = q: the values at q if points lie there,
    otherwise the one value on the segment that crosses q."""
    at = [y[i] for i in range(len(x)) if x[i] == q]
    if at:
        return min(at), max(at)
    for i in range(1, len(x)):
        if x[i - 1] < q < x[i]:
            v = y[i - 1] + (y[i] - y[i - 1]) * (q - x[i - 1]) / (x[i] - x[i - 1])
            return v, v
    raise ValueError(f"{q} is outside the polyline")


# --- issue 4: grid interpolation
# Per grid value: scan every vertex pair, no pointer walk, no shared code with
# prroc_numba/_kernels/grid.py. Same documented conventions (see that module).


def precision_at_recall(tp, fp, grid):
    """Precision of the count-interpolated curve at each recall in ``grid``.

    Recall 0: the limit from the right (the first segment that gains positives,
    evaluated at a vanishing TP). Recall r > 0: among vertices with tp / P == r the
    lowest FP; otherwise the segment with tp_a / P < r < tp_b / P, FP linear in TP.
    """
    tp = [float(v) for v in tp]
    fp = [float(v) for v in fp]
    P = tp[-1]
    out = []
    for r in grid:
        r = float(r)
        if P <= 0 or r < 0 or r > 1:
            out.append(math.nan)
            continue
        if r == 0:
            for a in range(len(tp) - 1):
                if tp[a + 1] > tp[a]:
                    # segment a -> a+1 is the first to gain positives (tp[a] == 0).
                    # From the origin, FP = skew * TP, so precision is constant;
                    # from (0, FP > 0) precision tends to 0 as TP -> 0.
                    if fp[a] > 0:
                        out.append(0.0)
                    else:
                        out.append(tp[a + 1] / (tp[a + 1] + fp[a + 1]))
                    break
            continue
        exact = [i for i in range(len(tp)) if tp[i] / P == r]
        if exact:
            t = tp[exact[0]]
            out.append(t / (t + min(fp[i] for i in exact)))
            continue
        for a in range(len(tp) - 1):
            if tp[a] / P < r < tp[a + 1] / P:
                t = r * P
                f = fp[a] + (fp[a + 1] - fp[a]) * (t - tp[a]) / (tp[a + 1] - tp[a])
                out.append(t / (t + f))
                break
    return np.array(out)


def tpr_at_fpr(tp, fp, grid):
    """TPR, linear in FPR, at each FPR in ``grid``; at an FPR shared by several vertices
    the highest TPR."""
    tp = [float(v) for v in tp]
    fp = [float(v) for v in fp]
    P, N = tp[-1], fp[-1]
    out = []
    for x in grid:
        x = float(x)
        if P <= 0 or N <= 0 or x < 0 or x > 1:
            out.append(math.nan)
            continue
        exact = [tp[i] for i in range(len(tp)) if fp[i] / N == x]
        if exact:
            out.append(max(exact) / P)
            continue
        for a in range(len(tp) - 1):
            if fp[a] / N < x < fp[a + 1] / N:
                t = tp[a] + (tp[a + 1] - tp[a]) * (x * N - fp[a]) / (fp[a + 1] - fp[a])
                out.append(t / P)
                break
    return np.array(out)


def fpr_at_tpr(tp, fp, grid):
    """FPR, linear in TPR, at each TPR in ``grid``; at a TPR shared by several vertices
    the lowest FPR."""
    tp = [float(v) for v in tp]
    fp = [float(v) for v in fp]
    P, N = tp[-1], fp[-1]
    out = []
    for x in grid:
        x = float(x)
        if P <= 0 or N <= 0 or x < 0 or x > 1:
            out.append(math.nan)
            continue
        exact = [fp[i] for i in range(len(tp)) if tp[i] / P == x]
        if exact:
            out.append(min(exact) / N)
            continue
        for a in range(len(tp) - 1):
            if tp[a] / P < x < tp[a + 1] / P:
                f = fp[a] + (fp[a + 1] - fp[a]) * (x * P - tp[a]) / (tp[a + 1] - tp[a])
                out.append(f / N)
                break
    return np.array(out)


def sup_t_band(reps, est, level):
    """Sup-t simultaneous band of one curve on the arcsine-square-root scale, by its
    definition: ``reps`` is (replicates, grid points); z = asin(sqrt(v)); se_j the
    sample sd of column j of z; t_b the largest |z[b, j] - z_est[j]| / se_j over
    columns with se_j > 0; c the ``level`` quantile (numpy's linear) of t_b; band
    sin(z_est -+ c se)^2 with the angle kept in [0, pi/2]; the estimate where se_j = 0."""
    reps = np.asarray(reps, dtype=float)
    B, G = reps.shape
    z = [[math.asin(math.sqrt(reps[b, j])) for j in range(G)] for b in range(B)]
    ze = [math.asin(math.sqrt(e)) for e in est]
    se = [float(np.std([z[b][j] for b in range(B)], ddof=1)) for j in range(G)]
    t = []
    for b in range(B):
        t.append(max(abs(z[b][j] - ze[j]) / se[j] for j in range(G) if se[j] > 0))
    c = float(np.quantile(t, level))
    lo, hi = [], []
    for j in range(G):
        if se[j] > 0:
            lo.append(math.sin(min(max(ze[j] - c * se[j], 0.0), math.pi / 2)) ** 2)
            hi.append(math.sin(min(max(ze[j] + c * se[j], 0.0), math.pi / 2)) ** 2)
        else:
            lo.append(est[j])
            hi.append(est[j])
    return np.array(lo), np.array(hi)


# --- issue 5: bootstrap / DeLong


def materialise(score, pos, neg, cnt):
    """The resampled data set that a count vector stands for: row ``r`` repeated
    ``cnt[r]`` times (scores, positive mass, negative mass)."""
    k = np.asarray(cnt).astype(np.int64)
    return np.repeat(score, k), np.repeat(pos, k), np.repeat(neg, k)


def delong_placements(score, y):
    """DeLong's placement values by definition, O(m * n):
    V10[i] = mean over negatives j of psi(x_i, y_j), V01[j] = mean over positives i,
    with psi = 1 if x > y, 1/2 if tied, 0 otherwise."""
    xs = [s for s, t in zip(score, y) if t == 1]
    ys = [s for s, t in zip(score, y) if t == 0]

    def psi(a, b):
        return 1.0 if a > b else 0.5 if a == b else 0.0

    v10 = np.array([sum(psi(a, b) for b in ys) / len(ys) for a in xs])
    v01 = np.array([sum(psi(a, b) for a in xs) / len(xs) for b in ys])
    return v10, v01


def delong_cov(score1, score2, y):
    """(auc1, auc2, var1, var2, cov) of two paired ROC AUCs (DeLong 1988, pROC's
    estimator: sample covariances with n - 1)."""
    a10, a01 = delong_placements(score1, y)
    b10, b01 = delong_placements(score2, y)
    m, n = len(a10), len(a01)

    def cov(u, v):
        return float(np.sum((u - u.mean()) * (v - v.mean())) / (len(u) - 1))

    return (
        float(a10.mean()),
        float(b10.mean()),
        cov(a10, a10) / m + cov(a01, a01) / n,
        cov(b10, b10) / m + cov(b01, b01) / n,
        cov(a10, b10) / m + cov(a01, b01) / n,
    )


def jackknife_acceleration(values):
    """BCa acceleration from delete-one jackknife values (Efron 1987, eq. 6.6)."""
    t = np.asarray(values, dtype=float)
    d = t.mean() - t
    return float(np.sum(d**3) / (6.0 * np.sum(d**2) ** 1.5))


def precision_on_recall_grid(tp, fp, grid):
    """Precision of the count-interpolated PR curve at each recall of ``grid``, by the
    definition: at recall r (t = r P), the first vertex with exactly that recall, else
    the point between the two vertices around t with FP linear in TP; at recall 0 the
    precision of the first vertex with a positive, or 0 when the curve leaves the origin
    along negatives."""
    P = tp[-1]
    out = []
    for r in grid:
        if r == 0:
            j = next(i for i in range(len(tp)) if tp[i] > 0)
            out.append(0.0 if fp[j - 1] > 0 else tp[j] / (tp[j] + fp[j]))
            continue
        hit = [i for i in range(len(tp)) if tp[i] / P == r]
        if hit:
            i = hit[0]
            out.append(tp[i] / (tp[i] + fp[i]))
            continue
        b = next(i for i in range(len(tp)) if tp[i] / P > r)
        a = b - 1
        t = r * P
        f = fp[a] + (t - tp[a]) * (fp[b] - fp[a]) / (tp[b] - tp[a])
        out.append(t / (t + f))
    return np.array(out)


# --- issue 11: operating points, partial areas


def operating_point(score, pos, neg, target, beta=1.0):
    """Brute force over every distinct score (the origin excluded): ``(threshold, tp,
    fp)`` of the threshold that meets ``target`` best, or None.

    Counts by definition at each threshold (score >= t); every candidate gets the key
    (primary, secondary, threshold), larger is better, and the maximum wins -- so ties
    go to the secondary metric and then to the higher threshold.
    """
    P, N = float(np.sum(pos)), float(np.sum(neg))
    if P <= 0:
        return None
    b2 = beta * beta
    cands = []
    for t in sorted({float(s) for s, p, q in zip(score, pos, neg) if p + q > 0}):
        tp = sum(float(p) for s, p in zip(score, pos) if s >= t)
        fp = sum(float(q) for s, q in zip(score, neg) if s >= t)
        rec = tp / P
        prec = tp / (tp + fp)
        fpr = fp / N if N > 0 else math.nan
        f = (1 + b2) * tp / ((1 + b2) * tp + b2 * (P - tp) + fp)
        if target == "max_f1":
            key = (f, 0.0)
        elif target == "youden":
            key = (rec - fpr, 0.0)
        elif target == "closest_topleft":
            key = (-(fpr * fpr + (1 - rec) * (1 - rec)), 0.0)
        else:
            name, x = (target.split(">=") + [None])[:2] if ">=" in target else target.split("<=")
            x = float(x)
            ok = {"precision": prec >= x, "recall": rec >= x, "tpr": rec >= x, "fpr": fpr <= x}[
                name
            ]
            if not ok:
                continue
            key = {
                "precision": (rec, prec),
                "recall": (prec, rec),
                "fpr": (rec, -fpr),
                "tpr": (-fpr, rec),
            }[name]
        if any(math.isnan(k) for k in key):
            continue
        cands.append((key[0], key[1], t, tp, fp))
    if not cands:
        return None
    best = max(cands)
    return best[2], best[3], best[4]


def pr_partial_numeric(tp, fp, lo, hi, steps=4000):
    """Area under the count-interpolated PR curve over recall [lo, hi], by midpoint
    integration of each segment's part inside the range (FP linear in TP between
    vertices, precision = TP / (TP + FP))."""
    P = tp[-1]
    L, H = lo * P, hi * P
    area = 0.0
    for i in range(1, len(tp)):
        ta, tb, fa, fb = tp[i - 1], tp[i], fp[i - 1], fp[i]
        a, b = max(ta, L), min(tb, H)
        if tb <= ta or b <= a:
            continue
        h = (b - a) / steps
        for k in range(steps):
            t = a + (k + 0.5) * h
            f = fa + (fb - fa) * (t - ta) / (tb - ta)
            area += h * t / (t + f)
    return area / P


def _count_precision_at(tp, fp, t):
    """Precision of the count-interpolated curve at TP t (the segment ending at t or
    running through it); at t = 0 the first defined precision (flat start)."""
    if t == 0:
        return flat_start_precision(tp, fp)[0]
    for i in range(1, len(tp)):
        if tp[i - 1] < t <= tp[i]:
            f = fp[i - 1] + (fp[i] - fp[i - 1]) * (t - tp[i - 1]) / (tp[i] - tp[i - 1])
            return t / (t + f)
    raise ValueError(t)


def dg_partial(tp, fp, lo, hi):
    """The DG curve over recall [lo, hi]: the paper's points, plus the two ends valued
    exactly in counts, joined by trapezoids (integer TP only)."""
    P = tp[-1]
    L, H = lo * P, hi * P
    t, f = dg_points(tp, fp)
    p = list(flat_start_precision(t, f))
    t = list(t)
    j = int(np.searchsorted(t, L, side="left"))
    t.insert(j, L)
    p.insert(j, _count_precision_at(tp, fp, L))
    j = int(np.searchsorted(t, H, side="right"))
    t.insert(j, H)
    p.insert(j, _count_precision_at(tp, fp, H))
    area = 0.0
    for k in range(1, len(t)):
        if L <= t[k - 1] and t[k] <= H:
            area += (t[k] - t[k - 1]) * (p[k] + p[k - 1]) / 2
    return area / P


def ap_partial(tp, fp, lo, hi):
    """The step curve (precision of vertex i over its recall step) over [lo, hi]."""
    P = tp[-1]
    area = 0.0
    for i in range(1, len(tp)):
        a, b = max(tp[i - 1] / P, lo), min(tp[i] / P, hi)
        if b > a:
            area += (b - a) * tp[i] / (tp[i] + fp[i])
    return area


def pr_trapezoid_partial(tp, fp, lo, hi):
    """Straight lines in PR space from (0, 1) through the vertices, over [lo, hi]
    (midpoint rule on each clipped segment: exact for a straight line)."""
    P = tp[-1]
    area, prev = 0.0, 1.0
    for i in range(1, len(tp)):
        p = tp[i] / (tp[i] + fp[i])
        ra, rb = tp[i - 1] / P, tp[i] / P
        a, b = max(ra, lo), min(rb, hi)
        if rb > ra and b > a:
            m = 0.5 * (a + b)
            area += (b - a) * (prev + (p - prev) * (m - ra) / (rb - ra))
        prev = p
    return area


def polyline_partial_numeric(x, y, lo, hi, steps=200000):
    """Area under the polyline (x non-decreasing) over [lo, hi] by the midpoint rule
    on a fine uniform grid (np.interp between the points; between two distinct x it
    uses the last point of a vertical step on the left and the first on the right)."""
    h = (hi - lo) / steps
    mid = lo + (np.arange(steps) + 0.5) * h
    return float(np.sum(np.interp(mid, np.asarray(x), np.asarray(y))) * h)


def poisson_counts(seed, replicate, n_rows):
    """Poisson(1) count of rows ``0 .. n_rows-1`` in ``replicate``: the documented stream
    (:mod:`prroc_numba._kernels.poisson`'s plain functions), one row at a time."""
    from prroc_numba._kernels.poisson import poisson_count, replicate_key

    with np.errstate(over="ignore"):  # uint64 arithmetic wraps by design
        key = replicate_key(seed, replicate)
        return np.array([poisson_count(key, r) for r in range(n_rows)], dtype=np.float64)


def dg_area(tp, fp):
    """PRROC's Davis-Goadrich AUC-PR: the paper's integer-TP points, trapezoids, flat
    start at recall 0."""
    return trapezoid_pr(*dg_points(tp, fp))


def prg_points(score, pos, neg):
    """[(recall_gain, precision_gain, tp, fp)] of every sweep point with TP > 0, from
    the definitions rg = (rec - pi) / ((1 - pi) rec), pg = (prec - pi) / ((1 - pi) prec).
    """
    _, tp, fp = sweep(score, pos, neg)
    P, N = float(sum(pos)), float(sum(neg))
    pi = P / (P + N)
    out = []
    for t, f in zip(tp, fp):
        if t <= 0:
            continue
        rec, prec = t / P, t / (t + f)
        out.append(((rec - pi) / ((1 - pi) * rec), (prec - pi) / ((1 - pi) * prec), t, f))
    return out


def auprg(score, pos, neg):
    """Area under the PRG curve for recall gain >= 0 (Flach & Kull 2015, section 4).

    The crossing of recall gain 0 is found in count space, where TP and FP grow
    linearly between two sweep points (TP = P^2 / (P + N) there), then the PRG points
    are joined by straight lines (trapezoids).
    """
    _, tp, fp = sweep(score, pos, neg)
    return auprg_counts(tp, fp, float(sum(pos)), float(sum(neg)))


def auprg_counts(tp, fp, P, N):
    """:func:`auprg` of a curve given as its points' counts (origin first)."""

    def gains(t, f):
        return 1 - (P / N) * ((P - t) / t), 1 - (P / N) * (f / t)

    area = 0.0
    prev = None  # (rg, pg) of the previous point inside the square's x-range
    for i in range(1, len(tp)):
        if tp[i] <= 0:
            continue
        rg, pg = gains(tp[i], fp[i])
        if rg < 0:
            continue
        if prev is None:
            t0 = P * P / (P + N)  # recall gain 0
            a = (t0 - tp[i - 1]) / (tp[i] - tp[i - 1])
            f0 = fp[i - 1] + a * (fp[i] - fp[i - 1])
            prev = (0.0, gains(t0, f0)[1])
        area += (rg - prev[0]) * (pg + prev[1]) / 2
        prev = (rg, pg)
    return area


def area_from_zero(points):
    """Trapezoid area under a PRG polyline [(rg, pg)] (rg ascending) for rg >= 0."""
    area = 0.0
    for (x0, y0), (x1, y1) in zip(points[:-1], points[1:]):
        if x1 <= 0:
            continue
        if x0 < 0:
            y0 = y0 + (0 - x0) / (x1 - x0) * (y1 - y0)
            x0 = 0.0
        area += (x1 - x0) * (y0 + y1) / 2
    return area


def venkatraman_paired_stat(x, y, label):
    """pROC's ``venkatraman.paired.stat`` written out: ranks with ties by row order,
    then for every cut-off x = 1..n the misclassified counts FN + FP of each model."""
    n = len(label)
    R = np.empty(n)
    S = np.empty(n)
    R[np.argsort(x, kind="stable")] = np.arange(1, n + 1)
    S[np.argsort(y, kind="stable")] = np.arange(1, n + 1)
    e = 0.0
    for cut in range(1, n + 1):
        r_fn = sum(1 for i in range(n) if label[i] == 1 and R[i] <= cut)
        r_fp = sum(1 for i in range(n) if label[i] == 0 and R[i] > cut)
        s_fn = sum(1 for i in range(n) if label[i] == 1 and S[i] <= cut)
        s_fp = sum(1 for i in range(n) if label[i] == 0 and S[i] > cut)
        e += abs((s_fn + s_fp) - (r_fn + r_fp))
    return e


def venkatraman_permuted(x, y, label, keep, jitter_r, jitter_s):
    """One permutation of pROC's ``venkatraman.paired.permutation`` with the given
    coins and jitters: kept rows keep their ranks plus jitter, the others exchange."""
    n = len(label)
    R = np.empty(n)
    S = np.empty(n)
    R[np.argsort(x, kind="stable")] = np.arange(1, n + 1)
    S[np.argsort(y, kind="stable")] = np.arange(1, n + 1)
    r3 = np.where(keep, R + jitter_r, S)
    s3 = np.where(keep, S + jitter_s, R)
    return venkatraman_paired_stat(r3, s3, label)


def pooled_difference(d, se):
    """(fixed, se_fixed, random, se_random, q, tau2): inverse-variance and DerSimonian &
    Laird (1986) pooling of per-data-set differences, one data set at a time."""
    w = [1 / s**2 for s in se]
    fixed = sum(wi * di for wi, di in zip(w, d)) / sum(w)
    q = sum(wi * (di - fixed) ** 2 for wi, di in zip(w, d))
    c = sum(w) - sum(wi**2 for wi in w) / sum(w)
    tau2 = max(0.0, (q - (len(d) - 1)) / c)
    ws = [1 / (s**2 + tau2) for s in se]
    rand = sum(wi * di for wi, di in zip(ws, d)) / sum(ws)
    return fixed, 1 / math.sqrt(sum(w)), rand, 1 / math.sqrt(sum(ws)), q, tau2


def venkatraman_unpaired_stat(seq_r, seq_s, mp):
    """pROC's ``venkatraman.unpaired.stat`` written out from the classes of each curve
    in ascending rank order: cumulative class shares, ``approxfun`` as np.interp with
    NaN outside each curve's range, trapezoids dropping NaN pieces."""

    def curve(seq):
        seq = np.asarray(seq)
        fx = np.cumsum(seq == 1) / np.sum(seq == 1)
        gx = np.cumsum(seq == 0) / np.sum(seq == 0)
        return mp * fx + (1 - mp) * gx, mp * fx + (1 - mp) * (1 - gx)

    rp, re = curve(seq_r)
    sp, se = curve(seq_s)
    x = np.sort(np.concatenate([rp, sp]))

    def f(xs, ys, v):
        return np.where((v < xs[0]) | (v > xs[-1]), np.nan, np.interp(v, xs, ys))

    y = np.abs(f(rp, re, x) - f(sp, se, x))
    total = 0.0
    for i in range(1, len(x)):
        piece = (y[i] + y[i - 1]) * (x[i] - x[i - 1]) / 2
        if not math.isnan(piece):
            total += piece
    return total


def venkatraman_unpaired_permuted(seq_r, seq_s, mp, jitter_r, jitter_s, to_r_neg, to_r_pos):
    """One unpaired permutation with the given jitters and deals: each curve's jittered
    ranks ``k + 1 + u``, each class's pooled values (the first curve's, then the
    second's, in rank order) dealt to the first curve where ``to_r_*`` is True, then
    both curves sorted by value."""
    vals = {0: [], 1: []}
    for seq, jit in ((seq_r, jitter_r), (seq_s, jitter_s)):
        for k, c in enumerate(seq):
            vals[int(c)].append((k + 1 + jit[k], int(c)))
    r, s = [], []
    for c, to_r in ((0, to_r_neg), (1, to_r_pos)):
        for item, go in zip(vals[c], to_r):
            (r if go else s).append(item)
    new_r = [c for _, c in sorted(r)]
    new_s = [c for _, c in sorted(s)]
    return venkatraman_unpaired_stat(new_r, new_s, mp)


def rocch_eer(tp, fp):
    """Equal error rate of the ROC convex hull, by brute force: every mix of two sweep
    points (the achievable operating points) that lies on ``fpr + tpr = 1``, smallest
    ``fpr`` wins. O(n^2) pairs; the hull is never built.
    """
    P, N = tp[-1], fp[-1]
    x = [0.0] + [f / N for f in fp] + [1.0]
    y = [0.0] + [t / P for t in tp] + [1.0]
    best = math.inf
    for i in range(len(x)):
        for j in range(len(x)):
            gi, gj = x[i] + y[i], x[j] + y[j]
            if gi <= 1.0 <= gj and gj > gi:
                lam = (1.0 - gi) / (gj - gi)
                best = min(best, x[i] + lam * (x[j] - x[i]))
            elif gi == 1.0 == gj:
                best = min(best, x[i], x[j])
    return best


def cv_auc_influence(score, y, fold, level=0.95):
    """Cross-validated ROC AUC and its influence-curve interval (LeDell, Petersen & van
    der Laan 2015, as R's ``cvAUC::ci.cvAUC``), literally: returns (cvAUC, se, lo, hi).

    Ties count half in the empirical shares (cvAUC's own code counts them as 0)."""
    score = [float(s) for s in score]
    y = [int(v) for v in y]
    n = len(y)
    w1 = n / sum(y)
    w0 = n / (n - sum(y))
    aucs, ic2 = [], []
    for v in sorted(set(fold)):
        rows = [i for i in range(n) if fold[i] == v]
        pos = [score[i] for i in rows if y[i] == 1]
        neg = [score[i] for i in rows if y[i] == 0]
        auc = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg) / (len(pos) * len(neg))
        aucs.append(auc)
        total = 0.0
        for i in rows:
            x = score[i]
            if y[i] == 1:
                share = sum((x > q) + 0.5 * (x == q) for q in neg) / len(neg)
                ic = w1 * (share - auc)
            else:
                share = sum((p > x) + 0.5 * (p == x) for p in pos) / len(pos)
                ic = w0 * (share - auc)
            total += ic * ic
        ic2.append(total / len(rows))
    cv = sum(aucs) / len(aucs)
    se = math.sqrt(sum(ic2) / len(ic2) / n)
    z = float(np.sqrt(2.0) * _erfinv(level))
    return cv, se, max(cv - z * se, 0.0), min(cv + z * se, 1.0)


def _erfinv(x):
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + x) / 2) / math.sqrt(2.0)


def fp_at_recall(tp, fp, r):
    """FP of the count-interpolated curve at recall ``r`` (FP linear in TP between
    vertices; at a recall reached by several vertices the lowest FP)."""
    tp = [float(v) for v in tp]
    fp = [float(v) for v in fp]
    P = tp[-1]
    t = r * P
    for i in range(len(tp)):
        if tp[i] == t:
            return fp[i]
        if tp[i] > t:
            a = i - 1
            return fp[a] + (fp[i] - fp[a]) * (t - tp[a]) / (tp[i] - tp[a])
    return fp[-1]
