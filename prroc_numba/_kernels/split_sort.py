"""The sweep from class-split sorted scores: hard, unweighted labels, no index payload.

When every row is a positive or a negative of unit mass, a curve's sweep needs no
argsort: sort the positives' scores and the negatives' scores separately (keys only;
``np.sort`` does it outside the kernels, with SIMD), then merge the two sorted runs from
the top, counting how many of each class sit at every distinct score. Ties are exact:
a tie block is every key equal to the current score, in either run.

Layout (``svals``, ``offsets``, ``npos``): curve ``c``'s slice
``svals[offsets[c]:offsets[c + 1]]`` holds its ``npos[c]`` positives' scores in
ascending order, then its negatives' scores in ascending order. The sweep is walked
from the ends of the two runs (descending scores). ``-0.0`` and ``+0.0`` tie, and a
threshold of zero comes out as ``+0.0`` (as :mod:`.sort` gives it).

Each class run may be written in value ranges ("parts", lowest first: every score of
part ``r`` is below every score of part ``r + 1``) so that the parts are written and
sorted on separate threads; sorted part by part, the run is sorted
(:func:`_class_count`, :func:`_class_scatter`).
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .area import _plain_areas
from .sort import _all_float32  # noqa: F401 (re-exported)


@jit(inline="always")
def _span(offsets, label_start, c):
    """Curve ``c``'s rows ``a .. b - 1`` and the start ``ls`` of its labels."""
    return offsets[c], offsets[c + 1], label_start[c]


@jit
def _class_count(values, offsets, pos, neg, label_start, pivots, counts, c0, c1):
    """Counting pass of the class split, curves ``c0 .. c1 - 1`` (run on threads by
    :func:`prroc_numba._drivers.threads.run_curves`).

    ``counts[c, r]`` receives the number of positives of curve ``c`` in value part
    ``r``, ``counts[c, n_parts + r]`` its negatives' (int64 ``(n_curves, 2 * n_parts)``,
    from the caller; ``n_parts = pivots.shape[1] + 1``), and ``counts[c, 0] = -1`` where
    the labels are not hard (a row that is not a positive or a negative of mass one).
    A curve is cut into value parts at ``pivots[c]`` (ascending, from the caller; a
    score equal to a pivot goes above it, so ties never straddle two parts); a curve
    kept whole has ``pivots[c] = +inf`` (one part).
    """
    n_parts = pivots.shape[1] + 1
    for c in range(c0, c1):
        a, b, ls = _span(offsets, label_start, c)
        x = values[a:b]
        p = pos[ls : ls + b - a]
        q = neg[ls : ls + b - a]
        cnt = counts[c]
        # element loops, not slice assignments: those compile numba's shape-mismatch
        # error formatting (seconds of first-call compile time)
        for t in range(cnt.size):
            cnt[t] = 0
        # counting passes without branches (they vectorise)
        bad = 0
        k = 0
        for i in range(b - a):
            bad += (p[i] + q[i] != 1.0) | (p[i] * q[i] != 0.0)  # masses are >= 0
            k += p[i] > 0.0
        if bad:
            cnt[0] = -1
            continue
        cnt[0] = k
        cnt[n_parts] = b - a - k
        if n_parts == 1 or pivots[c, 0] == np.inf:
            continue
        for t in range(n_parts - 1):  # rows at or above each pivot, by class
            up_p = 0
            up = 0
            v = pivots[c, t]
            for i in range(b - a):
                above = x[i] >= v
                up += above
                up_p += above & (p[i] > 0.0)
            cnt[t + 1] = up_p
            cnt[n_parts + t + 1] = up - up_p
        for t in range(n_parts - 1):  # at or above -> part sizes
            cnt[t] -= cnt[t + 1]
            cnt[n_parts + t] -= cnt[n_parts + t + 1]


@jit
def _class_scatter(values, offsets, pos, label_start, pivots, edges, part, svals, c0, c1):
    """Write the scores of value part ``part`` of curves ``c0 .. c1 - 1`` into
    ``svals``: the positives' at ``edges[c, part]``, the negatives' at ``edges[c,
    n_parts + part]`` (``edges``: each curve's offset plus the running sum of
    :func:`_class_count`'s counts), in input order (sorted next).

    Branch-free: every row is written, rows of other parts to the scratch slot
    ``svals[edges[-1, -1] + part]`` (the caller allocates ``n_parts`` slots past the
    end), so one thread per part shares no slot with another.

    Large outputs are allocated by the caller in numpy, which asks the kernel for huge
    pages: first writes into Numba's own allocations fault every 4 KiB page (measured:
    ~20 ms per 24 MB here, more than the merge itself).
    """
    n_parts = pivots.shape[1] + 1
    dump = edges[edges.shape[0] - 1, 2 * n_parts] + part
    for c in range(c0, c1):
        a, b, ls = _span(offsets, label_start, c)
        x = values[a:b]
        p = pos[ls : ls + b - a]
        piv = pivots[c]
        ip = edges[c, part]
        im = edges[c, n_parts + part]
        for i in range(b - a):
            r = 0
            for t in range(n_parts - 1):
                r += x[i] >= piv[t]
            keep = r == part
            is_pos = p[i] > 0.0
            dst = ip if is_pos else im
            svals[dst if keep else dump] = x[i]
            ip += keep & is_pos
            im += keep & (not is_pos)


@jit
def _merge(sp, sn, thr, tp, fp):
    """Walk ascending runs ``sp`` (positives) and ``sn`` (negatives) from the top.

    Writes the sweep into ``thr``, ``tp``, ``fp`` (origin first: threshold ``+inf``,
    ``tp = fp = 0``; room for ``sp.size + sn.size + 1`` vertices) and returns the number
    of vertices (distinct scores + the origin). Branch-free steps: each row moves one
    run's cursor; every step writes the running counts at the current vertex, which
    moves on only where the next score differs.
    """
    i = sp.size - 1
    j = sn.size - 1
    n = i + j + 2
    thr[0] = np.inf
    tp[0] = 0.0
    fp[0] = 0.0
    if n == 0:
        return 1
    lo = -np.inf  # below every score (scores are finite)
    if i < 0 or j < 0:  # one class only: a single run
        run = sp if j < 0 else sn
        k = 1
        for r in range(n - 1, -1, -1):
            c = n - r  # rows taken so far
            thr[k] = run[r] + 0.0
            tp[k] = c if j < 0 else 0
            fp[k] = 0 if j < 0 else c
            if r == 0 or run[r - 1] != run[r]:
                k += 1
        return k
    vp = sp[i]
    vn = sn[j]
    ctp = 0
    cfp = 0
    k = 1
    for _ in range(n):
        take = 1 if vp >= vn else 0
        v = max(vp, vn)
        ctp += take
        cfp += 1 - take
        i -= take
        j -= 1 - take
        # unconditional loads at a valid index, then a select: no branch on the data
        vp = sp[max(i, 0)]
        vn = sn[max(j, 0)]
        vp = vp if i >= 0 else lo
        vn = vn if j >= 0 else lo
        thr[k] = v + 0.0
        tp[k] = ctp
        fp[k] = cfp
        k += max(vp, vn) != v
    return k


@jit
def _first_above(sn, v, j):
    """Smallest ``g <= j`` with every ``sn[g:j] > v`` (``sn`` ascending): a galloping
    search down from ``j``, ``O(log(j - g))``.
    """
    if j == 0 or not sn[j - 1] > v:
        return j
    hi = j - 1  # sn[hi] > v
    step = 1
    lo = hi - step
    while lo >= 0 and sn[lo] > v:
        hi = lo
        step *= 2
        lo = hi - step
    lo = max(lo, -1)  # sn[lo] <= v, or lo = -1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if sn[mid] > v:
            hi = mid
        else:
            lo = mid
    return hi


@jit
def _merge_collapsed(sp, sn, thr, tp, fp):
    """The sweep of :func:`_merge` without the inner vertices of negatives-only runs.

    Of every run of consecutive vertices that add negatives only, only the last is
    kept (with its threshold and counts); every vertex that adds positives is kept.
    Each PR area reads only those vertices, and the ROC trapezoids over a dropped run
    sum to the kept vertex's one trapezoid exactly (integer counts below 2**53), so the
    areas (not their hulls) equal those of the whole sweep, bit for bit. Negatives
    between two positive scores are skipped by a galloping search: ``O(P log(N / P))``
    for ``P`` positives among ``N`` negatives instead of ``O(P + N)``. At most
    ``2 * sp.size + 2`` and at most ``sp.size + sn.size + 1`` vertices.
    """
    n_neg = sn.size
    thr[0] = np.inf
    tp[0] = 0.0
    fp[0] = 0.0
    k = 1
    i = sp.size - 1
    j = n_neg  # negatives sn[j:] are taken
    ctp = 0
    while i >= 0:
        v = sp[i]
        i0 = i
        while i >= 0 and sp[i] == v:
            i -= 1
        g = _first_above(sn, v, j)
        if g < j:  # negatives above v: their run's last vertex
            thr[k] = sn[g] + 0.0
            tp[k] = ctp
            fp[k] = n_neg - g
            k += 1
        while g > 0 and sn[g - 1] == v:  # negatives tied with the positives at v
            g -= 1
        j = g
        ctp += i0 - i
        thr[k] = v + 0.0
        tp[k] = ctp
        fp[k] = n_neg - j
        k += 1
    if j > 0:  # negatives below the last positive
        thr[k] = sn[0] + 0.0
        tp[k] = ctp
        fp[k] = n_neg
        k += 1
    return k


@jit
def _split_areas_range(svals, offsets, npos, codes, hulls, slots, thr, tp, fp, nv, out, c0, c1):
    """The collapsed sweep (:func:`_merge_collapsed`) of curves ``c0 .. c1 - 1`` of a
    class-split sorted batch, and every requested area not on the hull, into ``out[c]``
    (run over chunks of curves by :func:`prroc_numba._drivers.threads.run_curves`: a serial kernel
    compiles
    seconds faster than a ``prange`` one).

    ``codes[k]``/``hulls[k]`` name area ``k`` (estimator code of :mod:`.area`, hull
    flag); ``thr``, ``tp``, ``fp`` receive curve ``c``'s collapsed sweep at
    ``[slots[c]:slots[c] + nv[c]]`` (room from the caller, at most ``2 * npos[c] + 2``
    or the curve's rows + 1), kept for :func:`.area._hull_areas_range`: the hull of the
    collapsed sweep is the hull of the whole one (the dropped vertices lie inside
    straight runs of constant TP, which the hull drops as collinear); ``out`` is
    float64 ``(n_curves, codes.size)``.
    """
    for c in range(c0, c1):
        a = offsets[c]
        b = offsets[c + 1]
        m = a + npos[c]
        u = slots[c]
        v = slots[c + 1]
        k = _merge_collapsed(svals[a:m], svals[m:b], thr[u:v], tp[u:v], fp[u:v])
        nv[c] = k
        _plain_areas(tp[u : u + k], fp[u : u + k], codes, hulls, out[c])
