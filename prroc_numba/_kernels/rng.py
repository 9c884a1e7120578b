"""Counter-based random numbers for the bootstrap kernels.

Every replicate gets its own stream, seeded by hashing ``(seed, group, replicate)``
with the splitmix64 finaliser, and draws from it sequentially (splitmix64: add a
constant, mix). A replicate's numbers therefore depend only on the seed, the group and
the replicate number -- never on which thread ran it, how many threads there are, or
how replicates were chunked.

The stream state is a one-element ``uint64`` array that the draw functions advance.
Samplers here are exact (up to the 53-bit resolution of a uniform):

* :func:`_index` -- uniform integer in ``[0, n)``;
* :func:`_binomial` -- inversion for small means, Hormann's BTRS (transformed
  rejection with squeeze, 1993) otherwise (log-factorials by Stirling's series with
  its first terms, relative error < 1e-13 for k >= 10, a table below);
* :func:`_multinomial_cells`, :func:`_multinomial_poisson`, :func:`_multinomial_stratum`
  -- the multinomial counts of rows landing in each cell of a stratum (conditional
  binomials, Poisson inversion tables with an exact fix-up, or row draws), for the
  grouped bootstrap draws of :mod:`.resample`.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit.numba import jit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_C_GROUP = np.uint64(0xD1B54A32D192ED03)
_C_REP = np.uint64(0x8CB92BA72F3D8DD7)
_TWO_M53 = 1.0 / 9007199254740992.0  # 2**-53


@jit
def _mix64(z):
    """splitmix64 finaliser (a bijection of uint64 with good avalanche)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit
def _stream(seed, group, replicate):
    """A fresh stream state for ``(seed, group, replicate)`` (all non-negative ints)."""
    st = np.empty(1, dtype=np.uint64)
    h = _mix64(np.uint64(seed) + _GAMMA)
    h = _mix64(h ^ (np.uint64(group) * _C_GROUP))
    h = _mix64(h ^ (np.uint64(replicate) * _C_REP))
    st[0] = h
    return st


@jit
def _next(st):
    st[0] = st[0] + _GAMMA
    return _mix64(st[0])


@jit
def _uniform(st):
    """Uniform float64 in [0, 1) with 53 random bits."""
    # below 2**53, so the signed conversion is exact (one instruction on every x86-64,
    # where an unsigned one is a branchy sequence without AVX-512)
    return np.float64(np.int64(_next(st) >> _S11)) * _TWO_M53


@jit
def _index(st, n):
    """Uniform integer in ``[0, n)`` (bias below n / 2**53)."""
    k = np.int64(_uniform(st) * n)
    return k if k < n else n - 1


@jit
def _binomial_inversion(st, n, p):
    """Binomial(n, p) by sequential inversion; for n * p small (p <= 0.5)."""
    q = 1.0 - p
    s = p / q
    a = (n + 1.0) * s
    r0 = math.exp(n * math.log1p(-p))
    while True:
        u = _uniform(st)
        r = r0
        x = 0
        ok = True
        while u > r:
            u -= r
            x += 1
            if x > n:
                ok = False  # round-off ran past n: draw again
                break
            r *= a / x - s
        if ok:
            return x


_TAIL = np.array(
    [
        0.0810614667953272,
        0.0413406959554092,
        0.0276779256849983,
        0.02079067210376509,
        0.0166446911898211,
        0.0138761288230707,
        0.0118967099458917,
        0.0104112652619720,
        0.00925546218271273,
        0.00833056343336287,
    ]
)


@jit
def _stirling_tail(k):
    """``lgamma(k + 1) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]``: a table for
    k <= 9, Stirling's series otherwise (relative error below 1e-13 there).
    """
    if k <= 9.0:
        return _TAIL[np.int64(k)]
    kp1sq = (k + 1.0) * (k + 1.0)
    return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / (k + 1.0)


@jit
def _binomial_btrs(st, n, p):
    """Binomial(n, p) by BTRS (Hormann 1993); for n * p >= 10 and p <= 0.5.

    The acceptance test uses log-factorials through :func:`_stirling_tail` (as
    TensorFlow's sampler does) instead of ``lgamma``: same result, fewer cycles.
    """
    q = 1.0 - p
    spq = math.sqrt(n * p * q)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    alpha = (2.83 + 5.1 / b) * spq
    vr = 0.92 - 4.2 / b
    r = p / q
    m = np.int64((n + 1) * p)  # floor, as (n + 1) * p >= 0 (no libm call)
    nf = np.float64(n)
    while True:
        u = _uniform(st) - 0.5
        v = _uniform(st)
        us = 0.5 - abs(u)
        x = (2.0 * a / us + b) * u + c
        if not (x >= 0.0 and x < nf + 1.0):
            continue  # floor(x) outside [0, n]
        k = np.int64(x)  # floor: x >= 0 (a truncation, not a libm call)
        if us >= 0.07 and v <= vr:
            return np.int64(k)
        if v <= 0.0:
            continue
        lv = math.log(v * alpha / (a / (us * us) + b))
        bound = (
            (m + 0.5) * math.log((m + 1.0) / (r * (nf - m + 1.0)))
            + (nf + 1.0) * math.log((nf - m + 1.0) / (nf - k + 1.0))
            + (k + 0.5) * math.log(r * (nf - k + 1.0) / (k + 1.0))
            + _stirling_tail(np.float64(m))
            + _stirling_tail(nf - m)
            - _stirling_tail(np.float64(k))
            - _stirling_tail(nf - k)
        )
        if lv <= bound:
            return np.int64(k)


@jit
def _binomial(st, n, p):
    """Exact Binomial(n, p) draw (int64); ``n`` int64 >= 0, ``p`` in [0, 1]."""
    if n <= 0 or p <= 0.0:
        return np.int64(0)
    if p >= 1.0:
        return np.int64(n)
    flip = p > 0.5
    pp = 1.0 - p if flip else p
    if n * pp < 10.0:
        x = np.int64(_binomial_inversion(st, n, pp))
    else:
        x = _binomial_btrs(st, n, pp)
    return n - x if flip else x


# -------------------------------------------------------- multinomial cell counts


@jit
def _next_cell(st, n_rem, k_rem, ki):
    """One cell's count in a multinomial drawn cell by cell (conditional binomials):
    ``n_rem`` draws are left for cells holding ``k_rem`` rows, ``ki`` of them in this
    cell. Empty cells and exhausted draws use no random numbers.
    """
    if ki <= 0.0 or n_rem == 0:
        return np.int64(0)
    if ki >= k_rem:
        return np.int64(n_rem)
    return _binomial(st, n_rem, ki / k_rem)


@jit
def _multinomial_cells(st, k, total, out):
    """Multinomial(total; k / sum(k)) over cells.

    ``k`` holds each cell's number of rows (exact integers as float64), ``total`` their
    sum; the draw of ``total`` rows with replacement lands ``out[i]`` rows in cell ``i``.
    With many rows per cell: conditional binomials, O(cells) (empty cells use no random
    numbers); with at most 4 rows per non-empty cell on average: ``total`` uniform row
    draws counted per cell, which is cheaper there.
    """
    n_rem = np.int64(total)
    nnz = 0
    for i in range(k.size):
        if k[i] > 0.0:
            nnz += 1
    if n_rem <= 4 * nnz:
        # few draws per cell (e.g. one positive per tied block): draw the rows
        # themselves -- n_rem uniform indices -- and count them per cell
        cell = np.empty(n_rem, dtype=np.int64)
        j = 0
        for i in range(k.size):
            out[i] = 0
            for _ in range(np.int64(k[i])):
                cell[j] = i
                j += 1
        for _ in range(n_rem):
            out[cell[_index(st, np.int64(n_rem))]] += 1
        return
    k_rem = total
    for i in range(k.size):
        x = _next_cell(st, n_rem, k_rem, k[i])
        out[i] = x
        n_rem -= x
        k_rem -= k[i]


@jit
def _poisson_tables(lams):
    """Inversion tables of Poisson(lam) for each (integer-valued, ascending) ``lams``.

    Returns ``(lo, offsets, cdf)``: for ``lams[d]``, ``cdf[offsets[d]:offsets[d + 1]]``
    holds ``P(X <= lo[d] + j)``, over ``lam +- (10 sqrt(lam) + 10)``; the mass left out
    is below 1e-20, under the resolution of a 53-bit uniform, and the last entry is set
    to 1.
    """
    nd = lams.size
    lo = np.empty(nd, dtype=np.int64)
    offsets = np.zeros(nd + 1, dtype=np.int64)
    for d in range(nd):
        half = 10.0 * math.sqrt(lams[d]) + 10.0
        lo[d] = max(0, np.int64(math.floor(lams[d] - half)))
        hi = np.int64(math.ceil(lams[d] + half))
        offsets[d + 1] = offsets[d] + (hi - lo[d] + 1)
    cdf = np.empty(offsets[nd])
    for d in range(nd):
        lam = lams[d]
        loglam = math.log(lam)
        acc = 0.0
        for j in range(offsets[d + 1] - offsets[d]):
            x = lo[d] + j
            acc += math.exp(-lam + x * loglam - math.lgamma(x + 1.0))
            cdf[offsets[d] + j] = acc
        cdf[offsets[d + 1] - 1] = 1.0
    # guide table (Chen & Asau 1974): guide[g] = first j with cdf[j] > g / size, so a
    # draw starts next to its answer and scans about one entry
    guide = np.empty(offsets[nd], dtype=np.int64)
    for d in range(nd):
        a = offsets[d]
        size = offsets[d + 1] - a
        j = 0
        for g in range(size):
            while cdf[a + j] <= g / size:
                j += 1
            guide[a + g] = j
    return lo, offsets, cdf, guide


@jit
def _poisson_draw(st, d, tab_lo, tab_off, tab_cdf, tab_guide):
    """One Poisson draw from table ``d`` (see :func:`_poisson_tables`): inversion, the
    first CDF entry above a uniform, found from the guide table.
    """
    u = _uniform(st)
    a = tab_off[d]
    size = tab_off[d + 1] - a
    j = tab_guide[a + np.int64(u * size)]
    while tab_cdf[a + j] <= u:
        j += 1
    return tab_lo[d] + j


@jit
def _multinomial_poisson(st, k, n, lam_idx, tab_lo, tab_off, tab_cdf, tab_guide, out):
    """Multinomial(n; k / K) over the **tabled** cells (``lam_idx[i] >= 0``; ``K`` their
    rows), by Poisson draws and an exact fix-up. Other cells with rows are left as they
    are; empty cells get 0.

    Each tabled cell draws ``X_i ~ Poisson(k_i)`` (inversion tables,
    :func:`_poisson_tables`). Given their sum ``T`` the ``X`` are Multinomial(T; k / K),
    i.e. ``T`` independent row draws. If ``T > n``, ``T - n`` of those draws are removed
    uniformly at random (what remains is ``n`` independent draws); if ``T < n``,
    ``n - T`` fresh draws are added. Either way the result is exactly
    Multinomial(n; k / K), at the cost of one table lookup per cell and about
    ``sqrt(n)`` fix-ups of O(log cells) each.
    """
    m = k.size
    T = 0
    for i in range(m):
        if k[i] <= 0.0:
            out[i] = 0
        elif lam_idx[i] >= 0:
            x = _poisson_draw(st, lam_idx[i], tab_lo, tab_off, tab_cdf, tab_guide)
            out[i] = x
            T += x
    if T > n:
        # remove T - n draws: Fenwick tree over the tabled cells' counts, rank -> cell
        tree = np.zeros(m + 1, dtype=np.int64)
        for i in range(m):
            if k[i] > 0.0 and lam_idx[i] >= 0:
                j = i + 1
                while j <= m:
                    tree[j] += out[i]
                    j += j & (-j)
        top = 1
        while top * 2 <= m:
            top *= 2
        rem = T
        for _ in range(T - n):
            r = _index(st, np.int64(rem))  # np.int64: never a literal type
            pos = 0
            step = top
            while step > 0:
                nxt = pos + step
                if nxt <= m and tree[nxt] <= r:
                    pos = nxt
                    r -= tree[nxt]
                step >>= 1
            out[pos] -= 1  # cell pos (0-based) holds the chosen draw
            j = pos + 1
            while j <= m:
                tree[j] -= 1
                j += j & (-j)
            rem -= 1
    elif T < n:
        # add n - T draws: a uniform row of the tabled cells, then its cell
        cum = np.empty(m)
        acc = 0.0
        for i in range(m):
            if k[i] > 0.0 and lam_idx[i] >= 0:
                acc += k[i]
            cum[i] = acc
        K = np.int64(acc)
        for _ in range(n - T):
            r = np.float64(_index(st, K))
            a = 0
            b = m - 1
            while a < b:  # first cell with cum > r
                mid = (a + b) >> 1
                if cum[mid] > r:
                    b = mid
                else:
                    a = mid + 1
            out[a] += 1


#: Poisson tables are built for cells of at most this many rows (a stratum with a
#: bigger cell uses conditional binomials); this bounds the tables' memory
POISSON_MAX = 1000


@jit
def _multinomial_stratum(st, k, total, lam_idx, tab_lo, tab_off, tab_cdf, tab_guide, out):
    """Multinomial(total; k / total) over one stratum's cells, by the cheapest exact
    method: row draws when cells hold few draws each (:func:`_multinomial_cells`);
    otherwise Poisson draws with a fix-up (:func:`_multinomial_poisson`) for the cells
    with a table and conditional binomials for the big cells without one, after a
    binomial split of ``total`` between the two sets (given the split, the two sets
    are independent multinomials).
    """
    nnz = 0
    k_big = 0.0
    for i in range(k.size):
        if k[i] > 0.0:
            nnz += 1
            if lam_idx[i] < 0:
                k_big += k[i]
    if total <= 4 * nnz or k_big >= total:
        _multinomial_cells(st, k, total, out)
        return
    n = np.int64(total)
    n_big = _binomial(st, n, k_big / total) if k_big > 0.0 else np.int64(0)
    if k_big > 0.0:
        n_rem = n_big
        k_rem = k_big
        for i in range(k.size):
            if k[i] > 0.0 and lam_idx[i] < 0:
                x = _next_cell(st, n_rem, k_rem, k[i])
                out[i] = x
                n_rem -= x
                k_rem -= k[i]
    _multinomial_poisson(st, k, n - n_big, lam_idx, tab_lo, tab_off, tab_cdf, tab_guide, out)
