"""Build tidy frames from ragged kernel results (long format, key columns first).

The only frame builders; column names come from :mod:`prroc_numba._schema`.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd

from . import _schema as S


def repeat_keys(keys: pd.DataFrame, lengths) -> dict:
    """The key columns with row ``i`` repeated ``lengths[i]`` times, dtypes kept
    (``lengths`` an int: every row that many times, which numpy repeats faster than by
    an array of equal counts).

    Column by column, no frame-wide ``take``: numpy columns by ``np.repeat``,
    categoricals by repeating their codes, other extension arrays (pandas strings,
    nullable and tz-aware columns) by one ``take`` each.
    """
    out: dict[str, Any] = {}
    idx = None
    per_row = np.full(len(keys), lengths) if np.ndim(lengths) == 0 else lengths
    for name in keys.columns:
        col = keys[name]
        if isinstance(col.dtype, np.dtype):
            out[name] = np.repeat(col.to_numpy(), lengths)
        elif isinstance(col.dtype, pd.CategoricalDtype):
            codes = np.repeat(col.cat.codes.to_numpy(), lengths)
            out[name] = pd.Categorical.from_codes(codes, dtype=col.dtype)
        elif (rep := _repeat_arrow_strings(col, per_row)) is not None:
            out[name] = rep
        else:
            if idx is None:
                idx = np.repeat(np.arange(len(keys)), lengths)
            out[name] = col.array.take(idx)
    return out


def _repeat_arrow_strings(col: pd.Series, lengths):
    """A pyarrow-backed string column (pandas' default ``str``) with row ``i`` repeated
    ``lengths[i]`` times, built as its buffers: the offsets by one cumulative sum, the
    bytes by repeating each key's bytes (a loop over keys, not rows); about half the time
    of a ``take`` of 10 million rows. None for other columns and for missing values.
    """
    if not (isinstance(col.dtype, pd.StringDtype) and col.dtype.storage == "pyarrow"):
        return None
    import pyarrow as pa

    src = pa.array(col.array)
    if isinstance(src, pa.ChunkedArray):
        src = src.combine_chunks()
    if src.null_count or not (pa.types.is_string(src.type) or pa.types.is_large_string(src.type)):
        return None
    src = src.cast(pa.large_string())
    _, off_buf, data_buf = src.buffers()
    offs = np.frombuffer(off_buf, dtype=np.int64)[src.offset : src.offset + len(src) + 1]
    raw = b"" if data_buf is None else data_buf.to_pybytes()
    counts = np.asarray(lengths, dtype=np.int64)
    offsets = np.zeros(int(counts.sum()) + 1, dtype=np.int64)
    np.cumsum(np.repeat(np.diff(offs), counts), out=offsets[1:])
    data = b"".join(raw[offs[i] : offs[i + 1]] * int(counts[i]) for i in range(len(src)))
    out = pa.LargeStringArray.from_buffers(
        offsets.size - 1, pa.py_buffer(offsets), pa.py_buffer(data)
    )
    return pd.array(out, dtype=col.dtype)


def points_frame(keys: pd.DataFrame, out_offsets: np.ndarray, columns: dict) -> pd.DataFrame:
    """One row per curve point: the curve's keys repeated, then ``columns``.

    ``columns`` maps names to arrays laid out like the ragged result
    (curve ``c`` is ``[out_offsets[c]:out_offsets[c + 1]]``).
    """
    data = repeat_keys(keys, np.diff(out_offsets))
    data.update(columns)
    # copy=False: the kernels' fresh arrays become the columns (no block consolidation)
    return pd.DataFrame(data, copy=False)


def grid_frame(keys: pd.DataFrame, grid: np.ndarray, xname: str, values: dict) -> pd.DataFrame:
    """One row per (curve, grid point): the keys of each curve repeated ``grid.size``
    times, ``xname`` the grid, then ``values`` (name -> ``(n_curves, grid.size)``
    matrix, C order: its ravel is the column without a copy).
    """
    n_curves = len(keys)
    data = repeat_keys(keys, int(grid.size))
    data[xname] = np.tile(grid, n_curves)
    data.update({name: np.ascontiguousarray(mat).ravel() for name, mat in values.items()})
    return pd.DataFrame(data, copy=False)


def curves_frame(keys: pd.DataFrame, columns: dict) -> pd.DataFrame:
    """One row per curve: the keys, then ``columns`` (arrays of length n_curves)."""
    frame = keys.reset_index(drop=True).copy()
    for name, col in columns.items():
        frame[name] = col
    return frame


def describe(frame: pd.DataFrame, before: str, **what) -> pd.DataFrame:
    """Insert the columns that say what produced the numbers (``curve``, ``method``,
    ``interval``, ``resampling``, ``n_boot``; :data:`prroc_numba._schema.DESCRIPTORS`)
    just before the column ``before`` (the first value column: the keys stay first),
    always in that order whatever the order of the keywords.
    None values are left out, and so is a name the frame has already (e.g. a ``by``
    column called ``method``). In place; returns ``frame``.
    """
    loc = cast(int, frame.columns.get_loc(before))
    order = {name: i for i, name in enumerate(S.DESCRIPTORS)}
    for name, value in sorted(what.items(), key=lambda kv: order.get(kv[0], len(order))):
        if value is None or name in frame.columns:
            continue
        frame.insert(loc, name, value)
        loc += 1
    return frame
