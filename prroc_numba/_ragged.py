"""Validate user input once, at the boundary, and pack it into a ragged batch.

Everything here is numpy/pandas; nothing loops over samples in Python. The result,
:class:`Batch`, is what every kernel call starts from (see :mod:`prroc_numba._kernels`
for the layout).

Input forms (every public function):

* **long**: ``score="s"`` with ``by=`` column(s): one curve per group;
* **wide**: ``score=["m1", "m2"]``: each column is one model scored on the same rows;
  the output gets a ``model`` column. Wide and ``by`` combine (one curve per group and
  model; ``by`` columns come first);
* **arrays**: ``data=None`` and array-likes; a 2-D score array is one model per column
  (``model`` = column index, or the column names of a DataFrame).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import _schema as S
from ._checks import positive_scalar
from ._drivers.grid import _check_points
from ._kernels.grid import (
    BAD_FP,
    BAD_TP,
    FP_OVER,
    N_DISAGREE,
    N_UNKNOWN,
    NOT_SORTED,
    OK,
    P_DISAGREE,
    P_UNKNOWN,
    TOTALS_VARY,
    TP_OVER,
    _with_ends_batch,
)
from ._kernels.layout import _offsets_from_counts
from ._schema import GROUP, MODEL
from ._warnings import UndefinedMetricWarning

#: relative tolerance for counts computed from rates (rounding in recall/precision)
POINTS_TOL = 1e-9


def lengths_to_offsets(lengths) -> np.ndarray:
    """CSR offsets (int64, length ``len(lengths) + 1``) from per-curve lengths: the
    ragged layout's one offsets builder (:func:`prroc_numba._kernels.layout._offsets_from_counts`,
    which the kernels call too).
    """
    return _offsets_from_counts(np.require(lengths, np.int64, ["C", "W"]))


@dataclass(frozen=True)
class Batch:
    """A validated ragged batch of curves.

    Attributes
    ----------
    values : float64 (n_values,)
        Scores, curve by curve: ``values[offsets[c]:offsets[c + 1]]``.
    offsets : int64 (n_curves + 1,)
    pos, neg : float64 (n_rows,)
        Positive / negative mass of each label row (``weight*label``,
        ``weight*(1-label)``), rows sorted by group.
    group_offsets : int64 (n_groups + 1,)
        Label rows of group ``g`` are ``[group_offsets[g]:group_offsets[g + 1]]``.
    curve_group : int64 (n_curves,)
        The group of each curve; the models of a group (wide input) share its rows.
    keys : DataFrame
        One row per curve with the key columns (``by`` columns, then ``model``).
    n_models : int
        Number of score columns; curve ``c`` is model ``c % n_models`` of group
        ``c // n_models``.
    rows : int64 (n_rows,) or None
        The input row number of each label row (rows sorted by group, zero-weight rows
        dropped); the Poisson bootstrap keys its counts on it. None: ``arange(n_rows)``.
    multi : Rows or None
        Multiclass/multilabel input (see :mod:`prroc_numba._multiclass`): "groups" are
        then the curves' own label blocks, and ``multi`` says which original rows they
        hold, for the resampling, and how curves reduce to output rows.
    """

    values: np.ndarray
    offsets: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    group_offsets: np.ndarray
    curve_group: np.ndarray
    keys: pd.DataFrame
    n_models: int
    #: input row of each label row (after zero-weight rows are dropped and rows are
    #: sorted by group); None when the label rows are the input rows in input order
    rows: np.ndarray | None = None
    #: number of input rows (before zero-weight rows are dropped)
    n_input: int = 0
    #: multiclass / multilabel input: each curve's own label rows and how they map back
    #: to the original rows (:class:`prroc_numba._multiclass.Rows`); None otherwise
    multi: object = None

    @property
    def n_curves(self) -> int:
        return self.offsets.size - 1

    @property
    def label_start(self) -> np.ndarray:
        return self.group_offsets[self.curve_group]

    @property
    def key_names(self) -> list:
        return list(self.keys.columns)

    def totals(self):
        """Per-curve total positive and negative mass ``(P, N)``, float64 (n_curves,)."""
        P = np.add.reduceat(self.pos, self.group_offsets[:-1]) if self.pos.size else self.pos
        N = np.add.reduceat(self.neg, self.group_offsets[:-1]) if self.neg.size else self.neg
        return P[self.curve_group], N[self.curve_group]

    def describe(self, c: int) -> str:
        """Human-readable name of curve ``c`` for messages, e.g. ``model='m1'``."""
        if self.keys.shape[1] == 0:
            return "the curve"
        return describe_row(self.keys.iloc[c])


# --------------------------------------------------------------------------- helpers


def row_ids(batch) -> np.ndarray:
    """Input row number of each label row of ``batch`` (int64; see ``Batch.rows``)."""
    return np.arange(batch.pos.size, dtype=np.int64) if batch.rows is None else batch.rows


def is_dask(data) -> bool:
    """Whether ``data`` is a Dask DataFrame (without importing dask)."""
    return type(data).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(
        data, "npartitions"
    )


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def _show_values(vals, k=6) -> str:
    """``0, 1, 2`` (sorted, plain Python reprs, at most ``k`` then ``...``)."""
    vals = sorted((_plain(v) for v in vals), key=lambda v: (str(type(v)), v))
    shown = ", ".join(map(repr, vals[:k]))
    return shown + (", ..." if len(vals) > k else "")


def describe_row(row) -> str:
    """``k1='a', k2=3`` for a row of key values (numpy scalars shown as plain values)."""
    return ", ".join(f"{k}={_plain(row[k])!r}" for k in row.index)


def _is_names(x) -> bool:
    return isinstance(x, str) or (
        isinstance(x, (list, tuple)) and len(x) > 0 and all(isinstance(v, str) for v in x)
    )


def _column(data, name, arg):
    if name not in data.columns:
        cols = ", ".join(map(repr, list(data.columns)[:20]))
        raise ValueError(f"{arg}={name!r} is not a column of data; available columns: {cols}")
    return data[name]


def _as_1d(x, arg, n=None):
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
    if data is not None and _is_names(score):
        names = [score] if isinstance(score, str) else list(score)
        if len(set(names)) != len(names):
            raise ValueError(f"score lists a column twice: {names}; list each model once")
        cols = [
            _to_float(_column(data, nm, "score").to_numpy(), f"score column {nm!r}") for nm in names
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

    same_kind = all(kind(_plain(v)) == kind(pos_label) for v in vals)
    if len(vals) == 1 and same_kind:
        return
    near = [v for v in map(_plain, vals) if str(v).lower() == str(pos_label).lower()]
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
        return _column(data, x, arg).to_numpy()
    return _as_1d(x, arg, n)


def _labels(y, pos_label, soft_labels, arg="label", scores=None):
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
            {nm: _column(data, nm, "by").reset_index(drop=True) for nm in names}, copy=False
        )
    elif data is None and _is_names(by):
        raise TypeError(f"by={by!r} names column(s) but data is None; pass data=")
    else:
        frame = pd.DataFrame({GROUP: _as_1d(by, "by", n)})
        names = [GROUP]
    for nm in names:
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
    change = np.zeros(n - 1, dtype=bool)
    try:
        for a in cols:
            ne = a[1:] != a[:-1]
            if not (isinstance(ne, np.ndarray) and ne.shape == change.shape):
                return None
            change |= ne
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


# ---------------------------------------------------------------------------- packing


#: the input arguments of the public functions, handed on by name to :func:`pack` and
#: the Dask paths; :data:`MULTICLASS` where the caller takes multiclass input
INPUTS = ("score", "label", "by", "weight", "pos_label", "soft_labels")
MULTICLASS = ("multiclass", "classes", "average")


def inputs(args, *names) -> dict:
    """The input arguments (:data:`INPUTS`, then ``names``) picked from a public
    function's ``locals()``, to hand on unchanged: ``pack(data, **inputs(locals(),
    *MULTICLASS))``.
    """
    return {k: args[k] for k in INPUTS + names}


def pack(
    data=None,
    *,
    score,
    label,
    by=None,
    weight=None,
    pos_label=None,
    soft_labels=False,
    multiclass=None,
    classes=None,
    average=None,
    pair_models=False,
) -> Batch:
    """Validate the public arguments and build the :class:`Batch` (see module docstring).

    ``multiclass=``, ``classes=``, ``average=`` or ``label=`` a list of columns
    (multilabel) go to :func:`prroc_numba._multiclass.pack_multi`.
    """
    from . import _dataframes, _multiclass

    data = _dataframes.to_pandas(data, score, label, by, weight)
    if multiclass is not None or _multiclass.is_multilabel(data, label):
        if pos_label is not None or soft_labels:
            raise ValueError(
                "pos_label= / soft_labels= apply to binary labels; drop them "
                "with multiclass= or multilabel input"
            )
        return _multiclass.pack_multi(
            data,
            score=score,
            label=label,
            by=by,
            weight=weight,
            multiclass=multiclass,
            classes=classes,
            average=average,
            pair_models=pair_models,
        )
    _multiclass.check_args(multiclass, classes, average, False)
    if data is not None and not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"data must be a pandas DataFrame or None, got {type(data).__name__}; "
            "wrap it with pd.DataFrame(...) or pass arrays with data=None"
        )
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    cols, names = _resolve_scores(data, score)
    if not cols:
        raise ValueError("score lists no model")
    n = cols[0].shape[0]
    if n == 0:
        raise ValueError("empty input: score has no rows")
    y = _resolve(data, label, "label", n)
    if y is None:
        raise TypeError("label is required: a column name or an array-like of 0/1 labels")
    y = _labels(y, pos_label, soft_labels, scores=cols)
    w = _resolve(data, weight, "weight", n)
    if w is not None:
        w = _to_float(w, "weight")
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            raise ValueError(
                f"weight has {int(bad.sum())} negative, NaN or infinite values "
                f"(first: {w[bad][0]!r}); sample weights must be finite and >= 0"
            )
    codes, key_frame, runs = _grouping(data, by, n)
    rows = None  # input row numbers of the label rows, when they are not arange(n)
    n_input = n
    if w is not None and not (w > 0).all():
        # zero-weight rows change no count; like scikit-learn, they add no threshold
        # either, so that zero weight is exactly the removal of the row
        keep = w > 0
        if runs is not None:
            codes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
        if codes is not None:
            alive = np.bincount(codes, weights=keep, minlength=codes.max() + 1) > 0
            if not alive.all():
                g = int(np.argmin(alive))
                name = describe_row(key_frame.iloc[int(np.argmax(codes == g))])
                raise ValueError(
                    f"{name} has total weight 0 (empty group); drop the group or give its "
                    "rows positive weight"
                )
            codes = codes[keep]
            key_frame = key_frame[keep]
            if runs is not None:  # still in runs of ascending keys, each non-empty
                runs = lengths_to_offsets(np.bincount(codes))
        elif not keep.any():
            raise ValueError("weight is 0 for every row: there is nothing to evaluate")
        cols = [col[keep] for col in cols]
        y, w = y[keep], w[keep]
        rows = np.flatnonzero(keep)
        n = y.shape[0]

    # rows sorted by group (stable: rows keep their order inside a group); rows that
    # come grouped in key order already are used as they are (no sort, no copies)
    order = None
    if key_frame is None:
        group_offsets = np.array([0, n], dtype=np.int64)
        group_keys = pd.DataFrame(index=range(1))
    elif runs is not None:
        group_offsets = runs
        group_keys = key_frame.iloc[runs[:-1]].reset_index(drop=True)
    else:
        order = np.argsort(codes, kind="stable")
        group_offsets = lengths_to_offsets(np.bincount(codes))
        group_keys = key_frame.iloc[order[group_offsets[:-1]]].reset_index(drop=True)
        y = y[order]
        w = None if w is None else w[order]
        rows = order if rows is None else rows[order]
    n_groups = group_offsets.size - 1
    M = len(cols)

    pos = y if w is None else w * y
    neg = 1.0 - y if w is None else w * (1.0 - y)
    pos = np.ascontiguousarray(pos, dtype=np.float64)
    neg = np.ascontiguousarray(neg, dtype=np.float64)

    # keys: one row per curve, curve c = (group c // M, model c % M)
    curve_group = np.repeat(np.arange(n_groups, dtype=np.int64), M)
    keys = group_keys if M == 1 else group_keys.iloc[curve_group].reset_index(drop=True)
    if names is not None:
        keys[MODEL] = np.tile(np.asarray(names, dtype=object), n_groups)
    batch_keys = keys

    # scores laid out curve by curve: group by group, model by model
    lengths = np.diff(group_offsets)
    offsets = lengths_to_offsets(np.repeat(lengths, M))
    if n_groups == 1:
        values = np.ascontiguousarray(cols[0]) if M == 1 else np.concatenate(cols)
    elif M == 1:
        values = cols[0] if order is None else cols[0][order]
    else:
        g_of_row = np.repeat(np.arange(n_groups), lengths)
        dest = group_offsets[g_of_row] * M + (np.arange(n) - group_offsets[g_of_row])
        step = lengths[g_of_row]
        values = np.empty(n * M)
        for m, col in enumerate(cols):  # a loop over models, not samples
            values[dest + m * step] = col if order is None else col[order]
    # one specialisation per kernel: Numba types read-only arrays (pandas copy-on-write
    # views) separately, so hand kernels writable ones (tests/test_specialisations.py)
    values, pos, neg = (a if a.flags.writeable else a.copy() for a in (values, pos, neg))
    batch = Batch(
        values,
        offsets,
        pos,
        neg,
        group_offsets,
        curve_group,
        batch_keys,
        M,
        None if rows is None else rows.astype(np.int64),
        n_input,
    )

    # scores must be finite; name the model and the group of the first bad one
    finite = np.isfinite(values)
    if not finite.all():
        first = int(np.argmin(finite))
        c = int(np.searchsorted(offsets, first, side="right") - 1)
        label_row = group_offsets[curve_group[c]] + (first - offsets[c])
        row = int(row_ids(batch)[label_row])
        where = f", {batch.describe(c)}" if batch.keys.shape[1] else ""
        raise ValueError(
            f"score has {int((~finite).sum())} NaN or infinite values (first: "
            f"{float(values[first])} at row {row}, counting from 0{where}); drop or impute "
            "those rows before computing curves"
        )
    # a group with no mass at all has no curve; without weights every row has mass
    # y + (1 - y) > 0 and every group a row, so only weights (products that underflow)
    # can leave one empty
    if w is not None:
        tot = np.add.reduceat(pos + neg, group_offsets[:-1])
        if (tot <= 0).any():
            g = int(np.argmax(tot <= 0))
            raise ValueError(
                f"{batch.describe(g * M)} has total weight 0 (empty group); drop the group or "
                "give its rows positive weight"
            )
    return batch


# -------------------------------------------------------------- packing points


def _pr_to_counts(recall, precision, P, where):
    """Counts of PR points; ``where(k)`` names point k in messages."""
    bad = (recall > 0) & (precision <= 0)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(
            f"{where(k)}: precision 0 at recall > 0 is impossible (TP > 0 true positives "
            "give precision > 0 for any finite number of false positives); drop the point "
            "or give its real precision"
        )
    tp = recall * P
    pos = recall > 0
    fp = np.zeros_like(tp)
    fp[pos] = tp[pos] * (1.0 - precision[pos]) / precision[pos]
    return tp, fp


def _frame_column(points, spec, arg):
    """Per-row float64 values of ``spec``: None, a scalar, or a column name."""
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in points.columns:
            raise ValueError(f"{arg}={spec!r} is not a column of points")
        return points[spec].to_numpy(dtype=np.float64)
    return np.full(len(points), positive_scalar(spec, arg))


def _kernel_view(a):
    """``a`` as float64, C-contiguous and flagged writeable, without copying it.

    Numba types read-only arrays (pandas copy-on-write hands out read-only views of a
    frame's columns) as another type, a second specialisation of every kernel
    (tests/test_specialisations.py). The packed points go only to kernels that read
    them (the checks and the grid interpolation of :mod:`prroc_numba._kernels.grid`),
    so a writeable-flagged view of the caller's column does instead of a copy of
    10 million rows. NEVER write into the result: it may be the caller's data. Memory
    that is read-only itself is copied.
    """
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.flags.writeable:
        return a
    view = a.view()
    try:
        view.flags.writeable = True
    except ValueError:  # no writeable base: the memory itself is read-only
        return a.copy()
    return view


def _or_empty(a):
    """Per-row totals for the kernels: an empty array when absent (one array type)."""
    return np.empty(0) if a is None else _kernel_view(a)


def pack_points(points, by, space, n_pos, n_neg, pos_neg_ratio, grid=None, hull=False):
    """Validate a tidy frame of many curves' points and lay them out as ragged counts.

    Returns ``(tp, fp, offsets, keys, P, N, open_end)``: per curve the origin, the
    points sorted by (TP, FP), and the end ``(P, N)``; keys one row per curve (sorted
    key order). With ``grid`` (float64, checked), an eighth item: the curves
    interpolated onto it (``hull``; PR or ROC by ``space``) by the checking pass itself
    when every curve is complete as given (the usual case: each curve is read once),
    else None (interpolate the returned ragged counts). Class totals come from
    ``n_pos``/``n_neg``/``pos_neg_ratio``, else from
    the rate columns next to ``tp``/``fp`` (``P = tp / recall`` or ``tp / tpr``,
    ``N = fp / fpr``, read and checked by the packing kernel); ``open_end`` is None, or
    (a PR frame without ``fpr``: N taken as each curve's largest FP, exact up to its
    last point) per curve the recall beyond which it is unknown.
    """
    from ._dataframes import to_pandas

    points = to_pandas(points, every=True)  # polars / pyarrow frames of points
    if not isinstance(points, pd.DataFrame):
        raise TypeError(
            f"points must be a pandas DataFrame (e.g. the output of pr_curve), "
            f"got {type(points).__name__}"
        )
    if space not in ("pr", "roc"):
        raise ValueError(f"space={space!r} is not known; use 'pr' or 'roc'")
    n = len(points)
    if n == 0:
        raise ValueError("points is empty; pass a frame with at least one point per curve")
    if isinstance(by, (list, tuple)) and len(by) == 0:
        by = None
    if by is not None and not (isinstance(by, str) or all(isinstance(b, str) for b in by)):
        raise TypeError("by must be a column name or a list of column names of points")
    cols = set(points.columns)
    if {S.TP, S.FP} <= cols:
        kind = "counts"
    elif {S.RECALL, S.PRECISION} <= cols:
        kind = "pr"
    elif {S.FPR, S.TPR} <= cols:
        kind = "roc"
    else:
        raise ValueError(
            "points needs columns 'tp' and 'fp' (counts, as pr_curve/roc_curve return), or "
            "'recall' and 'precision', or 'fpr' and 'tpr'; it has "
            f"{', '.join(map(repr, list(points.columns)[:20]))}"
        )
    Pcol = _frame_column(points, n_pos, "n_pos")
    Ncol = _frame_column(points, n_neg, "n_neg")
    Rcol = _frame_column(points, pos_neg_ratio, "pos_neg_ratio")
    if Rcol is not None and (Pcol is not None or Ncol is not None):
        raise ValueError("pass either n_pos= and n_neg= or pos_neg_ratio=, not both")
    if (Pcol is None) != (Ncol is None):
        raise ValueError("pass both n_pos= and n_neg= (or pos_neg_ratio=)")
    if Rcol is not None:
        Pcol, Ncol = Rcol, np.ones(n)
    for a, arg in ((Pcol, "n_pos"), (Ncol, "n_neg")):
        if a is not None and (~np.isfinite(a) | (a <= 0)).any():
            raise ValueError(f"{arg} must be finite and > 0 on every row")

    if by is None:
        codes, key_frame, runs = None, None, np.array([0, n], dtype=np.int64)
    else:
        codes, key_frame, runs = _grouping(points, by, n)

    def num(col, check=True):
        try:
            a = points[col].to_numpy(dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"points column {col!r} must be numeric") from None
        if not check:  # the packing kernel checks counts
            return a
        bad = ~np.isfinite(a) | (a < 0)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"points column {col!r} must be finite and >= 0; row {k} has {a[k]!r}")
        return a

    def where(k):
        keys = (
            ""
            if by is None
            else ", ".join(f"{c}={_plain(key_frame[c].iloc[k])!r}" for c in key_frame.columns)
            + ", "
        )
        return (
            f"row {k} ({keys}"
            + ", ".join(f"{c}={_plain(points[c].iloc[k])!r}" for c in cols_used)
            + ")"
        )

    empty = np.empty(0)
    p_rate = n_rate = empty
    totals_unknown = False
    if kind == "counts":
        cols_used = [S.TP, S.FP]
        tp, fp = num(S.TP, check=False), num(S.FP, check=False)
        if Pcol is None:  # totals from the rates next to the counts, when there are any
            rate_cols = [c for c in (S.RECALL if S.RECALL in cols else S.TPR, S.FPR) if c in cols]
            if rate_cols and rate_cols[0] != S.FPR:
                p_rate = num(rate_cols[0], check=False)
                n_rate = num(S.FPR, check=False) if S.FPR in cols else empty
                cols_used = cols_used + rate_cols
            else:
                totals_unknown = True
    else:
        cols_used = [S.RECALL, S.PRECISION] if kind == "pr" else [S.FPR, S.TPR]
        x, y = num(cols_used[0]), num(cols_used[1])
        for a, c in ((x, cols_used[0]), (y, cols_used[1])):
            if (a > 1).any():
                k = int(np.argmax(a > 1))
                raise ValueError(f"points column {c!r} must be in [0, 1]; {where(k)}")
        needs_counts = kind == "pr" or space == "pr"
        if Pcol is None:
            if needs_counts:
                raise ValueError(
                    f"points given as {cols_used[0]}/{cols_used[1]} need the class balance "
                    f"for space={space!r}: pass n_pos= and n_neg= or pos_neg_ratio= (numbers "
                    "or column names), or give 'tp' and 'fp' columns"
                )
            Pcol, Ncol = np.ones(n), np.ones(n)
        if kind == "pr":
            tp, fp = _pr_to_counts(x, y, Pcol, where)
        else:
            tp, fp = y * Pcol, x * Ncol

    tp, fp, p_rate, n_rate = (_kernel_view(a) for a in (tp, fp, p_rate, n_rate))

    onto = () if grid is None else (grid, hull, space == "roc")
    # rows ordered by (curve, TP, FP), as pr_curve output is: no sort, no per-row codes
    # (the one-pass check tells whether each curve's rows are in order)
    order = None
    status = NOT_SORTED
    if runs is not None:
        starts = runs
    elif codes.size < 2 or (codes[1:] >= codes[:-1]).all():
        starts = lengths_to_offsets(np.bincount(codes))
    else:
        starts = None
    if starts is not None:
        status, row, P, N, complete, values = _check_points(
            starts, tp, fp, _or_empty(Pcol), _or_empty(Ncol), p_rate, n_rate, POINTS_TOL, *onto
        )
    if status == NOT_SORTED:
        if codes is None:
            codes = np.repeat(np.arange(runs.size - 1, dtype=np.int64), np.diff(runs))
        order = np.lexsort((fp, tp, codes))
        codes, tp, fp = codes[order], tp[order], fp[order]
        if Pcol is not None:
            Pcol, Ncol = Pcol[order], Ncol[order]
        p_rate = p_rate[order] if p_rate.size else p_rate
        n_rate = n_rate[order] if n_rate.size else n_rate
        starts = lengths_to_offsets(np.bincount(codes))
        status, row, P, N, complete, values = _check_points(
            starts, tp, fp, _or_empty(Pcol), _or_empty(Ncol), p_rate, n_rate, POINTS_TOL, *onto
        )

    def orig(i):
        return int(i) if order is None else int(order[i])

    if status != OK:
        k = orig(row)
        c = int(np.searchsorted(starts, row, side="right") - 1)
        if status in (BAD_TP, BAD_FP):
            col = S.TP if status == BAD_TP else S.FP
            raise ValueError(f"points column {col!r} must be finite and >= 0; {where(k)}")
        if status in (P_UNKNOWN, N_UNKNOWN, P_DISAGREE, N_DISAGREE):
            positives = status in (P_UNKNOWN, P_DISAGREE)
            cname, count, rname, arg = (
                ("positives", S.TP, cols_used[2], "n_pos")
                if positives
                else ("negatives", S.FP, S.FPR, "n_neg")
            )
            if status in (P_UNKNOWN, N_UNKNOWN):
                raise ValueError(
                    f"the number of {cname} of the curve of {where(k)} cannot be known from "
                    f"its points: no row of that curve has {rname} > 0; pass {arg}= (a "
                    "number or a column name)"
                )
            raise ValueError(
                f"the rows of one curve disagree on its number of {cname} ({count} / "
                f"{rname}): {where(k)} gives another total than the row of its largest "
                f"{rname}; are several curves mixed under one key (check by=)? Or pass "
                f"{arg}= explicitly"
            )
        if status == TOTALS_VARY:
            raise ValueError(
                f"class counts differ between rows of one curve ({where(k)}); "
                "n_pos/n_neg/pos_neg_ratio must be constant within a curve"
            )
        if status == TP_OVER:
            raise ValueError(f"{where(k)} has more true positives than the curve's n_pos={P[c]:g}")
        if status == FP_OVER:
            raise ValueError(
                f"{where(k)} implies more false positives than the curve's "
                f"n_neg={N[c]:g}: its precision is below what the class balance "
                "allows at that recall"
            )
        raise ValueError(
            f"points of one curve are not one ranking: {where(k)} has more true positives "
            f"but fewer false positives than {where(orig(row - 1))}; FP must not decrease "
            "as TP grows (check the by= columns: does each key identify one curve?)"
        )
    if totals_unknown:  # the points are valid, but P and N are not known
        raise ValueError(
            "points has 'tp' and 'fp' columns but no 'recall' (or 'tpr') column, so the "
            "class totals of each curve are unknown (the largest tp is not P when a curve "
            "stops short of recall 1); pass n_pos= and n_neg= (numbers or column names), "
            "or keep the 'recall'/'fpr' columns that pr_curve/roc_curve return"
        )
    open_end = None
    if p_rate.size and not n_rate.size:
        # a PR frame: N is each curve's largest FP, exact up to its last point only
        with np.errstate(invalid="ignore", divide="ignore"):
            reach = np.where(P > 0, tp[starts[1:] - 1] / P, 1.0)
        open_end = np.where(reach >= 1.0 - POINTS_TOL, 1.0, reach)
        short = open_end < 1.0
        if space == "roc" and short.any():
            c = int(np.argmax(short))
            raise ValueError(
                f"space='roc' needs the number of negatives of the curve of "
                f"{where(orig(starts[c]))}, which stops at recall {open_end[c]:.6g}, and "
                "points has no 'fpr' column; pass n_pos= and n_neg= (numbers or column "
                "names), or the output of roc_curve"
            )
    if complete:  # every curve runs from the origin to (P, N): use the input as it is
        T, Fp, off = tp, fp, starts
    else:
        T, Fp, off = _with_ends_batch(starts, tp, fp, P, N)
    first = starts[:-1] if order is None else order[starts[:-1]]
    keys = (
        key_frame.iloc[first].reset_index(drop=True)
        if by is not None
        else pd.DataFrame(index=range(1))
    )
    if grid is not None:
        return T, Fp, off, keys, P, N, open_end, values
    return T, Fp, off, keys, P, N, open_end


def warn_undefined(batch: Batch, bad: np.ndarray, what: str, stacklevel: int = 3) -> None:
    """Warn once, naming up to five curves, that ``what`` is NaN for the ``bad`` curves."""
    idx = np.flatnonzero(bad)
    if idx.size == 0:
        return
    names = "; ".join(batch.describe(int(c)) for c in idx[:5])
    more = f" and {idx.size - 5} more" if idx.size > 5 else ""
    warnings.warn(f"{what} for {names}{more}", UndefinedMetricWarning, stacklevel=stacklevel)
