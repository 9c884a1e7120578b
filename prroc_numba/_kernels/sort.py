"""Stable descending argsort of one curve's scores.

The sweep needs each curve's rows in descending score order. ``np.argsort`` in a
Numba kernel is a comparison sort; an LSD radix sort on the float bits is several
times faster for the curve sizes that matter (1e4 .. 1e6 rows), is stable (tied rows
keep their input order, as scikit-learn's mergesort does), and costs O(n) per pass.

Keys: a float64 ``x`` maps to a uint64 whose unsigned order is the *descending* order
of ``x``; ``-0.0`` is first turned into ``+0.0`` so the two zeros tie, as they compare
equal. NaN never reaches the kernels (the public layer rejects it).

A 32-bit key path (every score exactly a float32: key and row packed in one uint64,
four passes) was measured 3x faster at 1e6 rows but cost 2.4 s of compile time on
every first call that sorts, and the stable argsort is not where the curves' time goes;
only the keys-only sorts of :mod:`.split_sort` use float32 keys (:func:`_all_float32`).
"""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit

_RADIX_BITS = 8
_N_BUCKETS = 1 << _RADIX_BITS
# 64 / 8; 8-bit digits keep the scatter cache-friendly (measured: 2x faster than 11 or 16
# bits at 1e6)
_N_PASSES = 8
_SMALL = 256  # below this, a mergesort beats the radix passes' fixed cost
_SIGN = np.uint64(1) << np.uint64(63)


@jit
def _descending_keys(x):
    """uint64 keys whose ascending order is the descending order of float64 ``x``."""
    n = x.size
    keys = np.empty(n, dtype=np.uint64)
    z = np.empty(n, dtype=np.float64)
    for i in range(n):
        z[i] = x[i] + 0.0  # -0.0 -> +0.0
    bits = z.view(np.uint64)
    for i in range(n):
        b = bits[i]
        if b & _SIGN:
            asc = ~b
        else:
            asc = b | _SIGN
        keys[i] = ~asc
    return keys


@jit
def _decode_keys(keys):
    """Inverse of :func:`_descending_keys` (``-0.0`` comes back as ``+0.0``)."""
    n = keys.size
    bits = np.empty(n, dtype=np.uint64)
    for i in range(n):
        asc = ~keys[i]
        if asc & _SIGN:
            bits[i] = asc ^ _SIGN
        else:
            bits[i] = ~asc
    return bits.view(np.float64)


@jit
def _all_float32(x):
    """True when every value of ``x`` is exactly a float32 (sorting float32 keys is 2x
    faster, and converting back is exact).
    """
    for i in range(x.size):
        if np.float64(np.float32(x[i])) != x[i]:
            return False
    return True


@jit
def _argsort_desc(x):
    """Stable argsort of ``x`` (float64, 1-D) in descending order; returns int64 indices."""
    return _sort_desc(x)[0]


@jit
def _insertion_sort_desc(x):
    """Stable descending insertion sort for short curves (``n < _SMALL``): ``(order, xs)``.

    Tiny to compile (``np.argsort(kind="mergesort")`` costs seconds of compile time on
    every cold start) and as fast as a mergesort at these sizes.
    """
    n = x.size
    order = np.empty(n, dtype=np.int64)
    xs = np.empty(n)
    for i in range(n):
        v = x[i] + 0.0  # -0.0 -> +0.0
        j = i
        while j > 0 and xs[j - 1] < v:  # strict: ties keep their input order
            xs[j] = xs[j - 1]
            order[j] = order[j - 1]
            j -= 1
        xs[j] = v
        order[j] = i
    return order, xs


@jit
def _sort_desc(x):
    """Stable descending sort of ``x``: ``(order, xs)`` with ``xs == x[order]``.

    ``xs`` is decoded from the sorted keys, so callers read the sorted scores
    sequentially instead of gathering ``x[order[i]]`` (random reads dominate the sweep
    otherwise). ``-0.0`` comes back as ``+0.0``.
    """
    n = x.size
    if n < _SMALL:
        return _insertion_sort_desc(x)
    keys = _descending_keys(x)
    mask = np.uint64(_N_BUCKETS - 1)
    # one read of the keys builds every pass's histogram
    hist = np.zeros((_N_PASSES, _N_BUCKETS), dtype=np.int64)
    for i in range(n):
        k = keys[i]
        for p in range(_N_PASSES):
            hist[p, (k >> np.uint64(p * _RADIX_BITS)) & mask] += 1
    idx = np.arange(n, dtype=np.int64)
    keys2 = np.empty_like(keys)
    idx2 = np.empty_like(idx)
    for p in range(_N_PASSES):
        h = hist[p]
        trivial = False
        for b in range(_N_BUCKETS):
            if h[b] == n:  # every key has the same digit: this pass keeps the order
                trivial = True
                break
            if h[b] != 0:
                break
        if trivial:
            continue
        start = np.empty(_N_BUCKETS, dtype=np.int64)
        acc = 0
        for b in range(_N_BUCKETS):
            start[b] = acc
            acc += h[b]
        shift = np.uint64(p * _RADIX_BITS)
        for i in range(n):
            k = keys[i]
            d = (k >> shift) & mask
            j = start[d]
            start[d] = j + 1
            keys2[j] = k
            idx2[j] = idx[i]
        keys, keys2 = keys2, keys
        idx, idx2 = idx2, idx
    return idx, _decode_keys(keys)
