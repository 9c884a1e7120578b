"""Where the command line's rows live: in memory (the default), in Spark or in Dask.

``--engine spark`` reads the input with Spark (``spark.read``: a Parquet file, a
Parquet dataset directory whose ``key=value`` folders become columns, a glob, or CSV
with a header) in the session already running in this process, else in a new one
(``--master``, default ``local[*]``; its Python workers run this interpreter unless
``PYSPARK_PYTHON`` says otherwise), which is stopped when the command ends.
``--engine dask`` reads it with ``dask.dataframe`` (hive partitions as columns too) on
a ``distributed.LocalCluster`` started for the command and closed after it, or on
the scheduler ``--master`` names. The command then runs the same library call on that
frame, whose rows are reduced where they live.
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys
from pathlib import Path

from ._io import CliError, _read


def _kind(path: str) -> str:
    """``"csv"`` or ``"parquet"`` from the name (a directory: Parquet)."""
    name = path.lower().rstrip("/")
    if name.endswith((".csv", ".csv.gz", ".tsv", ".tsv.gz", ".tab")):
        return "csv"
    return "parquet"


def check_input(path: str) -> None:
    """A missing file, or a glob matching nothing, is named before an engine starts."""
    if glob.has_magic(path):
        if not glob.glob(path):
            raise CliError(f"no file matches {path}")
    elif not Path(path).exists():
        raise CliError(f"file not found: {path}")


@contextlib.contextmanager
def frame_of(args, columns):
    """The input as a frame of the engine ``args.engine`` (the session or cluster
    started for it is closed when the block ends).
    """
    engine = getattr(args, "engine", "memory")
    if engine == "memory":
        if getattr(args, "master", None):
            raise CliError("--master applies to --engine spark or dask")
        yield _read(args.file, columns)
        return
    check_input(args.file)
    if engine == "spark":
        with _spark(args.master) as spark:
            yield _spark_frame(spark, args.file, columns)
    else:
        with _dask(args.master):
            yield _dask_frame(args.file, columns)


def _spark_frame(spark, path, columns):
    reader = spark.read
    if _kind(path) == "csv":
        sdf = reader.csv(path, header=True, inferSchema=True, sep="\t" if ".tsv" in path else ",")
    else:
        sdf = reader.parquet(path)
    want = [c for c in dict.fromkeys(columns) if c is not None]
    missing = [c for c in want if c not in sdf.columns]
    if missing:
        raise CliError(
            f"{missing[0]!r} is not a column of {path}; available columns: "
            + ", ".join(sdf.columns[:20])
        )
    return sdf.select(*want)


@contextlib.contextmanager
def _spark(master):
    import warnings

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


def _dask_frame(path, columns):
    import dask.dataframe as dd

    want = [c for c in dict.fromkeys(columns) if c is not None]
    if _kind(path) == "csv":
        frame = dd.read_csv(path, sep="\t" if ".tsv" in path else ",")
    else:
        frame = dd.read_parquet(path)
    missing = [c for c in want if c not in frame.columns]
    if missing:
        raise CliError(
            f"{missing[0]!r} is not a column of {path}; available columns: "
            + ", ".join(map(str, list(frame.columns)[:20]))
        )
    frame = frame[want]
    # hive partition keys come as categoricals: their values, as the memory path reads them
    types = {}
    for c in want:
        if str(frame[c].dtype) == "category":
            kind = frame[c].cat.categories.dtype
            types[c] = "int64" if kind.kind in "iu" else kind
    return frame.astype(types) if types else frame


@contextlib.contextmanager
def _dask(master):
    from distributed import Client, LocalCluster

    if master:
        with Client(master) as client:
            yield client
        return
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        yield client


def label_kind(frame, label) -> str | None:
    """The numpy kind of the label column of a pandas, Dask or Spark frame."""
    if label not in list(frame.columns):
        return None
    schema = getattr(frame, "schema", None)
    if schema is not None and hasattr(schema, "fields"):  # Spark
        name = type(schema[label].dataType).__name__
        kinds = {"Boolean": "b", "Double": "f", "Float": "f", "Decimal": "f"}
        if name.replace("Type", "") in kinds:
            return kinds[name.replace("Type", "")]
        return "i" if name in ("ByteType", "ShortType", "IntegerType", "LongType") else "O"
    return frame[label].dtype.kind
