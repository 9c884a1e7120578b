"""The one place where tables that crossed from Spark's executors become Accumulators.

The executors send each partition's table as Arrow batches with the columns of
:meth:`~prroc_numba.Accumulator.table` (key columns, ``score``, ``pos``, ``neg``; on the
Poisson bootstrap also ``pos_b``, ``neg_b``: each entry's replicate masses).
:func:`accumulator_from_table` reads them back through the table functions of
:mod:`prroc_numba._core.reading` (:func:`~prroc_numba._core.reading.holding`): the entries of
all partitions are summed per (curve, score) in one sort, which is the merge of the
partitions' tables. Only this module knows the wire form.
"""

from __future__ import annotations

import numpy as np

from .._core import holding
from .._core.exact_tables import layout_from_keys as layout_from_keys  # (its readers')
from .._core.mass_limbs import from_wire, merged_exact
from .executor import B_LIMBS, LIMBS, MODEL, NEG, NEG_B, POS, POS_B, SCORE


def accumulator_from_table(table, by, models):
    """The Accumulator holding the summed entries of ``table`` (a pyarrow Table of the
    wire columns); None when it has no entry.
    """
    if table.num_rows == 0:
        return None
    limbs = exact_limbs(table)
    extra = ()
    if POS_B in table.column_names and limbs is None:
        extra = (_matrix(table[POS_B], table.num_rows), _matrix(table[NEG_B], table.num_rows))
    wired = (POS_B, NEG_B, *LIMBS, *B_LIMBS)
    table = table.drop_columns([c for c in wired if c in table.column_names])
    frame = table.to_pandas()
    key_cols = list(by) + ([MODEL] if models is not None else [])
    layout, curve = layout_from_keys(frame[key_cols], by, models)
    if limbs is not None:  # the partitions' exact sums, added exactly
        score = frame[SCORE].to_numpy(np.float64)
        return holding(layout, *merged_exact(curve, score, *limbs[:2], limbs[2:]))
    return holding(
        layout,
        curve,
        np.ascontiguousarray(frame[SCORE].to_numpy(np.float64)),
        np.ascontiguousarray(frame[POS].to_numpy(np.float64)),
        np.ascontiguousarray(frame[NEG].to_numpy(np.float64)),
        extra,
        reduced=False,
    )


def exact_limbs(table):
    """``(pos limbs, neg limbs[, pos_b limbs, neg_b limbs])`` of a weighted wire table
    whose every entry carries its exact sums (:mod:`prroc_numba._core.mass_limbs`; the
    replicate masses' too on the Poisson bootstrap); None otherwise (a partition held
    a mass the limbs do not take: the float sums are added as before).
    """
    names = [c for c in (*LIMBS, *B_LIMBS) if c in table.column_names]
    if LIMBS[0] not in names or any(table[c].null_count for c in names):
        return None
    n = table.num_rows
    cols = [table[c].to_numpy() if c in LIMBS else _matrix(table[c], n, np.int64) for c in names]
    return tuple(from_wire(hi, lo) for hi, lo in zip(cols[::2], cols[1::2]))


def _matrix(col, n, dtype=np.float64):
    """A column of equal-length lists as an entries x replicates array."""
    flat = col.combine_chunks().flatten().to_numpy(zero_copy_only=False)
    return np.ascontiguousarray(flat.reshape(n, -1), dtype=dtype)
