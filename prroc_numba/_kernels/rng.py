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
  its first terms, relative error < 1e-13 for k >= 10, a table below).
"""

from __future__ import annotations

import math

import numpy as np

from .._numba import jit

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
    return np.float64(_next(st) >> _S11) * _TWO_M53


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


_TAIL = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287])


@jit
def _stirling_tail(k):
    """``lgamma(k + 1) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]``: a table for
    k <= 9, Stirling's series otherwise (relative error below 1e-13 there)."""
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
    m = math.floor((n + 1) * p)
    nf = np.float64(n)
    while True:
        u = _uniform(st) - 0.5
        v = _uniform(st)
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + c)
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= vr:
            return np.int64(k)
        if v <= 0.0:
            continue
        lv = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1.0) / (r * (nf - m + 1.0)))
                 + (nf + 1.0) * math.log((nf - m + 1.0) / (nf - k + 1.0))
                 + (k + 0.5) * math.log(r * (nf - k + 1.0) / (k + 1.0))
                 + _stirling_tail(np.float64(m)) + _stirling_tail(nf - m)
                 - _stirling_tail(np.float64(k)) - _stirling_tail(nf - k))
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
