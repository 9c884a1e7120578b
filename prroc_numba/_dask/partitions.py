"""The tables of a Dask frame's partitions, merged in a tree.

Each partition is reduced by the engine-neutral partition functions
(:func:`prroc_numba._core.partitions.reduce_partition`: validated and packed like
in-memory data, reduced to its table *(curve, distinct score) -> (positive, negative
mass)*, with the Poisson replicate masses of its rows when a bootstrap asks); the
tables are merged in a tree (fan-in 8) on the workers (:func:`accumulate`). The dask
config settings of the wing are read here (:func:`settings`, :func:`range_rows`).
"""

from __future__ import annotations

import numpy as np

from .._core import layout_of
from .._core.exact_tables import as_accumulator, exact_partition, merged_tables
from .._core.partitions import (
    check_merged,
    check_names,
    input_kw,
    reduce_partition,
)

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
    check_names(data.columns, score, label, by, weight, "Dask")


def _merge(*items, limit=None):
    acc = merged_tables([a for a, _lab in items])  # weighted tables: their masses added exactly
    labels = [lab for _a, lab in items if lab is not None]
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
    kw = input_kw(score, label, by, weight, pos_label, soft_labels)
    parts = data.to_delayed()
    reduce = partition_table(kw)
    if seed is None:
        items = [dask.delayed(reduce)(p, kw) for p in parts]
    else:
        offsets = row_offsets(parts)
        items = [
            dask.delayed(reduce)(p, kw, int(offsets[i]), seed, n_boot) for i, p in enumerate(parts)
        ]
    limit = None if seed is None else settings()[2]
    acc, labels = _merge_tree(items, limit)
    _check_size(acc, limit)
    acc = as_accumulator(acc)
    check_merged(layout_of(acc), labels, pos_label)
    return acc


def partition_table(kw):
    """The function that reduces a partition: with a weight column, to its table of
    exact masses (:func:`prroc_numba._core.exact_tables.exact_partition`: the merged
    masses then do not depend on the partitioning), else to its Accumulator.
    """
    return reduce_partition if kw["weight"] is None else exact_partition


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


def _kw(kw):
    return {k: kw[k] for k in ("score", "label", "by", "weight", "pos_label", "soft_labels")}


def _n_entries(item):
    return item[0].n_entries
