"""The table route: rows -> the mergeable table of each curve -> a batch again.

Every curve, area and hull this library computes depends on a curve's rows only through
the table *distinct score -> (positive weight, negative weight)*. That table is
mergeable: tables of two batches of rows are concatenated and equal scores summed. Here
a packed batch becomes its entries (:func:`batch_entries`, :func:`entries`), entries
of several runs are summed (:func:`reduce_entries`), and a table becomes a batch again
(:func:`table_batch`): each distinct score one positive row of weight ``P_s`` and one
negative row of weight ``N_s`` (a zero-weight half is dropped, which changes nothing,
as zero weight is removal), handed to the batch-level code the in-memory functions run
(:mod:`.area_frames`, :mod:`.curve_frames`), so the sweep, hull and area kernels run
unchanged. :class:`Layout` names a table's curves.

The table's holder is :class:`~.accumulator.Accumulator`; its kept rows
:mod:`.kept_rows`; the few functions through which the wings read and build tables
:mod:`.reading`; the state format :mod:`.state`.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from .._drivers.resample import segments_batch
from .._schema import MODEL
from .batch import describe_row
from .exact_ints import refuse
from .kept_rows import rows_of, unit_rows_fit
from .presort import split_sorted
from .sweep import _split_sweep


def narrow(x):
    """Masses as held: uint32 when every one is a whole number below 2**32 (the counts
    of unweighted rows; exact, and half the bytes), else float64 as given.
    """
    if x.dtype != np.float64 or x.size == 0:
        return x
    if x.max() < 2.0**32 and (np.floor(x) == x).all():
        return x.astype(np.uint32)
    return x


def sum_runs(masses, order, idx):
    """The held masses of several runs, taken in ``order``, summed over each run of
    ``idx`` as float64 (uint32 counts stay uint32 until the sum: fewer bytes moved).
    """
    if all(m.dtype == np.uint32 for m in masses):
        return np.add.reduceat(np.concatenate(masses)[order], idx, dtype=np.float64)
    return np.add.reduceat(np.concatenate([wide(m) for m in masses])[order], idx)


def wide(x):
    """Held masses as float64."""
    return x if x.dtype == np.float64 else x.astype(np.float64)


def _sort_entries(curve, score):
    """Order of values by curve, then score descending, the start of each distinct
    ``(curve, score)`` run in that order, and the sorted scores (``-0.0`` and ``+0.0``
    are one score, as in the sweep).
    """
    score = score + 0.0
    order = np.lexsort((-score, curve))
    c, s = curve[order], score[order]
    start = np.ones(c.size, dtype=bool)
    start[1:] = (c[1:] != c[:-1]) | (s[1:] != s[:-1])
    return order, np.flatnonzero(start), s


def reduce_entries(curve, score, pos, neg, extra=()):
    """Sum ``pos``/``neg`` (and the rows of each 2-D array of ``extra``) over equal
    ``(curve, score)``; the result is sorted by curve, then score descending.
    """
    if curve.size == 0:
        return curve, score, pos, neg, extra
    order, idx, s = _sort_entries(curve, score)
    red = tuple(np.add.reduceat(x[order], idx, axis=0) for x in extra)
    return (
        curve[order][idx],
        s[idx],
        np.add.reduceat(pos[order], idx),
        np.add.reduceat(neg[order], idx),
        red,
    )


def swept_entries(batch, decimals=None):
    """``(curve, score, pos, neg)`` summed over equal (curve, score), sorted by curve then
    score descending: each curve's rows in the order of the bootstrap plan's one radix
    sort per curve (:func:`._drivers.resample.segments_batch`), then one sum per run of
    tied scores.
    """
    values = batch.values if decimals is None else np.round(batch.values, decimals)
    order, ps, ns = segments_batch(values, batch.offsets, batch.pos, batch.neg, batch.label_start)[
        :3
    ]
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), lengths)
    xs = values[batch.offsets[curve] + order] + 0.0
    start = np.ones(xs.size, dtype=bool)
    start[1:] = (curve[1:] != curve[:-1]) | (xs[1:] != xs[:-1])
    idx = np.flatnonzero(start)
    return curve[idx], xs[idx], np.add.reduceat(ps, idx), np.add.reduceat(ns, idx)


def batch_entries(batch, decimals=None):
    """``(curve, score, pos, neg)`` of a packed batch, as :func:`swept_entries` gives
    them: by the class-split keys-only sort (:func:`.presort.split_sorted`, what
    ``prn.auc`` sorts by) and the curves' sweep (:func:`.sweep._split_sweep`) where they
    apply (hard, unweighted labels; curves of a few thousand rows or more; no
    rounding), each vertex's counts differenced; else :func:`swept_entries`.
    """
    refuse(
        batch,
        "a table merged with other batches (Accumulator, partitions, streams)",
        "pass the scores in one call, or rank them into float64 first",
    )
    split = None if decimals is not None else split_sorted(batch)
    if split is None:
        return swept_entries(batch, decimals)
    thr, tp, fp, off = _split_sweep(batch, *split)  # each curve's origin, then its vertices
    entry = np.ones(thr.size, dtype=bool)
    entry[off[:-1]] = False
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), np.diff(off) - 1)
    return curve, thr[entry], np.diff(tp, prepend=0.0)[entry], np.diff(fp, prepend=0.0)[entry]


def drop_zero_weight(data, score, label, by, weight):
    """Rows of weight 0 are removal; a batch may hold a group only through such rows
    (pack would call that group empty), so drop them first. Returns the arguments and
    the kept input positions (None: all), or None when no row is left.
    """
    if weight is None:
        return (data, score, label, by, weight), None
    w = _column_or_array(data, weight)
    zero = w == 0 if w is not None and w.ndim == 1 else np.zeros(1, dtype=bool)
    if zero.all():
        return None
    if not zero.any():
        return (data, score, label, by, weight), None
    return tuple(_take(~zero, data, score, label, by, weight)), np.flatnonzero(~zero)


def entries(batch, data, score, by, decimals=None):
    """The layout of a packed batch's curves and one entry per value.

    Returns ``(by_names, models, groups, curve, values, pos, neg)``: the key layout as
    :class:`Accumulator` holds it, then per value its curve, score and row masses.
    """
    by_names, models, groups = batch_layout(batch, data, score, by)
    lengths = np.diff(batch.offsets)
    curve = np.repeat(np.arange(batch.n_curves, dtype=np.int64), lengths)
    local = np.arange(batch.values.size, dtype=np.int64) - batch.offsets[curve]
    row = batch.label_start[curve] + local
    values = batch.values
    if decimals is not None:
        values = np.round(values, decimals)
    return by_names, models, groups, curve, values, batch.pos[row], batch.neg[row], row


def batch_layout(batch, data, score, by):
    """``(by_names, models, groups)``: the key layout of a packed batch's curves as
    :class:`Accumulator` holds it.
    """
    M = batch.n_models
    if by is None:
        by_names = []
    elif data is not None and isinstance(by, str):
        by_names = [by]
    elif data is not None and isinstance(by, (list, tuple)) and all(isinstance(b, str) for b in by):
        by_names = list(by)
    else:
        by_names = list(batch.keys.columns[:1])  # the "group" column of an array by
    wide = batch.keys.shape[1] > len(by_names)
    models = list(batch.keys[MODEL].iloc[:M]) if wide else None
    G = batch.group_offsets.size - 1
    if not by_names:
        return by_names, models, pd.DataFrame(index=range(G))
    groups = batch.keys.iloc[np.arange(G) * M][by_names].reset_index(drop=True)
    return by_names, models, groups


def unit_batch(score, pos, neg, keys):
    """The batch of one curve's unit rows rebuilt from its counts, class-split sorted:
    the positives' scores, then the negatives', each ascending (see
    :attr:`~prroc_numba._core.batch.Batch.split_npos`).
    """
    from .batch import Batch

    asc = score[::-1]
    sp, sn = rows_of(asc, pos[::-1]), rows_of(asc, neg[::-1])
    values = np.concatenate([sp, sn])
    P = np.zeros(values.size)
    P[: sp.size] = 1.0
    offsets = np.array([0, values.size], dtype=np.int64)
    npos = np.array([sp.size], dtype=np.int64)
    return Batch(
        values,
        offsets,
        P,
        1.0 - P,
        offsets,
        np.zeros(1, np.int64),
        keys,
        1,
        None,
        values.size,
        split_npos=npos,
    )


def curve_keys(groups, models):
    """Every curve's key columns: each group's row, once per model (a ``model`` column)."""
    M = 1 if models is None else len(models)
    G = len(groups)
    keys = groups.iloc[np.repeat(np.arange(G), M)].reset_index(drop=True)
    if models is not None:
        keys[MODEL] = np.tile(np.asarray(models, dtype=object), G)
    return keys


def _column_or_array(data, x):
    if isinstance(x, str) and data is not None and x in data.columns:
        return np.asarray(data[x])
    return None if isinstance(x, str) else np.asarray(x)  # pack explains a bad name


def _take(keep, data, *args):
    """Rows ``keep`` of ``data`` and of every array-like argument (names stay names)."""
    out = [None if data is None else data[keep]]
    for x in args:
        if (
            x is None
            or isinstance(x, str)
            or (isinstance(x, (list, tuple)) and x and all(isinstance(v, str) for v in x))
        ):
            out.append(x)
        elif isinstance(x, (pd.Series, pd.DataFrame)):
            out.append(x[keep])
        else:
            out.append(np.asarray(x)[keep])
    return out


def table_batch(keys, curve, score, pos, neg):
    """The batch of a table's weighted rows, built from the table directly: per curve
    (group by group, model by model; ``keys`` one row per curve) its positive rows (mass
    ``pos``), then its negative rows (mass ``neg``), each in the table's order, zero
    masses left out -- the batch that packing those rows as a frame (``by`` the key
    columns) gives.
    """
    from .batch import Batch, lengths_to_offsets

    C = len(keys)
    if C == 1 and unit_rows_fit(pos, neg):
        return unit_batch(score, pos, neg, keys)
    pos, neg = wide(pos), wide(neg)
    kp, kn = pos > 0, neg > 0
    if C == 1:  # one curve: its positive rows, then its negative rows
        values = np.concatenate([score[kp], score[kn]])
        P = np.concatenate([pos[kp], np.zeros(int(kn.sum()))])
        N = np.concatenate([np.zeros(int(kp.sum())), neg[kn]])
        offsets = np.array([0, values.size], dtype=np.int64)
        return Batch(
            values, offsets, P, N, offsets, np.zeros(1, np.int64), keys, 1, None, 2 * score.size
        )
    cp, cn = curve[kp], curve[kn]
    n_p, n_n = np.bincount(cp, minlength=C), np.bincount(cn, minlength=C)
    live = (n_p + n_n) > 0
    if not live.all():  # curves without entries here (a Dask range) are no curves
        keys = keys[live].reset_index(drop=True)
        new = np.cumsum(live) - 1
        cp, cn, n_p, n_n = new[cp], new[cn], n_p[live], n_n[live]
        C = int(live.sum())
    offsets = lengths_to_offsets(n_p + n_n)
    at_p = offsets[cp] + np.arange(cp.size) - lengths_to_offsets(n_p)[cp]
    at_n = offsets[cn] + n_p[cn] + np.arange(cn.size) - lengths_to_offsets(n_n)[cn]
    total = int(offsets[-1])
    values, P, N = np.empty(total), np.zeros(total), np.zeros(total)
    values[at_p], P[at_p] = score[kp], pos[kp]
    values[at_n], N[at_n] = score[kn], neg[kn]
    return Batch(
        values,
        offsets,
        P,
        N,
        offsets,
        np.arange(C, dtype=np.int64),
        keys,
        1,
        None,
        2 * score.size,
    )


class Layout:
    """The curves' layout of a table: the ``by`` column names, the models (None: one
    score column) and the groups (one row per group, sorted); curve ``c`` is model
    ``c % n_models`` of group ``c // n_models``. What :func:`warn_undefined` and the
    bootstrap front ends read from a batch: ``keys``, ``n_models``, ``n_curves``,
    ``group_offsets``, :meth:`describe`.
    """

    def __init__(self, by, models, groups):
        self.by, self.models, self.groups = by, models, groups
        self.n_models = 1 if models is None else len(models)
        self.n_curves = len(groups) * self.n_models

    @functools.cached_property
    def keys(self):
        """The key columns of every curve, one row per curve."""
        return curve_keys(self.groups, self.models)

    @property
    def group_offsets(self):
        return np.arange(len(self.groups) + 1, dtype=np.int64)

    def describe(self, c):
        keys = self.keys
        return "the curve" if keys.shape[1] == 0 else describe_row(keys.iloc[c])
