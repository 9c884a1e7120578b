"""Kernels that only the tests call: one replicate's draws, one stream's samples.

They expose what the production drivers of :mod:`prroc_numba._kernels.resample` draw
inside their loops, so the tests can check the samplers' distributions and the
replicate counts against slow references without the package carrying test code.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from prroc_numba._jit.numba import jit
from prroc_numba._kernels.resample import _draw_segment_counts, _fill_slot_counts, _walk_area
from prroc_numba._kernels.rng import _binomial, _stream, _uniform


@jit(parallel=True)
def _area_with_counts(order, ps, ns, offsets, seg_offsets, seg_end, label_start, cnt, method, hull):
    """Area of every curve (any estimator code, AUPRG's included) when label row ``r``
    carries multiplicity ``cnt[r]``."""
    n_curves = offsets.size - 1
    out = np.empty(n_curves)
    for c in prange(n_curves):
        a = offsets[c]
        b = offsets[c + 1]
        ls = label_start[c]
        out[c] = _walk_area(
            order[a:b],
            seg_end[seg_offsets[c] : seg_offsets[c + 1]],
            ps[a:b],
            ns[a:b],
            cnt[ls : ls + b - a],
            method,
            hull,
        )
    return out


@jit
def _grouped_counts_one(seg_offsets, sp, sn, c, group, seed, b, stratified, lp, ln, tabs):
    """The segment counts that :func:`_boot_grouped` draws for one replicate (tests)."""
    s0 = seg_offsets[c]
    s1 = seg_offsets[c + 1]
    P = 0.0
    N = 0.0
    for s in range(s0, s1):
        P += sp[s]
        N += sn[s]
    xp = np.empty(s1 - s0, dtype=np.int64)
    xn = np.empty(s1 - s0, dtype=np.int64)
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
    return xp, xn


@jit
def _paired_counts_one(strata_offsets, n_strata, g, seed, b):
    """The slot-count vector that :func:`_boot_paired` draws for one replicate (tests)."""
    n_slots = strata_offsets[(g + 1) * n_strata] - strata_offsets[g * n_strata]
    cnt = np.zeros(n_slots + 1)
    st = _stream(seed, g, b)
    _fill_slot_counts(st, strata_offsets, n_strata, g, cnt)
    return cnt


@jit
def _binomial_many(seed, n, p, size):
    """``size`` draws from one stream (for tests of the sampler)."""
    st = _stream(seed, 0, 0)
    out = np.empty(size, dtype=np.int64)
    for i in range(size):
        out[i] = _binomial(st, n, p)
    return out


@jit
def _uniform_many(seed, group, replicate, size):
    """``size`` uniforms from one stream (for tests)."""
    st = _stream(seed, group, replicate)
    out = np.empty(size)
    for i in range(size):
        out[i] = _uniform(st)
    return out
