"""The ``thresholds=`` argument: per-curve cut-offs, validated and laid out ragged.

Accepted forms:

* an array-like of numbers: the same thresholds for every curve;
* a DataFrame with the call's key columns (the ``by`` columns and/or ``model``) and a
  ``threshold`` column, e.g. the output of ``roc_curve(tuning, ..., hull=True)``: each
  curve gets the thresholds of its own rows (the paper's tuning-set method).

Thresholds of each curve are sorted in descending order (the order of a sweep).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import _schema as S
from .batch import lengths_to_offsets
from .dataframes import to_pandas

# columns our own curve frames carry besides the keys; anything else is suspicious
_KNOWN = S.CURVE_COLUMNS | set(S.DESCRIPTORS)


def _check_values(thr, where):
    try:
        thr = np.asarray(thr, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"thresholds{where} must be numbers; convert them with pd.to_numeric first"
        ) from None
    if np.isnan(thr).any():
        raise ValueError(
            f"thresholds{where} has {int(np.isnan(thr).sum())} NaN values; a threshold must "
            "be a number (+inf gives the origin, -inf every row); drop the NaN rows"
        )
    return thr


def ragged_thresholds(batch, thresholds):
    """``(thr, thr_offsets)`` for :func:`._kernels.thresholds._counts_at_batch`."""
    n_curves = batch.n_curves
    thresholds = to_pandas(thresholds, every=True)  # polars / pyarrow frames too
    if isinstance(thresholds, pd.DataFrame):
        return _from_frame(batch, thresholds)
    if isinstance(thresholds, (str, bytes, dict)):
        raise TypeError(
            "thresholds must be an array-like of numbers or a DataFrame with the key "
            f"columns and a {S.THRESHOLD!r} column, got {type(thresholds).__name__}"
        )
    arr = thresholds.to_numpy() if isinstance(thresholds, pd.Series) else np.asarray(thresholds)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(
            f"thresholds must be 1-D (one list for every curve), got shape {arr.shape}; for "
            f"per-curve thresholds pass a DataFrame with the key columns and {S.THRESHOLD!r}"
        )
    if arr.size == 0:
        raise ValueError("thresholds is empty; pass at least one threshold")
    thr = np.sort(_check_values(arr, ""))[::-1]
    m = thr.size
    return np.tile(thr, n_curves), np.arange(n_curves + 1, dtype=np.int64) * m


def check_thresholds_columns(frame, need, what, advice) -> None:
    """A ValueError naming the columns of ``need`` that a ``thresholds=`` frame lacks
    (``what``: which kind of column; ``advice``: the rest of the message, the fix).
    """
    missing = [c for c in need if c not in frame.columns]
    if missing:
        raise ValueError(f"the thresholds frame lacks the {what} {missing}{advice}")


def _from_frame(batch, frame):
    keys = batch.key_names
    if S.THRESHOLD not in frame.columns:
        raise ValueError(
            f"the thresholds frame has no {S.THRESHOLD!r} column (columns: "
            f"{list(frame.columns)}); pass e.g. the output of roc_curve(..., hull=True)"
        )
    check_thresholds_columns(
        frame,
        keys,
        "key column(s)",
        f" of this call (keys: {keys}); it needs one row per (curve, threshold) with "
        f"columns {keys + [S.THRESHOLD]}, e.g. roc_curve(tuning, ..., hull=True) with the "
        "same score/by arguments",
    )
    extra = [c for c in frame.columns if c not in keys and c not in _KNOWN]
    if extra:
        raise ValueError(
            f"the thresholds frame has column(s) {extra} that are not key columns of this "
            f"call (keys: {keys}); if they identify curves, pass them as by=; otherwise "
            "drop them"
        )
    if len(frame) == 0:
        raise ValueError("the thresholds frame is empty; pass at least one threshold")
    thr = _check_values(frame[S.THRESHOLD].to_numpy(), f" column {S.THRESHOLD!r}")
    n_curves = batch.n_curves
    if not keys:
        order = np.argsort(-thr, kind="stable")
        return thr[order], np.array([0, thr.size], dtype=np.int64)
    left = frame[keys].reset_index(drop=True).copy()
    left["__row"] = np.arange(len(left))
    right = batch.keys.reset_index(drop=True).copy()
    right["__curve"] = np.arange(n_curves)
    try:
        merged = left.merge(right, on=keys, how="left", sort=False, validate="many_to_one")
    except ValueError as err:
        raise ValueError(
            f"cannot match the thresholds frame to the curves on {keys}: {err}; make the "
            "key columns' types agree with the data's"
        ) from None
    curve = merged.sort_values("__row")["__curve"].to_numpy()
    unknown = np.isnan(curve.astype(np.float64))
    if unknown.any():
        rows = frame[keys][unknown].drop_duplicates()
        shown = "; ".join(
            ", ".join(f"{k}={r[k]!r}" for k in keys) for _, r in rows.head(5).iterrows()
        )
        raise ValueError(
            f"the thresholds frame has {len(rows)} curve(s) that are not in the data "
            f"({shown}{' ...' if len(rows) > 5 else ''}); drop them or check by=/score="
        )
    curve = curve.astype(np.int64)
    counts = np.bincount(curve, minlength=n_curves)
    if (counts == 0).any():
        absent = np.flatnonzero(counts == 0)
        shown = "; ".join(batch.describe(int(c)) for c in absent[:5])
        raise ValueError(
            f"the thresholds frame has no rows for {absent.size} curve(s) of the data "
            f"({shown}{' ...' if absent.size > 5 else ''}); give every curve thresholds "
            "or drop those groups from the data"
        )
    order = np.lexsort((-thr, curve))
    return np.ascontiguousarray(thr[order]), lengths_to_offsets(counts)
