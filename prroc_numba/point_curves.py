"""Curves given as points, and batched interpolation of many curves onto shared grids.

Users often hold curve *points* rather than scores: a PR table from a paper, operating
points from another tool, or thousands of bootstrap replicate curves. This module
converts such points to confusion counts (Davis & Goadrich 2006, Theorem 3.1: a PR
point with recall > 0 and an ROC point are the same confusion matrix once the class
counts -- or just their ratio -- are known) and then works on counts, like every other
part of the library:

* :class:`PRCurve`, :class:`ROCCurve` -- one curve: conversion both ways, the convex
  hull (the achievable PR curve), correct resampling (linear in ROC = count-linear in
  PR, never a straight line in PR space), AUC with the estimators of
  :func:`prroc_numba.auc`, and ``to_frame()`` in the columns of
  :func:`prroc_numba.pr_curve` / :func:`prroc_numba.roc_curve`.
* :func:`interpolate` / :func:`interpolate_matrix` -- many curves (a tidy frame with
  key columns) onto one shared grid in one kernel call.
* :func:`average_curves` -- vertical averaging: mean, standard deviation and quantiles
  of many curves at each grid point.

The rules for points (counts, recall 0, impossible points, ends, order, shared TP
or FP) are those of :mod:`prroc_numba._core.points`; the user guide is
``docs/points.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

import numpy as np

from ._checks import default_grid, method_code
from ._core import points as _points

__all__ = ["PRCurve", "ROCCurve"]


# ------------------------------------------------------------------ point-based curves


class PRCurve(_points.PointCurve):
    """A precision-recall curve given as points plus the class balance.

    The points are read as confusion counts (``TP = recall P``, ``FP = TP (1 -
    precision) / precision``) in the order of one ranking; the ROC origin and end
    point are added when missing. See the module docstring for the rules (recall-0
    points, impossible points, order) -- they fix every failure of pr2roc.

    Parameters
    ----------
    points : iterable of (recall, precision) pairs, array of shape (n, 2) or DataFrame, default=None
        The points; a frame needs ``recall`` and ``precision`` columns. Or pass
        ``recall=`` and ``precision=``.
    recall, precision : array-like of shape (n,), default=None
        The points as two arrays, values in [0, 1].
    n_pos, n_neg : float, default=None
        Numbers of positives and negatives of the data set (weighted totals allowed).
    pos_neg_ratio : float, default=None
        ``n_pos / n_neg``, instead of the counts (then ``n_pos = pos_neg_ratio``,
        ``n_neg = 1``; AUC method ``"dg"`` needs real counts).

    Examples
    --------
    >>> import prroc_numba as prn
    >>> c = prn.PRCurve(recall=[0.25, 0.4, 0.5], precision=[0.5, 0.3, 0.25],
    ...                 pos_neg_ratio=0.25)
    >>> c.to_roc().points().round(4)
    array([[0.    , 0.    ],
           [0.0625, 0.25  ],
           [0.2333, 0.4   ],
           [0.375 , 0.5   ],
           [1.    , 1.    ]])
    >>> t1 = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
    >>> t1.precision_at([0.25, 0.3, 0.35, 0.4, 0.45, 0.5]).round(3)
    array([0.5  , 0.375, 0.318, 0.286, 0.265, 0.25 ])
    """

    _space = "pr"

    def __init__(
        self,
        points: ArrayLike | pd.DataFrame | None = None,
        *,
        recall: ArrayLike | None = None,
        precision: ArrayLike | None = None,
        n_pos: float | None = None,
        n_neg: float | None = None,
        pos_neg_ratio: float | None = None,
    ) -> None:
        self._s = _points.pr_state(
            points, recall, precision, n_pos, n_neg, pos_neg_ratio, "PRCurve", achievable=False
        )

    @classmethod
    def achievable(
        cls,
        points: ArrayLike | pd.DataFrame | None = None,
        *,
        recall: ArrayLike | None = None,
        precision: ArrayLike | None = None,
        n_pos: float | None = None,
        n_neg: float | None = None,
        pos_neg_ratio: float | None = None,
    ) -> PRCurve:
        """The achievable PR curve of operating points that need not be one ranking.

        Points of several classifiers (or thresholds of unknown order) are no single
        curve, but the best curve they can achieve is: the ROC convex hull of the points
        with the origin and end, read back in PR space (Davis & Goadrich 2006,
        Corollary 3.1). Arguments as for :class:`PRCurve`.

        Returns
        -------
        PRCurve
            The hull vertices (points under the hull are dropped).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> pts = [(0.2, 0.8), (0.4, 0.4), (0.6, 0.5)]  # (0.4, 0.4) is dominated
        >>> prn.PRCurve.achievable(pts, n_pos=10, n_neg=20).points().round(4)
        array([[0.    , 0.8   ],
               [0.2   , 0.8   ],
               [0.6   , 0.5   ],
               [1.    , 0.3333]])
        """
        return cls._make(
            _points.pr_state(
                points,
                recall,
                precision,
                n_pos,
                n_neg,
                pos_neg_ratio,
                "PRCurve.achievable",
                achievable=True,
            )
        )

    @classmethod
    def from_counts(
        cls, tp: ArrayLike, fp: ArrayLike, *, n_pos: float | None = None, n_neg: float | None = None
    ) -> PRCurve:
        """A PR curve from confusion counts (e.g. the ``tp``, ``fp`` of :func:`pr_curve`).

        Parameters
        ----------
        tp, fp : array-like of shape (n,)
            True and false positives of each point (any order, one ranking).
        n_pos, n_neg : float, default=None
            Class totals; default the largest ``tp`` and ``fp``.

        Returns
        -------
        PRCurve

        Examples
        --------
        >>> import prroc_numba as prn
        >>> c = prn.PRCurve.from_counts([5, 10], [5, 30], n_pos=20, n_neg=2000)
        >>> round(c.auc(), 4)
        0.221
        """
        return cls._make(_points.state_from_counts(tp, fp, n_pos, n_neg, "PRCurve.from_counts"))

    recall = _points.rates("pr", 0, "Recall of each point (origin first).")
    precision = _points.rates(
        "pr", 1, "Precision of each point (the origin shows the flat start, as :func:`pr_curve`)."
    )

    def points(self) -> np.ndarray:
        """The points as an array of (recall, precision) rows, shape (n, 2).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.PRCurve([(0.5, 0.5)], n_pos=10, n_neg=10).points()
        array([[0. , 0.5],
               [0.5, 0.5],
               [1. , 0.5]])
        """
        return np.column_stack(self._xy())

    def to_roc(self) -> ROCCurve:
        """The same confusion matrices in ROC space (Theorem 3.1).

        Returns
        -------
        ROCCurve
            Shares this curve's counts, so ``c.to_roc().to_pr()`` gives back exactly
            ``c``'s points.

        Examples
        --------
        >>> import prroc_numba as prn
        >>> c = prn.PRCurve([(0.5, 0.5)], n_pos=10, n_neg=100)
        >>> c.to_roc().points()
        array([[0.  , 0.  ],
               [0.05, 0.5 ],
               [1.  , 1.  ]])
        """
        return ROCCurve._make(self._s)

    def precision_at(self, recall: ArrayLike, *, hull: bool = False) -> np.ndarray:
        """Precision of the correctly interpolated curve at the given recalls.

        Linear in ROC space between points, i.e. FP linear in TP (Davis & Goadrich
        2006, section 4), never a straight line in PR space.

        Parameters
        ----------
        recall : array-like of shape (n_grid,)
            Ascending recalls in [0, 1]. At recall 0 the curve's flat start; at a
            recall shared by several points the best precision.
        hull : bool, default=False
            Interpolate the achievable PR curve instead.

        Returns
        -------
        ndarray of shape (n_grid,)

        Examples
        --------
        >>> import prroc_numba as prn
        >>> c = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
        >>> c.precision_at([0.0, 0.3]).round(3)
        array([0.5  , 0.375])
        """
        return self._grid_values(recall, hull, roc=False)[1]

    def resample(
        self, num_points: int = 101, *, recall: ArrayLike | None = None, hull: bool = False
    ) -> PRCurve:
        """A new PR curve whose points lie on this curve's correct interpolation.

        Parameters
        ----------
        num_points : int, default=101
            Number of equally spaced recalls in [0, 1] (ignored when ``recall`` is
            given).
        recall : array-like, default=None
            Ascending recalls in [0, 1] to resample at.
        hull : bool, default=False
            Resample the achievable PR curve instead.

        Returns
        -------
        PRCurve
            Points ``(r, precision_at(r))``; a recall-0 grid point is the origin.
            Unlike pr2roc (equally spaced FPR, then converted) the grid is in recall,
            the axis of the PR plot.

        Examples
        --------
        >>> import prroc_numba as prn
        >>> c = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
        >>> c.resample(21).precision[5:11].round(3)
        array([0.5  , 0.375, 0.318, 0.286, 0.265, 0.25 ])
        """
        grid = default_grid(num_points) if recall is None else recall
        g, prec = self._grid_values(grid, hull, roc=False)
        P = self._s.P
        tp = g * P
        fp = np.zeros_like(tp)
        pos = g > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            fp[pos] = tp[pos] * (1.0 - prec[pos]) / prec[pos]
        fp = np.maximum.accumulate(np.minimum(fp, self._s.N))
        tp, fp, add0, add1 = _points.with_ends(tp[pos], fp[pos], P, self._s.N)
        rr = _points.framed(g[pos], add0, add1, 0.0, 1.0)
        start = prec[pos][0] if pos.any() else P / (P + self._s.N)  # the flat start
        pp = _points.framed(prec[pos], add0, add1, start, P / (P + self._s.N))
        return PRCurve._make(
            _points.State(tp, fp, P, self._s.N, self._s.counts_known, {"pr": (rr, pp)})
        )

    def auc(self, method: str | None = None, *, hull: bool = False) -> float:
        """Area under the PR curve of the points, by the estimators of :func:`auc`.

        Parameters
        ----------
        method : {"dg", "integral", "ap", "trapezoid"}, default=None
            ``"dg"`` when class counts are known, else ``"integral"`` (``"dg"`` steps one
            positive at a time, so it needs real counts). See :func:`prroc_numba.auc`.
        hull : bool, default=False
            Area under the achievable PR curve.

        Returns
        -------
        float

        Examples
        --------
        >>> import prroc_numba as prn
        >>> # the paper's Figure 6: 9 of 433 positives at precision 1, 56,164 negatives
        >>> c = prn.PRCurve([(9 / 433, 1.0)], n_pos=433, n_neg=56164)
        >>> round(c.auc("dg"), 4), round(c.auc("trapezoid"), 2)  # correct vs straight lines
        (0.0303, 0.51)
        """
        if method is None:
            method = "dg" if self._s.counts_known else "integral"
        if method == "dg" and not self._s.counts_known:
            raise ValueError(
                "method='dg' steps one positive at a time and needs class "
                "counts: build the curve with n_pos= and n_neg=, or use "
                "method='integral' (the same curve's exact area)"
            )
        return _points.curve_area(self._s, method_code("pr", method), hull)

    def to_frame(self) -> pd.DataFrame:
        """The points as a tidy frame in the columns of :func:`pr_curve`.

        Returns
        -------
        DataFrame
            ``threshold`` (NaN: points have none), ``recall``, ``precision``, ``tp``,
            ``fp``.

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.PRCurve([(0.5, 0.5)], n_pos=10, n_neg=100).to_frame()
           threshold  recall  precision    tp     fp
        0        NaN     0.0   0.500000   0.0    0.0
        1        NaN     0.5   0.500000   5.0    5.0
        2        NaN     1.0   0.090909  10.0  100.0
        """
        return self._frame()


class ROCCurve(_points.PointCurve):
    """An ROC curve given as points, optionally with the class balance.

    The points are read as confusion counts (``TP = tpr P``, ``FP = fpr N``) of one
    ranking; (0, 0) and (1, 1) are added when missing. Several points may share an
    FPR (a vertical segment; pr2roc divides by zero there): the highest TPR counts.
    The class balance is needed only for :meth:`to_pr` and the PR view.

    Parameters
    ----------
    points : iterable of (fpr, tpr) pairs, array of shape (n, 2) or DataFrame, default=None
        The points; a frame needs ``fpr`` and ``tpr`` columns. Or pass ``fpr=`` and
        ``tpr=``.
    fpr, tpr : array-like of shape (n,), default=None
    n_pos, n_neg : float, default=None
        Numbers of positives and negatives.
    pos_neg_ratio : float, default=None
        ``n_pos / n_neg`` instead of the counts.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> r = prn.ROCCurve(fpr=[0.1, 0.1, 0.5], tpr=[0.3, 0.6, 0.9], n_pos=20, n_neg=2000)
    >>> r.tpr_at([0.1, 0.3]).round(3)
    array([0.6 , 0.75])
    >>> round(r.auc(), 6)
    0.79
    >>> r.to_pr().points().round(4)
    array([[0.    , 0.0291],
           [0.3   , 0.0291],
           [0.6   , 0.0566],
           [0.9   , 0.0177],
           [1.    , 0.0099]])
    """

    _space = "roc"

    def __init__(
        self,
        points: ArrayLike | pd.DataFrame | None = None,
        *,
        fpr: ArrayLike | None = None,
        tpr: ArrayLike | None = None,
        n_pos: float | None = None,
        n_neg: float | None = None,
        pos_neg_ratio: float | None = None,
    ) -> None:
        self._s, self._balanced = _points.roc_state(
            points, fpr, tpr, n_pos, n_neg, pos_neg_ratio, "ROCCurve", achievable=False
        )

    @classmethod
    def achievable(
        cls,
        points: ArrayLike | pd.DataFrame | None = None,
        *,
        fpr: ArrayLike | None = None,
        tpr: ArrayLike | None = None,
        n_pos: float | None = None,
        n_neg: float | None = None,
        pos_neg_ratio: float | None = None,
    ) -> ROCCurve:
        """The ROC convex hull of operating points that need not be one ranking.

        Arguments as for :class:`ROCCurve`; see :meth:`PRCurve.achievable`.

        Returns
        -------
        ROCCurve
            The hull vertices from (0, 0) to (1, 1).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve.achievable([(0.1, 0.5), (0.3, 0.6), (0.5, 0.9)]).points()
        array([[0. , 0. ],
               [0.1, 0.5],
               [0.5, 0.9],
               [1. , 1. ]])
        """
        obj = cls.__new__(cls)
        obj._s, obj._balanced = _points.roc_state(
            points, fpr, tpr, n_pos, n_neg, pos_neg_ratio, "ROCCurve.achievable", achievable=True
        )
        return obj

    @classmethod
    def _make(cls, state):
        obj = super()._make(state)
        obj._balanced = True
        return obj

    fpr = _points.rates("roc", 0, "False-positive rate of each point (origin first).")
    tpr = _points.rates("roc", 1, "True-positive rate of each point (origin first).")

    def points(self) -> np.ndarray:
        """The points as an array of (fpr, tpr) rows, shape (n, 2).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)]).points()
        array([[0. , 0. ],
               [0.5, 0.8],
               [1. , 1. ]])
        """
        return np.column_stack(self._xy())

    def to_pr(self) -> PRCurve:
        """The same confusion matrices in PR space (Theorem 3.1).

        Returns
        -------
        PRCurve
            Shares this curve's counts. Points with TPR 0 become recall 0 (precision 0
            when FP > 0; the origin shows the flat start, as :func:`pr_curve`).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> r = prn.ROCCurve([(0.0625, 0.25), (0.375, 0.5)], pos_neg_ratio=0.25)
        >>> r.to_pr().points()
        array([[0.  , 0.5 ],
               [0.25, 0.5 ],
               [0.5 , 0.25],
               [1.  , 0.2 ]])
        """
        if not self._balanced:
            raise ValueError(
                "ROCCurve.to_pr needs the class balance: build the curve with "
                "n_pos= and n_neg=, or pos_neg_ratio= (P / N)"
            )
        return PRCurve._make(self._s)

    def tpr_at(self, fpr: ArrayLike, *, hull: bool = False) -> np.ndarray:
        """TPR at the given FPRs, linear between points (highest TPR at a shared FPR).

        Parameters
        ----------
        fpr : array-like of shape (n_grid,)
            Ascending FPRs in [0, 1].
        hull : bool, default=False
            Interpolate the ROC convex hull instead.

        Returns
        -------
        ndarray of shape (n_grid,)

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)]).tpr_at([0.25, 0.75])
        array([0.4, 0.9])
        """
        return self._grid_values(fpr, hull, roc=True)[1]

    def resample(
        self, num_points: int = 101, *, fpr: ArrayLike | None = None, hull: bool = False
    ) -> ROCCurve:
        """A new ROC curve at equally spaced (or given) FPRs, linear between points.

        Parameters
        ----------
        num_points : int, default=101
            Number of equally spaced FPRs in [0, 1] (ignored when ``fpr`` is given).
        fpr : array-like, default=None
            Ascending FPRs in [0, 1].
        hull : bool, default=False
            Resample the ROC convex hull instead.

        Returns
        -------
        ROCCurve

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)]).resample(5).tpr
        array([0. , 0.4, 0.8, 0.9, 1. ])
        """
        grid = default_grid(num_points) if fpr is None else fpr
        g, tpr = self._grid_values(grid, hull, roc=True)
        P, N = self._s.P, self._s.N
        tp, fp = tpr * P, g * N
        # a grid FPR of 0 gives the highest TPR at FP 0; keep the origin before it
        tp, fp, add0, add1 = _points.with_ends(tp, fp, P, N)
        xx = _points.framed(g, add0, add1, 0.0, 1.0)
        yy = _points.framed(tpr, add0, add1, 0.0, 1.0)
        out = ROCCurve._make(_points.State(tp, fp, P, N, self._s.counts_known, {"roc": (xx, yy)}))
        out._balanced = self._balanced
        return out

    def _from_counts(self, tp, fp):
        out = super()._from_counts(tp, fp)
        out._balanced = self._balanced
        return out

    def auc(self, method: str = "trapezoid", *, hull: bool = False) -> float:
        """Area under the ROC curve of the points (trapezoids; ``hull=True``: the hull).

        Parameters
        ----------
        method : {"trapezoid"}, default="trapezoid"
        hull : bool, default=False

        Returns
        -------
        float

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)]).auc()
        0.65
        """
        return _points.curve_area(self._s, method_code("roc", method), hull)

    def to_frame(self) -> pd.DataFrame:
        """The points as a tidy frame in the columns of :func:`roc_curve`.

        Returns
        -------
        DataFrame
            ``threshold`` (NaN), ``fpr``, ``tpr``, ``tp``, ``fp``.

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)], n_pos=10, n_neg=20).to_frame()
           threshold  fpr  tpr    tp    fp
        0        NaN  0.0  0.0   0.0   0.0
        1        NaN  0.5  0.8   8.0  10.0
        2        NaN  1.0  1.0  10.0  20.0
        """
        return self._frame()
