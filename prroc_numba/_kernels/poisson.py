"""The Poisson(1) stream of the Poisson bootstrap, written once for every engine.

In the Poisson bootstrap each row of the data gets, in replicate ``b``, a count drawn
from Poisson(1) (the limit of the multinomial resample for large n). Here that count is
a pure function of ``(seed, b, row)``: no state, no order, no thread. The same row gets
the same count in every model's pass, in every partition of a Dask frame and on every
device, so comparisons stay paired and the CPU, Dask and GPU paths give bit-identical
replicates for the same seed and data.

* :func:`replicate_key` -- ``key(seed, b)``: two splitmix64 finalisers of the seed and
  the replicate number;
* :func:`poisson_count` -- ``count(key, row)``: the ``row``-th output of the SplitMix64
  sequence started at ``key`` (``mix64(key + (row + 1) * gamma)``), turned into a
  Poisson(1) draw by inversion against the integer table :data:`POISSON1_CDF`.

Only 64-bit integer operations decide a count (the table holds
``floor(P(X <= k) * 2**64)``), so no floating-point rounding can differ between
engines. Counts are capped at 20; ``P(X > 20) < 2**-64``.

The functions below are plain Python on purpose: :data:`replicate_key_cpu` and
:data:`poisson_count_cpu` are their CPU compilations (``prroc_numba._jit.numba.jit``), and
the CUDA backend compiles the very same functions as device functions. Each body is
self-contained (no calls), so it compiles unchanged for both targets.
"""

from __future__ import annotations

from decimal import Decimal, localcontext

import numpy as np

from .._jit.numba import jit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # SplitMix64 increment (odd; 2**64 / golden ratio)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_C_POISSON = np.uint64(0xF1357AEA2E62A9C5)  # separates these streams from rng.py's
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_ONE = np.uint64(1)

POISSON_MAX = 20


# ``floor(P(X <= k) * 2**64)`` for X ~ Poisson(1), k = 0 .. POISSON_MAX - 1 (exact to 1
# ulp), computed once at import in 60-digit decimals (module-level code, not a function:
# this package holds compiled code only)
with localcontext() as _ctx:
    _ctx.prec = 60
    _e_inv, _term, _cdf, _table = Decimal(-1).exp(), Decimal(1), Decimal(0), []
    for _k in range(POISSON_MAX):
        if _k:
            _term /= _k
        _cdf += _term * _e_inv
        _table.append(int(_cdf * (1 << 64)))
POISSON1_CDF = np.array(_table, dtype=np.uint64)
del _ctx, _e_inv, _term, _cdf, _table, _k


def replicate_key(seed, replicate):
    """The key of replicate ``replicate`` under ``seed`` (both non-negative ints) as uint64."""
    z = np.uint64(seed) + _GAMMA
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    z = z ^ (z >> _S31)
    z = z ^ (np.uint64(replicate) * _C_POISSON)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def poisson_count(key, row):
    """The Poisson(1) count of row ``row`` (non-negative int) in the replicate of ``key``."""
    z = np.uint64(key) + (np.uint64(row) + _ONE) * _GAMMA
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    z = z ^ (z >> _S31)
    # the first six steps of the inversion without a branch (the count is how many
    # table entries z reaches: P(X >= 6) < 6e-4), then the rare rest
    k = 0
    for j in range(6):
        k += z >= POISSON1_CDF[j]
    while k < POISSON_MAX and z >= POISSON1_CDF[k]:
        k += 1
    return k


replicate_key_cpu = jit(replicate_key)
poisson_count_cpu = jit(poisson_count)
