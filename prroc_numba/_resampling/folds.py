"""Cross-validation folds (``fold=``): per-fold, fold-averaged and pooled rows.

A fold column (or array) becomes one more grouping key, so every fold of every model
and group is one curve of the same batched call (no loop over folds). The results are
laid out in one tidy shape, shared by :func:`~prroc_numba.auc`,
:func:`~prroc_numba.metrics` and :func:`~prroc_numba.auc_ci`:

* the key columns (``by`` columns, ``model``), then a ``fold`` column, then the values;
* per group and model: one row (or, for curves, one curve) per fold (``fold`` holds
  the fold id), then a row with ``fold == "mean"`` (the mean over the folds: the
  cross-validated estimate of LeDell, Petersen & van der Laan 2015; NaN when a fold
  is undefined), then a row with
  ``fold == "pooled"`` (all the folds' rows taken as one curve). The points of
  :func:`~prroc_numba.pr_curve` / :func:`~prroc_numba.roc_curve` have no mean rows:
  averaged curves come from :func:`~prroc_numba.average_curves` or
  :func:`~prroc_numba.bootstrap_curve`.

The ``fold`` column is of object dtype (fold ids and the two names).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .. import _schema as S
from .._core import dataframes as _dataframes

MEAN = "mean"
POOLED = "pooled"
#: the column name under which an array ``fold=`` travels through ``by``
_TMP = "__prroc_fold__"


def by_names(by):
    """``by`` as a list of column names (None: [])."""
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def with_fold(data, score, label, by, weight, fold):
    """``(data, by_with_fold, fold_column)``: ``fold`` (a column name, or an array of
    one fold id per row) appended to the grouping keys.
    """
    if isinstance(fold, str):
        if data is None:
            raise TypeError(f"fold={fold!r} names a column but data is None; pass data=")
        names = by_names(by)
        if fold in names:
            raise ValueError(f"column {fold!r} is in both by= and fold=; drop it from by=")
        return data, names + [fold], fold
    arr = np.asarray(fold)
    if arr.ndim != 1:
        raise ValueError(
            f"fold must be a column name or a 1-D array of fold ids, got shape {arr.shape}"
        )
    if data is None:
        if by is not None:
            raise ValueError(
                "fold= as an array with by= needs data=: pass the rows as a DataFrame "
                "and name the by columns"
            )
        return None, arr, S.GROUP
    frame = _dataframes.to_pandas(data, score, label, by, weight)
    if len(frame) != arr.size:
        raise ValueError(
            f"fold has {arr.size} entries but data has {len(frame)} rows; pass one fold id per row"
        )
    frame = frame.assign(**{_TMP: arr})
    return frame, by_names(by) + [_TMP], _TMP


def split(run, data, inp, fold, mean=True):
    """A public call with ``fold=``: ``run(data, inputs)`` (the call without ``fold=``,
    its other options bound) once with the fold as a grouping key and once pooled,
    joined by :func:`table` (``mean=False``: no fold-mean rows, for curves' points).
    ``inp``: the call's :class:`~prroc_numba._core.inputs.Inputs`.
    """
    d, by_f, col = with_fold(data, inp.score, inp.label, inp.by, inp.weight, fold)
    per_fold = run(d, replace(inp, by=by_f))
    pooled = run(data, inp)
    return table(per_fold, pooled, col, mean=None if mean else False)


def group_ids(keys, fold_col):
    """``(gid, first)``: each per-fold curve's group (its keys without the fold, numbered
    in order of first appearance) and the first curve of each group.
    """
    rest = keys.drop(columns=[fold_col])
    if rest.shape[1]:
        gid = rest.groupby(list(rest.columns), sort=False, dropna=False).ngroup().to_numpy()
    else:
        gid = np.zeros(len(keys), dtype=np.int64)
    first = np.unique(gid, return_index=True)[1]
    return gid, first


def fold_means(x, gid, n_groups):
    """Mean over each group's folds of the rows of ``x`` (curves first; NaN in any
    fold gives NaN), vectorised.
    """
    x = np.asarray(x, dtype=np.float64)
    acc = np.zeros((n_groups,) + x.shape[1:])
    np.add.at(acc, gid, x)
    return acc / np.bincount(gid, minlength=n_groups).reshape((-1,) + (1,) * (x.ndim - 1))


def count_mean(prec, n_pos, gid, n_groups):
    """Count-space average of PR curves over each group's folds: at each recall
    ``sum_v P_v / sum_v (P_v / precision_v)`` (the folds' TP over their TP + FP);
    ``prec`` has curves first, ``n_pos`` one entry per curve. Precision 0 in a fold
    gives 0; NaN gives NaN.
    """
    prec = np.asarray(prec, dtype=np.float64)
    w = np.asarray(n_pos, dtype=np.float64).reshape((-1,) + (1,) * (prec.ndim - 1))
    num = np.zeros((n_groups,) + prec.shape[1:])
    den = np.zeros_like(num)
    np.add.at(num, gid, np.broadcast_to(w, prec.shape))
    with np.errstate(divide="ignore", invalid="ignore"):
        np.add.at(den, gid, w / prec)
        return num / den


def codes(data, fold, n):
    """int64 fold code (0 .. V-1, in sorted fold order) of every input row, for
    fold-stratified draws.
    """
    arr = np.asarray(data[fold]) if isinstance(fold, str) else np.asarray(fold)
    if arr.shape[0] != n:
        raise ValueError(f"fold has {arr.shape[0]} entries but there are {n} rows")
    return pd.factorize(arr, sort=True)[0].astype(np.int64)


def table(per_fold, pooled, fold_col, mean=None, keys=None):
    """The tidy fold table (module docstring) from the per-fold frame (the fold column
    ``fold_col`` among its keys) and the pooled frame (same keys without it); the value
    columns are those from the first of :data:`~._schema.VALUE_COLUMNS` on. ``mean``:
    the fold-averaged rows (keys and values), False for none, else the mean of the
    per-fold values.
    ``keys``: the key columns (default: those before the first value column); the
    ``fold`` column goes right after them.
    """
    # the columns saying what produced the numbers are one value per call: set aside,
    # put back after the fold column
    desc = [c for c in S.DESCRIPTORS if c in pooled.columns]
    said = {c: (pooled if len(pooled) else per_fold)[c].iloc[0] for c in desc}
    per_fold, pooled = per_fold.drop(columns=desc), pooled.drop(columns=desc)
    if isinstance(mean, pd.DataFrame):
        mean = mean.drop(columns=desc, errors="ignore")
    if keys is None:
        first = next(i for i, c in enumerate(pooled.columns) if c in S.VALUE_COLUMNS)
        keys = list(pooled.columns[:first])
    values = [c for c in pooled.columns if c not in keys]
    per_fold = per_fold.rename(columns={fold_col: S.FOLD})
    folds = per_fold[S.FOLD].astype(object)
    per_fold = per_fold.drop(columns=[S.FOLD])
    per_fold.insert(len(keys), S.FOLD, folds)
    if mean is False:  # curves' points: folds and pooled only
        mean = per_fold.iloc[:0].copy()
    elif mean is not None:
        mean = mean.copy()
    elif keys:
        grouped = per_fold.groupby(keys, sort=False, dropna=False)[values]
        mean = grouped.mean()
        mean = mean.where(
            ~per_fold[values]
            .isna()
            .groupby([per_fold[k] for k in keys], sort=False, dropna=False)
            .any()
        )
        mean = mean.reset_index()
    else:
        v = per_fold[values]
        mean = pd.DataFrame({c: [v[c].mean() if not v[c].isna().any() else np.nan] for c in values})
    if S.FOLD in mean.columns:
        mean = mean.drop(columns=[S.FOLD])
    mean.insert(len(keys), S.FOLD, MEAN)
    pooled = pooled.copy()
    pooled.insert(len(keys), S.FOLD, POOLED)
    out = pd.concat([per_fold, mean, pooled], ignore_index=True)
    # order: each group's folds, then its mean and pooled rows, groups as in pooled
    if keys:
        index = pd.MultiIndex.from_frame(pooled[keys].drop_duplicates())
        group = index.get_indexer(pd.MultiIndex.from_frame(out[keys]))
    else:
        group = np.zeros(len(out), dtype=np.int64)
    kind = np.r_[np.zeros(len(per_fold)), np.ones(len(mean)), np.full(len(pooled), 2)]
    order = np.lexsort((np.arange(len(out)), kind, group))
    out = out.iloc[order].reset_index(drop=True)
    out[S.FOLD] = out[S.FOLD].astype(object)
    for i, c in enumerate(desc):
        out.insert(len(keys) + 1 + i, c, said[c])
    return out
