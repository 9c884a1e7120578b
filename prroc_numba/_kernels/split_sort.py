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


@jit
def _merge_count(sp, sn):
    """Number of sweep vertices (distinct scores + the origin) of two ascending runs."""
    i = sp.size - 1
    j = sn.size - 1
    k = 1
    while i >= 0 and j >= 0:
        s = sp[i] if sp[i] >= sn[j] else sn[j]
        while i >= 0 and sp[i] == s:
            i -= 1
        while j >= 0 and sn[j] == s:
            j -= 1
        k += 1
    while i >= 0:
        if i == 0 or sp[i - 1] != sp[i]:
            k += 1
        i -= 1
    while j >= 0:
        if j == 0 or sn[j - 1] != sn[j]:
            k += 1
        j -= 1
    return k


@jit
def _merge_fill(sp, sn, thr, tp, fp):
    """Write the sweep of ascending runs ``sp`` (positives), ``sn`` (negatives).

    ``thr``, ``tp``, ``fp`` need at least :func:`_merge_count` entries; returns how many
    were written (origin first: threshold ``+inf``, ``tp = fp = 0``).
    """
    thr[0] = np.inf
    tp[0] = 0.0
    fp[0] = 0.0
    i = sp.size - 1
    j = sn.size - 1
    ctp = 0
    cfp = 0
    k = 1
    while i >= 0 and j >= 0:
        s = sp[i] if sp[i] >= sn[j] else sn[j]
        while i >= 0 and sp[i] == s:
            i -= 1
            ctp += 1
        while j >= 0 and sn[j] == s:
            j -= 1
            cfp += 1
        thr[k] = s + 0.0
        tp[k] = ctp
        fp[k] = cfp
        k += 1
    while i >= 0:
        ctp += 1
        if i == 0 or sp[i - 1] != sp[i]:
            thr[k] = sp[i] + 0.0
            tp[k] = ctp
            fp[k] = cfp
            k += 1
        i -= 1
    while j >= 0:
        cfp += 1
        if j == 0 or sn[j - 1] != sn[j]:
            thr[k] = sn[j] + 0.0
            tp[k] = ctp
            fp[k] = cfp
            k += 1
        j -= 1
    return k


@jit(parallel=True)
def _split_sweep_batch(svals, offsets, npos):
    """Sweep every curve of a class-split sorted batch (see the module docstring).

    Returns ``(thr, tp, fp, out_offsets)`` exactly as :func:`.sweep._sweep_batch` does.
    """
    n_curves = offsets.size - 1
    counts = np.empty(n_curves, dtype=np.int64)
    for c in prange(n_curves):
        a = offsets[c]
        m = a + npos[c]
        counts[c] = _merge_count(svals[a:m], svals[m : offsets[c + 1]])
    out_offsets = _offsets_from_counts(counts)
    total = out_offsets[n_curves]
    thr = np.empty(total)
    tp = np.empty(total)
    fp = np.empty(total)
    for c in prange(n_curves):
        a = offsets[c]
        m = a + npos[c]
        u = out_offsets[c]
        v = out_offsets[c + 1]
        _merge_fill(svals[a:m], svals[m : offsets[c + 1]], thr[u:v], tp[u:v], fp[u:v])
    return thr, tp, fp, out_offsets


@jit(parallel=True)
def _split_areas_batch(svals, offsets, npos, codes, hulls):
    """Every requested area of every curve of a class-split sorted batch.

    ``codes[k]``/``hulls[k]`` name area ``k`` (estimator code of :mod:`.area`, hull
    flag). Returns float64 ``(n_curves, codes.size)``; one merge per curve.
    """
    n_curves = offsets.size - 1
    out = np.empty((n_curves, codes.size))
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        m = a + npos[c]
        thr = np.empty(b - a + 1)
        tp = np.empty(b - a + 1)
        fp = np.empty(b - a + 1)
        k = _merge_fill(svals[a:m], svals[m:b], thr, tp, fp)
        _areas_of_sweep(tp[:k], fp[:k], codes, hulls, out[c])
    return out
