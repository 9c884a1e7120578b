"""Bootstrap replicates without re-sorting: a replicate is a vector of counts.

Each curve is sorted once (:func:`_segments_batch`) and cut into **segments** along its
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
  soft labels): one row-count vector per group and replicate (as many uniform row
  indices per stratum as it has rows), reused for every model of the group, then one
  pass over each model's sorted rows. Memory per thread is O(rows of a group), never O(B x N).

Random numbers come from :mod:`.rng`: stream ``(seed, group, replicate)``, so results do
not depend on the thread count or on how replicates are chunked.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .area import _area_of_sweep
from .grid import _precision_on_grid
from .layout import _offsets_from_counts
from .rng import (
    _GAMMA,
    _S11,
    _TWO_M53,
    _binomial,
    _mix64,
    _multinomial_stratum,
    _stream,
)
from .sort import _argsort_desc

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


@jit(parallel=True)
def _segments_batch(values, offsets, pos, neg, label_start):
    """Sort every curve once and cut it into segments.

    Returns ``(order, ps, ns, seg_offsets, seg_end, sp, sn)``:
    ``order[offsets[c]:offsets[c+1]]`` is curve ``c``'s descending argsort (local row
    indices) and ``ps``/``ns`` its rows' positive / negative mass in that order; its
    segments are ``[seg_offsets[c]:seg_offsets[c+1]]`` with exclusive end positions
    ``seg_end`` (in sorted order) and positive / negative mass ``sp`` / ``sn``.
    """
    n_curves = offsets.size - 1
    order = np.empty(values.size, dtype=np.int64)
    ps = np.empty(values.size)
    ns = np.empty(values.size)
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        o = _argsort_desc(values[a:b])
        order[a:b] = o
        for i in range(b - a):
            ps[a + i] = pos[ls + o[i]]
            ns[a + i] = neg[ls + o[i]]
        counts[c] = _count_segments(values[a:b], pos[ls : ls + b - a], o)
    seg_offsets = _offsets_from_counts(counts)
    total = seg_offsets[n_curves]
    seg_end = np.empty(total, dtype=np.int64)
    sp = np.empty(total)
    sn = np.empty(total)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        u = seg_offsets[c]
        v = seg_offsets[c + 1]
        _fill_segments(
            values[a:b],
            pos[ls : ls + b - a],
            neg[ls : ls + b - a],
            order[a:b],
            seg_end[u:v],
            sp[u:v],
            sn[u:v],
        )
    return order, ps, ns, seg_offsets, seg_end, sp, sn


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
            if ki <= 0.0 or n_rem == 0:
                x = 0
            elif ki >= k_rem:
                x = n_rem
            else:
                x = _binomial(st, n_rem, ki / k_rem)
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


@jit(parallel=True)
def _boot_grouped_curve(
    seg_offsets, sp, sn, curves, groups, seed, b0, b1, stratified, grid, hull, lp, ln, tabs, out
):
    """Like :func:`_boot_grouped`, but each replicate's PR curve interpolated onto the
    recall ``grid``: writes ``out[k, b - b0, :]``.
    """
    nc = curves.size
    nb = b1 - b0
    for t in prange(nc * nb):
        k = t // nb
        j = t - k * nb
        tp, fp = _grouped_replicate(
            seg_offsets, sp, sn, curves[k], groups[k], seed, b0 + j, stratified, lp, ln, tabs
        )
        _precision_on_grid(tp, fp, grid, out[k, j], hull)


@jit(parallel=True)
def _boot_grouped(
    seg_offsets, sp, sn, curves, groups, seed, b0, b1, stratified, method, hull, lp, ln, tabs, out
):
    """Replicates ``b0 .. b1-1`` of the curves ``curves`` (group ids ``groups``).

    Requires unweighted 0/1 labels (``sp``/``sn`` are row counts). Writes
    ``out[k, b - b0]`` for ``curves[k]``.
    """
    nc = curves.size
    nb = b1 - b0
    for t in prange(nc * nb):
        k = t // nb
        j = t - k * nb
        tp, fp = _grouped_replicate(
            seg_offsets, sp, sn, curves[k], groups[k], seed, b0 + j, stratified, lp, ln, tabs
        )
        out[k, j] = _area_of_sweep(tp, fp, method, hull)


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


@jit
def _walk_area_hard(slots, seg_end, n_pos, cnt, method, hull):
    """:func:`_walk_area` for unweighted 0/1 labels (see :func:`_walk_vertices_hard`)."""
    tp = np.empty(seg_end.size + 1)
    fp = np.empty(seg_end.size + 1)
    v = _walk_vertices_hard(slots, seg_end, n_pos, cnt, tp, fp)
    return _area_of_sweep(tp[:v], fp[:v], method, hull)


@jit
def _fill_slot_counts(st, strata_offsets, n_strata, g, cnt):
    """Add one bootstrap draw of group ``g``'s rows to ``cnt``.

    The group's rows are numbered by **slot**: stratum by stratum, in the order of
    ``strata_offsets`` (``[strata_offsets[g*n_strata+s] : ...+1]`` is stratum ``s``,
    counted from the group's first slot). Each stratum gets as many uniform draws, with
    replacement, as it has rows. The stream state is kept in a register for speed.
    """
    _fill_slot_lane(st, strata_offsets, n_strata, g, cnt, np.int64(1), np.int64(0))


@jit
def _fill_slot_lane(st, strata_offsets, n_strata, g, cnt, stride, lane):
    """:func:`_fill_slot_counts` into lane ``lane`` of interleaved counts: slot ``q``'s
    count is ``cnt[q * stride + lane]`` (``stride`` 1, ``lane`` 0: one plain vector).
    """
    base = strata_offsets[g * n_strata]
    z = st[0]
    for s in range(n_strata):
        u0 = strata_offsets[g * n_strata + s] - base
        L = strata_offsets[g * n_strata + s + 1] - strata_offsets[g * n_strata + s]
        Lf = np.float64(L)
        for _ in range(L):
            z = z + _GAMMA
            k = np.int64(np.float64(_mix64(z) >> _S11) * _TWO_M53 * Lf)
            if k >= L:
                k = L - 1
            cnt[(u0 + k) * stride + lane] += 1
    st[0] = z


#: replicates walked side by side in one pass over a model's sorted rows (the lanes of
#: :func:`_walk_block`); a compile-time constant, so the lane loops unroll
_LANES = 8  # the hard-label walk below is written out for exactly 8


@jit
def _walk_block(slots, seg_end, ps, ns, hard, n_pos, cnt, nl, tp, fp, nv):
    """:func:`_walk_vertices` (or :func:`_walk_vertices_hard` with ``hard``) of ``nl``
    replicates at once, in one pass over the sorted rows.

    Slot ``q``'s count in replicate (lane) ``r`` is ``cnt[q * _LANES + r]``, so a row's
    counts for every lane are one cache line. Lane ``r``'s vertices go to
    ``tp[r * m : r * m + nv[r]]`` (``m = seg_end.size + 1``), their number to ``nv[r]``.
    Each lane does exactly the operations, in the same order, as the one-replicate walk,
    so the vertices are bit-identical to it.
    """
    m = seg_end.size + 1
    ti = np.zeros(_LANES, dtype=np.int64)
    fi = np.zeros(_LANES, dtype=np.int64)
    tf = np.zeros(_LANES)
    ff = np.zeros(_LANES)
    for r in range(nl):
        tp[r * m] = 0.0
        fp[r * m] = 0.0
        nv[r] = 0
    i = 0
    for s in range(seg_end.size):
        e = seg_end[s]
        if hard:
            # eight scalar accumulators per class (registers), branch-free per row
            t0, t1, t2, t3, t4, t5, t6, t7 = ti[0], ti[1], ti[2], ti[3], ti[4], ti[5], ti[6], ti[7]
            f0, f1, f2, f3, f4, f5, f6, f7 = fi[0], fi[1], fi[2], fi[3], fi[4], fi[5], fi[6], fi[7]
            while i < e:
                q = slots[i]
                base = q * _LANES
                p = np.int64(q < n_pos)
                c0 = np.int64(cnt[base])
                c1 = np.int64(cnt[base + 1])
                c2 = np.int64(cnt[base + 2])
                c3 = np.int64(cnt[base + 3])
                c4 = np.int64(cnt[base + 4])
                c5 = np.int64(cnt[base + 5])
                c6 = np.int64(cnt[base + 6])
                c7 = np.int64(cnt[base + 7])
                t0 += p * c0
                t1 += p * c1
                t2 += p * c2
                t3 += p * c3
                t4 += p * c4
                t5 += p * c5
                t6 += p * c6
                t7 += p * c7
                f0 += c0 - p * c0
                f1 += c1 - p * c1
                f2 += c2 - p * c2
                f3 += c3 - p * c3
                f4 += c4 - p * c4
                f5 += c5 - p * c5
                f6 += c6 - p * c6
                f7 += c7 - p * c7
                i += 1
            ti[0], ti[1], ti[2], ti[3], ti[4], ti[5], ti[6], ti[7] = t0, t1, t2, t3, t4, t5, t6, t7
            fi[0], fi[1], fi[2], fi[3], fi[4], fi[5], fi[6], fi[7] = f0, f1, f2, f3, f4, f5, f6, f7
            for r in range(nl):
                v = nv[r]
                if ti[r] != tp[r * m + v] or fi[r] != fp[r * m + v]:
                    v += 1
                    tp[r * m + v] = ti[r]
                    fp[r * m + v] = fi[r]
                    nv[r] = v
        else:
            while i < e:
                base = slots[i] * _LANES
                a = ps[i]
                b = ns[i]
                for r in range(_LANES):
                    w = cnt[base + r]
                    tf[r] += w * a
                    ff[r] += w * b
                i += 1
            for r in range(nl):
                v = nv[r]
                if tf[r] != tp[r * m + v] or ff[r] != fp[r * m + v]:
                    v += 1
                    tp[r * m + v] = tf[r]
                    fp[r * m + v] = ff[r]
                    nv[r] = v
    for r in range(nl):
        nv[r] += 1


@jit(parallel=True)
def _boot_paired(
    slot_order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    strata_offsets,
    n_strata,
    n_models,
    groups,
    seed,
    b0,
    b1,
    method,
    hull,
    count_type,
    hard,
    n_pos_slots,
    block,
    out,
):
    """Replicates ``b0 .. b1-1`` of every model of the groups ``groups``.

    Per group and replicate one slot-count vector is drawn (:func:`_fill_slot_lane`,
    stream ``(seed, group, replicate)``) and reused for all ``n_models`` curves of the
    group (curve ``g * n_models + model``); ``slot_order`` gives the slot of each
    curve's sorted rows (rows of zero weight point at an extra slot that is never
    drawn). Writes ``out[k * n_models + model, b - b0]``.

    Replicates are taken ``block`` (1 to ``_LANES``) at a time: their count vectors are
    interleaved and each model's sorted rows are walked once per block
    (:func:`_walk_block`), not once per replicate. Every replicate keeps its own
    stream and its own operations, so results are bit-identical whatever ``block``
    and the thread count. Memory per thread: one ``_LANES x (rows of the group + 1)``
    count array and ``_LANES x (segments + 1)`` vertices, never O(B x N).

    Counts are held in an array like ``count_type`` (a length-0 array): ``uint16`` when
    no stratum has more than 65,535 rows (a count never exceeds its stratum's size), so
    the counts that every model gathers from stay small in cache; ``int32`` otherwise.
    With ``hard`` (unweighted 0/1 labels) slots ``[0, n_pos_slots[g])`` are the
    positives, so the walk reads only the slot numbers, not the masses.
    """
    ng = groups.size
    nb = b1 - b0
    n_blk = (nb + block - 1) // block
    for t in prange(ng * n_blk):
        k = t // n_blk
        j0 = (t - k * n_blk) * block
        nl = min(block, nb - j0)
        g = groups[k]
        n_slots = strata_offsets[(g + 1) * n_strata] - strata_offsets[g * n_strata]
        cnt = np.zeros((n_slots + 1) * _LANES, dtype=count_type.dtype)
        for r in range(nl):
            st = _stream(seed, g, b0 + j0 + r)
            _fill_slot_lane(st, strata_offsets, n_strata, g, cnt, np.int64(_LANES), np.int64(r))
        nv = np.empty(_LANES, dtype=np.int64)
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
            m = se.size + 1
            tp = np.empty(m * _LANES)
            fp = np.empty(m * _LANES)
            _walk_block(
                slot_order[u:v], se, ps[u:v], ns[u:v], hard, n_pos_slots[g], cnt, nl, tp, fp, nv
            )
            for r in range(nl):
                out[k * n_models + mdl, j0 + r] = _area_of_sweep(
                    tp[r * m : r * m + nv[r]], fp[r * m : r * m + nv[r]], method, hull
                )


@jit(parallel=True)
def _boot_paired_curve(
    slot_order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    strata_offsets,
    n_strata,
    n_models,
    groups,
    seed,
    b0,
    b1,
    grid,
    hull,
    count_type,
    hard,
    n_pos_slots,
    out,
):
    """Like :func:`_boot_paired`, but each replicate's PR curve interpolated onto the
    recall ``grid``: writes ``out[k * n_models + model, b - b0, :]``.
    """
    ng = groups.size
    nb = b1 - b0
    for t in prange(ng * nb):
        k = t // nb
        j = t - k * nb
        g = groups[k]
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
            if hard:
                nv = _walk_vertices_hard(slot_order[u:v], se, n_pos_slots[g], cnt, tp, fp)
            else:
                nv = _walk_vertices(slot_order[u:v], se, ps[u:v], ns[u:v], cnt, tp, fp)
            _precision_on_grid(tp[:nv], fp[:nv], grid, out[k * n_models + mdl, j], hull)


@jit(parallel=True)
def _jackknife_group(
    order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    first_curve,
    n_models,
    block,
    n_blocks,
    method,
    hull,
):
    """Delete-a-block jackknife of the ``n_models`` curves of one group.

    ``block`` has one entry per row of the group; rows with ``block[r] == j`` are left
    out of jackknife value ``j``. Returns float64 ``(n_blocks, n_models)``.
    """
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
