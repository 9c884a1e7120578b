"""The Spark wing's representative calls, for the build's warm-up and ``prroc-numba
warmup`` (:mod:`prroc_numba._jit.warmup` gathers them by this module's path).

No SparkSession starts: :func:`tasks` runs the wing's executor tasks (:mod:`.executor`,
:mod:`.range_tasks`) here on Arrow batches, as Spark's Python workers receive them
(the table, the Poisson replicate masses, the value rows and every pass of the score
ranges), and the driver's merge of their tables (:mod:`.bridge`). They reach the
kernels with the argument types a Spark job reaches them with. These tasks need
pyarrow, not pyspark (the wing's package imports pyarrow itself).
"""

from __future__ import annotations

import numpy as np


def available() -> bool:
    """Whether the executor tasks can run here (pyarrow can be imported)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


_KW = {
    "score": ["s", "si"],
    "label": "y",
    "by": ["g"],
    "weight": "w",
    "pos_label": None,
    "soft_labels": False,
}
_COLUMNS = ["s", "si", "y", "w", "g", "rid"]


def _schema(pairs):
    import pyarrow as pa

    return pa.schema([*pairs, ("__prn_label", pa.int64()), ("__prn_error", pa.string())])


def tasks(frame, n_boot=20):
    """Every executor task of the wing on ``frame`` (columns ``g``, ``s``, ``si``,
    ``y``, ``w``; one partition of Arrow batches of 100 rows), and the merged table;
    returns that table (:meth:`~prroc_numba.Accumulator.table`). The tasks set one
    Numba thread, as in a Spark worker; the process's count is given back after.
    """
    import numba

    threads = numba.get_num_threads()
    try:
        return _run_tasks(frame, n_boot)
    finally:
        numba.set_num_threads(threads)


def _run_tasks(frame, n_boot):
    import pyarrow as pa

    from . import executor as X
    from .bridge import accumulator_from_table

    rows = frame[["g", "s", "si", "y", "w"]].assign(rid=np.arange(len(frame), dtype=np.int64))
    batches = pa.Table.from_pandas(rows, preserve_index=False).to_batches(max_chunksize=100)
    f8 = pa.float64()
    wire = _schema(
        [
            ("g", pa.string()),
            ("model", pa.string()),
            ("score", f8),
            ("pos", f8),
            ("neg", f8),
            ("pos_b", pa.list_(f8)),
            ("neg_b", pa.list_(f8)),
            *[(c, pa.int64()) for c in X.LIMBS],  # weighted: the exact sums
            *[(c, pa.list_(pa.int64())) for c in X.B_LIMBS],
        ]
    )
    list(X.reduce_batches(iter(batches), _COLUMNS, _KW, wire))
    parts = X.reduce_batches(iter(batches), _COLUMNS, _KW, wire, "rid", 0, n_boot)
    out = pa.Table.from_batches(list(parts))
    table = out.filter(pa.compute.is_null(out["__prn_label"]))
    acc = accumulator_from_table(
        table.drop_columns(["__prn_label", "__prn_error"]), ["g"], _KW["score"]
    )
    _range_tasks(batches, acc, n_boot)
    return acc.table()


def _range_tasks(batches, acc, n_boot):
    """The score ranges' passes on ``acc``'s entries (one range) and on the value rows."""
    import pyarrow as pa

    from .._core.reading import layout_of
    from . import executor as X
    from . import range_tasks as RT

    keys = ["g", "model"]
    lay = layout_of(acc)
    C = lay.n_curves
    table = pa.Table.from_pandas(acc.table(), preserve_index=False)
    keyed = pa.Table.from_batches(list(RT.curves_task(table.to_batches(), lay, keys)))
    ent = keyed.append_column(RT.PART, pa.array(np.zeros(keyed.num_rows, np.int64))).to_batches()
    z = np.zeros((1, C))
    list(RT.totals_task(iter(ent), lay, keys))
    list(RT.areas_task(iter(ent), lay, keys, z, z, [0, 1]))
    list(RT.hulls_task(iter(ent), lay, keys, z, z))
    list(RT.bins_task(iter(ent), lay, keys, np.zeros(C), np.arange(C + 1)))
    f8 = pa.float64()
    vschema = _schema(
        [(RT.CURVE, pa.int64()), ("score", f8), (RT.ROW, pa.int64()), ("pos", f8), ("neg", f8)]
    )
    vals = pa.Table.from_batches(
        list(X.value_rows(iter(batches), _COLUMNS, _KW, vschema, lay, "rid"))
    )
    vals = vals.filter(pa.compute.is_null(vals["__prn_label"]))
    vals = vals.append_column(RT.PART, pa.array(np.zeros(vals.num_rows, dtype=np.int64)))
    vb = vals.to_batches()
    list(RT.replicate_totals_task(iter(vb), C, 0, n_boot))
    z = np.zeros((1, n_boot + 1, C))
    list(RT.replicate_sums_task(iter(vb), C, 0, z, z, 0))


#: (name, call): ``call(d)`` on the warm-up's inputs ``d`` (needs pyarrow)
CALLS = [("spark executor tasks", lambda d: tasks(d.small))]
