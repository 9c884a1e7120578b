"""Integer scores beyond 2**53, ranked exactly.

float64 holds every integer up to 2**53 exactly and rounds larger ones, so int64 /
uint64 scores such as hashes or timestamps would tie or swap rows on the way to the
kernels. A column with such values is read as its dense ranks instead (0, 1, 2, ... in
integer order; equal integers one rank), which keep the order and the ties exactly; the
curves' areas depend on nothing else. The sorted distinct integers travel with the
packed batch (``Batch.score_levels``) so that curve frames report thresholds as the
original integers; the paths that merge tables of several reads (streaming
accumulators, partitions, GPU sweeps, thresholds you choose) cannot compare ranks
of different reads and refuse such a batch with a clear error.
"""

from __future__ import annotations

import numpy as np

#: the largest magnitude up to which float64 holds every integer
EXACT = 2**53


class RankedScores(np.ndarray):
    """float64 dense ranks of an integer score column; ``levels``: the sorted distinct
    integers (rank ``r`` is ``levels[r]``).
    """

    levels: np.ndarray | None

    def __array_finalize__(self, obj) -> None:
        self.levels = getattr(obj, "levels", None)


def needs_ranks(arr: np.ndarray) -> bool:
    """Whether an integer array holds values float64 would round."""
    if arr.dtype.kind not in "iu" or arr.size == 0:
        return False
    if arr.dtype.kind == "u":
        return bool(arr.max() > EXACT)
    return bool(arr.max() > EXACT or arr.min() < -EXACT)


def ranked(arr: np.ndarray) -> RankedScores:
    """The dense ranks of an integer column (float64), carrying its distinct values."""
    levels, inverse = np.unique(arr, return_inverse=True)
    out = inverse.reshape(arr.shape).astype(np.float64).view(RankedScores)
    out.levels = levels
    return out


def column_levels(cols) -> tuple | None:
    """Each score column's ``levels`` (None for a column read as floats), or None when
    no column was ranked.
    """
    levels = tuple(getattr(c, "levels", None) for c in cols)
    return None if all(lv is None for lv in levels) else levels


def refuse(batch, what: str, fix: str) -> None:
    """A clear error where a path cannot keep ranked integer scores exact."""
    if getattr(batch, "score_levels", None) is not None:
        raise ValueError(
            f"integer scores beyond 2**53 are ranked exactly within one call, but {what} "
            f"cannot keep them exact; {fix}"
        )


def original_thresholds(batch, thr: np.ndarray, off: np.ndarray) -> np.ndarray:
    """The thresholds of a swept batch as the original integers where its columns were
    ranked (``thr`` the curves' ranks, ``off`` their offsets); ``thr`` unchanged
    otherwise. Points that are no rank (a curve's start) stay as floats in an object
    column.
    """
    if batch.score_levels is None:
        return thr
    return thresholds_of_curves(batch, thr, np.repeat(np.arange(off.size - 1), np.diff(off)))


def thresholds_of_curves(batch, thr: np.ndarray, curve: np.ndarray) -> np.ndarray:
    """:func:`original_thresholds` of points given with their curve ``curve``."""
    levels = batch.score_levels
    if levels is None:
        return thr
    model = curve % batch.n_models
    out = thr.astype(object)
    mapped = np.zeros(thr.size, dtype=bool)
    for m, lv in enumerate(levels):
        if lv is None:
            continue
        sel = (model == m) & np.isfinite(thr)
        r = thr[sel]
        ok = (r == np.round(r)) & (r >= 0) & (r < lv.size)
        idx = np.flatnonzero(sel)[ok]
        out[idx] = lv[r[ok].astype(np.int64)]
        mapped[idx] = True
    kinds = {lv.dtype for lv in levels if lv is not None}
    if mapped.all() and len(kinds) == 1:
        return out.astype(kinds.pop())
    return out
