"""A public function's result on Spark input: ``attrs["spark_path"]`` and
``output="spark"``.

:func:`answer` runs the public function on a Spark frame, collecting the paths its
reductions took (:mod:`.path`), names the dearest in each result frame's
``attrs["spark_path"]`` (``"table"``, ``"partitions"`` or ``"ranges"``), and converts
the result as ``output=`` asks: ``"spark"`` gives a Spark DataFrame of the same rows
in the input's session, built from one Arrow table (NaN stays NaN, missing keys are
nulls), ready for ``.write``; it carries the same ``attrs``.
"""

from __future__ import annotations

import pandas as pd

from . import path as P


def _data(args, kwargs):
    return args[0] if args else kwargs.get("data")


def answer(f, args, kwargs, output):
    """``f(*args, **kwargs)`` on Spark input, tagged with its path; a Spark DataFrame
    for ``output="spark"`` (the caller converts the pandas result for the others).
    """
    from .workers import check

    check(_data(args, kwargs))  # once per session: the workers' Python can run the work
    token = P.collecting()
    try:
        result = f(*args, **kwargs)
    finally:
        path = P.finish(token)
    for frame in result if isinstance(result, tuple) else (result,):
        if isinstance(frame, pd.DataFrame) and path is not None:
            frame.attrs["spark_path"] = path
    if output != "spark":
        return result
    session = _data(args, kwargs).sparkSession
    if isinstance(result, tuple):
        return tuple(to_spark(r, session) for r in result)
    return to_spark(result, session)


def arrow_table(frame: pd.DataFrame):
    """``frame`` as a pyarrow Table: floats as they are (NaN stays NaN, where pandas'
    own conversion makes it null), other columns by pandas' conversion.
    """
    import numpy as np
    import pyarrow as pa

    cols = {}
    for name in frame.columns:
        x = frame[name]
        if x.dtype.kind == "f":
            cols[str(name)] = pa.array(x.to_numpy(dtype=np.float64, na_value=np.nan))
        elif x.dtype == object and x.map(type).nunique() > 1:  # fold ids beside "mean"
            cols[str(name)] = pa.array(x.map(lambda v: None if v is None else str(v)))
        else:
            cols[str(name)] = pa.Array.from_pandas(x)
    return pa.table(cols)


def to_spark(frame, session):
    """A pandas result as a Spark DataFrame of ``session`` (anything else as it is)."""
    if not isinstance(frame, pd.DataFrame):
        return frame
    out = session.createDataFrame(arrow_table(frame))
    out.attrs = dict(frame.attrs)
    return out
