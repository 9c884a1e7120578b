"""Paired replicates in blocks of eight: one pass over a model's sorted rows serves
eight replicates.

The paired walk of :func:`.resample._boot_paired` reads, for every replicate and every
model, each sorted row's slot and then that slot's count: a random read into the
group's count vector per row, replicate and model. Here one item is a **block** of up
to :data:`LANES` replicates of one group: their counts are drawn into one vector of
``uint64`` words, one per slot, whose byte ``r`` is the slot's count in replicate ``r``
of the block (the same streams, draws and counts as :func:`.resample._fill_counts`).
Each model's walk then reads one slot number and one word per sorted row and adds the
word's eight bytes into eight 32-bit lanes of four ``uint64`` accumulators for all
rows, and through a mask of the row's class into four more for the positives -- eight
replicates' running counts with a few integer instructions and no branch per row. At
every segment end the eight accumulators are written to the block's vertex table, and
each replicate reads its vertices (its lane) back from it for the estimators
(:func:`.resample._emit`).

Integer arithmetic throughout, and each replicate's vertices are exactly those of the
one-replicate walk, so the areas are bit-identical to :func:`.resample._boot_paired`'s
for the same seed, whatever the block or thread layout.

A lane holds a slot's count in one byte: a count above ``cap`` (255, or less where a
test lowers it) sets ``wrapped[0]`` and the block stops; the caller then re-runs the
chunk with the one-replicate walk and wide counts (the same streams, so the same
replicates). Multinomial and Poisson(1) counts above 255 do not occur in practice
(a slot drawn 256 times among ``n`` draws over ``n`` slots).
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit
from .area import AP, ROC_TRAPEZOID
from .poisson import poisson_count_cpu, replicate_key_cpu
from .resample import MULTINOMIAL, _emit, _slot_draw, _stratum
from .rng import _GAMMA, _stream

#: replicates per block: one byte each in a ``uint64`` word per slot
LANES = 8

_LOW = np.uint64(0x000000FF000000FF)  # bytes 0 and 4 of a word, as two 32-bit lanes
_LANE = np.uint64(0xFFFFFFFF)
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_S8 = np.uint64(8)
_S16 = np.uint64(16)
_S24 = np.uint64(24)
_S32 = np.uint64(32)
_BYTE = np.uint64(0xFF)


@jit
def _fill_block_counts(draw, seed, g, b, nr, cap, words):
    """Slot counts of group ``g`` in replicates ``b .. b + nr - 1`` into the bytes of
    ``words`` (zeroed; byte ``r`` of word ``s``: slot ``s`` in replicate ``b + r``).
    Returns False when a count would exceed ``cap`` (``words`` then incomplete).
    ``draw`` as in :func:`.resample._boot_paired` (multinomial or Poisson kinds).
    """
    kind, strata_offsets, n_strata, slot_ids = draw[0], draw[1], draw[2], draw[3]
    base = strata_offsets[g * n_strata]
    capw = np.uint64(cap)
    for r in range(nr):
        sh = np.uint64(8 * r)
        one = np.uint64(1) << sh
        if kind == MULTINOMIAL:
            z = _stream(seed, g, b + r)[0]
            for s in range(n_strata):
                u0, L = _stratum(strata_offsets, n_strata, g, s, base)
                Lf = np.float64(L)
                for _ in range(L):
                    z = z + _GAMMA
                    q = u0 + _slot_draw(z, Lf, L)
                    w = words[q]
                    if (w >> sh) & _BYTE >= capw:
                        return False
                    words[q] = w + one
        else:  # POISSON
            key = replicate_key_cpu(seed, b + r)
            n_slots = strata_offsets[(g + 1) * n_strata] - base
            for s in range(n_slots):
                k = np.uint64(poisson_count_cpu(key, slot_ids[base + s]))
                if k > capw:
                    return False
                words[s] |= k << sh
    return True


@jit
def _walk_block(slots, seg_end, n_pos, words, tab):
    """One pass over a curve's sorted rows for a block's replicates: ``tab[s]`` gets,
    at the end of segment ``s``, the running positive counts (words 0-3) and the
    running counts of all rows (words 4-7) of the eight replicates, replicate ``r`` in
    the 32-bit lane ``r // 4`` of word ``r % 4`` (and ``4 + r % 4``).
    """
    t0 = t1 = t2 = t3 = np.uint64(0)
    a0 = a1 = a2 = a3 = np.uint64(0)
    npos = np.int64(n_pos)
    i = 0
    for s in range(seg_end.size):
        e = seg_end[s]
        while i < e:
            q = slots[i]
            w = words[q]
            x0 = w & _LOW
            x1 = (w >> _S8) & _LOW
            x2 = (w >> _S16) & _LOW
            x3 = (w >> _S24) & _LOW
            a0 += x0
            a1 += x1
            a2 += x2
            a3 += x3
            m = _ONES if q < npos else np.uint64(0)
            t0 += x0 & m
            t1 += x1 & m
            t2 += x2 & m
            t3 += x3 & m
            i += 1
        tab[s, 0] = t0
        tab[s, 1] = t1
        tab[s, 2] = t2
        tab[s, 3] = t3
        tab[s, 4] = a0
        tab[s, 5] = a1
        tab[s, 6] = a2
        tab[s, 7] = a3


@jit
def _lane_vertices(tab, nr, tp, fp, nv):
    """The block's replicates' vertices from its table (:func:`_walk_block`), in one
    pass: replicate ``r``'s into ``tp[r, :nv[r]]``, ``fp[r, :nv[r]]``, origin first; a
    segment that drew no row adds no vertex (written, then overwritten: no branch).
    """
    for r in range(nr):
        tp[r, 0] = 0.0
        fp[r, 0] = 0.0
        nv[r] = 0
    for s in range(tab.shape[0]):
        for r in range(nr):
            word = r & 3
            sh = _S32 * np.uint64(r >> 2)
            t = np.int64((tab[s, word] >> sh) & _LANE)
            f = np.int64((tab[s, 4 + word] >> sh) & _LANE) - t
            v = nv[r]
            tp[r, v + 1] = t
            fp[r, v + 1] = f
            nv[r] = v + (t != tp[r, v] or f != fp[r, v])
    for r in range(nr):
        nv[r] += 1


@jit
def _lane_ap_roc(tab, nr, roc, res):
    """Average precision (``roc`` false) or the ROC trapezoid area of the block's
    replicates straight from its table, into ``res[:nr]``: the same terms, in the same
    order and with the same floating-point operations as :func:`.area._area` over each
    replicate's vertices (a segment that drew no row adds an exact zero, as its missing
    vertex adds nothing there), without building the vertices.
    """
    pt = np.zeros(LANES)
    pa = np.zeros(LANES)
    for r in range(LANES):
        res[r] = 0.0
    for s in range(tab.shape[0]):
        if not roc and s > 0:
            # AP: a segment where no replicate drew a positive adds nothing
            if (
                tab[s, 0] == tab[s - 1, 0]
                and tab[s, 1] == tab[s - 1, 1]
                and tab[s, 2] == tab[s - 1, 2]
                and tab[s, 3] == tab[s - 1, 3]
            ):
                continue
        for r in range(nr):
            word = r & 3
            sh = _S32 * np.uint64(r >> 2)
            t = np.float64(np.int64((tab[s, word] >> sh) & _LANE))
            a = np.float64(np.int64((tab[s, 4 + word] >> sh) & _LANE))
            if roc:  # (fb - fa) * (tb + ta)
                res[r] += ((a - t) - (pa[r] - pt[r])) * (t + pt[r])
            else:  # (tb - ta) * tb / (tb + fb); 0 at the origin (a == 0 -> t == 0)
                res[r] += (t - pt[r]) * (t / max(a, 1.0))
            pt[r] = t
            pa[r] = a
    for r in range(nr):
        P = pt[r]
        N = pa[r] - pt[r]
        if roc:
            res[r] = 0.5 * res[r] / (P * N) if P > 0.0 and N > 0.0 else np.nan
        else:
            res[r] = res[r] / P if P > 0.0 else np.nan


@jit
def _boot_paired_blocks(rows, draw, seed, b0, b1, spec, out, t0, t1):
    """Replicates ``b0 .. b1-1`` of every curve, :data:`LANES` per block: items
    ``t0 .. t1-1`` of the (group, block) pairs ``t = g * n_blocks + k``, block ``k``
    holding replicates ``b0 + k * LANES ..`` (run in chunks by
    :func:`prroc_numba._drivers.threads.run_items`; each block is one thread's alone).

    ``rows`` and ``spec``/``out`` as in :func:`.resample._boot_paired` (hard 0/1 labels:
    the walk reads slot numbers only); ``draw`` as there, with ``cap`` appended: the
    largest count a byte lane may hold. A larger count sets ``wrapped`` (``draw[7]``)
    and the caller re-runs the chunk with :func:`.resample._boot_paired`.
    """
    slot_order, offsets, seg_offsets, seg_end, n_models = (
        rows[0],
        rows[3],
        rows[4],
        rows[5],
        rows[6],
    )
    strata_offsets, n_strata, n_pos_slots, wrapped, cap = (
        draw[1],
        draw[2],
        draw[4],
        draw[7],
        draw[8],
    )
    nb = (b1 - b0 + LANES - 1) // LANES
    buf = np.empty(spec[2].size)
    method = spec[0]
    fused = spec[2].size == 0 and not spec[1] and (method == AP or method == ROC_TRAPEZOID)
    res = np.empty(LANES)
    nv = np.empty(LANES, dtype=np.int64)
    for t in range(t0, t1):
        g = t // nb
        k = t - g * nb
        b = b0 + k * LANES
        nr = min(LANES, b1 - b)
        n_slots = strata_offsets[(g + 1) * n_strata] - strata_offsets[g * n_strata]
        words = np.zeros(n_slots + 1, dtype=np.uint64)
        if not _fill_block_counts(draw, seed, g, b, nr, cap, words):
            wrapped[0] = 1
            return
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
            tab = np.empty((se.size, 8), dtype=np.uint64)
            _walk_block(slot_order[u:v], se, n_pos_slots[g], words, tab)
            if fused:
                _lane_ap_roc(tab, nr, method == ROC_TRAPEZOID, res)
                for r in range(nr):
                    out[c, 0, b + r] = res[r]
                continue
            tp = np.empty((LANES, se.size + 1))
            fp = np.empty((LANES, se.size + 1))
            _lane_vertices(tab, nr, tp, fp, nv)
            for r in range(nr):
                _emit(tp[r, : nv[r]], fp[r, : nv[r]], spec, buf, out, c, b + r)
