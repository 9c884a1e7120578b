"""One partition's table, and the tables of a Dask frame merged in a tree.

Each partition is validated and packed like in-memory data
(:func:`prroc_numba._core.pack.pack`) and reduced to its table *(curve, distinct score) ->
(positive, negative mass)* (:class:`~prroc_numba._core.table.Accumulator`), with the
Poisson replicate masses of its rows when a bootstrap asks (:func:`_table_part`); the
tables are merged in a tree (fan-in 8) on the workers (:func:`accumulate`). The dask
config settings of the wing are read here (:func:`settings`, :func:`range_rows`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._core.batch import row_ids
from .._core.pack import pack
from .._core.resolve import read_labels
from .._core.table import (
    Accumulator,
    Layout,
    drop_zero_weight,
    entries,
    holding,
    layout_of,
    swept_entries,
)
from .._drivers import paired_masses
from .._drivers.resample import segments_batch

_FAN_IN = 8
_TABLE_MAX = 5_000_000
_RANGE_ROWS = 2_000_000  # entries per range (sampled: about), bounds a range task's memory


def settings():
    import dask

    mode = dask.config.get("prroc_numba.dask_exact", "auto")
    if mode not in ("auto", "table", "ranges"):
        raise ValueError(
            f"dask config prroc_numba.dask_exact must be 'auto', 'table' or 'ranges', got {mode!r}"
        )
    k = dask.config.get("prroc_numba.dask_ranges", None)
    limit = dask.config.get("prroc_numba.dask_table_max", _TABLE_MAX)
    return mode, k, int(limit)


def range_rows():
    """The ``"prroc_numba.dask_range_rows"`` setting: about how many (curve, score)
    entries one range holds when ``K`` is not given (default 2e6).
    """
    import dask

    rows = dask.config.get("prroc_numba.dask_range_rows", _RANGE_ROWS)
    if isinstance(rows, bool) or not isinstance(rows, (int, float, np.integer)) or rows < 1:
        raise ValueError(
            f"dask config prroc_numba.dask_range_rows must be a number >= 1, got {rows!r}"
        )
    return int(rows)


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
    batch = pack(data, **{**kw, "score": score, "label": label, "by": by, "weight": weight})
    return labels, (batch, data, score, by, keep)


class RowPart:
    """A partition's value rows (one per row and model), sorted by curve then score
    descending, with their global row ids (partition offset + position in the
    partition), which key the Poisson counts; ``starts``: the first row of each
    distinct (curve, score); ``layout``: its curves'
    :class:`~prroc_numba._core.table.Layout`.
    """

    def __init__(self, layout, curve, score, pos, neg, row, starts):
        self.layout = layout
        self.curve, self.score, self.pos, self.neg = curve, score, pos, neg
        self.row, self.starts = row, starts


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
        Layout(*entries(batch, data, score, by)[:3]),
        curve,
        s,
        pos,
        neg,
        local[label_row] + offset,
        starts,
    )


def sorted_rows(values, offsets, pos, neg, label_start):
    """Every curve's values sorted by score descending with the bootstrap plan's one
    radix sort per curve (:func:`._drivers.resample.segments_batch`): ``(curve,
    score, pos, neg, label_row, starts)``, ``label_row`` each value's label row (into
    ``pos``/``neg``), ``starts`` the first value of each distinct (curve, score).
    """
    order, ps, ns = segments_batch(values, offsets, pos, neg, label_start)[:3]
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
    n = rp.score.size
    ent = np.repeat(np.arange(starts.size, dtype=np.int64), np.diff(np.append(starts, n)))
    # every row once, with its entry in each model (the models of a group share rows)
    M = rp.layout.n_models
    by_row = np.lexsort((rp.curve % M, rp.row))
    pb, nb = paired_masses(
        np.ascontiguousarray(ent[by_row].reshape(-1, M)),
        np.ascontiguousarray(rp.row[by_row][::M]),
        np.ascontiguousarray(rp.pos[by_row][::M]),
        np.ascontiguousarray(rp.neg[by_row][::M]),
        starts.size,
        seed,
        0,
        n_boot,
    )
    # the rows are sorted: one value per entry, handed over as they are
    acc = holding(
        rp.layout,
        rp.curve[starts],
        rp.score[starts],
        np.add.reduceat(rp.pos, starts),
        np.add.reduceat(rp.neg, starts),
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
    if packed is None:
        return Accumulator(), labels
    batch, data, score, by, _keep = packed
    return holding(Layout(*entries(batch, data, score, by)[:3]), *swept_entries(batch)), labels


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
    limit = None if seed is None else settings()[2]
    acc, labels = _merge_tree(items, limit)
    _check_size(acc, limit)
    _check_merged(layout_of(acc), labels, pos_label)
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


def _check_merged(layout, labels, pos_label):
    """The merged layout (None: no row) and label values, checked as in memory."""
    if layout is None:
        raise ValueError("empty input: score has no rows (or every row has weight 0)")
    if labels is not None and labels.size:
        read_labels(pd.unique(labels), pos_label, False)  # the same check as in memory


def _kw(kw):
    return {k: kw[k] for k in ("score", "label", "by", "weight", "pos_label", "soft_labels")}


def _n_entries(item):
    return item[0].n_entries
