"""The driver's side of the wire: settings, column checks, the tables' schema, the
mapInArrow call, and the check of what came back (errors, label values).
"""

from __future__ import annotations

import numpy as np

from .._core.partitions import check_names
from . import executor as X

_TABLE_MAX = 15_000_000
#: replicate masses (rows x models x n_boot, at most) the table path of the bootstrap
#: may hold (16 bytes each); above, the rows' score ranges
REPLICATE_MAX = 50_000_000
#: test-only: end the Python worker on the first attempt of partition 0's task
FAULT_FIRST_ATTEMPT = False


#: the values of the session conf prroc_numba.spark_exact (see the package docstring)
MODES = ("auto", "table", "partitions", "ranges")


def conf(data, key, default):
    value = data.sparkSession.conf.get(key, None)
    return default if value is None else value


def settings(data):
    """``(mode, limit, k)`` from the session conf (``prroc_numba.spark_exact``,
    ``prroc_numba.spark_table_max``, ``prroc_numba.spark_ranges``).
    """
    mode = conf(data, "prroc_numba.spark_exact", "auto")
    if mode not in MODES:
        raise ValueError(
            "spark conf prroc_numba.spark_exact must be 'auto', 'table', 'partitions' or "
            f"'ranges', got {mode!r}"
        )
    limit = int(float(conf(data, "prroc_numba.spark_table_max", _TABLE_MAX)))
    k = conf(data, "prroc_numba.spark_ranges", None)
    return mode, limit, (None if k is None else int(k))


# ------------------------------------------------------------------ the wire schema


def names(data, kw, row_id=None):
    """Column names only, present in ``data``, none of them a wire column; the key
    column names and the models (None: one score column).
    """
    check_names(data.columns, kw["score"], kw["label"], kw["by"], kw["weight"], "Spark")
    by = kw["by"]
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    score = kw["score"]
    models = list(score) if isinstance(score, (list, tuple)) else None
    clash = [b for b in by if b in X.RESERVED or (models is not None and b == X.MODEL)]
    if clash:
        raise ValueError(
            f"by={clash[0]!r} is a name the Spark wing's tables use; rename that column"
        )
    if row_id is not None and (not isinstance(row_id, str) or row_id not in data.columns):
        raise ValueError(
            f"row_id={row_id!r} is not a column of data; available columns: "
            + ", ".join(map(repr, list(data.columns)[:20]))
        )
    return by, models


def columns(kw, row_id=None):
    score = kw["score"]
    cols = [score] if isinstance(score, str) else list(score)
    for x in (kw["label"], kw["weight"], row_id):
        if x is not None and x not in cols:
            cols.append(x)
    by = kw["by"]
    for b in [] if by is None else ([by] if isinstance(by, str) else by):
        if b not in cols:
            cols.append(b)
    return cols


def schema_of(data, by, models, label, replicates=False, limbs=False):
    """The Spark schema of the tables the executors send, and its Arrow twin
    (``limbs``: weighted tables carry each entry's exact mass sums, ``X.LIMBS``).
    """
    from pyspark.sql import types as T

    fields = [data.schema[b] for b in by]
    fields = [T.StructField(f.name, f.dataType, True) for f in fields]
    if models is not None:
        fields.append(T.StructField(X.MODEL, T.StringType(), True))
    fields += [T.StructField(c, T.DoubleType(), True) for c in (X.SCORE, X.POS, X.NEG)]
    if replicates:
        fields += [
            T.StructField(c, T.ArrayType(T.DoubleType(), False), True) for c in (X.POS_B, X.NEG_B)
        ]
    if limbs:
        fields += [T.StructField(c, T.LongType(), True) for c in X.LIMBS]
    if limbs and replicates:
        long_list = T.ArrayType(T.LongType(), False)
        fields += [T.StructField(c, long_list, True) for c in X.B_LIMBS]
    fields += [
        T.StructField(X.LABEL, data.schema[label].dataType, True),
        T.StructField(X.ERROR, T.StringType(), True),
    ]
    schema = T.StructType(fields)
    return schema, arrow_schema(schema)


def arrow_schema(schema):
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(schema)


def reduced(data, kw, row_id=None, seed=None, n_boot=0):
    """The DataFrame of the partitions' tables (lazy) and ``(by, models)``."""
    import functools

    by, models = names(data, kw, row_id)
    kw = {**kw, "by": by or None}
    cols = columns(kw, row_id)
    limbs = kw["weight"] is not None
    schema, arrow = schema_of(data, by, models, kw["label"], seed is not None, limbs)
    fn = functools.partial(
        X.reduce_batches,
        columns=cols,
        kw=kw,
        schema=arrow,
        row_id=row_id,
        seed=seed,
        n_boot=n_boot,
        fault=FAULT_FIRST_ATTEMPT,
    )
    return map_in_arrow(data.select(*cols), fn, schema), by, models


def map_in_arrow(sdf, fn, schema):
    """``sdf.mapInArrow(fn, schema)`` without pyspark's warning that it "does not yet
    fully support pandas >= 3.0.0" (issued by every mapInArrow under pandas 3): the
    tasks here exchange Arrow batches, never Spark's pandas conversions.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        return sdf.mapInArrow(fn, schema)


def split_wire(table, pos_label, soft):
    """Raise a partition's error; check the label values; the table rows only."""
    import pyarrow.compute as pc

    err = table[X.ERROR]
    if err.null_count < len(err):
        msg = pc.drop_null(err)[0].as_py()
        kind, _, text = msg.partition(": ")
        # the in-memory message, found in one partition (its row numbers count from
        # the partition's first row)
        text += " [in a partition of the Spark frame: rows counted within it]"
        raise (TypeError if kind == "TypeError" else ValueError)(text)
    lab = table[X.LABEL]
    has_label = pc.is_valid(lab)
    labels = None
    if not soft and pc.any(has_label).as_py():
        labels = np.asarray(pc.filter(lab, has_label).to_pandas())
    rows = table.filter(pc.invert(has_label)).drop_columns([X.LABEL, X.ERROR])
    return rows, labels
