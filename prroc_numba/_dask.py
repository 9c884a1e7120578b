"""Dask DataFrames as ``data``: every partition reduces to an :class:`Accumulator`.

Imported only when a Dask frame reaches a public function (the core import never
imports dask). Each partition is validated and packed like in-memory data
(:func:`prroc_numba._ragged.pack`) and reduced to its table *(curve, distinct score) ->
(positive, negative mass)*; the tables are merged in a tree (fan-in 8) on the workers
and the merged table -- O(distinct scores), not O(rows) -- is evaluated by the
in-memory kernels. Results equal the in-memory ones on the same rows.

The Poisson bootstrap (:mod:`._kernels.resample_poisson`) keys each row's count by its
global row id (partition offset + position), so a partition adds, per entry, the
replicate-weighted masses of its rows (an entries x replicates table, merged like the
rest; each row's count drawn once for all models, :mod:`._kernels.paired_masses`) and
the replicates equal the in-memory ``resampling="poisson"`` ones for the same seed and
data.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._accumulate import (
    Accumulator,
    _sort_entries,
    drop_zero_weight,
    entries,
    swept_entries,
)
from ._checks import warn_undefined_auc
from ._kernels.paired_masses import _paired_masses
from ._kernels.resample_poisson import _table_areas, _table_curves
from ._ragged import _labels, describe_row, pack, row_ids, warn_undefined

_FAN_IN = 8


def _names(data, score, label, by, weight):
    """Dask input takes column names only (arrays cannot follow its partitions)."""
    cols = list(data.columns)

    def check(arg, x, many):
        xs = (
            [x]
            if isinstance(x, str)
            else (list(x) if many and isinstance(x, (list, tuple)) else None)
        )
        if xs is None or not all(isinstance(v, str) for v in xs):
            raise TypeError(
                f"{arg}= must name column(s) of the Dask DataFrame, got "
                f"{type(x).__name__}; arrays cannot follow a Dask frame's partitions, so "
                "add them as columns first"
            )
        for v in xs:
            if v not in cols:
                raise ValueError(
                    f"{arg}={v!r} is not a column of data; available columns: "
                    + ", ".join(map(repr, cols[:20]))
                )

    check("score", score, True)
    check("label", label, False)
    if by is not None and not (isinstance(by, (list, tuple)) and len(by) == 0):
        check("by", by, True)
    if weight is not None:
        check("weight", weight, False)


def _partition(part, kw, offset=None, seed=0, n_boot=0):
    """One partition's Accumulator (with Poisson replicate masses when ``offset`` is
    given) and a few of its label values (to check the label set across partitions).
    """
    acc = Accumulator()
    soft = kw["soft_labels"]
    labels = np.asarray(pd.unique(part[kw["label"]]))[:3] if not soft and len(part) else None
    if len(part) == 0:
        return acc, labels
    kept = drop_zero_weight(part, kw["score"], kw["label"], kw["by"], kw["weight"])
    if kept is None:
        return acc, labels
    (data, score, label, by, weight), keep = kept
    batch = pack(
        data,
        score=score,
        label=label,
        by=by,
        weight=weight,
        pos_label=kw["pos_label"],
        soft_labels=soft,
    )
    if offset is None:
        acc._absorb(*entries(batch, data, score, by)[:3], *swept_entries(batch))
        return acc, labels
    by_names, models, groups, curve, values, pos, neg, row = entries(batch, data, score, by)
    # the Poisson replicate masses need each entry's rows
    local = row_ids(batch) if keep is None else keep[row_ids(batch)]
    rows = (local + offset)[row]
    order, starts, _ = _sort_entries(curve, values)
    ent = np.empty(curve.size, dtype=np.int64)  # each value's entry
    flag = np.zeros(curve.size, dtype=np.int64)
    flag[starts] = 1
    ent[order] = np.cumsum(flag) - 1
    # every row once, with its entry in each model (the models of a group share rows)
    M = batch.n_models
    by_row = np.lexsort((curve % M, rows))
    pb, nb = _paired_masses(
        np.ascontiguousarray(ent[by_row].reshape(-1, M)),
        np.ascontiguousarray(rows[by_row][::M]),
        np.ascontiguousarray(pos[by_row][::M], dtype=np.float64),
        np.ascontiguousarray(neg[by_row][::M], dtype=np.float64),
        starts.size,
        seed,
        n_boot,
    )
    # one value per entry now: hand the reduced entries over as they are
    curve, values = curve[order][starts], (values[order] + 0.0)[starts]
    pos = np.add.reduceat(pos[order], starts)
    neg = np.add.reduceat(neg[order], starts)
    extra = (pb, nb)
    acc.absorb_entries(by_names, models, groups, curve, values, pos, neg, extra)
    return acc, labels


def _merge(*items, limit=None):
    acc = Accumulator()
    labels = []
    for a, lab in items:
        acc.merge(a)
        if lab is not None:
            labels.append(lab)
    _check_size(acc, limit)
    return acc, (np.concatenate(labels) if labels else None)


def _check_size(acc, limit):
    """The Poisson replicate state is entries x replicates: stop before it outgrows the
    workers and the client (``limit``: the dask_table_max setting).
    """
    if limit is not None and acc.n_entries > limit:
        raise ValueError(
            "the Poisson bootstrap of Dask input keeps, per replicate, one (positive, "
            "negative) mass per distinct (curve, score), and these scores have more than "
            f"{limit:,} distinct values in all (n_entries x n_boot x 16 bytes); round them "
            "first (e.g. ddf['m'] = ddf['m'].round(4)), or raise the dask config "
            "'prroc_numba.dask_table_max' if the workers and the client can hold that"
        )


def accumulate(
    data, score, label, by=None, weight=None, pos_label=None, soft_labels=False, seed=None, n_boot=0
):
    """The merged :class:`Accumulator` of a Dask frame (with ``n_boot`` Poisson replicate
    masses when ``seed`` is given), computed on the current Dask scheduler.
    """
    import dask

    _names(data, score, label, by, weight)
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    kw = {
        "score": score,
        "label": label,
        "by": by,
        "weight": weight,
        "pos_label": pos_label,
        "soft_labels": soft_labels,
    }
    parts = data.to_delayed()
    if seed is None:
        items = [dask.delayed(_partition)(p, kw) for p in parts]
    else:
        lengths = dask.compute(*[dask.delayed(len)(p) for p in parts])
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        items = [
            dask.delayed(_partition)(p, kw, int(offsets[i]), seed, n_boot)
            for i, p in enumerate(parts)
        ]
    limit = None
    if seed is not None:
        from ._ranges import settings

        limit = settings()[2]
    acc, labels = _merge_tree(items, limit)
    _check_size(acc, limit)
    _check_merged(acc, labels, pos_label)
    return acc


def _merge_tree(items, limit=None):
    """The merged (Accumulator, labels) of per-partition items, merged in a tree."""
    import dask

    while len(items) > 1:
        items = [
            dask.delayed(_merge)(*items[i : i + _FAN_IN], limit=limit)
            for i in range(0, len(items), _FAN_IN)
        ]
    return dask.compute(items[0])[0]


def _check_merged(acc, labels, pos_label):
    if not acc._started:
        raise ValueError("empty input: score has no rows (or every row has weight 0)")
    if labels is not None and labels.size:
        _labels(pd.unique(labels), pos_label, False)  # the same check as in memory


def no_multiclass(multiclass):
    if multiclass is not None:
        raise ValueError(
            "multiclass= is not available for Dask input; binarise the labels "
            "into one 0/1 column per class (one call per class) first"
        )


def _kw(kw):
    return {k: kw[k] for k in ("score", "label", "by", "weight", "pos_label", "soft_labels")}


# ------------------------------------------------------------------ public functions


def _n_entries(item):
    return item[0].n_entries


def _state(data, kw):
    """The merged Accumulator, or the range-partitioned state (:mod:`._ranges`) when the
    table is too large to merge in the client (or the configuration says so).
    """
    from . import _ranges

    mode, k, limit = _ranges.settings()
    if mode == "table":
        return accumulate(data, **kw)
    import dask

    _names(data, kw["score"], kw["label"], kw["by"], kw["weight"])
    if isinstance(kw["by"], (list, tuple)) and len(kw["by"]) == 0:
        kw = {**kw, "by": None}
    items = list(dask.persist(*[dask.delayed(_partition)(p, kw) for p in data.to_delayed()]))
    if mode == "auto":
        n = sum(dask.compute(*[dask.delayed(_n_entries)(it) for it in items]))
        if n <= limit:  # the merged table fits the client: merge it
            acc, labels = _merge_tree(items)
            _check_merged(acc, labels, kw["pos_label"])
            return acc
    state = _ranges.RangeState(items, data.npartitions, k)
    _check_merged(state.layout, state.labels, kw["pos_label"])
    return state


def auc(data, curve, method, hull, **kw):
    from . import _ranges
    from ._checks import method_code

    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return state.auc(curve=curve, method=method, hull=hull)
    return _ranges.auc(state, curve, method_code(curve, method), hull, method)


def _raw(data, kind, **kw):
    """A raw curve (``kind`` names the Accumulator method) as a Dask frame."""
    from . import _ranges

    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return _maybe_lazy(getattr(state, kind)(), data, True)
    return _ranges.raw_curves(state, kind)


def metrics(data, names, **kw):
    from . import _ranges

    state = _state(data, kw)
    if isinstance(state, Accumulator):
        return state.metrics(names)
    return _ranges.metrics(state, names)


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
    args = {
        "hull": hull,
        "interpolate": interpolate,
        "thresholds": thresholds,
        "recall_step": recall_step,
    }
    if not hull and thresholds is None:
        # interpolating the whole curve needs its every vertex (the merged table)
        return accumulate(data, **kw).pr_curve(**args)
    return _small(data, hull, thresholds, kw).pr_curve(**args)


# ------------------------------------------------------------------ Poisson bootstrap


class _Curves:
    """What the bootstrap front ends read from a batch: keys, models, groups, names."""

    def __init__(self, acc):
        self.keys = acc._curve_keys()
        self.n_models = acc._n_models()
        self.n_curves = len(self.keys)
        self.group_offsets = np.arange(self.n_curves // self.n_models + 1, dtype=np.int64)

    def describe(self, c):
        return "the curve" if self.keys.shape[1] == 0 else describe_row(self.keys.iloc[c])


def _table(acc):
    """Entry offsets per curve and the data's own masses as one-column tables."""
    offsets = np.zeros(len(acc._curve_keys()) + 1, dtype=np.int64)
    np.cumsum(np.bincount(acc._curve, minlength=offsets.size - 1), out=offsets[1:])
    return offsets, acc._pos[:, None].copy(), acc._neg[:, None].copy()


def _totals(acc, offsets):
    return np.add.reduceat(acc._pos, offsets[:-1]), np.add.reduceat(acc._neg, offsets[:-1])


def replicates(
    data, score, label, by, weight, curve, code, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, None, code, est, reps, seed)`` as ``bootstrap._replicates`` returns."""
    acc = accumulate(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    curves = _Curves(acc)
    offsets, p1, n1 = _table(acc)
    est = _table_areas(offsets, p1, n1, code, hull)[:, 0]
    pb, nb = acc._extra
    reps = _table_areas(offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), code, hull)
    bad = warn_undefined_auc(curves, curve, stacklevel=5, totals=_totals(acc, offsets))
    reps[bad] = np.nan
    return curves, None, code, est, reps, seed


def curve_replicates(
    data, score, label, by, weight, grid, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, P, est, reps)`` for ``bootstrap_curve``."""
    acc = accumulate(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    curves = _Curves(acc)
    offsets, p1, n1 = _table(acc)
    P, _ = _totals(acc, offsets)
    warn_undefined(curves, P <= 0, "the PR curve is undefined (no positives): NaN", stacklevel=4)
    est = _table_curves(offsets, p1, n1, grid, hull)[:, 0, :]
    pb, nb = acc._extra
    reps = _table_curves(offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), grid, hull)
    return curves, P, est, reps
