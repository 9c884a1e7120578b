"""Grouped bootstrap replicates: segment counts drawn directly (one model per group).

With one model per group and unweighted 0/1 labels (see :mod:`.resample` for the
segments), the multinomial counts per segment are drawn directly -- Poisson draws from
precomputed inversion tables plus an exact fix-up, conditional binomials, or row draws
where cells are small (:func:`.rng._multinomial_stratum`) -- so a replicate costs
O(segments), i.e. O(positive-bearing blocks), not O(rows) (:func:`_boot_grouped`).

Random numbers come from :mod:`.rng`: stream ``(seed, group, replicate)``, so results do
not depend on the thread count or on how replicates are chunked.
"""

from __future__ import annotations

import numpy as np

from .._numba import jit
from .resample import _emit
from .rng import (
    _multinomial_stratum,
    _next_cell,
    _stream,
)


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


@jit
def _boot_grouped(segs, draw, seed, b0, b1, spec, out, t0, t1):
    """Replicates ``b0 .. b1-1`` of every curve by segment-count draws (one model per
    group, unweighted 0/1 labels: ``sp``/``sn`` are row counts): items ``t0 .. t1-1``
    of the (curve, replicate) pairs ``t = c * (b1 - b0) + (b - b0)``, so the thread pool
    (:func:`.threads.run_items`) runs chunks of them; a serial kernel compiles seconds
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
