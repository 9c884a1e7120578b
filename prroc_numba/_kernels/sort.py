"""Stable descending argsort of one curve's scores.

The sweep needs each curve's rows in descending score order. ``np.argsort`` in a
Numba kernel is a comparison sort; an LSD radix sort on the float bits is several
times faster for the curve sizes that matter (1e4 .. 1e6 rows), is stable (tied rows
keep their input order, as scikit-learn's mergesort does), and costs O(n) per pass.

Keys: a float64 ``x`` maps to a uint64 whose unsigned order is the *descending* order
of ``x``; ``-0.0`` is first turned into ``+0.0`` so the two zeros tie, as they compare
equal. NaN never reaches the kernels (the public layer rejects it).

When every score is exactly a float32 (model probabilities often are), the key is the
32-bit one, packed above the row number in one uint64 (``key << 32 | row``): four passes
over 8 bytes per row instead of eight over 16 (key and index), and ties still keep
their input order (LSD passes are stable and the rows start in order).
"""

from __future__ import annotations

import numpy as np

from .._numba import jit

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
def _sort_desc32(x):
    """:func:`_sort_desc` for scores that are all exactly float32, ``x.size < 2**32``."""
    n = x.size
    f32 = np.empty(n, dtype=np.float32)
    for i in range(n):
        f32[i] = x[i] + 0.0  # -0.0 -> +0.0
    bits = f32.view(np.uint32)
    packed = np.empty(n, dtype=np.uint64)
    sign = np.uint32(1) << np.uint32(31)
    for i in range(n):
        b = bits[i]
        asc = (b ^ sign) if (b & sign) == 0 else ~b
        packed[i] = (np.uint64(~asc) << np.uint64(32)) | np.uint64(i)
    mask = np.uint64(_N_BUCKETS - 1)
    n_passes = 32 // _RADIX_BITS
    hist = np.zeros((n_passes, _N_BUCKETS), dtype=np.int64)
    for i in range(n):
        k = packed[i] >> np.uint64(32)
        for p in range(n_passes):
            hist[p, (k >> np.uint64(p * _RADIX_BITS)) & mask] += 1
    tmp = np.empty_like(packed)
    start = np.empty(_N_BUCKETS, dtype=np.int64)
    for p in range(n_passes):
        h = hist[p]
        if h.max() == n:  # every key has the same digit: this pass keeps the order
            continue
        acc = 0
        for b in range(_N_BUCKETS):
            start[b] = acc
            acc += h[b]
        shift = np.uint64(32 + p * _RADIX_BITS)
        for i in range(n):
            k = packed[i]
            d = (k >> shift) & mask
            j = start[d]
            start[d] = j + 1
            tmp[j] = k
        packed, tmp = tmp, packed
    order = np.empty(n, dtype=np.int64)
    low = np.uint64(0xFFFFFFFF)
    for i in range(n):
        k = packed[i]
        order[i] = np.int64(k & low)
        asc = ~np.uint32(k >> np.uint64(32))
        bits[i] = (asc ^ sign) if (asc & sign) != 0 else ~asc
    return order, f32.astype(np.float64)


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
    if n < 2**32 and _all_float32(x):
        return _sort_desc32(x)
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
