"""Venkatraman & Begg's (1996) permutation test of two paired ROC curves, as pROC.

The statistic compares the two curves at every rank cut-off ``x = 1..n``:
``E = sum_x |(FN_S(x) + FP_S(x)) - (FN_R(x) + FP_R(x))|``, with ``R``/``S`` the two
models' ranks (ties broken by row order) and ``FN(x)`` the positives ranked at or below
``x``, ``FP(x)`` the negatives above it. Since ``FN + FP = N + (pos - neg in the
prefix)``, ``E`` is the L1 distance between the two running sums of ``+1`` (positive)
/ ``-1`` (negative) along each model's order.

A permutation (pROC's ``venkatraman.paired.permutation``) exchanges each row's two ranks
with probability 1/2 and jitters the kept ones by U(-1/2, 1/2), then ranks again.
The ranks are a permutation of ``1..n``, so the new order needs no sort: at each integer
``k`` sit at most a kept row jittered around ``k`` (before or after ``k`` by the sign
of its jitter) and an exchanged row exactly at ``k``. One O(n) walk per permutation,
O(n) scratch per thread, permutations in parallel, each with its own counter-based
stream ``(seed, group, permutation)``: bit-identical whatever the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._numba import jit
from .rng import _stream, _uniform


@jit
def _order_after_swap(row_a, row_b, keep, jitter, out):
    """Rows in ascending order of the permuted ranks of model ``a``.

    ``row_a[k]`` / ``row_b[k]``: the row ranked ``k`` (0-based) by ``a`` / ``b``. A kept
    row keeps its ``a`` rank ``k`` jittered by ``jitter[row]`` (before an exchanged row
    at ``k`` when negative); an exchanged row takes its ``b`` rank exactly.
    """
    n = row_a.size
    m = 0
    for k in range(n):
        i = row_a[k]
        j = row_b[k]
        if keep[i] and jitter[i] < 0.0:
            out[m] = i
            m += 1
        if not keep[j]:
            out[m] = j
            m += 1
        if keep[i] and jitter[i] >= 0.0:
            out[m] = i
            m += 1


@jit
def _l1_running(order_r, order_s, sign):
    """``sum_x |cumsum(sign[order_s])[x] - cumsum(sign[order_r])[x]|``."""
    a = 0.0
    b = 0.0
    e = 0.0
    for x in range(order_r.size):
        a += sign[order_r[x]]
        b += sign[order_s[x]]
        e += abs(b - a)
    return e


@jit(parallel=True)
def _venkatraman_paired(row_r, row_s, sign, seed, group, n_perm):
    """Permutation statistics ``E*`` (n_perm,) of two paired models.

    ``row_r`` / ``row_s`` (int64, n): the rows in ascending order of each model's score
    (ties by row order); ``sign`` (float64, n): +1 for a positive row, -1 for a
    negative. Per row, a permutation draws the jitter of its ``R`` rank, of its ``S``
    rank and the exchange coin, in row order.
    """
    n = row_r.size
    out = np.empty(n_perm)
    for b in prange(n_perm):
        st = _stream(seed, group, b)
        keep = np.empty(n, dtype=np.bool_)
        jr = np.empty(n)
        js = np.empty(n)
        for i in range(n):
            jr[i] = _uniform(st) - 0.5
            js[i] = _uniform(st) - 0.5
            keep[i] = _uniform(st) >= 0.5
        order_r = np.empty(n, dtype=np.int64)
        order_s = np.empty(n, dtype=np.int64)
        _order_after_swap(row_r, row_s, keep, jr, order_r)
        _order_after_swap(row_s, row_r, keep, js, order_s)
        out[b] = _l1_running(order_r, order_s, sign)
    return out
