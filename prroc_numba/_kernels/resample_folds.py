"""Bootstrap replicates of cross-validation folds: one walk per pooled curve.

A fold plan (:func:`prroc_numba._resampling.plan.fold_plan`) holds, per group and model,
the pooled curve (all the group's rows) and one curve per fold (the fold's rows), each
sorted once and cut into segments (:mod:`.resample`). The sort is stable and a fold's
rows keep their pooled order, so a fold's sorted rows are the pooled sorted rows of
that fold, in the same order. A replicate therefore walks each pooled curve once:
every row adds its count to its fold's running counts (and, with masses, to the
pooled ones), and at each pooled segment end the pooled vertex and the vertices of
the fold segments that ended inside it are emitted. Every curve gets the very
vertices that its own walk (:func:`.resample._walk_vertices`) gives, summed in the
same order: the same results, each row visited once instead of twice.

Per pooled curve, in sorted order, ``mark`` is ``2 * fold`` of every row, plus 1 for
a negative row under hard labels (so a row's count goes to ``acc[mark]``: its fold's
positive or negative count; uint32, as unsigned indices skip the negative-index
check); ``ev_fold[ev_offsets[s]:ev_offsets[s + 1]]`` are the folds whose segments end
in pooled segment ``s`` (:func:`prroc_numba._resampling.plan._fold_marks`).
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .resample import _emit, _item_counts


@jit
def _walk_folds(slots, ps, ns, seg_end, events, hard, cnt, mark, tp, fp, ftp, ffp, fstart, nv):
    """One replicate's vertices of a pooled curve (into ``tp``/``fp``; returns their
    number) and of its folds' curves (fold ``j`` into ``ftp``/``ffp`` from
    ``fstart[j]``, origin first; ``nv[j]``: its last vertex, counted from there).

    Sorted row ``i`` has slot ``slots[i]`` (count ``cnt[slots[i]]``) and mark
    ``mark[i]``; ``events = (ev_offsets, ev_fold)``: the folds whose segments end at
    each pooled segment end (module docstring). ``hard``: the mark holds the row's
    class and the running counts are integers (sums in any order are exact); else
    the rows' masses ``ps``/``ns``, summed row by row in sorted order for the pooled
    curve and for each fold, as their own walks sum them. A segment -- pooled or a
    fold's -- that drew nothing adds no vertex.
    """
    ev_offsets, ev_fold = events
    V = nv.size
    for j in range(V):
        ftp[fstart[j]] = 0.0
        ffp[fstart[j]] = 0.0
        nv[j] = 0
    tp[0] = 0.0
    fp[0] = 0.0
    acc = np.zeros(2 * V)  # fold j's running positive, negative mass at 2 j, 2 j + 1
    x = 0.0
    y = 0.0
    i = 0
    v = 0
    for s in range(seg_end.size):
        e = seg_end[s]
        if hard:
            while i < e:
                acc[mark[i]] += cnt[slots[i]]
                i += 1
            x = 0.0
            y = 0.0
            for j in range(V):
                x += acc[2 * j]
                y += acc[2 * j + 1]
        else:
            while i < e:
                j = mark[i]
                w = cnt[slots[i]]
                x += w * ps[i]
                y += w * ns[i]
                acc[j] += w * ps[i]
                acc[j + 1] += w * ns[i]
                i += 1
        if x != tp[v] or y != fp[v]:
            v += 1
            tp[v] = x
            fp[v] = y
        for q in range(ev_offsets[s], ev_offsets[s + 1]):
            j = 2 * ev_fold[q]
            a = fstart[j >> 1] + nv[j >> 1]
            if acc[j] != ftp[a] or acc[j + 1] != ffp[a]:
                nv[j >> 1] += 1
                ftp[a + 1] = acc[j]
                ffp[a + 1] = acc[j + 1]
    return v + 1


@jit
def _boot_folds(rows, folds, draw, seed, b0, b1, spec, out, t0, t1):
    """:func:`.resample._boot_paired` for a fold plan: the same items, counts, curves
    and outputs, but each replicate walks only the pooled curves
    (:func:`_walk_folds`), which give their folds' vertices too.

    ``rows`` and ``draw`` as in :func:`.resample._boot_paired` (``rows[6]``: curves
    per group, ``n_models * (1 + n_folds)``: the pooled curves, then fold by fold each
    model's); ``folds = (mark, mark_offsets, seg_base, ev_offsets, ev_fold, n_models,
    n_folds)`` (:func:`prroc_numba._resampling.plan._fold_marks`): pooled curve ``k = g *
    n_models + m``'s marks are ``mark[mark_offsets[k]:mark_offsets[k + 1]]`` and its
    segments' events start at ``ev_offsets[seg_base[k]]``.
    """
    slot_order, ps, ns, offsets, seg_offsets, seg_end, per_group = rows
    mark, mark_offsets, seg_base, ev_offsets, ev_fold, n_models, V = folds
    hard = draw[5]
    fstart = np.empty(V + 1, dtype=np.int64)
    nv = np.empty(V, dtype=np.int64)
    for t in range(t0, t1):
        g, b, cnt = _item_counts(draw, seed, t, b0, b1)
        if cnt.size == 0:
            continue
        buf = np.empty(spec[2].size)
        for mdl in range(n_models):
            c = g * per_group + mdl
            fstart[0] = 0
            for j in range(V):
                cf = c + (1 + j) * n_models
                fstart[j + 1] = fstart[j] + seg_offsets[cf + 1] - seg_offsets[cf] + 1
            ftp = np.empty(fstart[V])
            ffp = np.empty(fstart[V])
            se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
            tp = np.empty(se.size + 1)
            fp = np.empty(se.size + 1)
            u = offsets[c]
            n = offsets[c + 1] - u
            k = g * n_models + mdl
            m0 = mark_offsets[k]
            e0 = seg_base[k]
            nvp = _walk_folds(
                slot_order[u : u + n],
                ps[u : u + n],
                ns[u : u + n],
                se,
                (ev_offsets[e0 : e0 + se.size + 1], ev_fold),
                hard,
                cnt,
                mark[m0 : m0 + n],
                tp,
                fp,
                ftp,
                ffp,
                fstart,
                nv,
            )
            _emit(tp[:nvp], fp[:nvp], spec, buf, out, c, b)
            for j in range(V):
                a = fstart[j]
                e = a + nv[j] + 1
                _emit(ftp[a:e], ffp[a:e], spec, buf, out, c + (1 + j) * n_models, b)


@jit
def _fold_marks_range(curves, fold_rows, n_pos_slots, hard, M, V, out, k0, k1):
    """The marks and events (module docstring) of pooled curves ``k0 .. k1 - 1`` of a
    fold plan, in one pass over each pooled curve's sorted rows.

    ``curves = (order, slot_order, offsets, seg_offsets, seg_end, group_offsets)``:
    the plan's sorted curves (curve ``g M (1 + V) + m`` is pooled curve ``k = g M +
    m``; its fold ``j``'s curve follows ``(1 + j) M`` curves later), ``order`` in
    each curve's local rows; ``fold_rows``: the fold of every label row; ``hard``:
    marks carry the class too (slots from ``n_pos_slots[g]`` on are negatives).
    ``out = (mark, mark_offsets, seg_base, ev_base, ev_offsets, ev_fold)``: pooled
    curve ``k``'s marks from ``mark_offsets[k]``, its segments from ``seg_base[k]``
    in ``ev_offsets`` (where each segment's events start), its events from
    ``ev_base[k]`` in ``ev_fold``.

    The ``r``-th row of fold ``j`` in pooled order is the ``r``-th of fold ``j``'s own
    sorted curve (a stable sort of the same rows), so the row where that rank reaches
    fold ``j``'s next segment end ends that segment.
    """
    order, slot_order, offsets, seg_offsets, seg_end, group_offsets = curves
    mark, mark_offsets, seg_base, ev_base, ev_offsets, ev_fold = out
    per_group = M * (1 + V)
    rank = np.empty(V, dtype=np.int64)
    nxt = np.empty(V, dtype=np.int64)
    for k in range(k0, k1):
        g = k // M
        c = g * per_group + k - g * M
        u = offsets[c]
        gs = group_offsets[g]
        n_pos = n_pos_slots[g]
        for j in range(V):
            rank[j] = 0
            nxt[j] = seg_offsets[c + (1 + j) * M]
        q = ev_base[k]
        mo = mark_offsets[k]
        s0 = seg_offsets[c]
        i = 0
        for s in range(seg_offsets[c + 1] - s0):
            ev_offsets[seg_base[k] + s] = q
            e = seg_end[s0 + s]
            while i < e:
                j = fold_rows[gs + order[u + i]]
                mark[mo + i] = 2 * j + (1 if hard and slot_order[u + i] >= n_pos else 0)
                rank[j] += 1
                if nxt[j] < seg_offsets[c + (1 + j) * M + 1] and seg_end[nxt[j]] == rank[j]:
                    ev_fold[q] = j
                    q += 1
                    nxt[j] += 1
                i += 1
