"""The kept rows: one curve's hard-labelled, unweighted batches held as they came
(each class's scores), then reduced in bulk.

Rows of one curve (no ``by=``, one score column) with 0/1 labels and no weights need no
entry per row while they arrive: :func:`hard_split` checks a batch and splits its
scores by class, :class:`KeptRows` holds them, and :func:`split_table` reduces them
with one keys-only sort of each class and one merge, not one sort per batch. The
:class:`~.accumulator.Accumulator` keeps such rows; the PyTorch metrics keep theirs
the same way.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._drivers import all_float32, split_sweep_range
from .exact_ints import needs_ranks

# rows of one curve's hard-labelled, unweighted batches kept as they came (each
# class's scores, 8 bytes a row) before they are reduced: then one keys-only sort of
# each class and one merge (:func:`split_table`), not one sort per batch
_RAW_ROWS = 1 << 18


def hard_labels(y):
    """The positives (a bool mask) of labels that are bool or exactly 0 / 1 (integers or
    floats), else None: the check of the kept rows' labels, the Accumulator's
    (:func:`hard_split`) and the PyTorch metrics'. A bool array comes back as it is.
    """
    kind = y.dtype.kind
    if kind == "b":
        return y
    if kind in "iu":
        u = y.view(f"u{y.itemsize}") if kind == "i" else y  # 0 / 1 <=> unsigned <= 1
        return y.astype(bool) if bool((u <= 1).all()) else None
    if kind == "f":
        one = y == 1
        return one if bool((one | (y == 0)).all()) else None
    return None


def hard_split(score, label, decimals=None):
    """``(positives' scores, negatives' scores)`` (float64, rounded to ``decimals``) of a
    batch of one curve given as arrays: numeric scores, all finite, and labels that are
    bool or exactly 0 / 1. ``None`` for anything else, which the full path then packs
    (and explains, where the batch is bad).
    """
    if not isinstance(score, (np.ndarray, pd.Series)) or not isinstance(
        label, (np.ndarray, pd.Series)
    ):
        return None
    s, y = np.asarray(score), np.asarray(label)
    if s.ndim != 1 or y.shape != s.shape or s.size == 0 or s.dtype.kind not in "fiu":
        return None
    if needs_ranks(s):  # integers float64 would round: the full path refuses them
        return None
    pos = hard_labels(y)
    if pos is None:
        return None
    s = s.astype(np.float64, copy=False)
    if not np.isfinite(s).all():
        return None
    if decimals is not None:
        s = np.round(s, decimals)
    return s[pos], s[~pos]


def _sort_keys(x):
    """``x`` sorted ascending (a new array); keys that are all exactly float32 (model
    probabilities often are) sort as float32, twice as fast and exact back.
    """
    if x.size > 1 and all_float32(x):
        return np.sort(x.astype(np.float32)).astype(np.float64)
    return np.sort(x)


def split_table(sp, sn):
    """``(score, pos, neg)`` of unit-mass rows given as the positives' scores ``sp`` and
    the negatives' scores ``sn`` (finite float64): one entry per distinct score,
    descending, with its counts of each class (float64). Keys-only ``np.sort`` of each
    class, then the class-split merge kernel (the sweep's: cumulative counts at every
    distinct score, differenced here).
    """
    svals = np.concatenate([_sort_keys(sp), _sort_keys(sn)])
    n = svals.size
    thr, tp, fp = np.empty(n + 1), np.empty(n + 1), np.empty(n + 1)
    k = np.empty(1, dtype=np.int64)
    offsets = np.array([0, n], dtype=np.int64)
    split_sweep_range(svals, offsets, np.array([sp.size], dtype=np.int64), thr, tp, fp, k, 0, 1)
    k = int(k[0])
    return thr[1:k].copy(), np.diff(tp[:k]), np.diff(fp[:k])


def rows_of(scores, counts):
    """Each score repeated ``counts`` times (uint32 counts; a mask where all are 0 or 1)."""
    if counts.size and counts.max() <= 1:
        return scores[counts > 0]
    return np.repeat(scores, counts)


def unit_rows_fit(pos, neg):
    """Whether one curve's table is counts (unweighted rows) of at most twice as many
    rows as entries: then its rows are rebuilt one by one (:func:`~.table.unit_batch`), which
    the class-split sort reads without an index payload.
    """
    if pos.dtype != np.uint32 or neg.dtype != np.uint32 or pos.size == 0:
        return False
    return int(pos.sum(dtype=np.int64)) + int(neg.sum(dtype=np.int64)) <= 2 * pos.size


class KeptRows:
    """One curve's batches as ``(positives' scores, negatives' scores)``, as they came."""

    def __init__(self) -> None:
        self.parts: list[tuple] = []
        self.n = 0

    def __bool__(self) -> bool:
        return bool(self.parts)

    def add(self, sp, sn, table_size) -> bool:
        """Keep a batch; True when the rows kept should now be reduced (past
        ``_RAW_ROWS``, or past ``table_size``, whichever is larger).
        """
        self.parts.append((sp, sn))
        self.n += sp.size + sn.size
        return self.n > max(_RAW_ROWS, table_size)

    def take(self, score, pos, neg, join=True):
        """``(positives' scores, negatives' scores)`` of every batch kept, forgotten here;
        with ``join``, a table ``(score, pos, neg)`` of (nearly) one row per score
        (:func:`unit_rows_fit`) gives its rows too: they join the sort, which
        costs less than merging two tables.
        """
        sp = np.concatenate([r[0] for r in self.parts])
        sn = np.concatenate([r[1] for r in self.parts])
        self.parts, self.n = [], 0
        if join and unit_rows_fit(pos, neg):
            asc = score[::-1]
            sp = np.concatenate([rows_of(asc, pos[::-1]), sp])
            sn = np.concatenate([rows_of(asc, neg[::-1]), sn])
        return sp, sn

    def arrays(self) -> list:
        """The arrays held (for the memory a holder reports)."""
        return [x for pair in self.parts for x in pair]
