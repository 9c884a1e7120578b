"""Bootstrap replicates without re-sorting: a replicate is a vector of counts.

Each curve is sorted once (:func:`prroc_numba._drivers.resample._segments_batch`) and cut into
**segments** along its
descending score order:

* every tied block of scores that holds positive mass is one segment;
* every maximal run of tied blocks with no positive mass (negatives only) is merged
  into one segment -- the "gap" between two positive-bearing blocks.

A replicate's ROC/PR vertices are the cumulative (resampled) positive and negative mass
at the segment ends, origin first. Merging a gap's blocks only removes vertices that
lie on a straight run of constant TP, which no estimator of :mod:`.area` (nor the hull)
depends on: they all use, for each TP step, only the vertex just before it, and ROC
trapezoids are linear along such a run. A segment that draws no rows in a replicate
adds no vertex (as if its rows were absent from the resampled data).

Two ways to draw a replicate:

* **grouped** (:func:`_boot_grouped`; one model per group, unweighted 0/1 labels): the
  multinomial counts per segment are drawn directly -- Poisson draws from precomputed
  inversion tables plus an exact fix-up, conditional binomials, or row draws where
  cells are small (:func:`.rng._multinomial_stratum`) -- so a replicate costs O(segments),
  i.e. O(positive-bearing blocks), not O(rows);
* **paired rows** (:func:`_boot_paired`; several models on the same rows, or weights /
  soft labels, clusters, ``resampling="poisson"``): one slot-count vector per group and
  replicate -- as many uniform row indices per stratum as it has rows, or each row's
  Poisson(1) count of :mod:`.poisson` -- reused for every model of the group, then one
  pass over each model's sorted rows (with hard 0/1 labels eight replicates share one
  pass: :mod:`.resample_blocks`). Memory per thread is O(rows of a group), never
  O(B x N).

Both kernels take the plan's arrays grouped in a few tuples and write areas or grid
precisions (:func:`_emit`) straight into the final ``(curves, grid points or 1,
replicates)`` array.

Random numbers come from :mod:`.rng`: stream ``(seed, group, replicate)``, so results do
not depend on the thread count or on how replicates are chunked.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .area import _area_of_sweep, _area_sorted
from .grid import _precision_on_grid, _roc_on_grid
from .poisson import poisson_count_cpu, replicate_key_cpu
from .rng import (
    _GAMMA,
    _S11,
    _TWO_M53,
    _mix64,
    _multinomial_stratum,
    _next_cell,
    _stream,
)
from .sort import _sort_desc
from .sweep import _curve_labels

# ------------------------------------------------------------------ segment structure


@jit
def _count_segments(x, pos, order):
    n = order.size
    k = 0
    in_gap = False
    i = 0
    while i < n:
        has_pos = False
        j = i
        while True:
            if pos[order[j]] > 0.0:
                has_pos = True
            if j == n - 1 or x[order[j + 1]] != x[order[j]]:
                break
            j += 1
        if has_pos:
            k += 1
            in_gap = False
        elif not in_gap:
            k += 1
            in_gap = True
        i = j + 1
    return k


@jit
def _fill_segments(x, pos, neg, order, seg_end, sp, sn):
    """Write segment ends (exclusive positions in sorted order) and their masses."""
    n = order.size
    k = -1
    in_gap = False
    i = 0
    while i < n:
        has_pos = False
        tp = 0.0
        tn = 0.0
        j = i
        while True:
            r = order[j]
            tp += pos[r]
            tn += neg[r]
            if pos[r] > 0.0:
                has_pos = True
            if j == n - 1 or x[order[j + 1]] != x[r]:
                break
            j += 1
        if has_pos or not in_gap:
            k += 1
            sp[k] = tp
            sn[k] = tn
        else:
            sp[k] += tp
            sn[k] += tn
        in_gap = not has_pos
        seg_end[k] = j + 1
        i = j + 1


@jit
def _sort_and_count(
    values, offsets, pos, neg, label_start, masses, method, hull, order, ps, ns, counts, est, c0, c1
):
    """Pass 1 of :func:`prroc_numba._drivers.resample._sorted_curves` for curves ``c0 .. c1 - 1``:
    sort, gather the
    masses in sorted order (``masses``), count the segments, and the area by
    ``method``/``hull`` into ``est`` (when it is not empty).
    """
    for c in range(c0, c1):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        o, xs = _sort_desc(values[a:b])
        for i in range(b - a):  # a loop: a slice assignment compiles shape-error formatting
            order[a + i] = o[i]
        if masses:
            for i in range(b - a):
                ps[a + i] = pos[ls + o[i]]
                ns[a + i] = neg[ls + o[i]]
        counts[c] = _count_segments(values[a:b], pos[ls : ls + b - a], o)
        if est.size:
            est[c] = _area_sorted(xs, pos[ls : ls + b - a], neg[ls : ls + b - a], o, method, hull)


@jit
def _fill_segments_range(
    values, offsets, pos, neg, label_start, order, segs, slots, slot_order, c0, c1
):
    """Pass 2 of :func:`prroc_numba._drivers.resample._sorted_curves` for curves ``c0 .. c1 - 1``:
    the segments, then
    (``slots`` not empty) ``slot_order[i] = slots[label_start + order[i]]``, in place
    when ``slot_order`` is ``order``.
    """
    seg_offsets, seg_end, sp, sn = segs
    for c in range(c0, c1):
        a, b, p, q = _curve_labels(offsets, label_start, pos, neg, c)
        u, v = seg_offsets[c], seg_offsets[c + 1]
        _fill_segments(values[a:b], p, q, order[a:b], seg_end[u:v], sp[u:v], sn[u:v])
        if slots.size:
            ls = label_start[c]
            for i in range(a, b):
                slot_order[i] = slots[ls + order[i]]


# ------------------------------------------------------- grouped (one model) replicates


@jit
def _draw_segment_counts(
    st, sp, sn, P, N, stratified, xp, xn, lp, ln, tab_lo, tab_off, tab_cdf, tab_guide
):
    """Resampled positive / negative rows per segment for one replicate.

    Stratified: ``P`` positives drawn among the positive rows and ``N`` negatives
    among the negative rows (:func:`_multinomial_stratum`; ``lp``/``ln`` name each
    cell's Poisson table, -1 for none). Otherwise ``P + N`` rows drawn among all rows (cells in
    sorted order, a segment's positives before its negatives).
    """
    if stratified:
        _multinomial_stratum(st, sp, P, lp, tab_lo, tab_off, tab_cdf, tab_guide, xp)
        _multinomial_stratum(st, sn, N, ln, tab_lo, tab_off, tab_cdf, tab_guide, xn)
        return
    n_rem = np.int64(P + N)
    k_rem = P + N
    for i in range(sp.size):
        for cls in range(2):
            ki = sp[i] if cls == 0 else sn[i]
            x = _next_cell(st, n_rem, k_rem, ki)
            if cls == 0:
                xp[i] = x
            else:
                xn[i] = x
            n_rem -= x
            k_rem -= ki


@jit
def _grouped_vertices(xp, xn, tp, fp):
    """Cumulate per-segment counts into vertices (origin first); returns their number.

    A segment that drew no row adds no vertex (as if its rows were absent).
    """
    tp[0] = 0.0
    fp[0] = 0.0
    v = 0
    for i in range(xp.size):
        if xp[i] != 0 or xn[i] != 0:
            tp[v + 1] = tp[v] + xp[i]
            fp[v + 1] = fp[v] + xn[i]
            v += 1
    return v + 1


@jit
def _grouped_replicate(seg_offsets, sp, sn, c, group, seed, b, stratified, lp, ln, tabs):
    """Vertices ``(tp, fp)`` of replicate ``b`` of curve ``c`` (grouped draw)."""
    s0 = seg_offsets[c]
    s1 = seg_offsets[c + 1]
    m = s1 - s0
    P = 0.0
    N = 0.0
    for s in range(s0, s1):
        P += sp[s]
        N += sn[s]
    xp = np.empty(m, dtype=np.int64)
    xn = np.empty(m, dtype=np.int64)
    st = _stream(seed, group, b)
    _draw_segment_counts(
        st,
        sp[s0:s1],
        sn[s0:s1],
        P,
        N,
        stratified,
        xp,
        xn,
        lp[s0:s1],
        ln[s0:s1],
        tabs[0],
        tabs[1],
        tabs[2],
        tabs[3],
    )
    tp = np.empty(m + 1)
    fp = np.empty(m + 1)
    v = _grouped_vertices(xp, xn, tp, fp)
    return tp[:v], fp[:v]


#: what a replicate writes on a grid (``spec[0]`` when ``spec[2]`` is not empty):
#: precision at recall, TPR at FPR, FPR at TPR
GRID_PR = -1
GRID_TPR = -2
GRID_FPR = -3


@jit
def _emit(tp, fp, spec, buf, out, c, b):
    """Write one replicate's result: the area by ``spec = (method, hull, grid)`` into
    ``out[c, 0, b]`` when ``grid`` is empty (any estimator of :mod:`.area`, AUPRG
    included: the replicate's vertices end at its own class totals), else its values
    on ``grid`` into ``out[c, :, b]``: precisions at recall (``method`` :data:`GRID_PR`), TPR at FPR
    (:data:`GRID_TPR`) or FPR at TPR (:data:`GRID_FPR`) (``buf``: scratch of the
    grid's size). ``out`` is the final ``(curves, grid points or 1, replicates)``
    array, so no relayout follows.
    """
    method, hull, grid = spec
    if grid.size == 0:
        out[c, 0, b] = _area_of_sweep(tp, fp, method, hull)
        return
    if method == GRID_PR:
        _precision_on_grid(tp, fp, grid, buf, hull)
    else:
        _roc_on_grid(tp, fp, grid, buf, hull, method == GRID_FPR)
    for k in range(grid.size):
        out[c, k, b] = buf[k]


@jit
def _boot_grouped(segs, draw, seed, b0, b1, spec, out, t0, t1):
    """Replicates ``b0 .. b1-1`` of every curve by segment-count draws (one model per
    group, unweighted 0/1 labels: ``sp``/``sn`` are row counts): items ``t0 .. t1-1``
    of the (curve, replicate) pairs ``t = c * (b1 - b0) + (b - b0)``, so the thread pool
    (:func:`prroc_numba._drivers.threads.run_items`) runs chunks of them; a serial kernel compiles
    seconds
    faster than a ``prange`` one, and each item is one thread's alone (the same result
    whatever the thread count).

    ``segs = (seg_offsets, sp, sn, curve_group)``; ``draw = (stratified, lp, ln, tabs)``
    (:func:`_draw_segment_counts`); ``spec`` and ``out`` as in :func:`_emit`.
    """
    seg_offsets, sp, sn, curve_group = segs
    stratified, lp, ln, tabs = draw
    grid = spec[2]
    nb = b1 - b0
    for t in range(t0, t1):
        c = t // nb
        j = t - c * nb
        tp, fp = _grouped_replicate(
            seg_offsets, sp, sn, c, curve_group[c], seed, b0 + j, stratified, lp, ln, tabs
        )
        _emit(tp, fp, spec, np.empty(grid.size), out, c, b0 + j)


# ---------------------------------------------------------- paired (row) replicates


@jit
def _walk_vertices(order, seg_end, ps, ns, cnt, tp, fp):
    """Vertices of one curve whose sorted row ``i`` carries multiplicity
    ``cnt[order[i]]``, written into ``tp``/``fp`` (length ``seg_end.size + 1``);
    returns their number. ``ps``/``ns`` are the rows' masses in sorted order (streamed);
    only ``cnt`` is read at random, and without branches. A segment that drew no mass
    adds no vertex.
    """
    tp[0] = 0.0
    fp[0] = 0.0
    t = 0.0
    f = 0.0
    i = 0
    v = 0
    for s in range(seg_end.size):
        e = seg_end[s]
        while i < e:
            w = cnt[order[i]]
            t += w * ps[i]
            f += w * ns[i]
            i += 1
        if t != tp[v] or f != fp[v]:
            v += 1
            tp[v] = t
            fp[v] = f
    return v + 1


@jit
def _walk_vertices_hard(slots, seg_end, n_pos, cnt, tp, fp):
    """:func:`_walk_vertices` for unweighted 0/1 labels: slot ``s < n_pos`` is a
    positive, so only the slot numbers are read, not the masses.
    """
    tp[0] = 0.0
    fp[0] = 0.0
    t = 0
    f = 0
    i = 0
    v = 0
    for s in range(seg_end.size):
        e = seg_end[s]
        while i < e:
            q = slots[i]
            if q < n_pos:
                t += cnt[q]
            else:
                f += cnt[q]
            i += 1
        if t != tp[v] or f != fp[v]:
            v += 1
            tp[v] = t
            fp[v] = f
    return v + 1


@jit
def _walk_area(order, seg_end, ps, ns, cnt, method, hull):
    """Area of one curve whose sorted row ``i`` carries multiplicity ``cnt[order[i]]``."""
    tp = np.empty(seg_end.size + 1)
    fp = np.empty(seg_end.size + 1)
    v = _walk_vertices(order, seg_end, ps, ns, cnt, tp, fp)
    return _area_of_sweep(tp[:v], fp[:v], method, hull)


@jit(inline="always")
def _slot_draw(z, Lf, L):
    """The stratum position ``[0, L)`` that stream state ``z`` (already advanced) draws
    (``Lf``: ``L`` as float64), for :func:`_fill_slot_counts` and the block draws of
    :mod:`.resample_blocks`.
    """
    k = np.int64(np.float64(_mix64(z) >> _S11) * _TWO_M53 * Lf)
    return k if k < L else L - 1


@jit(inline="always")
def _stratum(strata_offsets, n_strata, g, s, base):
    """Stratum ``s`` of group ``g``: its first slot, counted from the group's first
    (``base``), and its number of slots.
    """
    i = g * n_strata + s
    return strata_offsets[i] - base, strata_offsets[i + 1] - strata_offsets[i]


@jit
def _fill_slot_counts(st, strata_offsets, n_strata, g, cnt):
    """Add one bootstrap draw of group ``g``'s rows to ``cnt``.

    The group's rows are numbered by **slot**: stratum by stratum, in the order of
    ``strata_offsets`` (``[strata_offsets[g*n_strata+s] : ...+1]`` is stratum ``s``,
    counted from the group's first slot). Each stratum gets as many uniform draws, with
    replacement, as it has rows. The stream state is kept in a register for speed.
    """
    base = strata_offsets[g * n_strata]
    z = st[0]
    for s in range(n_strata):
        u0, L = _stratum(strata_offsets, n_strata, g, s, base)
        Lf = np.float64(L)
        for _ in range(L):
            z = z + _GAMMA
            cnt[u0 + _slot_draw(z, Lf, L)] += 1
    st[0] = z


#: how ``_boot_paired`` fills a group's slot counts: multinomial row (or cluster) draws
#: per stratum, Poisson(1) counts keyed by input row ids (:mod:`.poisson`), or all ones
#: (the data itself: the estimate from the plan's order)
MULTINOMIAL = 0
POISSON = 1
UNIT = 2


@jit
def _fill_counts(draw, seed, g, b, cnt):
    """Slot counts of group ``g`` in replicate ``b`` into ``cnt`` (zeroed, one extra
    slot for rows of zero weight, never drawn). ``draw`` as in :func:`_boot_paired`.
    """
    kind, strata_offsets, n_strata, slot_ids = draw[0], draw[1], draw[2], draw[3]
    if kind == MULTINOMIAL:
        _fill_slot_counts(_stream(seed, g, b), strata_offsets, n_strata, g, cnt)
        return
    a = strata_offsets[g * n_strata]
    n_slots = strata_offsets[(g + 1) * n_strata] - a
    if kind == POISSON:
        key = replicate_key_cpu(seed, b)
        for s in range(n_slots):
            cnt[s] = poisson_count_cpu(key, slot_ids[a + s])
    else:
        for s in range(n_slots):
            cnt[s] = 1


@jit
def _total(cnt):
    """Sum of a count vector (int64)."""
    t = 0
    for i in range(cnt.size):
        t += np.int64(cnt[i])
    return t


@jit(inline="always")
def _item_counts(draw, seed, t, b0, b1):
    """Item ``t`` of the (group, replicate) pairs ``t = g * (b1 - b0) + (b - b0)`` of a
    paired replicate chunk: ``(g, b, counts)``, the group's slot counts in replicate
    ``b`` (:func:`_fill_counts`; one extra slot for rows of zero weight, never drawn).
    ``draw`` as in :func:`_boot_paired`. A multinomial vector holds exactly ``n_slots``
    draws, so one whose total differs overflowed the narrow count type: then the
    counts are empty and ``wrapped[0]`` is set (the caller re-runs the chunk wider).
    """
    kind, strata_offsets, n_strata, count_type, wrapped = (
        draw[0],
        draw[1],
        draw[2],
        draw[6],
        draw[7],
    )
    nb = b1 - b0
    g = t // nb
    b = b0 + t - g * nb
    n_slots = strata_offsets[(g + 1) * n_strata] - strata_offsets[g * n_strata]
    cnt = np.zeros(n_slots + 1, dtype=count_type.dtype)
    _fill_counts(draw, seed, g, b, cnt)
    if kind == MULTINOMIAL and _total(cnt) != n_slots:
        wrapped[0] = 1
        return g, b, cnt[:0]
    return g, b, cnt


@jit(inline="always")
def _curve_vertices(rows, c, cnt, hard, n_pos):
    """Replicate vertices ``(tp, fp)`` of curve ``c`` of ``rows`` (as in
    :func:`_boot_paired`) whose sorted rows carry the slot counts ``cnt``: the walk
    over slot numbers (``hard``: slots below ``n_pos`` are the positives) or over the
    rows' masses.
    """
    slot_order, ps, ns, offsets, seg_offsets, seg_end = rows[:6]
    u = offsets[c]
    v = offsets[c + 1]
    se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
    tp = np.empty(se.size + 1)
    fp = np.empty(se.size + 1)
    if hard:
        nv = _walk_vertices_hard(slot_order[u:v], se, n_pos, cnt, tp, fp)
    else:
        nv = _walk_vertices(slot_order[u:v], se, ps[u:v], ns[u:v], cnt, tp, fp)
    return tp[:nv], fp[:nv]


@jit
def _boot_paired(rows, draw, seed, b0, b1, spec, out, t0, t1):
    """Replicates ``b0 .. b1-1`` of every curve by slot-count vectors: per group and
    replicate one vector (:func:`_fill_counts`), reused for all models of the group,
    then one walk over each model's sorted rows. Items ``t0 .. t1-1`` of the (group,
    replicate) pairs ``t = g * (b1 - b0) + (b - b0)`` (run in chunks by
    :func:`prroc_numba._drivers.threads.run_items`, as :func:`_boot_grouped`).

    ``rows = (slot_order, ps, ns, offsets, seg_offsets, seg_end, n_models)``: curve
    ``g * n_models + model``'s sorted rows ``[offsets[c]:offsets[c+1]]`` point at their
    group's slots (rows of zero weight at an extra slot that is never drawn).
    ``draw = (kind, strata_offsets, n_strata, slot_ids, n_pos_slots, hard, count_type,
    wrapped)``: group ``g``'s slots are ``strata_offsets[g * n_strata] ..`` stratum by
    stratum; ``slot_ids`` the input row id of each slot (``POISSON`` only). Counts are
    held like ``count_type`` (a length-0 array), ``uint16`` so the vector that every
    model gathers from stays small in cache (at 1e6 rows per class ``int32`` counts
    leave L2 and cost twice as much per row). A multinomial vector holds exactly
    ``n_slots`` draws, so a count that overflowed the type shows as a smaller total:
    the replicate is skipped and ``wrapped[0]`` set, and the caller re-runs the chunk
    with ``int32`` counts (the same streams, so the same replicates). With ``hard``
    (unweighted 0/1 labels) slots ``[0, n_pos_slots[g])`` are the positives, so the
    walk reads only the slot numbers, not the masses. ``spec`` and ``out`` as in
    :func:`_emit`.
    """
    n_models, n_pos_slots, hard = rows[6], draw[4], draw[5]
    for t in range(t0, t1):
        g, b, cnt = _item_counts(draw, seed, t, b0, b1)
        if cnt.size == 0:
            continue
        buf = np.empty(spec[2].size)
        for mdl in range(n_models):
            c = g * n_models + mdl
            tp, fp = _curve_vertices(rows, c, cnt, hard, n_pos_slots[g])
            _emit(tp, fp, spec, buf, out, c, b)


@jit(parallel=True)
def _jackknife_group(curves, first_curve, n_models, block, n_blocks, method, hull):
    """Delete-a-block jackknife of the ``n_models`` curves of one group.

    ``curves = (order, ps, ns, offsets, seg_offsets, seg_end)`` (the plan's sorted
    curves; the plan passes ``slot_order``, so ``order`` holds the group's slots);
    ``block`` has one entry per slot (or row) that ``order`` names; those with
    ``block[r] == j`` are left out of jackknife value ``j``. Returns float64
    ``(n_blocks, n_models)``.
    """
    order, ps, ns, offsets, seg_offsets, seg_end = curves
    n = block.size
    out = np.empty((n_blocks, n_models))
    for j in prange(n_blocks):
        cnt = np.ones(n)
        for r in range(n):
            if block[r] == j:
                cnt[r] = 0.0
        for mdl in range(n_models):
            c = first_curve + mdl
            u = offsets[c]
            v = offsets[c + 1]
            out[j, mdl] = _walk_area(
                order[u:v],
                seg_end[seg_offsets[c] : seg_offsets[c + 1]],
                ps[u:v],
                ns[u:v],
                cnt,
                method,
                hull,
            )
    return out
