"""Input resolution: the public arguments read into plain arrays, checked once.

Scores (column names, 1-D or 2-D arrays, frames; one model per column), labels
(0/1, -1/1, bool, ``pos_label=``, soft labels), weights and ``by`` groups (the
grouping of the rows, found without hashing when they come in key order). Each
function raises a ValueError/TypeError naming the argument and the fix. Input forms:

* **long**: ``score="s"`` with ``by=`` column(s): one curve per group;
* **wide**: ``score=["m1", "m2"]``: each column is one model scored on the same rows;
  the output gets a ``model`` column. Wide and ``by`` combine (one curve per group and
  model; ``by`` columns come first);
* **arrays**: ``data=None`` and array-likes; a 2-D score array is one model per column
  (``model`` = column index, or the column names of a DataFrame).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._schema import GROUP
from .batch import plain
from .exact_ints import needs_ranks, ranked


def _show_values(vals, k=6) -> str:
    """``0, 1, 2`` (sorted, plain Python reprs, at most ``k`` then ``...``)."""
    vals = sorted((plain(v) for v in vals), key=lambda v: (str(type(v)), v))
    shown = ", ".join(map(repr, vals[:k]))
    return shown + (", ..." if len(vals) > k else "")


def _is_names(x) -> bool:
    return isinstance(x, str) or (
        isinstance(x, (list, tuple)) and len(x) > 0 and all(isinstance(v, str) for v in x)
    )


def _column_labels(data, score) -> bool:
    """``score`` lists columns of ``data`` by labels that are not strings (a frame
    whose columns are numbered: ``score=[0, 1]``): names, not two scores.
    """
    columns = getattr(data, "columns", None)
    if columns is None or not isinstance(score, (list, tuple)) or not score:
        return False
    integral = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in score)
    return integral and all(v in columns for v in score)


def frame_column(data, name, arg):
    if name not in data.columns:
        cols = ", ".join(map(repr, list(data.columns)[:20]))
        raise ValueError(f"{arg}={name!r} is not a column of data; available columns: {cols}")
    return data[name]


def as_1d(x, arg, n=None):
    if isinstance(x, (pd.Series, pd.Index)):
        arr = x.to_numpy()
    else:
        arr = np.asarray(x)
    if arr.ndim == 0:
        raise TypeError(f"{arg} must be a column name or an array-like, got {type(x).__name__}")
    if arr.ndim != 1:
        raise ValueError(f"{arg} must be 1-D, got an array of shape {arr.shape}")
    if n is not None and arr.shape[0] != n:
        raise ValueError(
            f"{arg} has {arr.shape[0]} rows but score has {n}; pass arrays of equal length"
        )
    return arr


def _to_float(arr, arg):
    if arr.dtype == np.float64:
        return arr
    if needs_ranks(arr):  # integers float64 would round: their exact ranks
        return ranked(arr)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64)
    if arr.dtype.kind in "USO" and pd.api.types.infer_dtype(arr, skipna=True) in (
        "string",
        "bytes",
        "mixed",
        "mixed-integer",
    ):
        # as scikit-learn: text is never read as numbers (a column read as strings is a
        # parsing problem to fix where the data is read)
        raise TypeError(
            f"{arg} must be numeric, got strings (e.g. {str(arr[0])!r}); convert them "
            "first, e.g. pd.to_numeric(df[col]) or np.asarray(x, dtype=float)"
        )
    try:
        return np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{arg} must be numeric, got values of dtype {arr.dtype}; convert the column "
            "to numbers first"
        ) from None


def _resolve_scores(data, score, proba_check=True):
    """Return (list of float64 score columns, model names or None).

    ``proba_check=False`` (multiclass / multilabel input, where one column per class is
    what is asked for): a 2-column score whose rows sum to 1 is accepted.
    """
    if data is not None and (_is_names(score) or _column_labels(data, score)):
        names = [score] if isinstance(score, str) else list(score)
        if len(set(names)) != len(names):
            raise ValueError(f"score lists a column twice: {names}; list each model once")
        cols = [
            _to_float(frame_column(data, nm, "score").to_numpy(), f"score column {nm!r}")
            for nm in names
        ]
        return cols, (None if isinstance(score, str) else names)
    if data is None and _is_names(score):
        hint = ""
        if not isinstance(score, str) and pd.to_numeric(pd.Series(score), "coerce").notna().all():
            hint = (
                "; if these are the scores, they are strings: convert them to numbers "
                "first, e.g. np.asarray(s, dtype=float)"
            )
        raise TypeError(
            f"score={score!r} names column(s) but data is None; pass the DataFrame as data={hint}"
        )
    if isinstance(score, pd.DataFrame):
        cols = [_to_float(score[c].to_numpy(), f"score column {c!r}") for c in score.columns]
        if len(cols) == 2 and proba_check:
            check_not_proba(np.column_stack(cols), "score")
        return cols, list(score.columns)
    arr = score.to_numpy() if isinstance(score, pd.Series) else np.asarray(score)
    if arr.ndim == 0:
        raise TypeError(
            f"score must be a column name, a list of names or an array-like, got {score!r}"
        )
    if arr.ndim > 2:
        raise ValueError(f"score must be 1-D or 2-D (n_samples, n_models), got shape {arr.shape}")
    arr = _to_float(arr, "score")
    if arr.ndim == 1:
        return [arr], None
    if proba_check:
        check_not_proba(arr, "score")
    return [arr[:, m] for m in range(arr.shape[1])], list(range(arr.shape[1]))


def read_inputs(data, score, label, by, weight, pos_label, soft_labels, multi):
    """The input read in order, as plain values: ``(score columns, model or class
    names, labels, weights, group codes, group keys frame, runs)`` (see
    :func:`_grouping`). ``multi`` (:func:`.classes.input_kind`): None for binary input;
    otherwise the labels are None here (the classes are read with the layout,
    :func:`.multiclass.pack_multi`).
    """
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    cols, names = score_columns(data, score, multi)
    n = cols[0].shape[0]
    if data is not None and hasattr(data, "columns") and len(data) != n:
        raise ValueError(
            f"score has {n} rows but data has {len(data)}; pass score= the name(s) of "
            "data's score column(s), or arrays of one value per row of data"
        )
    y = None if multi is not None else binary_labels(data, label, pos_label, soft_labels, n, cols)
    w = _weights(data, weight, n)
    codes, key_frame, runs = _grouping(data, by, n)
    return cols, names, y, w, codes, key_frame, runs


def score_columns(data, score, multi):
    """``(float64 score columns, model or class names)``: at least one column of at
    least one row (multiclass: one column per class, at least 2).
    """
    cols, names = _resolve_scores(data, score, proba_check=multi is None)
    if multi is not None and len(cols) < 2:
        raise ValueError(
            f"multiclass input needs one score column per class (at least 2), "
            f"got {len(cols)}; pass score= a list of columns or a 2-D array"
        )
    if not cols:
        raise ValueError("score lists no model")
    if cols[0].shape[0] == 0:
        raise ValueError("empty input: score has no rows")
    return cols, names


def binary_labels(data, label, pos_label, soft_labels, n, cols):
    """The label column as float64 in [0, 1] (:func:`.resolve.read_labels`)."""
    y = _resolve(data, label, "label", n)
    if y is None:
        raise TypeError("label is required: a column name or an array-like of 0/1 labels")
    return read_labels(y, pos_label, soft_labels, scores=cols)


def check_not_proba(arr, arg):
    """A 2-column score whose rows sum to 1 is ``predict_proba`` output, not two models."""
    if (
        arr.ndim == 2
        and arr.shape[1] == 2
        and arr.shape[0] > 0
        and ((arr >= 0) & (arr <= 1)).all()
        and np.allclose(arr.sum(axis=1), 1.0)
    ):
        raise ValueError(
            f"{arg} has 2 columns whose rows sum to 1: predict_proba output, not two models; "
            "pass the positive class's column, proba[:, 1]. Two genuine models go as named "
            "columns: data=df, score=['m1', 'm2']"
        )


def _pos_label_missing(vals, pos_label, arg):
    """pos_label names no label value: raise, unless it plausibly means 'no positives
    here' (a single label value of the same kind: a warning and NaN follow).
    """

    def kind(v):
        return "number" if isinstance(v, (int, float, np.number, np.bool_)) else type(v)

    same_kind = all(kind(plain(v)) == kind(pos_label) for v in vals)
    if len(vals) == 1 and same_kind:
        return
    near = [v for v in map(plain, vals) if str(v).lower() == str(pos_label).lower()]
    hint = f"pos_label={near[0]!r}" if near else "one of them as pos_label="
    raise ValueError(
        f"pos_label={pos_label!r} is not among the values of {arg} ({_show_values(vals)}); "
        f"pass {hint}"
    )


def _resolve(data, x, arg, n):
    if x is None:
        return None
    if isinstance(x, str):
        if data is None:
            raise TypeError(f"{arg}={x!r} names a column but data is None; pass data=")
        return frame_column(data, x, arg).to_numpy()
    return as_1d(x, arg, n)


def _weights(data, weight, n):
    """The sample weights as float64, checked finite and >= 0; None without them."""
    w = _resolve(data, weight, "weight", n)
    if w is None:
        return None
    w = _to_float(w, "weight")
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        raise ValueError(
            f"weight has {int(bad.sum())} negative, NaN or infinite values "
            f"(first: {w[bad][0]!r}); sample weights must be finite and >= 0"
        )
    return w


def read_labels(y, pos_label, soft_labels, arg="label", scores=None):
    """Labels -> float64 in [0, 1] (1 positive); ``scores`` only to spot a swap."""
    if soft_labels:
        if pos_label is not None:
            raise ValueError("pos_label= has no meaning with soft_labels=True; drop one of them")
        yf = _to_float(y, arg)
        bad = ~np.isfinite(yf) | (yf < 0) | (yf > 1)
        if bad.any():
            raise ValueError(
                f"{arg} has {int(bad.sum())} soft labels outside [0, 1] or missing "
                f"(first: {yf[bad][0]!r}); soft labels are P(positive) in [0, 1]"
            )
        return yf
    if pos_label is not None:
        vals = pd.unique(y)
        if pd.isna(vals).any():
            raise ValueError(f"{arg} has missing values; drop or fill those rows first")
        if len(vals) > 2:
            raise ValueError(
                f"{arg} has {len(vals)} distinct values ({_show_values(vals)}); a binary "
                "label has two. "
                f"pos_label={pos_label!r} marks the positives; map the rest to one negative "
                "value, or for multiclass input pass score= one column per class and "
                "multiclass='ovr'"
            )
        hit = y == pos_label
        if not hit.any():
            _pos_label_missing(vals, pos_label, arg)
        return hit.astype(np.float64)
    if y.dtype == bool:
        return y.astype(np.float64)
    if y.dtype.kind in "iuf":
        yf = y.astype(np.float64, copy=False)
        ok01 = (yf == 0) | (yf == 1)
        if ok01.all():
            return yf if yf.dtype == np.float64 and yf is not y else yf.astype(np.float64)
        okpm = (yf == -1) | (yf == 1)
        if okpm.all():
            return (yf == 1).astype(np.float64)
        if np.isnan(yf).any():
            raise ValueError(f"{arg} has missing (NaN) values; drop or fill those rows first")
        frac = (yf > 0) & (yf < 1)
        if (frac | ok01).all():
            if scores is not None and all(((c == 0) | (c == 1)).all() for c in scores):
                raise ValueError(
                    f"{arg} has fractional values (e.g. {float(yf[frac][0])!r}) and score is 0/1: "
                    "label and score look swapped; pass the 0/1 column as label= and the "
                    "scores as score="
                )
            raise ValueError(
                f"{arg} has fractional values in (0, 1) (e.g. {float(yf[frac][0])!r}); if they are "
                "P(positive), pass soft_labels=True"
            )
    vals = pd.unique(y)
    if pd.isna(vals).any():
        raise ValueError(f"{arg} has missing values; drop or fill those rows first")
    if 2 < len(vals) <= 50 and not (y.dtype.kind == "f" and (vals != np.round(vals)).any()):
        # a few whole-number or text values: class labels
        raise ValueError(
            f"{arg} has values {{{_show_values(vals)}}}; binary labels must be 0/1, -1/1 or "
            f"bool. For {len(vals)} classes pass score= one column per class (e.g. "
            "predict_proba output) and multiclass='ovr' (or 'ovo' for Hand & Till's ROC "
            "AUC); for one class against the rest, pass pos_label= that class"
        )
    raise ValueError(
        f"{arg} has values {{{_show_values(vals)}}}; labels must be "
        "0/1, -1/1 or bool. Pass pos_label= to name the positive class, or map to 0/1"
    )


def _group_codes(data, by, n):
    """Group codes (sorted key order) and the keys frame of each group."""
    codes, frame, runs = _grouping(data, by, n)
    if runs is not None:
        codes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
    return codes, frame


def _grouping(data, by, n):
    """``(codes, frame, runs)``: the keys frame (one row per input row) and either
    ``runs``, the offsets of the runs of equal keys when the rows already come grouped
    in ascending key order (codes then None: no hashing, no per-row codes), or the
    group codes in sorted key order (``runs`` None). ``(None, None, None)`` without
    ``by``.
    """
    if by is None:
        return None, None, None
    if data is not None and _is_names(by):
        names = [by] if isinstance(by, str) else list(by)
        # keep the key columns' dtypes (categoricals keep their categories and order)
        # copy=False: no consolidation copy of the columns (they are only read)
        frame = pd.DataFrame(
            {nm: frame_column(data, nm, "by").reset_index(drop=True) for nm in names}, copy=False
        )
    elif data is None and _is_names(by):
        raise TypeError(f"by={by!r} names column(s) but data is None; pass data=")
    else:
        frame = pd.DataFrame({GROUP: as_1d(by, "by", n)})
        names = [GROUP]
    for nm in names:
        dtype = frame[nm].dtype
        if isinstance(dtype, np.dtype) and dtype.kind in "biu":  # no missing value there
            continue
        miss = frame[nm].isna()
        if miss.any():
            raise ValueError(
                f"by column {nm!r} has {int(miss.sum())} missing values; fill them "
                "(e.g. .fillna('missing')) or drop those rows"
            )
    runs = _key_runs(frame, names, n)
    if runs is not None:
        return None, frame, runs
    codes = frame.groupby(names, sort=True, dropna=False, observed=True).ngroup()
    return codes.to_numpy(np.int64), frame, None


def _key_runs(frame, names, n):
    """Offsets (int64, ``n_groups + 1``) of the runs of equal keys when the rows come
    grouped in ascending key order (as every frame this library returns does), else
    None (then the caller groups by hashing).

    One comparison of adjacent rows per key column finds the runs; the order is checked
    on the first row of each run only: consecutive runs must strictly increase
    (lexicographically over the key columns), which also makes every key's rows one
    run. Categorical keys compare by their codes (the order of the categories, as a
    sorted groupby); values that do not compare take the grouping path.
    """
    if n < 1:
        return None
    cols = []
    for nm in names:
        col = frame[nm]
        if isinstance(col.dtype, pd.CategoricalDtype):
            cols.append(col.cat.codes.to_numpy())
        else:
            cols.append(col.to_numpy())
    change = None
    try:
        for a in cols:
            ne = a[1:] != a[:-1]
            if not (isinstance(ne, np.ndarray) and ne.shape == (n - 1,)):
                return None
            # one comparison per column; the first one's result is the running union
            change = ne if change is None else np.logical_or(change, ne, out=change)
        inner = np.flatnonzero(change) + 1
        runs = np.concatenate(([0], inner, [n])).astype(np.int64)
        firsts = [a[runs[:-1]] for a in cols]
        increasing = np.zeros(runs.size - 2, dtype=bool)
        equal_so_far = np.ones(runs.size - 2, dtype=bool)
        for a in firsts:
            increasing |= equal_so_far & (a[1:] > a[:-1])
            equal_so_far &= a[1:] == a[:-1]
    except TypeError:
        return None
    return runs if increasing.all() else None
