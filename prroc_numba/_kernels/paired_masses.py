"""Poisson replicate masses of table entries, one count per row for every model.

A wide (paired) input scores each row with ``M`` models: the row sits in one entry
*(curve, distinct score)* per model, and its Poisson count in replicate ``b``
(:mod:`.poisson`, keyed by ``(seed, b, row id)``) is the same in all of them. So the
count is drawn once per (row, replicate) and added to the row's ``M`` entries, instead
of once per entry row (``M`` times the draws).

Each replicate's masses are summed by one thread, rows in input order, so the result
does not depend on the thread count (and equals, row for row, the per-entry sums).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .poisson import poisson_count_cpu, replicate_key_cpu


@jit(parallel=True)
def _paired_masses(entry, rows, pos, neg, n_entries, seed, b0, n_boot):
    """``(P*, N*)``, float64 ``(n_boot, n_entries)``: the replicate-weighted masses of
    replicates ``b0 .. b0 + n_boot - 1`` (one row per replicate).

    Row ``i`` (input row id ``rows[i]``, masses ``pos[i]``/``neg[i]``) belongs to the
    entries ``entry[i, :]`` (one per model). The score-range path calls it on a block
    of replicates at a time (bounded memory), with the rows' tie blocks or curves as
    entries.
    """
    n, M = entry.shape
    pb = np.zeros((n_boot, n_entries))  # one row per replicate: one thread writes it
    nb = np.zeros((n_boot, n_entries))
    for b in prange(n_boot):
        key = replicate_key_cpu(seed, b0 + np.int64(b))  # a prange index is unsigned
        for i in range(n):
            k = poisson_count_cpu(key, rows[i])
            if k:
                p = k * pos[i]
                q = k * neg[i]
                for m in range(M):
                    e = entry[i, m]
                    pb[b, e] += p
                    nb[b, e] += q
    return pb, nb


@jit(parallel=True)
def _paired_limbs(entry, rows, pos, neg, n_entries, seed, b0, n_boot):
    """``(P*, N*)``, int64 ``(n_boot, n_entries, 3)``: :func:`_paired_masses` summed
    exactly, the rows' masses given as int64 limbs ``(n, 3)`` of base ``2**31``
    (:mod:`prroc_numba._core.mass_limbs`); each count times each limb added in
    integer arithmetic, so the sums do not depend on the order (not normalised).
    """
    n, M = entry.shape
    pb = np.zeros((n_boot, n_entries, 3), dtype=np.int64)
    nb = np.zeros((n_boot, n_entries, 3), dtype=np.int64)
    for b in prange(n_boot):
        key = replicate_key_cpu(seed, b0 + np.int64(b))  # a prange index is unsigned
        for i in range(n):
            k = poisson_count_cpu(key, rows[i])
            if k:
                for m in range(M):
                    e = entry[i, m]
                    for j in range(3):
                        pb[b, e, j] += k * pos[i, j]
                        nb[b, e, j] += k * neg[i, j]
    return pb, nb
