"""Dask DataFrames as ``data``: every partition reduces to its table, the tables merge.

Imported only when a Dask frame reaches a public function (the core import never
imports dask). Each partition is validated and packed like in-memory data
(:func:`prroc_numba._core.packing.pack`) and reduced to its table *(curve, distinct score) ->
(positive, negative mass)*; the tables are merged in a tree (fan-in 8) on the workers
and the merged table -- O(distinct scores), not O(rows) -- is evaluated by the
in-memory kernels. Results equal the in-memory ones on the same rows.

The Poisson bootstrap (:mod:`._kernels.resample_poisson`) keys each row's count by its
global row id (partition offset + position), so a partition adds, per entry, the
replicate-weighted masses of its rows (an entries x replicates table, merged like the
rest; each row's count drawn once for all models, :mod:`._kernels.paired_masses`) and
the replicates equal the in-memory ``resampling="poisson"`` ones for the same seed and
data. Where runs what: the workers pack their partitions
(:func:`prroc_numba._core.partitions.partition_rows`: value rows with global row ids,
kept on the workers) and draw the counts; the client merges the
tables (or, for continuous scores whose entries x replicates table would pass
``"prroc_numba.dask_table_max"``, only scans the score ranges' per-replicate class
totals and adds their per-replicate area sums: :mod:`.ranges_poisson`) and runs the
table kernels on the merged table.

The score ranges are imported when a call needs them (a worker that only reduces its
partition never loads them). This package is the Dask wing: the public functions reach it through
:mod:`prroc_numba._backends` (by its module path, so importing the library never
imports it or dask); it reads and builds tables through :mod:`prroc_numba._core.reading`'s
functions. :mod:`.partitions` reduces and merges partitions, :mod:`.ranges` and
:mod:`.ranges_poisson` run the score ranges, and the functions below answer the
public functions' calls.
"""

from __future__ import annotations

import numpy as np

from .._checks import method_code, pr_band_grid
from .._core import Accumulator, entries_of, layout_of, pr_curve_of, replicates_of
from .._core.batch import warn_undefined, warn_undefined_auc
from .._core.exact_tables import as_accumulator
from .._core.partitions import (
    check_merged,
    input_kw,
    range_auc,
    range_metrics,
    reduce_partition,
    table_replicate_areas,
)
from .._drivers.resample import table_curves
from .partitions import _merge_tree, _n_entries, _names, accumulate, partition_table, settings


def no_multiclass(multiclass):
    if multiclass is not None:
        raise ValueError(
            "multiclass= is not available for Dask input; binarise the labels "
            "into one 0/1 column per class (one call per class) first"
        )


def _state(data, kw):
    """The merged Accumulator, or the range-partitioned state (:mod:`.ranges`) when the
    table is too large to merge in the client (or the configuration says so).
    """
    mode, k, limit = settings()
    if mode == "table":
        return accumulate(data, **kw)
    import dask

    from .ranges import RangeState

    _names(data, kw["score"], kw["label"], kw["by"], kw["weight"])
    if isinstance(kw["by"], (list, tuple)) and len(kw["by"]) == 0:
        kw = {**kw, "by": None}
    reduce = partition_table(kw)
    items = list(dask.persist(*[dask.delayed(reduce)(p, kw) for p in data.to_delayed()]))
    if mode == "auto":
        n = sum(dask.compute(*[dask.delayed(_n_entries)(it) for it in items]))
        if n <= limit:  # the merged table fits the client: merge it
            acc, labels = _merge_tree(items)
            acc = as_accumulator(acc)
            check_merged(layout_of(acc), labels, kw["pos_label"])
            return acc
    if reduce is not reduce_partition:  # the ranges read Accumulators
        items = [dask.delayed(_accumulator_item)(it) for it in items]
    state = RangeState(items, data.npartitions, k)
    check_merged(state.layout, state.labels, kw["pos_label"])
    return state


def _accumulator_item(item):
    return as_accumulator(item[0]), item[1]


def auc(data, curve, method, hull, **kw):
    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return state.auc(curve=curve, method=method, hull=hull)
    return range_auc(state, curve, method_code(curve, method), hull, method)


def _raw(data, kind, **kw):
    """A raw curve (``kind`` names the Accumulator method) as a Dask frame."""
    from . import ranges

    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return _maybe_lazy(getattr(state, kind)(), data, True)
    return ranges.raw_curves(state, kind)


def metrics(data, names, **kw):
    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return state.metrics(names)
    return range_metrics(state, names)


def merged_state(data, what, **kw):
    """The merged Accumulator of a Dask frame (for ``what``, which needs every vertex)."""
    return accumulate(data, **kw)


def _maybe_lazy(frame, data, lazy):
    if not lazy:
        return frame
    import dask
    import dask.dataframe as dd

    # the same columns and dtypes as in memory (no conversion of object keys to strings)
    with dask.config.set({"dataframe.convert-string": False}):
        return dd.from_pandas(frame, npartitions=max(1, min(data.npartitions, len(frame))))


def _small(data, hull, thresholds, kw):
    """The state whose in-memory result is the answer: the merged table, or (through the
    ranges) the hull of the local hulls or the counts at the thresholds.
    """
    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return state
    return state.hull_state() if hull else state.thresholds_state(thresholds)


def confusion(data, thresholds, **kw):
    if thresholds is None:
        return _raw(data, "confusion", **kw)
    return _small(data, False, thresholds, kw).confusion(thresholds=thresholds)


def roc_curve(data, hull, thresholds, **kw):
    if not hull and thresholds is None:
        return _raw(data, "roc_curve", **kw)
    return _small(data, hull, thresholds, kw).roc_curve(hull=hull, thresholds=thresholds)


def pr_curve(data, hull, interpolate, thresholds, recall_step, **kw):
    if not hull and thresholds is None and interpolate is None:
        return _raw(data, "pr_curve", **kw)
    options = (hull, interpolate, thresholds, recall_step)
    if not hull and thresholds is None:
        # interpolating the whole curve needs its every vertex (the merged table)
        return pr_curve_of(accumulate(data, **kw), *options)
    return pr_curve_of(_small(data, hull, thresholds, kw), *options)


# ------------------------------------------------------------------ Poisson bootstrap


def _table(acc):
    """Entry offsets per curve and the data's own masses as one-column tables."""
    curve, _score, pos, neg = entries_of(acc)
    offsets = np.zeros(layout_of(acc).n_curves + 1, dtype=np.int64)
    np.cumsum(np.bincount(curve, minlength=offsets.size - 1), out=offsets[1:])
    return offsets, pos[:, None].copy(), neg[:, None].copy()


def _totals(acc, offsets):
    pos, neg = entries_of(acc)[2:]
    return np.add.reduceat(pos, offsets[:-1]), np.add.reduceat(neg, offsets[:-1])


def _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot):
    from . import ranges_poisson

    kw = input_kw(score, label, by, weight, pos_label, soft_labels)
    return ranges_poisson.state(data, kw, seed, n_boot)


def replicates(
    data, score, label, by, weight, curve, code, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, None, code, est, reps, seed)`` as ``bootstrap._replicates`` returns:
    from the merged table's replicate masses, or through the score ranges
    (:mod:`.ranges_poisson`) when that table would be too large.
    """
    st = _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    if isinstance(st, Accumulator):
        curves, est, reps = table_replicate_areas(st, curve, code, hull)
        return curves, None, code, est, reps, seed
    curves = st.layout
    areas = st.areas(code, hull)
    est, reps = areas[:, -1].copy(), areas[:, :-1].copy()
    bad = warn_undefined_auc(curves, curve, stacklevel=5, totals=(st.P[-1], st.N[-1]))
    reps[bad] = np.nan
    return curves, None, code, est, reps, seed


def curve_replicates(
    data, score, label, by, weight, grid, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, P, est, reps, grid)`` for ``bootstrap_curve`` (table or score ranges);
    an int ``grid`` is the PR grid of that many points from the positives
    (:func:`~prroc_numba._checks.pr_band_grid`), as in memory.
    """
    st = _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    if isinstance(st, Accumulator):
        curves = layout_of(st)
        offsets, p1, n1 = _table(st)
        P, _ = _totals(st, offsets)
        grid = pr_band_grid(grid, P)
        est = table_curves(offsets, p1, n1, grid, hull)[:, 0, :]
        pb, nb = replicates_of(st)
        reps = table_curves(offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), grid, hull)
    else:
        curves = st.layout
        P = st.P[-1]
        grid = pr_band_grid(grid, P)
        out = st.curves(np.ascontiguousarray(grid, dtype=np.float64), hull)
        est, reps = out[:, -1, :], out[:, :-1, :]
    warn_undefined(curves, P <= 0, "the PR curve is undefined (no positives): NaN", stacklevel=4)
    return curves, P, est, reps, grid


#: what the public functions call (through :func:`prroc_numba._backends.wing_for`)
__all__ = [
    "auc",
    "confusion",
    "curve_replicates",
    "merged_state",
    "metrics",
    "no_multiclass",
    "pr_curve",
    "replicates",
    "roc_curve",
]
