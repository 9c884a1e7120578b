"""Many curves' points on shared grids: interpolation and vertical averaging.

:func:`interpolate` / :func:`interpolate_matrix` put every curve of a tidy frame (key
columns plus ``tp``/``fp``, ``recall``/``precision`` or ``fpr``/``tpr``) onto one grid
in one kernel call (:mod:`prroc_numba._kernels.grid`); :func:`average_curves`
summarises the curves of each group at every grid point. The points are validated and
packed by :func:`prroc_numba._core.point_frames.pack_points`; the rules for points are those of
:mod:`prroc_numba._core.points`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from . import _frames as F
from . import _schema as S
from ._calls import checked, with_output
from ._checks import check_grid
from ._core.batch import describe_row
from ._core.dataframes import Output
from ._core.point_frames import pack_points
from ._docs import fill_doc
from ._drivers.grid import precision_at_recall_batch, tpr_at_fpr_batch
from ._resampling import folds as _folds
from ._resampling.intervals import row_quantiles
from ._warnings import UndefinedMetricWarning

__all__ = ["average_curves", "interpolate", "interpolate_matrix"]


def _describe_curves(keys, bad):
    idx = np.flatnonzero(bad)
    if keys.shape[1] == 0:
        names = ["the curve"]
    else:
        names = [describe_row(keys.iloc[i]) for i in idx[:5]]
    more = f" and {idx.size - 5} more" if idx.size > 5 else ""
    return "; ".join(names) + more


def _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio):
    g = check_grid(grid, "recall" if space == "pr" else "FPR")
    tp, fp, off, keys, P, N, open_end, mat = pack_points(
        points, by, space, n_pos, n_neg, pos_neg_ratio, grid=g, hull=bool(hull)
    )
    short = None if open_end is None else np.flatnonzero(open_end < 1.0)
    if short is not None and short.size and hull:
        raise ValueError(
            f"{_describe_curves(keys, open_end < 1.0)} stops at recall "
            f"{open_end[short[0]]:.6g} and points has no 'fpr' column: the achievable "
            "curve (hull=True) needs the number of negatives; pass n_pos= and n_neg="
        )
    if mat is None:  # some curve lacked its origin or end: interpolate the packed curves
        kern = precision_at_recall_batch if space == "pr" else tpr_at_fpr_batch
        mat = kern(tp, fp, off, g, bool(hull))
    if short is not None and short.size:
        beyond = g[None, :] > open_end[short, None] + 1e-12
        if beyond.any():
            mat[short] = np.where(beyond, np.nan, mat[short])
            warnings.warn(
                f"precision beyond the last point's recall is NaN for "
                f"{_describe_curves(keys, open_end < 1.0)}: without an 'fpr' column the "
                "number of negatives, which fixes the curve from there to recall 1, is "
                "unknown; pass n_pos= and n_neg= to interpolate up to recall 1",
                UndefinedMetricWarning,
                stacklevel=3,
            )
    bad = (P <= 0) if space == "pr" else (P <= 0) | (N <= 0)
    if bad.any():
        what = "no positives" if space == "pr" else "no positives or no negatives"
        warnings.warn(
            f"{what}: interpolated values are NaN for {_describe_curves(keys, bad)}",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    return g, keys, mat, P


@checked
@fill_doc
def interpolate_matrix(
    points: pd.DataFrame,
    *,
    grid: int | ArrayLike,
    by: str | Sequence[str] | None = None,
    space: str = "pr",
    hull: bool = False,
    n_pos: float | str | None = None,
    n_neg: float | str | None = None,
    pos_neg_ratio: float | str | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Many curves onto one shared grid, as a dense matrix (for array users).

    Parameters
    ----------
    {points}

    Returns
    -------
    keys : DataFrame
        One row per curve (the ``by`` columns), in the order of the matrix rows.
    values : ndarray of shape (n_curves, n_grid)
        Precision (PR) or TPR (ROC) of curve ``i`` at grid point ``j``; NaN for a curve
        without positives (or negatives, ROC), with an
        :class:`~prroc_numba.UndefinedMetricWarning` naming it.

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> pts = pd.DataFrame({"m": ["a", "a", "b"], "tp": [5, 10, 3], "fp": [5, 30, 1],
    ...                     "P": [10, 10, 3], "N": [30, 30, 1]})
    >>> keys, values = prn.interpolate_matrix(pts, grid=[0.5, 1.0], by="m", n_pos="P",
    ...                                       n_neg="N")
    >>> keys
       m
    0  a
    1  b
    >>> values
    array([[0.5 , 0.25],
           [0.75, 0.75]])
    """
    _, keys, mat, _ = _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio)
    return keys, mat


@with_output
@fill_doc
def interpolate(
    points: pd.DataFrame,
    *,
    grid: int | ArrayLike,
    by: str | Sequence[str] | None = None,
    space: str = "pr",
    hull: bool = False,
    n_pos: float | str | None = None,
    n_neg: float | str | None = None,
    pos_neg_ratio: float | str | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Many curves' points onto one shared grid, in one call (a tidy frame).

    The building block of curve averaging (:func:`average_curves`) and pointwise
    bands: the Numba pass that checks the points interpolates every curve too (curves in
    parallel on a thread pool).

    Parameters
    ----------
    {points}

    Returns
    -------
    DataFrame
        Key columns, then ``recall``, ``precision`` (``space="pr"``) or ``fpr``,
        ``tpr`` (``space="roc"``): ``n_grid`` rows per curve.

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> df = pd.DataFrame({"s": [0.9, 0.8, 0.7, 0.6, 0.3, 0.2],
    ...                    "y": [1, 0, 1, 1, 0, 0], "m": list("aaabbb")})
    >>> pts = prn.pr_curve(df, score="s", label="y", by="m")
    >>> prn.interpolate(pts, grid=[0.0, 0.5, 1.0], by="m")
       m  recall  precision
    0  a     0.0   1.000000
    1  a     0.5   1.000000
    2  a     1.0   0.666667
    3  b     0.0   1.000000
    4  b     0.5   1.000000
    5  b     1.0   1.000000
    """
    g, keys, mat, _ = _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio)
    xname, yname = (S.RECALL, S.PRECISION) if space == "pr" else (S.FPR, S.TPR)
    return F.grid_frame(keys, g, xname, {yname: mat})


@with_output
def average_curves(
    points: pd.DataFrame,
    *,
    grid: int | ArrayLike,
    curve: str | Sequence[str] | None = None,
    by: str | Sequence[str] | None = None,
    space: str = "pr",
    hull: bool = False,
    quantiles: Sequence[float] = (0.025, 0.5, 0.975),
    n_pos: float | str | None = None,
    n_neg: float | str | None = None,
    pos_neg_ratio: float | str | None = None,
    fold: str | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Vertical averaging: mean, sd and quantiles of many curves at each grid point.

    Every curve (identified by the ``by`` and ``curve`` columns) is interpolated onto
    ``grid`` with :func:`interpolate`; the values at each grid point are then summarised
    over the curves of each ``by`` group (e.g. the bootstrap replicates of each model).

    Parameters
    ----------
    points : DataFrame
        As in :func:`interpolate`.
    grid : int or array-like
        As in :func:`interpolate`.
    curve : str or list of str
        Column(s) that tell the curves of a group apart (e.g. ``"replicate"`` or
        ``"fold"``); averaged over.
    by : str or list of str, default=None
        Groups to average within (e.g. ``"model"``); None: all curves together.
    space, hull, n_pos, n_neg, pos_neg_ratio
        As in :func:`interpolate`.
    quantiles : sequence of float, default=(0.025, 0.5, 0.975)
        Probabilities in [0, 1]; numpy's default ("linear") quantile definition.
    fold : str, default=None
        The column of cross-validation folds (e.g. the ``fold`` column of
        :func:`~prroc_numba.pr_curve` / :func:`~prroc_numba.roc_curve` with ``fold=``;
        its ``"pooled"`` and ``"mean"`` rows are left out): the folds are averaged
        over, as with ``curve=fold``, except that PR curves are averaged **in count
        space** -- at each recall ``r`` the folds' TP and FP are added up,
        ``sum_v P_v / sum_v (P_v / precision_v)`` with ``P_v`` the fold's positives --
        rather than by the mean precision (ROC curves: the mean TPR, as with
        ``curve=``). ``sd`` and the quantiles describe the spread across folds.

    Returns
    -------
    DataFrame
        ``by`` columns, the grid column (``recall`` or ``fpr``), the mean (``precision``
        or ``tpr``), ``sd`` (sample standard deviation, ddof=1; NaN for one curve),
        ``n_curves`` (curves with a defined value there), and one column per quantile,
        named ``q<p>`` (e.g. ``q0.025``).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> pts = pd.DataFrame({"rep": [0, 0, 1, 1], "tp": [1, 2, 1, 2], "fp": [1, 2, 0, 2]})
    >>> prn.average_curves(pts, grid=[0.5, 1.0], curve="rep", quantiles=[0.5], n_pos=2,
    ...                    n_neg=2)
       recall  precision        sd  n_curves  q0.5
    0     0.5       0.75  0.353553         2  0.75
    1     1.0       0.50  0.000000         2  0.50
    """
    qs = np.atleast_1d(np.asarray(quantiles, dtype=np.float64))
    if qs.ndim != 1 or (~np.isfinite(qs) | (qs < 0) | (qs > 1)).any():
        raise ValueError(f"quantiles must be probabilities in [0, 1], got {quantiles!r}")
    curve_cols = [curve] if isinstance(curve, str) else list(curve or [])
    if fold is not None:
        if not isinstance(fold, str):
            raise TypeError(f"fold must name a column of points, got {type(fold).__name__}")
        if fold not in points.columns:
            raise ValueError(f"fold={fold!r} is not a column of points")
        points = points[~points[fold].isin([_folds.MEAN, _folds.POOLED])]
        curve_cols = curve_cols + [fold]
    if not curve_cols:
        raise ValueError("curve= must name the column(s) that tell the averaged curves apart")
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    overlap = set(by_cols) & set(curve_cols)
    if overlap:
        raise ValueError(f"column(s) {sorted(overlap)} are in both by= and curve=")
    g, keys, mat, P = _interp(
        points, grid, by_cols + curve_cols, space, hull, n_pos, n_neg, pos_neg_ratio
    )
    count_space = fold is not None and space == "pr"
    # curves come in sorted key order, so each by-group is a contiguous block of rows
    if by_cols:
        gcode = keys.groupby(by_cols, sort=True, dropna=False).ngroup().to_numpy()
        starts = np.flatnonzero(np.r_[True, gcode[1:] != gcode[:-1], True])
        group_keys = keys[by_cols].iloc[starts[:-1]].reset_index(drop=True)
    else:
        starts = np.array([0, mat.shape[0]])
        group_keys = pd.DataFrame(index=range(1))
    n_groups = starts.size - 1
    stats = {k: np.empty((n_groups, g.size)) for k in ("mean", "sd", "n")}
    qv = np.empty((qs.size, n_groups, g.size))
    for j in range(n_groups):  # one vectorised summary per group (groups, not samples)
        block = mat[starts[j] : starts[j + 1]]
        ok = ~np.isnan(block)
        cnt = ok.sum(axis=0)
        s = np.where(ok, block, 0.0).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(cnt > 0, s / cnt, np.nan)
            dev = np.where(ok, block - mean, 0.0)
            sd = np.where(cnt > 1, np.sqrt((dev * dev).sum(axis=0) / (cnt - 1)), np.nan)
        srt = np.sort(block.T, axis=1)  # grid points as rows, NaN last
        for qi, q in enumerate(qs):
            qv[qi, j] = row_quantiles(srt, np.full(g.size, q), sorted_reps=srt)
        if count_space:  # sum of TP / sum of (TP + FP) at each recall; sd as above
            w = P[starts[j] : starts[j + 1], None]
            with np.errstate(invalid="ignore", divide="ignore"):
                pooled = w.sum() / np.where(ok, w / block, 0.0).sum(axis=0)
            mean = np.where(ok.all(axis=0), pooled, np.nan)
        stats["mean"][j], stats["sd"][j], stats["n"][j] = mean, sd, cnt
    xname, yname = (S.RECALL, S.PRECISION) if space == "pr" else (S.FPR, S.TPR)
    values = {yname: stats["mean"], S.SD: stats["sd"], S.N_CURVES: stats["n"].astype(np.int64)}
    values.update({S.quantile_name(q): qv[qi] for qi, q in enumerate(qs)})
    return F.grid_frame(group_keys, g, xname, values)
