"""CUDA kernels (numba.cuda) on the sorted ragged batch, chunked along the rows.

Layout (built by :mod:`prroc_numba._drivers.cuda`): every curve's rows sorted by
descending score (``xs``), their positive/negative mass and label-row id gathered into
sorted order (``sp``, ``sn``, ``rid``) and ``last[i] = 1`` at the last row of each block
of tied scores. Each curve is cut into chunks of about ``chunk`` rows whose starts fall
on tie-block starts (``starts``, ``ends``; ``chunk_off`` are the CSR offsets of the chunks
per curve), so no tie block spans two chunks. A chunk whose nominal rows lie inside a
tie run is empty, and the chunk holding the run's start takes the whole run.

Every pass runs one thread per (chunk, replicate); the threads of a warp take
consecutive replicates of the *same* chunk, so their loads of the chunk's rows are
broadcasts. Without resampling (``use_counts == 0``) there is one "replicate" and each
row counts once; with it, row ``rid[i]`` counts ``poisson_count(key(seed, b), rid[i])``
times -- the Poisson(1) stream of :mod:`prroc_numba._kernels.poisson`, compiled here
from the same plain functions as on the CPU. Counts are never stored.

1. :func:`chunk_sums` -- per (chunk, replicate): sums of TP and FP mass and the
   number of tie blocks;
2. the scan over each curve's chunks, in two levels so that no thread walks more than
   ``super`` chunks or super-chunks in series (a curve of 1e8 rows has ~1e5 chunks):
   :func:`super_scan` -- per (super-chunk of ``super`` chunks, replicate): the local
   exclusive scan and the super-chunk's totals; :func:`chunk_scan` over the super-chunks
   -- per (curve, replicate): their exclusive scan and the totals P, N; a chunk's
   starting counts are its local base plus its super-chunk's base (:func:`_super`);
3. :func:`chunk_area` -- per (chunk, replicate): walk the chunk again from its starting
   (TP, FP) and add each vertex's segment term (:mod:`prroc_numba._kernels.segments`);
   tie blocks whose (resampled) mass is zero make no vertex, exactly as a zero-weight
   row is no row on the CPU;
4. :func:`super_sum` then :func:`curve_area` -- the sum over chunks, in the same two
   levels, normalised.

Kernels are compiled with ``cache=True`` (the cold start of a later process reads the
cache). No atomics and no warp-synchronous code: every thread writes its own cells, and sums
run in a fixed order, so a seed gives the same numbers on any GPU and in the simulator.
"""

from __future__ import annotations

import math

from numba import cuda

from .. import poisson, segments
from ..hull import _hull_into as _hull_into_cpu

_segment = cuda.jit(device=True)(segments.segment_area)
_finish = cuda.jit(device=True)(segments.finish_area)
_replicate_key = cuda.jit(device=True)(poisson.replicate_key)
_poisson_count = cuda.jit(device=True)(poisson.poisson_count)
_hull_into = cuda.jit(device=True)(_hull_into_cpu.py_func)


@cuda.jit(device=True)
def _chunk_end(j, c, chunk_off, starts, ends):
    return ends[j]


@cuda.jit(device=True)
def _split(tid, n_rep):
    """Thread ``tid`` of a (cell, replicate) grid of ``n_rep`` replicates per cell:
    ``(cell, replicate)``.
    """
    k = tid // n_rep
    return k, tid - k * n_rep


@cuda.jit(device=True)
def _super(j, c, chunk_off, super_off, sup):
    """The super-chunk of chunk ``j`` (of curve ``c``)."""
    return super_off[c] + (j - chunk_off[c]) // sup


@cuda.jit(device=True)
def _super_range(k, c, chunk_off, super_off, sup):
    lo = chunk_off[c] + (k - super_off[c]) * sup
    return lo, min(lo + sup, chunk_off[c + 1])


@cuda.jit(device=True)
def _exclusive_scan(lo, hi, b, ctp, cfp, cnv, base_tp, base_fp, base_nv):
    """Exclusive scan of cells ``lo:hi`` of replicate ``b`` (TP, FP, vertex counts) into
    the ``base_*`` arrays; returns the totals.
    """
    t = 0.0
    f = 0.0
    nv = 0
    for j in range(lo, hi):
        base_tp[j, b] = t
        base_fp[j, b] = f
        base_nv[j, b] = nv
        t += ctp[j, b]
        f += cfp[j, b]
        nv += cnv[j, b]
    return t, f, nv


@cuda.jit(cache=True)
def super_scan(
    super_curve, super_off, chunk_off, sup, ctp, cfp, cnv, base_tp, base_fp, base_nv, stp, sfp, snv
):
    """Per (super-chunk k, replicate): exclusive scan of its chunks, and its totals."""
    k, b = _split(cuda.grid(1), ctp.shape[1])
    if k >= super_curve.size:
        return
    lo, hi = _super_range(k, super_curve[k], chunk_off, super_off, sup)
    t, f, nv = _exclusive_scan(lo, hi, b, ctp, cfp, cnv, base_tp, base_fp, base_nv)
    stp[k, b] = t
    sfp[k, b] = f
    snv[k, b] = nv


@cuda.jit(cache=True)
def super_sum(super_curve, super_off, chunk_off, sup, partial, spart):
    """Per (super-chunk, replicate): the sum of its chunks' partial areas."""
    k, b = _split(cuda.grid(1), partial.shape[1])
    if k >= super_curve.size:
        return
    lo, hi = _super_range(k, super_curve[k], chunk_off, super_off, sup)
    s = 0.0
    for j in range(lo, hi):
        s += partial[j, b]
    spart[k, b] = s


@cuda.jit(device=True)
def _nominal_end(j, c, offsets, chunk_off, chunk):
    return min(offsets[c] + (j - chunk_off[c] + 1) * chunk, offsets[c + 1])


@cuda.jit(cache=True)
def chunk_starts(xs, offsets, chunk_curve, chunk_off, chunk, starts):
    """``starts[j]``: the first tie-block start in chunk j's nominal rows, or the nominal
    end when a tie run covers them all (then chunk j is empty). Reads at most ``chunk``
    rows per thread, whatever the tie runs.
    """
    j = cuda.grid(1)
    if j >= starts.size:
        return
    c = chunk_curve[j]
    a = offsets[c]
    p = a + (j - chunk_off[c]) * chunk
    q = _nominal_end(j, c, offsets, chunk_off, chunk)
    while p > a and p < q and xs[p] == xs[p - 1]:
        p += 1
    starts[j] = p


@cuda.jit(cache=True)
def chunk_ends(offsets, chunk_curve, chunk_off, chunk, starts, ends):
    """``ends[j]``: the next chunk's tie-block start (skipping chunks inside a tie run),
    or the curve's end; an empty chunk ends where it starts.
    """
    j = cuda.grid(1)
    if j >= starts.size:
        return
    c = chunk_curve[j]
    if starts[j] >= _nominal_end(j, c, offsets, chunk_off, chunk):
        ends[j] = starts[j]
        return
    jj = j + 1
    while jj < chunk_off[c + 1] and starts[jj] >= _nominal_end(jj, c, offsets, chunk_off, chunk):
        jj += 1
    ends[j] = starts[jj] if jj < chunk_off[c + 1] else offsets[c + 1]


@cuda.jit(cache=True)
def gather(
    perm,
    xs,
    offsets,
    ends,
    label_start,
    pos,
    neg,
    chunk_curve,
    chunk_off,
    starts,
    sp,
    sn,
    rid,
    last,
):
    """Rows' masses and label-row ids in sorted order, and the tie-block ends."""
    j = cuda.grid(1)
    if j >= starts.size:
        return
    c = chunk_curve[j]
    a = offsets[c]
    ls = label_start[c]
    e = _chunk_end(j, c, chunk_off, starts, ends)
    for i in range(starts[j], e):
        r = ls + perm[i] - a
        sp[i] = pos[r]
        sn[i] = neg[r]
        rid[i] = r
        last[i] = 1 if (i == e - 1 or xs[i + 1] != xs[i]) else 0


@cuda.jit(device=True)
def _cell(n_rep, chunk_curve, chunk_off, starts, ends, use_counts, seed, b0):
    """The calling thread's cell of the two passes: ``(j, b, c, e, key)`` -- chunk ``j``
    (-1 past the last one), replicate ``b``, curve ``c``, the chunk's row end ``e`` and
    the replicate's Poisson key.
    """
    j, b = _split(cuda.grid(1), n_rep)
    if j >= starts.size:
        return -1, b, 0, 0, seed
    c = chunk_curve[j]
    e = _chunk_end(j, c, chunk_off, starts, ends)
    key = _replicate_key(seed, b0 + b) if use_counts else seed
    return j, b, c, e, key


@cuda.jit(device=True)
def _row_mass(i, use_counts, key, row_ids, rid, sp, sn):
    """Sorted row ``i``'s (TP, FP) mass in the replicate: its Poisson(1) count times its
    masses (``use_counts``), else the masses themselves.
    """
    if use_counts:
        k = _poisson_count(key, row_ids[rid[i]])
        if k > 0:
            w = float(k)
            return w * sp[i], w * sn[i]
        return 0.0, 0.0
    return sp[i], sn[i]


@cuda.jit(cache=True)
def chunk_sums(
    sp,
    sn,
    rid,
    row_ids,
    last,
    ends,
    chunk_curve,
    chunk_off,
    starts,
    use_counts,
    seed,
    b0,
    ctp,
    cfp,
    cnv,
):
    """Pass 1: per (chunk j, replicate b) the chunk's TP and FP mass and tie blocks."""
    j, b, c, e, key = _cell(
        ctp.shape[1], chunk_curve, chunk_off, starts, ends, use_counts, seed, b0
    )
    if j < 0:
        return
    t = 0.0
    f = 0.0
    nv = 0
    for i in range(starts[j], e):
        dt, df = _row_mass(i, use_counts, key, row_ids, rid, sp, sn)
        t += dt
        f += df
        nv += int(last[i])  # an int64 count: under numpy (the simulator) uint8 + int stays uint8
    ctp[j, b] = t
    cfp[j, b] = f
    cnv[j, b] = nv


@cuda.jit(cache=True)
def chunk_scan(chunk_off, ctp, cfp, cnv, base_tp, base_fp, base_nv, P, N, NV):
    """Exclusive scan over each curve's cells ``chunk_off[c]:chunk_off[c + 1]`` (here: the
    super-chunks), per (curve, replicate); totals P, N, NV.
    """
    c, b = _split(cuda.grid(1), ctp.shape[1])
    if c >= P.shape[0]:
        return
    t, f, nv = _exclusive_scan(
        chunk_off[c], chunk_off[c + 1], b, ctp, cfp, cnv, base_tp, base_fp, base_nv
    )
    P[c, b] = t
    N[c, b] = f
    NV[c, b] = nv


@cuda.jit(cache=True)
def chunk_area(
    sp,
    sn,
    rid,
    row_ids,
    last,
    ends,
    chunk_curve,
    chunk_off,
    starts,
    use_counts,
    seed,
    b0,
    method,
    super_off,
    sup,
    base_tp,
    base_fp,
    sbase_tp,
    sbase_fp,
    partial,
):
    """Pass 2: per (chunk, replicate) the sum of the segment terms of its vertices."""
    j, b, c, e, key = _cell(
        base_tp.shape[1], chunk_curve, chunk_off, starts, ends, use_counts, seed, b0
    )
    if j < 0:
        return
    k_sup = _super(j, c, chunk_off, super_off, sup)
    t = sbase_tp[k_sup, b] + base_tp[j, b]
    f = sbase_fp[k_sup, b] + base_fp[j, b]
    pt = t
    pf = f
    s = 0.0
    for i in range(starts[j], e):
        dt, df = _row_mass(i, use_counts, key, row_ids, rid, sp, sn)
        t += dt
        f += df
        if last[i] and (t != pt or f != pf):
            s += _segment(method, pt, pf, t, f)
            pt = t
            pf = f
    partial[j, b] = s


@cuda.jit(cache=True)
def curve_area(chunk_off, partial, P, N, method, out):
    """Per (curve, replicate): the area from the partial sums of the cells
    ``chunk_off[c]:chunk_off[c + 1]`` (here: the super-chunks), in a fixed order.
    """
    c, b = _split(cuda.grid(1), partial.shape[1])
    if c >= out.shape[0]:
        return
    s = 0.0
    for j in range(chunk_off[c], chunk_off[c + 1]):
        s += partial[j, b]
    out[c, b] = _finish(method, s, P[c, b], N[c, b])


@cuda.jit(cache=True)
def sweep_vertices(
    xs,
    sp,
    sn,
    last,
    ends,
    chunk_curve,
    chunk_off,
    starts,
    super_off,
    sup,
    base_tp,
    base_fp,
    base_nv,
    sbase_tp,
    sbase_fp,
    sbase_nv,
    out_off,
    thr,
    tp,
    fp,
):
    """The sweep: one vertex per tie block at ``out_off[c] + 1 + (blocks before it)``."""
    j = cuda.grid(1)
    if j >= starts.size:
        return
    c = chunk_curve[j]
    e = _chunk_end(j, c, chunk_off, starts, ends)
    k = _super(j, c, chunk_off, super_off, sup)
    t = sbase_tp[k, 0] + base_tp[j, 0]
    f = sbase_fp[k, 0] + base_fp[j, 0]
    u = out_off[c] + 1 + sbase_nv[k, 0] + base_nv[j, 0]
    for i in range(starts[j], e):
        t += sp[i]
        f += sn[i]
        if last[i]:
            thr[u] = xs[i]
            tp[u] = t
            fp[u] = f
            u += 1


@cuda.jit(cache=True)
def origins(out_off, thr, tp, fp):
    """Vertex 0 of every curve: threshold +inf, tp = fp = 0."""
    c = cuda.grid(1)
    if c >= out_off.size - 1:
        return
    u = out_off[c]
    thr[u] = math.inf
    tp[u] = 0.0
    fp[u] = 0.0


@cuda.jit(cache=True)
def hull_counts(tp, fp, off, scratch, counts):
    """Per curve: the ROC hull's vertex indices (local) into ``scratch``, their number."""
    c = cuda.grid(1)
    if c >= counts.size:
        return
    a = off[c]
    b = off[c + 1]
    counts[c] = _hull_into(tp[a:b], fp[a:b], scratch[a:b])


@cuda.jit(cache=True)
def hull_area(tp, fp, off, scratch, counts, method, out):
    """Per curve: the area over its hull vertices (after :func:`hull_counts`)."""
    c = cuda.grid(1)
    if c >= counts.size:
        return
    a = off[c]
    m = counts[c]
    s = 0.0
    for q in range(1, m):
        i0 = a + scratch[a + q - 1]
        i1 = a + scratch[a + q]
        s += _segment(method, tp[i0], fp[i0], tp[i1], fp[i1])
    last = a + scratch[a + m - 1]
    out[c] = _finish(method, s, tp[last], fp[last])
