"""Weighted partition tables whose masses are summed exactly, whatever the partitioning.

A weighted partition's table *(curve, distinct score) -> (positive, negative mass)*
is kept as an :class:`ExactTable`: its curves' key columns (one row per entry), its
scores, and its masses as exact integer limbs (:mod:`.mass_limbs`; the Poisson
bootstrap's replicate masses too). Tables merge by adding limbs, exactly, in any order
and any tree (:func:`merged_tables`); the doubles are formed once, from the exact sums, when
the merged table becomes an :class:`~.accumulator.Accumulator`
(:meth:`ExactTable.accumulator`). A partition holding a mass the limbs do not take
gives its float Accumulator instead, and a merge meeting one adds floats as before.

The Spark wing sends the same tables over the wire (its executors' weighted tables);
the Dask wing merges them in its tree.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .accumulator import Accumulator, holding
from .mass_limbs import exact_entries, exact_replicates, merged_exact, normalised
from .partitions import packed_partition, partition_rows, reduce_partition, replicate_table
from .table import Layout, entries, reduce_entries

MODEL = "model"


def layout_from_keys(keys, by, models):
    """``(Layout, curve)``: the curves' layout of a frame of key columns (``by`` columns,
    then ``model`` when ``models`` is a list) and each row's curve in it, the groups
    sorted as in memory.
    """
    M = 1 if models is None else len(models)
    n = len(keys)
    if by:
        codes = keys.groupby(by, sort=True, dropna=False, observed=True).ngroup()
        codes = codes.to_numpy(np.int64)
        _u, first = np.unique(codes, return_index=True)
        groups = keys[by].iloc[first].reset_index(drop=True)
    else:
        codes = np.zeros(n, dtype=np.int64)
        groups = pd.DataFrame(index=pd.RangeIndex(1))
    if models is not None:
        index = {m: i for i, m in enumerate(models)}
        model = keys[MODEL].map(index).to_numpy(np.int64)
    else:
        model = np.zeros(n, dtype=np.int64)
    return Layout(list(by), models, groups), codes * M + model


class ExactTable:
    """Entries with exact masses: ``keys`` (the curve's key columns, one row per
    entry), ``score``, ``limbs`` (positive, negative, then the replicate masses' limbs)
    and the layout's ``by`` and ``models``.
    """

    def __init__(self, keys, score, limbs, by, models):
        self.keys, self.score, self.limbs = keys, score, limbs
        self.by, self.models = by, models

    @classmethod
    def of(cls, layout, curve, score, *limbs):
        keys = layout.keys.iloc[curve].reset_index(drop=True)
        return cls(keys, score, limbs, list(layout.by or []), layout.models)

    def __sizeof__(self) -> int:
        # what Dask's memory accounting reads: the arrays and the key rows
        held = sum(x.nbytes for x in (self.score, *self.limbs))
        return object.__sizeof__(self) + held + int(self.keys.memory_usage(deep=True).sum())

    @property
    def n_entries(self):
        return self.score.size

    def accumulator(self):
        """The Accumulator of these entries, each mass the double of its exact sum."""
        layout, curve = layout_from_keys(self.keys, self.by, self.models)
        lp, ln, *extra = self.limbs
        return holding(layout, *merged_exact(curve, self.score, lp, ln, tuple(extra)))


def merged_tables(tables):
    """The merge of partition tables: an :class:`ExactTable` when every non-empty one
    is, else the Accumulator of their float sums.
    """
    full = [t for t in tables if isinstance(t, ExactTable) or t.n_entries]
    if not full or not all(isinstance(t, ExactTable) for t in full):
        acc = Accumulator()
        for t in tables:
            acc.merge(as_accumulator(t))
        return acc
    first = full[0]
    keys = pd.concat([t.keys for t in full], ignore_index=True)
    score = np.concatenate([t.score for t in full])
    limbs = [np.concatenate(x) for x in zip(*(t.limbs for t in full))]
    layout, curve = layout_from_keys(keys, first.by, first.models)
    lp, ln = limbs[0], limbs[1]
    curve, score, _p, _n, red = reduce_entries(curve, score, lp[:, 0], ln[:, 0], tuple(limbs))
    return ExactTable.of(layout, curve, score, *map(normalised, red))


def as_accumulator(table):
    """An Accumulator of a partition table (exact or not)."""
    return table.accumulator() if isinstance(table, ExactTable) else table


def exact_partition(part, kw, offset=None, seed=0, n_boot=0, ids=None):
    """A weighted partition's :class:`ExactTable` (with ``n_boot`` Poisson replicate
    masses when ``offset`` or ``ids`` keys the rows) and a few of its label values, as
    :func:`.partitions.reduce_partition` gives its Accumulator (which it falls back to
    where a mass is outside what the limbs take).
    """
    if offset is None and ids is None:
        labels, packed = packed_partition(part, kw)
        if packed is None:
            return Accumulator(), labels
        batch, data, score, by, _keep = packed
        exact = exact_entries(batch)
        if exact is None:
            return reduce_partition(part, kw)
        return ExactTable.of(Layout(*entries(batch, data, score, by)[:3]), *exact), labels
    labels, rp = partition_rows(part, kw, 0 if offset is None else offset, ids=ids)
    if rp is None:
        return Accumulator(), labels
    exact = exact_replicates(rp, seed, n_boot)
    if exact is None:
        return replicate_table((labels, rp), seed, n_boot)
    return ExactTable.of(rp.layout, *exact), labels
