"""The command line's input on Spark (``prroc-numba ... --engine spark``).

:func:`session` is the session already running in this process, else a new one
(``--master``, default ``local[*]``; its Python workers run this interpreter unless
``PYSPARK_PYTHON`` says otherwise), stopped when the command ends; :func:`read` reads
the input with ``spark.read``: a Parquet file, a Parquet dataset directory whose
``key=value`` folders become columns, a glob, or CSV with a header.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings

from .._core import check_read_columns


@contextlib.contextmanager
def session(master):
    """The active session of this process (left running), or a new one (stopped)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        if active is not None:  # a session of this process: used, not stopped
            yield active
            return
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        spark = (
            SparkSession.builder.master(master or "local[*]")
            .appName("prroc-numba")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        yield spark
    finally:
        spark.stop()


def read(spark, path, kind, want):
    """The columns ``want`` of the input at ``path`` (``kind``: ``"csv"`` or
    ``"parquet"``) as a Spark DataFrame; a ValueError naming a missing column.
    """
    reader = spark.read
    if kind == "csv":
        sdf = reader.csv(path, header=True, inferSchema=True, sep="\t" if ".tsv" in path else ",")
    else:
        sdf = reader.parquet(path)
    check_read_columns(want, sdf.columns, path)
    return sdf.select(*want)
