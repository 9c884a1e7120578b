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
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .area import _areas_of_sweep
from .layout import _offsets_from_counts


@jit
def _is_hard(pos, neg):
    """True when every row is a positive or a negative of mass exactly one."""
    for i in range(pos.size):
        p = pos[i]
        if not ((p == 1.0 and neg[i] == 0.0) or (p == 0.0 and neg[i] == 1.0)):
            return False
    return True


@jit(parallel=True)
def _class_split(values, offsets, pos, label_start, svals):
    """Write each curve's positives' scores, then its negatives' (input order), into
    ``svals`` (laid out as the module docstring says, before sorting); returns ``npos``.

    Large outputs are allocated by the caller in numpy, which asks the kernel for huge
    pages: first writes into Numba's own allocations fault every 4 KiB page (measured:
    ~20 ms per 24 MB here, more than the merge itself).
    """
    n_curves = offsets.size - 1
    npos = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        k = 0
        for i in range(b - a):
            k += pos[ls + i] > 0.0
        npos[c] = k
        ip = a
        im = a + k
        for i in range(b - a):
            x = values[a + i]
            if pos[ls + i] > 0.0:
                svals[ip] = x
                ip += 1
            else:
                svals[im] = x
                im += 1
    return npos


@jit
def _all_float32(x):
    """True when every value of ``x`` is exactly a float32 (sorting float32 keys is 2x
    faster, and converting back is exact)."""
    for i in range(x.size):
        if np.float64(np.float32(x[i])) != x[i]:
            return False
    return True


@jit
def _merge(sp, sn, thr, tp, fp, write):
    """Walk ascending runs ``sp`` (positives) and ``sn`` (negatives) from the top.

    Returns the number of sweep vertices (distinct scores + the origin); when ``write``,
    fills ``thr``, ``tp``, ``fp`` (origin first: threshold ``+inf``, ``tp = fp = 0``).
    Branch-free steps: each row moves one run's cursor; every step writes the running
    counts at the current vertex, which moves on only where the next score differs.
    """
    i = sp.size - 1
    j = sn.size - 1
    n = i + j + 2
    if write:
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
            if write:
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
        if write:
            thr[k] = v + 0.0
            tp[k] = ctp
            fp[k] = cfp
        k += max(vp, vn) != v
    return k


@jit(parallel=True)
def _split_sweep_batch(svals, offsets, npos, thr, tp, fp):
    """Sweep every curve of a class-split sorted batch (see the module docstring).

    ``thr``, ``tp``, ``fp`` (at least ``svals.size + n_curves`` long, from the caller)
    receive the ragged sweep; returns its ``out_offsets``, laid out as
    :func:`.sweep._sweep_batch` lays out its result.
    """
    n_curves = offsets.size - 1
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        m = a + npos[c]
        counts[c] = _merge(svals[a:m], svals[m : offsets[c + 1]], thr, tp, fp, False)
    out_offsets = _offsets_from_counts(counts)
    for c in prange(n_curves):
        a = offsets[c]
        m = a + npos[c]
        u = out_offsets[c]
        v = out_offsets[c + 1]
        _merge(svals[a:m], svals[m : offsets[c + 1]], thr[u:v], tp[u:v], fp[u:v], True)
    return out_offsets


@jit(parallel=True)
def _split_areas_batch(svals, offsets, npos, codes, hulls, thr, tp, fp):
    """Every requested area of every curve of a class-split sorted batch.

    ``codes[k]``/``hulls[k]`` name area ``k`` (estimator code of :mod:`.area`, hull
    flag); ``thr``, ``tp``, ``fp`` are scratch (``svals.size + n_curves`` long, from the
    caller). Returns float64 ``(n_curves, codes.size)``; one merge per curve.
    """
    n_curves = offsets.size - 1
    out = np.empty((n_curves, codes.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        m = a + npos[c]
        u = a + c
        v = b + c + 1
        k = _merge(svals[a:m], svals[m:b], thr[u:v], tp[u:v], fp[u:v], True)
        _areas_of_sweep(tp[u : u + k], fp[u : u + k], codes, hulls, out[c])
    return out
