"""Build tidy frames from ragged kernel results (long format, key columns first).

The only frame builders; column names come from :mod:`prroc_numba._schema`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def repeat_keys(keys: pd.DataFrame, lengths) -> dict:
    """The key columns with row ``i`` repeated ``lengths[i]`` times, dtypes kept.

    Column by column, no frame-wide ``take``: numpy columns by ``np.repeat``,
    categoricals by repeating their codes, other extension arrays (pandas strings,
    nullable and tz-aware columns) by one ``take`` each.
    """
    out = {}
    idx = None
    for name in keys.columns:
        col = keys[name]
        if isinstance(col.dtype, np.dtype):
            out[name] = np.repeat(col.to_numpy(), lengths)
        elif isinstance(col.dtype, pd.CategoricalDtype):
            codes = np.repeat(col.cat.codes.to_numpy(), lengths)
            out[name] = pd.Categorical.from_codes(codes, dtype=col.dtype)
        else:
            if idx is None:
                idx = np.repeat(np.arange(len(keys)), lengths)
            out[name] = col.array.take(idx)
    return out


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
    data = repeat_keys(keys, np.full(n_curves, grid.size))
    data[xname] = np.tile(grid, n_curves)
    data.update({name: np.ascontiguousarray(mat).ravel() for name, mat in values.items()})
    return pd.DataFrame(data, copy=False)


def curves_frame(keys: pd.DataFrame, columns: dict) -> pd.DataFrame:
    """One row per curve: the keys, then ``columns`` (arrays of length n_curves)."""
    frame = keys.reset_index(drop=True).copy()
    for name, col in columns.items():
        frame[name] = col
    return frame
