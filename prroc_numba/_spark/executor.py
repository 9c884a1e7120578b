"""What runs in Spark's Python workers: one partition's Arrow batches in, a small table out.

Spark hands a partition to :meth:`pyspark.sql.DataFrame.mapInArrow` as an iterator of
Arrow record batches (10,000 rows each by default). :func:`reduce_batches` buffers the
whole partition, converts it to pandas once (only the columns the call names) and
reduces it with the engine-neutral partition functions
(:mod:`prroc_numba._core.partitions`): one table *(curve, distinct score) -> (pos,
neg)* per partition, sent back as Arrow batches with the columns of
:meth:`~prroc_numba.Accumulator.table` (the key columns, ``score``, ``pos``, ``neg``),
plus, on the Poisson bootstrap, each entry's replicate masses (``pos_b``, ``neg_b``).
Two more columns carry what the driver checks across partitions: ``__prn_label`` (a
few label values of the partition) and ``__prn_error`` (a ValueError/TypeError raised
while validating the partition, re-raised on the driver as the same error).

Nothing here imports pyspark, except the test-only fault hook; the functions take and
return pyarrow objects, so they run (and compile, on the first use of a fresh install)
outside Spark too (the warm-up calls them that way).

Threads: Spark runs one task per core, so each task's Numba kernels run on one thread
(``numba.set_num_threads(1)``), unless the executors' environment sets
``NUMBA_NUM_THREADS`` or ``PRROC_NUMBA_SPARK_THREADS`` (e.g. through
``spark.executorEnv.PRROC_NUMBA_SPARK_THREADS``).
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pyarrow as pa

from .._core import Accumulator
from .._core.exact_tables import ExactTable, exact_partition
from .._core.mass_limbs import limb_floats, wire_pair
from .._core.partitions import (
    partition_rows,
    reduce_partition,
    replicate_table,
)

SCORE, POS, NEG = "score", "pos", "neg"  # the columns of Accumulator.table()
POS_B, NEG_B = "pos_b", "neg_b"  # the replicate masses of the Poisson bootstrap
LABEL, ERROR = "__prn_label", "__prn_error"
MODEL = "model"
#: weighted tables: each entry's exact mass sums (:mod:`prroc_numba._core.mass_limbs`)
LIMBS = ("pos_hi", "pos_lo", "neg_hi", "neg_lo")
#: and, on the Poisson bootstrap, the exact sums of its replicate masses (lists)
B_LIMBS = ("pos_b_hi", "pos_b_lo", "neg_b_hi", "neg_b_lo")
#: the wire columns that are not key columns
RESERVED = (SCORE, POS, NEG, POS_B, NEG_B, *LIMBS, *B_LIMBS, LABEL, ERROR)


def set_threads():
    """One Numba thread per Spark task unless the executors' environment says more."""
    if "NUMBA_NUM_THREADS" in os.environ:
        return
    import numba

    want = int(os.environ.get("PRROC_NUMBA_SPARK_THREADS", "1"))
    numba.set_num_threads(max(1, min(want, numba.config.NUMBA_NUM_THREADS)))


def _fault(plan):
    """Test-only: end this Python worker abruptly on a task's first attempt (``plan``
    is set by the tests, never by users), so that Spark retries the task.
    """
    if not plan:
        return
    from pyspark import TaskContext

    ctx = TaskContext.get()
    if ctx is not None and ctx.attemptNumber() == 0 and ctx.partitionId() == 0:
        os._exit(3)


def _frame(batches, columns):
    """The partition's rows as one pandas frame (the batches buffered, converted once)."""
    batches = [b for b in batches if b.num_rows]
    if not batches:
        return None
    table = pa.Table.from_batches(batches).select(columns)
    return table.to_pandas()


def _out(frame, schema):
    """``frame`` (key columns, score, pos, neg, ...) as record batches of ``schema``."""
    cols = {}
    n = len(frame)
    for field in schema:
        if field.name in frame.columns:
            x = frame[field.name]
            cols[field.name] = pa.array(
                x.to_numpy(dtype=object) if x.dtype == object else x, from_pandas=True
            ).cast(field.type)
        else:
            cols[field.name] = pa.nulls(n, field.type)
    return pa.Table.from_pydict(cols, schema=schema).to_batches()


def _labels_frame(labels):
    return pd.DataFrame({LABEL: pd.Series(list(labels), dtype=object)})


def _error_frame(err):
    return pd.DataFrame({ERROR: [f"{type(err).__name__}: {err}"]})


def table_frame(acc):
    """The wire form of a partition's Accumulator: :meth:`Accumulator.table`, plus the
    replicate masses as lists when it holds them.
    """
    frame = acc.table()
    extra = getattr(acc, "_extra", ())
    if extra:
        pb, nb = extra
        frame[POS_B] = list(pb)
        frame[NEG_B] = list(nb)
    return frame


def _partition(batches, columns, fault):
    """A task's start: its Numba threads set, the test fault raised when asked, and
    its batches as one pandas frame (None when it has no rows).
    """
    set_threads()
    _fault(fault)
    return _frame(batches, columns)


def reduce_batches(batches, columns, kw, schema, row_id=None, seed=None, n_boot=0, fault=False):
    """MapInArrow's function: a partition's batches -> its table's batches (or a few
    label values and an error). ``row_id``: the column of global row ids that keys the
    Poisson counts (with ``seed`` and ``n_boot``).
    """
    part = _partition(batches, columns, fault)
    if part is None:
        return
    try:
        ids = None if seed is None else check_row_ids(part[row_id], row_id)
        if kw["weight"] is not None:
            acc, labels = weighted_table(part, kw, ids, seed or 0, n_boot)
        elif seed is None:
            acc, labels = reduce_partition(part, kw)
        else:
            acc, labels = replicate_table(partition_rows(part, kw, 0, ids=ids), seed, n_boot)
    except (ValueError, TypeError) as err:
        yield from _out(_error_frame(err), schema)
        return
    if labels is not None and len(labels):
        yield from _out(_labels_frame(labels), schema)
    if isinstance(acc, pd.DataFrame):
        yield from _out(acc, schema)
    elif isinstance(acc, Accumulator) and acc.n_entries:
        yield from _out(table_frame(acc), schema)


def weighted_table(part, kw, ids=None, seed=0, n_boot=0):
    """A weighted partition's wire table with each entry's exact mass sums (``LIMBS``;
    with ``ids``, its replicate masses' too, ``B_LIMBS``): the driver adds the
    partitions' sums exactly, so the merged masses do not depend on the partitioning.
    Where a mass is outside what the limbs take, its Accumulator of float sums.
    """
    table, labels = exact_partition(part, kw, seed=seed, n_boot=n_boot, ids=ids)
    if not isinstance(table, ExactTable):
        return table, labels
    frame = table.keys.copy()
    lp, ln, *extra = table.limbs
    frame[SCORE], frame[POS], frame[NEG] = table.score, limb_floats(lp), limb_floats(ln)
    names = LIMBS + B_LIMBS if extra else LIMBS
    for i, lm in enumerate(table.limbs):
        hi, lo = wire_pair(lm)
        frame[names[2 * i]], frame[names[2 * i + 1]] = (
            (hi, lo) if lm.ndim == 2 else (list(hi), list(lo))
        )
    if extra:
        frame[POS_B], frame[NEG_B] = list(limb_floats(extra[0])), list(limb_floats(extra[1]))
    return frame, labels


def check_row_ids(x, name):
    """The row-id column as int64 (whole, non-negative, no nulls), or a ValueError."""
    v = np.asarray(x)
    if v.dtype.kind not in "iu":
        if v.dtype.kind == "f" and np.all(np.isfinite(v)) and np.all(v == np.round(v)):
            v = v.astype(np.int64)
        else:
            raise ValueError(
                f"row_id={name!r} must hold whole non-negative row numbers (no nulls), got "
                f"dtype {x.dtype}; add one (e.g. the row's position in the data set)"
            )
    if v.size and v.min() < 0:
        raise ValueError(f"row_id={name!r} holds negative values; row ids must be >= 0")
    return v.astype(np.int64)


def value_rows(batches, columns, kw, schema, layout, row_id, fault=False):
    """MapInArrow's function for the bootstrap's score ranges: a partition's value rows
    (one per row and model) with their curve in the global ``layout``, score, row id
    and masses (or a few label values and an error).
    """
    from .._core.partitions import global_curves

    part = _partition(batches, columns, fault)
    if part is None:
        return
    try:
        ids = check_row_ids(part[row_id], row_id)
        labels, rp = partition_rows(part, kw, 0, ids=ids)
    except (ValueError, TypeError) as err:
        yield from _out(_error_frame(err), schema)
        return
    if labels is not None and len(labels):
        yield from _out(_labels_frame(labels), schema)
    if rp is None:
        return
    cols = {
        "__prn_curve": global_curves(rp.layout, rp.curve, layout),
        SCORE: rp.score,
        "__prn_row": rp.row,
        POS: rp.pos,
        NEG: rp.neg,
    }
    n = rp.score.size
    for field in schema:
        if field.name not in cols:
            cols[field.name] = pa.nulls(n, field.type)
    yield from pa.Table.from_pydict(cols, schema=schema).to_batches()
