"""Venkatraman's permutation tests of two ROC curves, paired and unpaired, as pROC.

Unpaired curves (Venkatraman 2000): :func:`_venkatraman_unpaired`, below.

Paired curves (Venkatraman & Begg 1996):

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

from .._jit.numba import jit
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


# ---------------------------------------------------------------------- unpaired


@jit
def _cum_p(seq, mp):
    """The ``R.p`` and ``R.exp`` of pROC's unpaired statistic for one curve.

    ``seq``: the curve's classes (1 positive) in ascending rank order.
    """
    n = seq.size
    n_pos = 0
    for k in range(n):
        n_pos += seq[k]
    n_neg = n - n_pos
    p = np.empty(n)
    e = np.empty(n)
    fx = 0.0
    gx = 0.0
    for k in range(n):
        if seq[k] == 1:
            fx += 1.0
        else:
            gx += 1.0
        f = fx / n_pos
        g = gx / n_neg
        p[k] = mp * f + (1.0 - mp) * g
        e[k] = mp * f + (1.0 - mp) * (1.0 - g)
    return p, e


@jit
def _interp_at(xs, ys, j, x):
    """Linear interpolation of ``(xs, ys)`` (increasing ``xs``) at ``x``.

    ``j`` is a segment index hint (``xs[j] <= x``); NaN outside ``[xs[0], xs[-1]]``.
    """
    n = xs.size
    if x < xs[0] or x > xs[n - 1]:
        return np.nan, j
    while j + 1 < n and xs[j + 1] <= x:
        j += 1
    if xs[j] == x or j + 1 == n:
        return ys[j], j
    t = (x - xs[j]) / (xs[j + 1] - xs[j])
    return ys[j] + t * (ys[j + 1] - ys[j]), j


@jit
def _unpaired_stat(seq_r, seq_s, mp):
    """The statistic of pROC's ``venkatraman.unpaired.stat``.

    The integral of ``|R.f - S.f|`` over the merged points (trapezoids; a piece with
    an end outside either curve's range is dropped, as ``na.rm=TRUE``).
    """
    rp, re = _cum_p(seq_r, mp)
    sp, se = _cum_p(seq_s, mp)
    n, m = rp.size, sp.size
    i = 0
    k = 0
    jr = 0
    js = 0
    total = 0.0
    prev_x = np.nan
    prev_y = np.nan
    for _ in range(n + m):
        if k >= m or (i < n and rp[i] <= sp[k]):
            x = rp[i]
            i += 1
        else:
            x = sp[k]
            k += 1
        a, jr = _interp_at(rp, re, jr, x)
        b, js = _interp_at(sp, se, js, x)
        y = abs(a - b)
        piece = (y + prev_y) * (x - prev_x) / 2.0
        if not np.isnan(piece):
            total += piece
        prev_x = x
        prev_y = y
    return total


@jit
def _choose(st, pool, n_take, dest):
    """Selection sampling: mark a uniform random ``n_take`` of the ``pool`` items."""
    need = n_take
    for t in range(pool):
        left = pool - t
        if _uniform(st) * left < need:
            dest[t] = True
            need -= 1
        else:
            dest[t] = False


@jit
def _deal(seq, to_r_pos, to_r_neg, ipos, ineg, dest):
    """Whether each item of one curve (classes ``seq``) is dealt to R: the next
    unread entry of its class's deal; returns the updated read positions.
    """
    for k in range(seq.size):
        if seq[k] == 1:
            dest[k] = to_r_pos[ipos]
            ipos += 1
        else:
            dest[k] = to_r_neg[ineg]
            ineg += 1
    return ipos, ineg


@jit
def _emit(cls, to_r, new_r, new_s, a, c):
    """Append class ``cls`` to R's new order (``to_r``) or S's; return both lengths."""
    if to_r:
        new_r[a] = cls
        return a + 1, c
    new_s[c] = cls
    return a, c + 1


@jit(parallel=True)
def _venkatraman_unpaired(seq_r, seq_s, mp, seed, group, n_perm):
    """Permutation statistics of two unpaired curves, as pROC's
    ``venkatraman.unpaired.permutation``: every rank jittered by U(-1/2, 1/2), then the
    negatives' (and the positives') jittered ranks of both curves pooled and dealt
    back at random, and each curve ranked again.

    ``seq_r`` (int64, n) / ``seq_s`` (m): each curve's classes (1 positive) in
    ascending score order (ties by row order). Jittered ranks sit in disjoint unit
    buckets, two at most per bucket (one from each curve), so the new orders come from
    one walk over the buckets, no sort.
    """
    n, m = seq_r.size, seq_s.size
    n_pos_r = 0
    for k in range(n):
        n_pos_r += seq_r[k]
    n_pos_s = 0
    for k in range(m):
        n_pos_s += seq_s[k]
    neg_pool = (n - n_pos_r) + (m - n_pos_s)
    pos_pool = n_pos_r + n_pos_s
    out = np.empty(n_perm)
    for b in prange(n_perm):
        st = _stream(seed, group, b)
        ur = np.empty(n)
        us = np.empty(m)
        for k in range(n):
            ur[k] = _uniform(st) - 0.5
        for k in range(m):
            us[k] = _uniform(st) - 0.5
        # which pooled values go to R: the pool lists R's then S's items in rank order
        to_r_neg = np.empty(neg_pool, dtype=np.bool_)
        to_r_pos = np.empty(pos_pool, dtype=np.bool_)
        _choose(st, neg_pool, n - n_pos_r, to_r_neg)
        _choose(st, pos_pool, n_pos_r, to_r_pos)
        # the pool lists R's items then S's, per class, in rank order
        dest_r = np.empty(n, dtype=np.bool_)
        dest_s = np.empty(m, dtype=np.bool_)
        ipos, ineg = _deal(seq_r, to_r_pos, to_r_neg, 0, 0, dest_r)
        _deal(seq_s, to_r_pos, to_r_neg, ipos, ineg, dest_s)
        new_r = np.empty(n, dtype=np.int64)
        new_s = np.empty(m, dtype=np.int64)
        a = 0
        c = 0
        for k in range(max(n, m)):
            r_first = k < n and (k >= m or ur[k] <= us[k])
            if r_first:
                a, c = _emit(seq_r[k], dest_r[k], new_r, new_s, a, c)
            if k < m:
                a, c = _emit(seq_s[k], dest_s[k], new_r, new_s, a, c)
            if k < n and not r_first:
                a, c = _emit(seq_r[k], dest_r[k], new_r, new_s, a, c)
        out[b] = _unpaired_stat(new_r, new_s, mp)
    return out
