"""Poisson bootstrap replicates (``resampling="poisson"``), in memory and from tables.

In replicate ``b`` every row carries the count ``poisson_count(replicate_key(seed, b),
row_id)`` of :mod:`.poisson`, where ``row_id`` is the row's position in the user's
input. The count depends on nothing else, so every model of a wide input, every
partition of a Dask frame and every device gives a row the same count: comparisons
stay paired and the engines agree bit for bit on the counts.

* in memory, the counts fill the slot-count vector of the paired draws
  (:func:`.resample._boot_paired` with ``kind=POISSON``), which walks every model's
  sorted rows with it. Memory per thread is O(rows of a group).
* :func:`_table_replicates` -- replicates' areas or grid precisions from merged entry
  masses (one curve's entries in descending score order);
  :func:`prroc_numba._drivers.resample._table_areas` /
  ``_table_curves`` are its two shapes.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .._jit.numba import jit
from .resample import _emit


@jit
def _table_vertices(pb, nb, u, v, b, tp, fp):
    """Vertices of replicate ``b`` of the curve whose entries are ``[u, v)`` (entries
    that drew nothing add none); returns their number.
    """
    tp[0] = 0.0
    fp[0] = 0.0
    t = 0.0
    f = 0.0
    k = 0
    for e in range(u, v):
        t += pb[e, b]
        f += nb[e, b]
        if t != tp[k] or f != fp[k]:
            k += 1
            tp[k] = t
            fp[k] = f
    return k + 1


@jit(parallel=True)
def _table_replicates(offsets, pb, nb, spec, out):
    """Replicates from entry masses (curve ``c``'s entries ``[offsets[c]:offsets[c+1]]``,
    descending score) into ``out`` ``(n_curves, grid points or 1, n_boot)``: areas or
    precisions on the grid by ``spec`` (:func:`.resample._emit`).
    """
    C = offsets.size - 1
    B = pb.shape[1]
    grid = spec[2]
    for t in prange(C * B):
        c = t // B
        b = t - c * B
        u = offsets[c]
        v = offsets[c + 1]
        tp = np.empty(v - u + 1)
        fp = np.empty(v - u + 1)
        k = _table_vertices(pb, nb, u, v, b, tp, fp)
        _emit(tp[:k], fp[:k], spec, np.empty(grid.size), out, c, b)
