"""Build tidy frames from ragged kernel results (long format, key columns first).

The only frame builders; column names come from :mod:`prroc_numba._schema`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def points_frame(keys: pd.DataFrame, out_offsets: np.ndarray, columns: dict) -> pd.DataFrame:
    """One row per curve point: the curve's keys repeated, then ``columns``.

    ``columns`` maps names to arrays laid out like the ragged result
    (curve ``c`` is ``[out_offsets[c]:out_offsets[c + 1]]``).
    """
    lengths = np.diff(out_offsets)
    data = {}
    if keys.shape[1]:
        rows = keys.iloc[np.repeat(np.arange(len(keys)), lengths)].reset_index(drop=True)
        data.update({k: rows[k] for k in keys.columns})
    data.update(columns)
    # copy=False: the kernels' fresh arrays become the columns (no block consolidation)
    return pd.DataFrame(data, copy=False)


def curves_frame(keys: pd.DataFrame, columns: dict) -> pd.DataFrame:
    """One row per curve: the keys, then ``columns`` (arrays of length n_curves)."""
    frame = keys.reset_index(drop=True).copy()
    for name, col in columns.items():
        frame[name] = col
    return frame
