"""Where the command line's rows live: in memory (the default), in Spark or in Dask.

``--engine spark`` reads the input with Spark (``spark.read``: a Parquet file, a
Parquet dataset directory whose ``key=value`` folders become columns, a glob, or CSV
with a header) in the session already running in this process, else in a new one
(``--master``, default ``local[*]``), stopped when the command ends. ``--engine dask``
reads it with ``dask.dataframe`` (hive partitions as columns too) on a
``distributed.LocalCluster`` started for the command, or on the scheduler ``--master``
names. Each wing reads its own input (``command_input`` of :mod:`prroc_numba._spark`
and :mod:`prroc_numba._dask`, reached through :mod:`prroc_numba._backends`); the
command then runs the same library call on that frame, whose rows are reduced where
they live.
"""

from __future__ import annotations

import contextlib
import glob
from pathlib import Path

from .. import _backends
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
    reader = _backends.command_input(engine)
    want = [c for c in dict.fromkeys(columns) if c is not None]
    with reader.session(args.master) as session:
        try:
            frame = reader.read(session, args.file, _kind(args.file), want)
        except ValueError as e:  # a missing column
            raise CliError(str(e)) from None
        yield frame


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
