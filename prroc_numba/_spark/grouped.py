"""The table path: Spark reduces the rows itself, before any row reaches Python.

Every result depends on a curve's rows only through its table *distinct score ->
(positive, negative mass)*, and that table is a group-by: the rows grouped by their key
columns, score and label (and weight, when there is one) and counted. Spark's own
``groupBy().agg(count)`` does it in the JVM, partially within each partition before its
exchange (so tied scores cost little more than a scan), and only the grouped rows --
one per (curve, distinct score, label value; weights summed exactly) -- reach the driver, as one
Arrow table (:func:`grouped_frame`). The driver reads them as *weighted rows* (each
grouped row stands for ``count`` rows of its weight) and reduces them with the same
validation and table functions as an in-memory batch (:func:`accumulate`). Where the
counts add up to at most twice the grouped rows (no weight column; scores mostly
distinct, as a model's continuous scores are), the grouped rows are expanded back to
unit rows instead, which the class-split keys-only sort reduces several times faster
than the weighted sort (:func:`prroc_numba._core.table.batch_entries`).

Exactness: unweighted rows are counted (exact integers). Weights are not a grouping
key: each group's weights are summed in the JVM as decimals of 24 places (``DECIMAL``),
an exact sum whatever the partitioning or the order of the rows, converted to double
once, so continuous weights cost what unweighted rows cost and the result is the same
bits on every run and partitioning (and equals the in-memory result to rounding: the
in-memory call adds the same weights in row order). A group holding a weight that sum
does not take -- null, NaN, negative (for the checks), or nonzero outside [1e-6, 1e4]
(below, the decimal's rounding would reach a double's last bit; above, the sum could
overflow) -- has the call fetch the rows grouped by the weight value instead (the weight
a key, each bad value a grouped row of its own, the grouped rows sorted on the driver
before their masses are added).

Validation happens on the grouped rows: every NaN, infinite or null score, bad label or
negative, null or NaN weight is a grouped row of its own, so nothing the in-memory
checks would refuse is summed away. When a check fails, the caller runs the partition
path (:func:`prroc_numba._spark._tables`), which raises the in-memory error from the
partition holding the bad row (with its row number within that partition).

Only what this path can read exactly is sent here (:func:`eligible`): binary (not soft)
labels; score, label, weight and ``by`` columns of plain numeric, boolean or string types;
the score columns of a wide input of one type (they are stacked with ``unpivot``).
Everything else takes the partition path. On continuous scores the group-by cannot
reduce and exchanges every row inside Spark (k score columns stacked into k times the
rows), so ``"auto"`` takes it only above :data:`.path.COLLECT_FIRST` rows where a
probe of the first rows shows ties (:mod:`.path`; below, and for mostly distinct
scores, the call's columns are collected: :func:`collected`).
"""

from __future__ import annotations

import numpy as np

from .._core import entries_of, holding, layout_of, packed_rows
from .._core.partitions import check_merged, reduce_partition
from .bridge import layout_from_keys
from .executor import MODEL
from .path import selected

#: the grouped rows' columns of this module (never a user's column: see wire.names)
N, MASS, STACKED_MODEL, STACKED_SCORE = "__prn_n", "__prn_mass", "__prn_model", "__prn_score"
ODD = "__prn_odd"  # a group holding a weight the decimal sum does not take
#: what a collected row's number counts, added to the in-memory error's message
COLLECTED_ROWS = (
    "[Spark input, its columns collected: rows counted in the order Spark returned them]"
)
NAMES = (N, MASS, STACKED_MODEL, STACKED_SCORE, ODD)
#: the weights' exact sum in the JVM: each weight as a decimal of 24 places (its
#: rounding there, below 5e-25, is below a double's last bit for weights >= LOW), the
#: sum exact whatever the partitioning, then one conversion to double; groups are
#: summed up to 1e14 (weights <= HIGH: at most 1e10 rows a group)
DECIMAL, LOW, HIGH = "decimal(38,24)", 1e-6, 1e4


class TooLarge:
    """The grouped rows passed ``limit``: the caller takes the score-range path."""

    def __init__(self, limit):
        self.limit = limit


def _plain(dtype):
    from pyspark.sql import types as T

    plain = (T.ByteType, T.ShortType, T.IntegerType, T.LongType, T.FloatType, T.DoubleType)
    return isinstance(dtype, (*plain, T.BooleanType, T.StringType))


def eligible(data, kw, by, models):
    """Whether the grouped rows can give this call's table exactly (see the module)."""
    if kw["soft_labels"]:
        return False
    scores = list(models) if models is not None else [kw["score"]]
    cols = [*by, *scores, kw["label"]] + ([kw["weight"]] if kw["weight"] is not None else [])
    if len(set(cols)) != len(cols) or set(cols) & set(NAMES):
        return False  # one column in two roles, or named like ours: the partitions read it
    schema = data.schema
    if not all(_plain(schema[c].dataType) for c in cols):
        return False
    return len({type(schema[s].dataType) for s in scores}) == 1


def grouped_frame(data, kw, by, models, by_value=False):
    """The lazy DataFrame of grouped rows: key columns (``by``; ``__prn_model`` for a
    wide input), the score, the label and ``__prn_n``; with a weight column its exact
    sum ``__prn_mass`` and ``__prn_odd`` (1: a weight the sum does not take), or, with
    ``by_value``, the weight as a key.
    """
    from pyspark.sql import functions as F

    label, weight = kw["label"], kw["weight"]
    extra = [label] + ([weight] if weight is not None else [])
    if models is None:
        src, keys = data.select(*by, kw["score"], *extra), [*by, kw["score"]]
    else:  # one stacked row per row and model
        src = data.select(*by, *models, *extra).unpivot(
            [*by, *extra], list(models), STACKED_MODEL, STACKED_SCORE
        )
        keys = [*by, STACKED_MODEL, STACKED_SCORE]
    count = F.count(F.lit(1)).alias(N)
    if weight is None or by_value:
        return src.groupBy(*keys, *extra).agg(count)
    w = F.col(weight).cast("double")
    plain = w.isNotNull() & ~F.isnan(w) & ((w == 0) | ((w >= LOW) & (w <= HIGH)))
    mass = F.sum(F.when(plain, w.cast(DECIMAL))).cast("double").alias(MASS)
    return src.groupBy(*keys, label).agg(count, mass, F.max((~plain).cast("int")).alias(ODD))


def fetch(data, kw, by, models, limit=None):
    """The grouped rows as a pyarrow Table, or :class:`TooLarge` when there are more
    than ``limit`` (None: no limit) -- found by the same job, which then stops short.
    With a weight column a group holding a weight the decimal sum does not take (null,
    NaN, negative, or outside [LOW, HIGH]) has the rows grouped by the weight value
    instead, each such value a grouped row of its own (the checks see every bad one).
    """
    table = _fetch(grouped_frame(data, kw, by, models), limit)
    if kw["weight"] is None or isinstance(table, TooLarge):
        return table
    import pyarrow.compute as pc

    if not pc.any(pc.equal(table[ODD], 1)).as_py():
        return table.drop_columns([ODD])
    return _fetch(grouped_frame(data, kw, by, models, by_value=True), limit)


def _fetch(sdf, limit):
    if limit is None:
        return sdf.toArrow()
    table = sdf.limit(int(limit) + 1).toArrow()
    return TooLarge(limit) if table.num_rows > limit else table


def accumulate(table, kw, by, models):
    """The Accumulator of the grouped rows (a pyarrow Table from :func:`fetch`): they
    are validated and packed on the driver as weighted rows (unweighted ones of one
    score column held packed, :class:`~prroc_numba._core.held_rows.PackedRows`).
    Raises the in-memory ValueError/TypeError of the first check they fail (row
    numbers: grouped rows').
    """
    frame = table.to_pandas()
    weight = kw["weight"]
    mass = MASS
    if weight is not None and MASS not in frame.columns:  # grouped by the weight too
        # sorted: the order of addition does not depend on Spark's
        frame = frame.sort_values(list(frame.columns[:-1]), kind="stable", ignore_index=True)
        frame[MASS] = frame[weight] * frame[N]
    elif weight is not None:
        pass  # the masses summed exactly in the JVM, one grouped row per label value
    elif int(frame[N].sum()) <= 2 * len(frame):
        # mostly distinct scores: the rows themselves (one per count), unweighted, which
        # the class-split sort reduces (batch_entries)
        if len(frame) and frame[N].max() > 1:
            frame = frame.loc[frame.index.repeat(frame[N])]
        mass = None
    else:
        frame[MASS] = frame[N]
    if models is None:
        kw = {**kw, "weight": mass, "by": by or None}
        if weight is None:  # the grouped rows' own batch answers (no table is built)
            return packed_rows(frame, kw)
    else:
        kw = {**kw, "score": STACKED_SCORE, "weight": mass, "by": [*by, STACKED_MODEL]}
    acc, labels = reduce_partition(frame, kw)
    check_merged(layout_of(acc), labels, kw["pos_label"])
    return acc if models is None else _wide(acc, by, models)


def collected(data, kw, by):
    """The table path for mostly distinct scores: the call's columns come to
    the driver as one Arrow table (no exchange inside Spark, no Python worker; 8 bytes
    a number), become one array per column (no pandas block copies) and the Arrow table
    is freed; they are validated and packed as an in-memory frame is, and the results
    are computed from that batch as the in-memory call computes them
    (:class:`~prroc_numba._core.held_rows.PackedRows`) -- the cost of moving the rows. Raises the
    in-memory error, its row numbers counting the rows in the order Spark returned them
    (a cached frame's partitions are read by as many tasks as there are cores,
    :func:`.path.selected`: not the frame's order), and says so.
    """
    from .wire import columns

    kw = {**kw, "by": by or None}
    import pyarrow as pa

    table = selected(data, columns(kw)).toArrow()
    frame = table.to_pandas(split_blocks=True)
    del table
    pool = pa.default_memory_pool()
    pool.release_unused()  # the table's pages back to the system before packing
    try:
        if kw["weight"] is None:
            return packed_rows(frame, kw)
        return _packed_in_value_order(frame, kw)
    except (ValueError, TypeError) as err:
        text = f"{err} {COLLECTED_ROWS}"
        raise (TypeError if isinstance(err, TypeError) else ValueError)(text) from None
    finally:
        del frame
        pool.release_unused()  # and the frame's (the batch holds its own arrays)


def _packed_in_value_order(frame, kw):
    """Weighted rows packed in one order that depends on their values only (sorted by
    every column the call reads): a tie block's weights are then added in the same order
    whatever the partitioning Spark returned the rows in, so reruns and repartitions give
    the same bits (rows equal in every column are interchangeable). A check that fails
    is raised on the rows in Spark's order, so its row numbers are those.
    """
    try:
        ordered = _value_order(frame, kw["score"])
    except TypeError:  # values without an order (mixed types): the packer's check says so
        return packed_rows(frame, kw)
    try:
        return packed_rows(ordered, kw)
    except (ValueError, TypeError):
        packed_rows(frame, kw)  # raises the same check, numbered in Spark's order
        raise


def _value_order(frame, score):
    """``frame``'s rows in an order that depends on their values only: by the score,
    and where scores tie by every column (mostly distinct scores: one sort of the
    scores, then a small sort of the tied rows in their own slots). Several score
    columns: by every column.
    """
    cols = list(frame.columns)
    if not isinstance(score, str):
        return frame.sort_values(cols, kind="stable", ignore_index=True)
    order = np.argsort(frame[score].to_numpy(), kind="stable")
    values = frame[score].to_numpy()[order]
    tied = np.zeros(len(order), dtype=bool)
    same = values[1:] == values[:-1]
    tied[1:] |= same
    tied[:-1] |= same
    if tied.any():  # score first: each run of ties sorted within its own slots
        slots = np.flatnonzero(tied)
        runs = frame.iloc[order[slots]].assign(__prn_slot=order[slots])
        order[slots] = runs.sort_values([score, *cols], kind="stable")["__prn_slot"].to_numpy()
    return frame.take(order).reset_index(drop=True)


def _wide(acc, by, models):
    """The Accumulator of a wide input from that of its stacked rows (the models as a
    ``by`` column): the same entries, the curves laid out group by group, model by model.
    """
    curve, score, pos, neg = entries_of(acc)
    keys = layout_of(acc).groups.iloc[curve].reset_index(drop=True)
    keys = keys.rename(columns={STACKED_MODEL: MODEL})
    layout, wide = layout_from_keys(keys, by, models)
    return holding(layout, np.ascontiguousarray(wide), score, pos, neg, reduced=False)
