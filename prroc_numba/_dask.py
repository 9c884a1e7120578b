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
data. Where runs what: the workers pack their partitions (:func:`_rows`: value rows
with global row ids, kept on the workers) and draw the counts; the client merges the
tables (or, for continuous scores whose entries x replicates table would pass
``"prroc_numba.dask_table_max"``, only scans the score ranges' per-replicate class
totals and adds their per-replicate area sums: :mod:`._ranges_poisson`) and runs the
table kernels on the merged table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._accumulate import (
    Accumulator,
    drop_zero_weight,
    entries,
    swept_entries,
)
from ._checks import warn_undefined_auc
from ._drivers.resample import _segments_batch, _table_areas, _table_curves
from ._kernels.paired_masses import _paired_masses
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


def _packed(part, kw):
    """A few of a partition's label values (to check the label set across partitions)
    and ``(batch, data, score, by, keep)`` of its packed rows (None: no row to pack).
    """
    soft = kw["soft_labels"]
    labels = np.asarray(pd.unique(part[kw["label"]]))[:3] if not soft and len(part) else None
    if len(part) == 0:
        return labels, None
    kept = drop_zero_weight(part, kw["score"], kw["label"], kw["by"], kw["weight"])
    if kept is None:
        return labels, None
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
    return labels, (batch, data, score, by, keep)


class RowPart:
    """A partition's value rows (one per row and model), sorted by curve then score
    descending, with their global row ids (partition offset + position in the
    partition), which key the Poisson counts; ``starts``: the first row of each
    distinct (curve, score). The layout attributes read like an :class:`Accumulator`'s.
    """

    def __init__(self, by, models, groups, curve, score, pos, neg, row, starts):
        self._by, self._models, self._groups = by, models, groups
        self._curve, self._score, self._pos, self._neg = curve, score, pos, neg
        self.row, self.starts = row, starts

    def _n_models(self):
        return 1 if self._models is None else len(self._models)

    @property
    def n_curves(self):
        return len(self._groups) * self._n_models()


def _rows(part, kw, offset):
    """``(labels, RowPart or None)`` of one partition starting at global row ``offset``."""
    labels, packed = _packed(part, kw)
    if packed is None:
        return labels, None
    batch, data, score, by, keep = packed
    local = row_ids(batch) if keep is None else keep[row_ids(batch)]
    curve, s, pos, neg, label_row, starts = sorted_rows(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    return labels, RowPart(
        *entries(batch, data, score, by)[:3],
        curve,
        s,
        pos,
        neg,
        local[label_row] + offset,
        starts,
    )


def sorted_rows(values, offsets, pos, neg, label_start):
    """Every curve's values sorted by score descending with the bootstrap plan's one
    radix sort per curve (:func:`._kernels.resample._segments_batch`): ``(curve,
    score, pos, neg, label_row, starts)``, ``label_row`` each value's label row (into
    ``pos``/``neg``), ``starts`` the first value of each distinct (curve, score).
    """
    order, ps, ns = _segments_batch(values, offsets, pos, neg, label_start)[:3]
    curve = np.repeat(np.arange(offsets.size - 1, dtype=np.int64), np.diff(offsets))
    s = values[offsets[curve] + order] + 0.0  # -0.0 and 0.0 are one score
    start = np.ones(s.size, dtype=bool)
    start[1:] = (curve[1:] != curve[:-1]) | (s[1:] != s[:-1])
    return curve, s, ps, ns, label_start[curve] + order, np.flatnonzero(start)


def _table_part(item, seed, n_boot):
    """A partition's Accumulator holding, per entry, ``n_boot`` Poisson replicate masses
    (:mod:`._kernels.paired_masses`) besides the data's own.
    """
    labels, rp = item
    acc = Accumulator()
    if rp is None:
        return acc, labels
    starts = rp.starts
    n = rp._score.size
    ent = np.repeat(np.arange(starts.size, dtype=np.int64), np.diff(np.append(starts, n)))
    # every row once, with its entry in each model (the models of a group share rows)
    M = rp._n_models()
    by_row = np.lexsort((rp._curve % M, rp.row))
    pb, nb = _paired_masses(
        np.ascontiguousarray(ent[by_row].reshape(-1, M)),
        np.ascontiguousarray(rp.row[by_row][::M]),
        np.ascontiguousarray(rp._pos[by_row][::M]),
        np.ascontiguousarray(rp._neg[by_row][::M]),
        starts.size,
        seed,
        0,
        n_boot,
    )
    # the rows are sorted: one value per entry, handed over as they are
    acc._absorb(
        rp._by,
        rp._models,
        rp._groups,
        rp._curve[starts],
        rp._score[starts],
        np.add.reduceat(rp._pos, starts),
        np.add.reduceat(rp._neg, starts),
        (np.ascontiguousarray(pb.T), np.ascontiguousarray(nb.T)),
    )
    return acc, labels


def _input_kw(score, label, by, weight, pos_label, soft_labels):
    """The column arguments every partition task reads, as one dict."""
    return {
        "score": score,
        "label": label,
        "by": by,
        "weight": weight,
        "pos_label": pos_label,
        "soft_labels": soft_labels,
    }


def _partition(part, kw, offset=None, seed=0, n_boot=0):
    """One partition's Accumulator (with Poisson replicate masses when ``offset`` is
    given) and a few of its label values (to check the label set across partitions).
    """
    if offset is not None:
        return _table_part(_rows(part, kw, offset), seed, n_boot)
    labels, packed = _packed(part, kw)
    acc = Accumulator()
    if packed is not None:
        batch, data, score, by, _keep = packed
        acc._absorb(*entries(batch, data, score, by)[:3], *swept_entries(batch))
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
            "first (e.g. ddf['m'] = ddf['m'].round(4)), or let the bootstrap run through "
            "score ranges (dask config 'prroc_numba.dask_exact' = 'auto' or 'ranges'), or "
            "raise 'prroc_numba.dask_table_max' if the workers and the client can hold that"
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
    kw = _input_kw(score, label, by, weight, pos_label, soft_labels)
    parts = data.to_delayed()
    if seed is None:
        items = [dask.delayed(_partition)(p, kw) for p in parts]
    else:
        offsets = row_offsets(parts)
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


def row_offsets(parts):
    """Each partition's first global row id (the Poisson counts' key)."""
    import dask

    lengths = dask.compute(*[dask.delayed(len)(p) for p in parts])
    return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


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


def _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot):
    from . import _ranges_poisson

    kw = _input_kw(score, label, by, weight, pos_label, soft_labels)
    return _ranges_poisson.state(data, kw, seed, n_boot)


def replicates(
    data, score, label, by, weight, curve, code, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, None, code, est, reps, seed)`` as ``bootstrap._replicates`` returns:
    from the merged table's replicate masses, or through the score ranges
    (:mod:`._ranges_poisson`) when that table would be too large.
    """
    st = _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    if isinstance(st, Accumulator):
        curves = _Curves(st)
        offsets, p1, n1 = _table(st)
        est = _table_areas(offsets, p1, n1, code, hull)[:, 0]
        pb, nb = st._extra
        reps = _table_areas(offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), code, hull)
        P, N = _totals(st, offsets)
    else:
        curves = _Curves(st.layout)
        areas = st.areas(code, hull)
        est, reps = areas[:, -1].copy(), areas[:, :-1].copy()
        P, N = st.P[-1], st.N[-1]
    bad = warn_undefined_auc(curves, curve, stacklevel=5, totals=(P, N))
    reps[bad] = np.nan
    return curves, None, code, est, reps, seed


def curve_replicates(
    data, score, label, by, weight, grid, hull, n_boot, seed, pos_label, soft_labels
):
    """``(curves, P, est, reps)`` for ``bootstrap_curve`` (table or score ranges)."""
    st = _bootstrap_state(data, score, label, by, weight, pos_label, soft_labels, seed, n_boot)
    if isinstance(st, Accumulator):
        curves = _Curves(st)
        offsets, p1, n1 = _table(st)
        P, _ = _totals(st, offsets)
        est = _table_curves(offsets, p1, n1, grid, hull)[:, 0, :]
        pb, nb = st._extra
        reps = _table_curves(
            offsets, np.ascontiguousarray(pb), np.ascontiguousarray(nb), grid, hull
        )
    else:
        curves = _Curves(st.layout)
        P = st.P[-1]
        out = st.curves(np.ascontiguousarray(grid, dtype=np.float64), hull)
        est, reps = out[:, -1, :], out[:, :-1, :]
    warn_undefined(curves, P <= 0, "the PR curve is undefined (no positives): NaN", stacklevel=4)
    return curves, P, est, reps
