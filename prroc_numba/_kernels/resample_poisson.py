"""Poisson bootstrap replicates (``resampling="poisson"``), in memory and from tables.

In replicate ``b`` every row carries the count ``poisson_count(replicate_key(seed, b),
row_id)`` of :mod:`.poisson`, where ``row_id`` is the row's position in the user's
input. The count depends on nothing else, so every model of a wide input, every
partition of a Dask frame and every device gives a row the same count: comparisons
stay paired and the engines agree bit for bit on the counts.

* :func:`_boot_poisson` / :func:`_boot_poisson_curve` -- in memory: each curve is sorted
  once (:func:`.resample._segments_batch`); per (group, replicate) the group's counts
  are computed into one slot-count vector (the layout of the multinomial paired draws)
  and every model's sorted rows are walked with it (:func:`.resample._walk_area`, the
  areas of :mod:`.area`). Memory per thread is O(rows of a group).
* :func:`_poisson_masses` -- per (curve, distinct score) entry of a table, the
  replicate-weighted positive and negative mass of its rows (the Dask partitions'
  mergeable state: entries x replicates).
* :func:`_table_areas` / :func:`_table_curves` -- replicates' areas / grid precisions
  from merged entry masses (one curve's entries in descending score order).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .area import _area_of_sweep
from .grid import _precision_on_grid
from .poisson import poisson_count_cpu, replicate_key_cpu
from .resample import _walk_area, _walk_vertices


@jit
def _slot_counts(key, slot_ids, cnt):
    """``cnt[s] = poisson_count(key, slot_ids[s])``: the multiplicity of slot ``s``; the
    extra last slot (rows of zero weight) stays 0. uint16, like the multinomial paired
    draws' counts, so the walks compile once for both.
    """
    for s in range(slot_ids.size):
        cnt[s] = poisson_count_cpu(key, slot_ids[s])
    cnt[slot_ids.size] = 0


@jit(parallel=True)
def _boot_poisson(
    slot_order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    slot_offsets,
    slot_ids,
    n_models,
    seed,
    b0,
    b1,
    method,
    hull,
    out,
):
    """Replicates ``b0 .. b1-1`` of every curve: writes ``out[c, b - b0]``.

    The rows of group ``g`` that carry weight are its slots; slot ``s`` is input row
    ``slot_ids[slot_offsets[g] + s]`` and ``slot_order`` gives the slot of each curve's
    sorted rows (see :func:`.resample._boot_paired`, whose walks this reuses).
    """
    G = slot_offsets.size - 1
    nb = b1 - b0
    for t in prange(G * nb):
        g = t // nb
        j = t - g * nb
        a = slot_offsets[g]
        e = slot_offsets[g + 1]
        cnt = np.empty(e - a + 1, dtype=np.uint16)
        _slot_counts(replicate_key_cpu(seed, b0 + j), slot_ids[a:e], cnt)
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            out[c, j] = _walk_area(
                slot_order[u:v],
                seg_end[seg_offsets[c] : seg_offsets[c + 1]],
                ps[u:v],
                ns[u:v],
                cnt,
                method,
                hull,
            )


@jit(parallel=True)
def _boot_poisson_curve(
    slot_order,
    ps,
    ns,
    offsets,
    seg_offsets,
    seg_end,
    slot_offsets,
    slot_ids,
    n_models,
    seed,
    b0,
    b1,
    grid,
    hull,
    out,
):
    """Like :func:`_boot_poisson`, each replicate's PR curve on the recall ``grid``:
    writes ``out[c, b - b0, :]``.
    """
    G = slot_offsets.size - 1
    nb = b1 - b0
    for t in prange(G * nb):
        g = t // nb
        j = t - g * nb
        a = slot_offsets[g]
        e = slot_offsets[g + 1]
        cnt = np.empty(e - a + 1, dtype=np.uint16)
        _slot_counts(replicate_key_cpu(seed, b0 + j), slot_ids[a:e], cnt)
        for mdl in range(n_models):
            c = g * n_models + mdl
            u = offsets[c]
            v = offsets[c + 1]
            se = seg_end[seg_offsets[c] : seg_offsets[c + 1]]
            tp = np.empty(se.size + 1)
            fp = np.empty(se.size + 1)
            nv = _walk_vertices(slot_order[u:v], se, ps[u:v], ns[u:v], cnt, tp, fp)
            _precision_on_grid(tp[:nv], fp[:nv], grid, out[c, j], hull)


@jit(parallel=True)
def _poisson_masses(starts, rows, pos, neg, seed, n_boot):
    """Replicate-weighted masses of table entries.

    Entry ``e`` holds rows ``[starts[e]:starts[e+1]]`` (input row ids ``rows``, masses
    ``pos``/``neg``). Returns float64 ``(n_entries, n_boot)`` arrays ``P*``, ``N*``.
    """
    E = starts.size - 1
    keys = np.empty(n_boot, dtype=np.uint64)
    for b in range(n_boot):
        keys[b] = replicate_key_cpu(seed, b)
    pb = np.zeros((E, n_boot))
    nb = np.zeros((E, n_boot))
    for e in prange(E):
        for i in range(starts[e], starts[e + 1]):
            r = rows[i]
            p = pos[i]
            q = neg[i]
            for b in range(n_boot):
                k = poisson_count_cpu(keys[b], r)
                if k:
                    pb[e, b] += k * p
                    nb[e, b] += k * q
    return pb, nb


@jit
def _table_vertices(pb, nb, u, v, b, tp, fp):
    """Vertices of replicate ``b`` of the curve whose entries are ``[u, v)`` (entries
    that drew nothing add none); returns their number.
    """
    tp[0] = 0.0
    fp[0] = 0.0
    t = 0.0
    f = 0.0
    k = 0
    for e in range(u, v):
        t += pb[e, b]
        f += nb[e, b]
        if t != tp[k] or f != fp[k]:
            k += 1
            tp[k] = t
            fp[k] = f
    return k + 1


@jit(parallel=True)
def _table_areas(offsets, pb, nb, method, hull):
    """Replicate areas ``(n_curves, n_boot)`` from entry masses (curve ``c``'s entries
    ``[offsets[c]:offsets[c+1]]``, descending score).
    """
    C = offsets.size - 1
    B = pb.shape[1]
    out = np.empty((C, B))
    for t in prange(C * B):
        c = t // B
        b = t - c * B
        u = offsets[c]
        v = offsets[c + 1]
        tp = np.empty(v - u + 1)
        fp = np.empty(v - u + 1)
        k = _table_vertices(pb, nb, u, v, b, tp, fp)
        out[c, b] = _area_of_sweep(tp[:k], fp[:k], method, hull)
    return out


@jit(parallel=True)
def _table_curves(offsets, pb, nb, grid, hull):
    """Replicate precisions on ``grid``, ``(n_curves, n_boot, grid.size)``."""
    C = offsets.size - 1
    B = pb.shape[1]
    out = np.empty((C, B, grid.size))
    for t in prange(C * B):
        c = t // B
        b = t - c * B
        u = offsets[c]
        v = offsets[c + 1]
        tp = np.empty(v - u + 1)
        fp = np.empty(v - u + 1)
        k = _table_vertices(pb, nb, u, v, b, tp, fp)
        _precision_on_grid(tp[:k], fp[:k], grid, out[c, b], hull)
    return out
