"""polars / pyarrow (and other dataframe) input and polars output, in one place.

Every public function packs its input through :func:`prroc_numba._core.packing.pack`, which
calls :func:`to_pandas` first: a polars DataFrame or LazyFrame, a pyarrow Table (or any
frame narwhals knows) becomes a pandas frame holding **only the columns the call names**
(a LazyFrame is projected before it is collected, so the other columns are never read).
The conversion goes through `narwhals <https://narwhals-dev.github.io/narwhals/>`_, one
well-kept dataframe-agnostic layer (polars, pyarrow, and whatever narwhals learns next):
select the needed columns (a LazyFrame is projected before it is collected), then hand
them to pandas through Arrow. Measured (``benchmarks/bench_frames.py``, 1e6 rows, 3 of
23 columns needed, a busy 2-core machine): 10-25 ms, a twentieth of one ``auc(...,
by=...)`` call on the same rows and as fast as the Arrow PyCapsule route, against ~80 ms
for converting every column and ~400 ms for numpy object arrays of strings.
Without pyarrow the columns go to numpy one by one (strings as Python objects: slower,
but polars input then needs no pyarrow). Why not the Arrow PyCapsule interface alone:
the speed is the same (it is the same Arrow hand-over), but it cannot project or
collect a LazyFrame, and it needs pyarrow to read the capsule.

:func:`with_output` gives a public function ``output="pandas"|"polars"``;
:func:`is_dask` and :func:`is_spark` tell a Dask or Spark frame (each takes its own
path, its rows never collected here) from the others.
"""

from __future__ import annotations

from typing import Literal

import pandas as pd

OUTPUTS = ("pandas", "polars", "spark")
#: the ``output=`` of a public function returning frames (see :func:`with_output`)
Output = Literal["pandas", "polars", "spark"]
OUTPUTS_HINT = "use 'pandas', 'polars' or 'spark' (Spark input only)"


def _names(x):
    if isinstance(x, str):
        return [x]
    if isinstance(x, (list, tuple)) and all(isinstance(v, str) for v in x):
        return list(x)
    return []


def is_dask(data) -> bool:
    """Whether ``data`` is a Dask DataFrame (without importing dask)."""
    return type(data).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(
        data, "npartitions"
    )


def is_spark(data) -> bool:
    """Whether ``data`` is a ``pyspark.sql.DataFrame``, classic or Spark Connect (by its
    class's module, so pyspark is never imported here).
    """
    return any(
        c.__name__ == "DataFrame" and c.__module__.startswith("pyspark.sql")
        for c in type(data).__mro__
    )


def is_native(data) -> bool:
    """A non-pandas frame that narwhals can read (polars, pyarrow, ...)."""
    if data is None or isinstance(data, pd.DataFrame) or is_spark(data):
        return False  # (a Spark frame has __arrow_c_stream__ but is reduced where it lives)
    mod = type(data).__module__.split(".")[0]
    return mod in ("polars", "pyarrow", "narwhals", "modin", "cudf", "duckdb", "ibis") or hasattr(
        data, "__arrow_c_stream__"
    )


def to_pandas(data, *args, every=False):
    """``data`` as a pandas frame of the columns named in ``args`` (pandas/None as is).

    ``every=True``: all columns (frames of curve points or thresholds).
    """
    if not is_native(data):
        return data
    try:
        import narwhals.stable.v1 as nw
    except ImportError:  # pragma: no cover - narwhals comes with the polars extra
        raise TypeError(
            f"data is a {type(data).__module__}.{type(data).__name__}; reading it needs "
            "narwhals (pip install 'prroc-numba[polars]'), or pass a pandas DataFrame"
        ) from None
    frame = nw.from_native(data)
    columns = (
        list(frame.collect_schema().names())
        if hasattr(frame, "collect_schema")
        else list(frame.columns)
    )
    want = list(columns) if every else []
    for a in args:
        for nm in _names(a):
            if nm not in want:
                want.append(nm)
    missing = [nm for nm in want if nm not in columns]
    if missing:
        cols = ", ".join(map(repr, columns[:20]))
        raise ValueError(f"{missing[0]!r} is not a column of data; available columns: {cols}")
    frame = frame.select(want) if want else frame.select([])
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # column by column (strings become Python objects: slower)
        return pd.DataFrame(
            {nm: frame[nm].to_numpy() for nm in want}, index=pd.RangeIndex(len(frame))
        )
    # through Arrow: numeric columns without nulls are not copied twice, and strings
    # stay Arrow strings (8x faster than Python objects at 1e6 rows, see the README)
    return frame.to_arrow().to_pandas()


def to_output(frame, output):
    """A pandas result as asked: itself, or a polars DataFrame."""
    if output == "pandas" or output is None:
        return frame
    if output not in OUTPUTS or output == "spark":
        raise ValueError(f"output={output!r} is not known; {OUTPUTS_HINT}")
    import polars as pl

    if isinstance(frame, tuple):
        return tuple(to_output(f, output) for f in frame)
    if not isinstance(frame, pd.DataFrame):
        return frame
    if "fold" in frame.columns and frame["fold"].dtype == object:
        # fold ids next to "mean" / "pooled": one string column for Arrow
        frame = frame.assign(fold=frame["fold"].astype(str))
    return pl.from_pandas(frame)


def check_read_columns(want, have, path) -> None:
    """A ValueError naming the first column of ``want`` that the input at ``path``
    lacks, with the first 20 columns it has (``have``); what the engines' command-line
    readers check before they select.
    """
    missing = [c for c in want if c not in have]
    if missing:
        raise ValueError(
            f"{missing[0]!r} is not a column of {path}; available columns: "
            + ", ".join(map(str, list(have)[:20]))
        )
