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

Rules for points (shared by the classes and the frame functions)
-----------------------------------------------------------------
* **Counts.** ``TP = recall * P`` and ``FP = TP (1 - precision) / precision`` (PR), or
  ``TP = tpr * P`` and ``FP = fpr * N`` (ROC). With only ``pos_neg_ratio = P / N`` the
  counts are in units of the negatives: ``P = pos_neg_ratio``, ``N = 1`` (rates are
  scale-free; only the ``"dg"`` estimator, which steps one positive at a time, needs
  real counts).
* **Recall 0.** A PR point with recall 0 holds no false-positive count (precision is
  0/0 at TP = FP = 0 and 0 for every FP > 0), and Theorem 3.1 excludes it: every such
  point is read as the ROC origin, whatever its precision, so ``(0, 1)`` and ``(0, 0)``
  are both accepted (pr2roc rejects the first and sends the second to ROC (1, 0)).
* **Precision 0 at recall > 0** is impossible (TP > 0 gives precision > 0 for any
  finite FP): ``ValueError`` naming the point. So is a point whose implied FP exceeds
  the negatives (precision below the prevalence at that recall).
* **End points.** The ROC origin (PR: recall 0, shown with precision 1 as in
  :func:`prroc_numba.pr_curve` and the paper's Figure 6) and the end ``(1, 1)`` (PR:
  recall 1 at precision ``P / (P + N)``) are added when missing, as in the paper.
* **Order.** Points may come in any order; they are sorted by TP, then FP. They must
  describe one ranking -- FP never decreases as TP grows -- else ``ValueError`` naming
  the two points (operating points of different classifiers are no single curve; their
  achievable curve is ``PRCurve.achievable`` / ``ROCCurve.achievable``).
  Decreases of FP below ``1e-9 N`` (rounding in rates) are absorbed.
* **Same TP or same FP.** Precision at a recall shared by several points is the best
  one (lowest FP); TPR at an FPR shared by several points is the highest one. See
  :mod:`prroc_numba._kernels.grid` for these and the value at recall 0 (the curve's
  flat start, consistent with the ``"dg"`` and ``"integral"`` areas).
* Global numpy error settings are never changed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import _frames as F
from ._dataframes import to_pandas, with_output
from ._kernels.area import _area
from ._kernels.grid import (
    BAD_FP,
    BAD_TP,
    FP_OVER,
    OK,
    TOTALS_VARY,
    TP_OVER,
    _check_points,
    _is_sorted,
    _precision_at_recall,
    _precision_at_recall_batch,
    _tpr_at_fpr,
    _tpr_at_fpr_batch,
    _with_ends_batch,
)
from ._kernels.hull import _hull_indices
from ._methods import method_code
from ._ragged import UndefinedMetricWarning, _group_codes

SD = "sd"
N_CURVES = "n_curves"
_TOL = 1e-9

__all__ = ["PRCurve", "ROCCurve", "average_curves", "interpolate", "interpolate_matrix"]


# ------------------------------------------------------------------------ validation


def _positive_scalar(x, arg):
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise TypeError(f"{arg} must be a positive number, got {x!r}") from None
    if not np.isfinite(v) or v <= 0:
        raise ValueError(f"{arg} must be a finite number > 0, got {x!r}")
    return v


def _class_counts(n_pos, n_neg, pos_neg_ratio, *, required, who):
    """(P, N, counts_known) from the arguments; None when optional and absent."""
    if pos_neg_ratio is not None and (n_pos is not None or n_neg is not None):
        raise ValueError(
            f"{who}: pass either n_pos= and n_neg= (class counts) or pos_neg_ratio=, not both"
        )
    if pos_neg_ratio is not None:
        return _positive_scalar(pos_neg_ratio, "pos_neg_ratio"), 1.0, False
    if (n_pos is None) != (n_neg is None):
        missing = "n_neg" if n_neg is None else "n_pos"
        raise ValueError(f"{who}: {missing}= is missing; pass both n_pos= and n_neg=, "
                         "or pos_neg_ratio= (P / N) instead")
    if n_pos is None:
        if required:
            raise ValueError(
                f"{who} needs the class balance to relate PR and ROC points: pass n_pos= "
                "and n_neg= (numbers of positives and negatives) or pos_neg_ratio= (P / N)"
            )
        return None
    return _positive_scalar(n_pos, "n_pos"), _positive_scalar(n_neg, "n_neg"), True


def _pairs(points, x, y, xname, yname, who):
    """Two float64 arrays from ``points`` (pairs, (n, 2) array or frame) or x=/y=."""
    if points is not None:
        if x is not None or y is not None:
            raise ValueError(f"{who}: pass points or {xname}=/{yname}=, not both")
        if isinstance(points, pd.DataFrame):
            missing = [c for c in (xname, yname) if c not in points.columns]
            if missing:
                raise ValueError(f"{who}: points frame has no column(s) {missing}; it needs "
                                 f"{xname!r} and {yname!r}")
            x, y = points[xname].to_numpy(), points[yname].to_numpy()
        else:
            if not isinstance(points, np.ndarray):
                points = list(points)
            try:
                arr = np.asarray(points, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError(f"{who}: points must be numeric ({xname}, {yname}) pairs") from None
            if arr.ndim != 2 or arr.shape[1] != 2:
                raise ValueError(f"{who}: points must be a sequence of ({xname}, {yname}) "
                                 f"pairs, got an array of shape {arr.shape}")
            x, y = arr[:, 0], arr[:, 1]
    elif x is None or y is None:
        raise TypeError(f"{who} needs points or both {xname}= and {yname}=")
    out = []
    for v, arg in ((x, xname), (y, yname)):
        try:
            a = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{who}: {arg} must be numeric") from None
        if a.ndim != 1:
            raise ValueError(f"{who}: {arg} must be 1-D, got shape {a.shape}")
        out.append(a)
    x, y = out
    if x.size != y.size:
        raise ValueError(f"{who}: {xname} has {x.size} values but {yname} has {y.size}")
    if x.size == 0:
        raise ValueError(f"{who}: no points given; pass at least one ({xname}, {yname}) pair")
    for a, arg in ((x, xname), (y, yname)):
        bad = ~np.isfinite(a) | (a < 0) | (a > 1)
        if bad.any():
            k = int(np.argmax(bad))
            raise ValueError(f"{who}: {arg} must be finite and in [0, 1]; point {k} has "
                             f"{arg}={a[k]!r}")
    return x, y


def _py(v):
    """A numpy scalar as the Python scalar (readable reprs in messages)."""
    return v.item() if isinstance(v, np.generic) else v


def _describe_point(k, xname, x, yname, y):
    return f"point {k} ({xname}={x[k]:.6g}, {yname}={y[k]:.6g})"


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


def _check_within(tp, fp, P, N, where, unit):
    """Counts must not exceed the class totals (clip rounding below ``_TOL``)."""
    over = fp > N * (1 + _TOL)
    if over.any():
        k = int(np.argmax(over))
        fp_k = np.broadcast_to(fp, over.shape)[k]
        n_k = np.broadcast_to(N, over.shape)[k]
        raise ValueError(
            f"{where(k)} implies FP = {fp_k:.6g} false positives, more than the "
            f"{n_k:.6g} negatives{unit}: its precision is below what the class balance "
            "allows at that recall; check the point and n_pos/n_neg or pos_neg_ratio"
        )
    return np.minimum(tp, P), np.minimum(fp, N)


def _sort_monotone(tp, fp, N, where, who="PRCurve"):
    """Order by (TP, FP); FP must not decrease (up to ``_TOL * N``, absorbed).

    Returns ``(order, tp[order], fp[order])`` with FP made non-decreasing.
    """
    order = np.lexsort((fp, tp))
    f = fp[order]
    drop = f[1:] < f[:-1] - _TOL * N
    if drop.any():
        i = int(np.argmax(drop))
        a, b = int(order[i]), int(order[i + 1])
        raise ValueError(
            f"the points are not one curve: {where(b)} has more true positives but fewer "
            f"false positives (FP {f[i + 1]:.6g} < {f[i]:.6g}) than {where(a)}. Points of "
            "one ranking have FP non-decreasing in TP. For operating points of different "
            f"classifiers use {who.split('.')[0]}.achievable(...): their achievable curve "
            "(the ROC convex hull)"
        )
    return order, tp[order], np.maximum.accumulate(f) if f.size else f


# ------------------------------------------------------------------ point-based curves


class _State:
    """Counts of one curve in sweep order (origin first, end last) and cached rates."""

    __slots__ = ("N", "P", "counts_known", "fp", "rates", "tp")

    def __init__(self, tp, fp, P, N, counts_known, rates=None):
        self.tp = np.ascontiguousarray(tp, dtype=np.float64)
        self.fp = np.ascontiguousarray(fp, dtype=np.float64)
        self.P = float(P)
        self.N = float(N)
        self.counts_known = counts_known
        self.rates = dict(rates or {})

    def pr(self):
        if "pr" not in self.rates:
            tp, fp = self.tp, self.fp
            d = tp + fp
            prec = np.divide(tp, d, out=np.zeros_like(tp), where=d > 0)
            prec[(tp == 0) & (fp == 0)] = 1.0  # the origin: 0/0, shown as 1
            self.rates["pr"] = (tp / self.P, prec)
        return self.rates["pr"]

    def roc(self):
        if "roc" not in self.rates:
            self.rates["roc"] = (self.fp / self.N, self.tp / self.P)
        return self.rates["roc"]


def _with_ends(tp, fp, P, N):
    """Prepend the origin and append (P, N) where missing; returns arrays and flags."""
    add0 = not (tp.size and tp[0] == 0 and fp[0] == 0)
    add1 = not (tp.size and tp[-1] == P and fp[-1] == N)
    parts_t = ([0.0] if add0 else []), tp, ([P] if add1 else [])
    parts_f = ([0.0] if add0 else []), fp, ([N] if add1 else [])
    return (np.concatenate([np.asarray(p, float) for p in parts_t]),
            np.concatenate([np.asarray(p, float) for p in parts_f]), add0, add1)


class _PointCurve:
    _space = ""

    def __init__(self, state):
        self._s = state

    # -- class balance
    @property
    def n_pos(self):
        """Number (mass) of positives; with only a ratio given, ``pos_neg_ratio``."""
        return self._s.P

    @property
    def n_neg(self):
        """Number (mass) of negatives; with only a ratio given, 1."""
        return self._s.N

    @property
    def pos_neg_ratio(self):
        """``n_pos / n_neg``."""
        return self._s.P / self._s.N

    @property
    def tp(self):
        """True positives of each point (sweep order, origin first)."""
        return self._s.tp.copy()

    @property
    def fp(self):
        """False positives of each point (sweep order, origin first)."""
        return self._s.fp.copy()

    def __len__(self):
        return self._s.tp.size

    def _from_counts(self, tp, fp):
        return type(self)._make(_State(tp, fp, self._s.P, self._s.N, self._s.counts_known))

    @classmethod
    def _make(cls, state):
        obj = cls.__new__(cls)
        obj._s = state
        return obj

    def hull(self):
        """The vertices of the ROC convex hull (in PR space: the achievable PR curve).

        Returns
        -------
        PRCurve or ROCCurve
            Same class, only the hull vertices, from the origin to the end point
            (Davis & Goadrich 2006, Corollary 3.1); collinear points are dropped.

        Examples
        --------
        >>> import prroc_numba as prn
        >>> c = prn.PRCurve(recall=[0.2, 0.4, 0.6], precision=[0.8, 0.4, 0.5],
        ...                 n_pos=10, n_neg=20)
        >>> c.hull().recall   # (0.4, 0.4) lies under the ROC hull
        array([0. , 0.2, 0.6, 1. ])
        """
        idx = _hull_indices(self._s.tp, self._s.fp)
        return self._from_counts(self._s.tp[idx], self._s.fp[idx])

    def _grid_values(self, grid, hull, roc):
        g = _check_grid(grid, "FPR" if roc else "recall")
        tp, fp = self._s.tp, self._s.fp
        if hull:
            idx = _hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        out = np.empty(g.size)
        (_tpr_at_fpr if roc else _precision_at_recall)(tp, fp, g, out)
        return g, out

    def __repr__(self):
        x, y = self.points().T
        names = ("fpr", "tpr") if self._space == "roc" else ("recall", "precision")
        bal = (f"n_pos={self._s.P:g}, n_neg={self._s.N:g}" if self._s.counts_known
               else f"pos_neg_ratio={self._s.P / self._s.N:g}")
        return (f"{type(self).__name__}({names[0]}={np.round(x, 4).tolist()}, "
                f"{names[1]}={np.round(y, 4).tolist()}, {bal})")


class PRCurve(_PointCurve):
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

    def __init__(self, points=None, *, recall=None, precision=None, n_pos=None, n_neg=None,
                 pos_neg_ratio=None):
        self._s = _pr_state(points, recall, precision, n_pos, n_neg, pos_neg_ratio,
                            "PRCurve", achievable=False)

    @classmethod
    def achievable(cls, points=None, *, recall=None, precision=None, n_pos=None, n_neg=None,
                   pos_neg_ratio=None):
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
        array([[0.    , 1.    ],
               [0.2   , 0.8   ],
               [0.6   , 0.5   ],
               [1.    , 0.3333]])
        """
        return cls._make(_pr_state(points, recall, precision, n_pos, n_neg, pos_neg_ratio,
                                   "PRCurve.achievable", achievable=True))

    @classmethod
    def from_counts(cls, tp, fp, *, n_pos=None, n_neg=None):
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
        return cls._make(_state_from_counts(tp, fp, n_pos, n_neg, "PRCurve.from_counts"))

    @property
    def recall(self):
        """Recall of each point (origin first)."""
        return self._s.pr()[0].copy()

    @property
    def precision(self):
        """Precision of each point (the origin shows 1, as in :func:`pr_curve`)."""
        return self._s.pr()[1].copy()

    def points(self):
        """The points as an array of (recall, precision) rows, shape (n, 2).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.PRCurve([(0.5, 0.5)], n_pos=10, n_neg=10).points()
        array([[0. , 1. ],
               [0.5, 0.5],
               [1. , 0.5]])
        """
        r, p = self._s.pr()
        return np.column_stack([r, p])

    def to_roc(self):
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

    def precision_at(self, recall, *, hull=False):
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

    def resample(self, num_points=101, *, recall=None, hull=False):
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
        grid = _default_grid(num_points) if recall is None else recall
        g, prec = self._grid_values(grid, hull, roc=False)
        P = self._s.P
        tp = g * P
        fp = np.zeros_like(tp)
        pos = g > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            fp[pos] = tp[pos] * (1.0 - prec[pos]) / prec[pos]
        fp = np.maximum.accumulate(np.minimum(fp, self._s.N))
        tp, fp, add0, add1 = _with_ends(tp[pos], fp[pos], P, self._s.N)
        rr = np.concatenate([[0.0] if add0 else [], g[pos], [1.0] if add1 else []])
        pp = np.concatenate([[1.0] if add0 else [], prec[pos],
                             [P / (P + self._s.N)] if add1 else []])
        return PRCurve._make(_State(tp, fp, P, self._s.N, self._s.counts_known,
                                    {"pr": (rr, pp)}))

    def auc(self, method=None, *, hull=False):
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
            raise ValueError("method='dg' steps one positive at a time and needs class "
                             "counts: build the curve with n_pos= and n_neg=, or use "
                             "method='integral' (the same curve's exact area)")
        return _curve_area(self._s, method_code("pr", method), hull)

    def to_frame(self):
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
        0        NaN     0.0   1.000000   0.0    0.0
        1        NaN     0.5   0.500000   5.0    5.0
        2        NaN     1.0   0.090909  10.0  100.0
        """
        r, p = self._s.pr()
        return pd.DataFrame({F.THRESHOLD: np.full(r.size, np.nan), F.RECALL: r,
                             F.PRECISION: p, F.TP: self._s.tp, F.FP: self._s.fp})


class ROCCurve(_PointCurve):
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
    array([[0.    , 1.    ],
           [0.3   , 0.0291],
           [0.6   , 0.0566],
           [0.9   , 0.0177],
           [1.    , 0.0099]])
    """

    _space = "roc"

    def __init__(self, points=None, *, fpr=None, tpr=None, n_pos=None, n_neg=None,
                 pos_neg_ratio=None):
        self._s, self._balanced = _roc_state(points, fpr, tpr, n_pos, n_neg, pos_neg_ratio,
                                             "ROCCurve", achievable=False)

    @classmethod
    def achievable(cls, points=None, *, fpr=None, tpr=None, n_pos=None, n_neg=None,
                   pos_neg_ratio=None):
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
        obj._s, obj._balanced = _roc_state(points, fpr, tpr, n_pos, n_neg, pos_neg_ratio,
                                           "ROCCurve.achievable", achievable=True)
        return obj

    @classmethod
    def _make(cls, state):
        obj = super()._make(state)
        obj._balanced = True
        return obj

    @property
    def fpr(self):
        """False-positive rate of each point (origin first)."""
        return self._s.roc()[0].copy()

    @property
    def tpr(self):
        """True-positive rate of each point (origin first)."""
        return self._s.roc()[1].copy()

    def points(self):
        """The points as an array of (fpr, tpr) rows, shape (n, 2).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> prn.ROCCurve([(0.5, 0.8)]).points()
        array([[0. , 0. ],
               [0.5, 0.8],
               [1. , 1. ]])
        """
        x, y = self._s.roc()
        return np.column_stack([x, y])

    def to_pr(self):
        """The same confusion matrices in PR space (Theorem 3.1).

        Returns
        -------
        PRCurve
            Shares this curve's counts. Points with TPR 0 become recall 0 (precision 0
            when FP > 0; the origin shows 1).

        Examples
        --------
        >>> import prroc_numba as prn
        >>> r = prn.ROCCurve([(0.0625, 0.25), (0.375, 0.5)], pos_neg_ratio=0.25)
        >>> r.to_pr().points()
        array([[0.  , 1.  ],
               [0.25, 0.5 ],
               [0.5 , 0.25],
               [1.  , 0.2 ]])
        """
        if not self._balanced:
            raise ValueError("ROCCurve.to_pr needs the class balance: build the curve with "
                             "n_pos= and n_neg=, or pos_neg_ratio= (P / N)")
        return PRCurve._make(self._s)

    def tpr_at(self, fpr, *, hull=False):
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

    def resample(self, num_points=101, *, fpr=None, hull=False):
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
        grid = _default_grid(num_points) if fpr is None else fpr
        g, tpr = self._grid_values(grid, hull, roc=True)
        P, N = self._s.P, self._s.N
        tp, fp = tpr * P, g * N
        # a grid FPR of 0 gives the highest TPR at FP 0; keep the origin before it
        tp, fp, add0, add1 = _with_ends(tp, fp, P, N)
        xx = np.concatenate([[0.0] if add0 else [], g, [1.0] if add1 else []])
        yy = np.concatenate([[0.0] if add0 else [], tpr, [1.0] if add1 else []])
        out = ROCCurve._make(_State(tp, fp, P, N, self._s.counts_known, {"roc": (xx, yy)}))
        out._balanced = self._balanced
        return out

    def _from_counts(self, tp, fp):
        out = super()._from_counts(tp, fp)
        out._balanced = self._balanced
        return out

    def auc(self, method="trapezoid", *, hull=False):
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
        return _curve_area(self._s, method_code("roc", method), hull)

    def to_frame(self):
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
        x, y = self._s.roc()
        return pd.DataFrame({F.THRESHOLD: np.full(x.size, np.nan), F.FPR: x, F.TPR: y,
                             F.TP: self._s.tp, F.FP: self._s.fp})


def _hull_of_points(tp, fp, P, N, known):
    """Upper ROC hull of arbitrary count points plus the origin and (P, N)."""
    order = np.lexsort((tp, fp))  # by FP, then TP: the x order of the monotone chain
    t, f, _, _ = _with_ends(tp[order], fp[order], P, N)
    idx = _hull_indices(t, f)
    return _State(t[idx], f[idx], P, N, known)


def _pr_state(points, recall, precision, n_pos, n_neg, pos_neg_ratio, who, achievable):
    P, N, known = _class_counts(n_pos, n_neg, pos_neg_ratio, required=True, who=who)
    r, p = _pairs(points, recall, precision, "recall", "precision", who)
    unit = "" if known else " (N = 1 in units of pos_neg_ratio)"
    keep = np.flatnonzero(r > 0)  # recall-0 points are the origin (module docstring)

    def where(k):
        k = int(keep[k])
        return _describe_point(k, "recall", r, "precision", p)

    tp, fp = _pr_to_counts(r[keep], p[keep], P, where)
    tp, fp = _check_within(tp, fp, P, N, where, unit)
    if achievable:
        return _hull_of_points(tp, fp, P, N, known)
    order, tp, fp = _sort_monotone(tp, fp, N, where, who)
    tp, fp, add0, add1 = _with_ends(tp, fp, P, N)
    rr = np.concatenate([[0.0] if add0 else [], r[keep][order], [1.0] if add1 else []])
    pp = np.concatenate([[1.0] if add0 else [], p[keep][order], [P / (P + N)] if add1 else []])
    return _State(tp, fp, P, N, known, {"pr": (rr, pp)})


def _roc_state(points, fpr, tpr, n_pos, n_neg, pos_neg_ratio, who, achievable):
    bal = _class_counts(n_pos, n_neg, pos_neg_ratio, required=False, who=who)
    P, N, known = bal if bal is not None else (1.0, 1.0, False)
    x, y = _pairs(points, fpr, tpr, "fpr", "tpr", who)

    def where(k):
        return _describe_point(k, "fpr", x, "tpr", y)

    tp, fp = y * P, x * N
    if achievable:
        return _hull_of_points(tp, fp, P, N, known), bal is not None
    order, tp, fp = _sort_monotone(tp, fp, N, where, who)
    tp, fp, add0, add1 = _with_ends(tp, fp, P, N)
    xx = np.concatenate([[0.0] if add0 else [], x[order], [1.0] if add1 else []])
    yy = np.concatenate([[0.0] if add0 else [], y[order], [1.0] if add1 else []])
    return _State(tp, fp, P, N, known, {"roc": (xx, yy)}), bal is not None


def _state_from_counts(tp, fp, n_pos, n_neg, who):
    tp = np.asarray(tp, dtype=np.float64).ravel()
    fp = np.asarray(fp, dtype=np.float64).ravel()
    if tp.size != fp.size or tp.size == 0:
        raise ValueError(f"{who}: tp and fp must be non-empty and of equal length")
    if not (np.isfinite(tp).all() and np.isfinite(fp).all()) or (tp < 0).any() or (fp < 0).any():
        raise ValueError(f"{who}: tp and fp must be finite and >= 0")
    P = float(tp.max()) if n_pos is None else _positive_scalar(n_pos, "n_pos")
    N = float(fp.max()) if n_neg is None else _positive_scalar(n_neg, "n_neg")
    if P <= 0 or N <= 0:
        raise ValueError(f"{who}: the curve needs positives and negatives; pass n_pos= "
                         "and n_neg=")

    def where(k):
        return f"point {k} (tp={tp[k]:.6g}, fp={fp[k]:.6g})"

    if (tp > P * (1 + _TOL)).any():
        k = int(np.argmax(tp > P * (1 + _TOL)))
        raise ValueError(f"{who}: {where(k)} has more true positives than n_pos={P:g}")
    tp, fp = _check_within(tp, fp, P, N, where, "")
    _, tp, fp = _sort_monotone(tp, fp, N, where, who)
    t, f, _, _ = _with_ends(tp, fp, P, N)
    return _State(t, f, P, N, True)


def _curve_area(state, code, hull):
    tp, fp = state.tp, state.fp
    if hull:
        idx = _hull_indices(tp, fp)
        tp, fp = tp[idx], fp[idx]
    return float(_area(tp, fp, code))


# ----------------------------------------------------------------------------- grids


def _default_grid(num_points):
    if isinstance(num_points, bool) or not isinstance(num_points, (int, np.integer)):
        raise TypeError(f"num_points must be an int >= 2, got {num_points!r}")
    if num_points < 2:
        raise ValueError(f"num_points must be >= 2, got {num_points}")
    return np.linspace(0.0, 1.0, int(num_points))


def _check_grid(grid, axis):
    """A float64 ascending grid in [0, 1]; an int n means ``linspace(0, 1, n)``."""
    if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
        if grid < 2:
            raise ValueError(f"grid={grid} points is too few; pass an int >= 2 or an array "
                             f"of {axis} values")
        return np.linspace(0.0, 1.0, int(grid))
    try:
        g = np.ascontiguousarray(grid, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"grid must be an int or an array of {axis} values in [0, 1]") from None
    if g.ndim != 1 or g.size == 0:
        raise ValueError(f"grid must be a non-empty 1-D array of {axis} values, got shape "
                         f"{g.shape}")
    bad = ~np.isfinite(g) | (g < 0) | (g > 1)
    if bad.any():
        raise ValueError(f"grid {axis} values must be finite and in [0, 1]; got "
                         f"{g[bad][0]!r}")
    if (np.diff(g) < 0).any():
        raise ValueError("grid must be ascending; sort it (np.sort(grid)) first")
    return g


# ------------------------------------------------------------------ many curves (frames)


def _frame_column(points, spec, arg):
    """Per-row float64 values of ``spec``: None, a scalar, or a column name."""
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in points.columns:
            raise ValueError(f"{arg}={spec!r} is not a column of points")
        return points[spec].to_numpy(dtype=np.float64)
    return np.full(len(points), _positive_scalar(spec, arg))


def _pack_points(points, by, space, n_pos, n_neg, pos_neg_ratio):
    """Validate a tidy frame of many curves' points and lay them out as ragged counts.

    Returns ``(tp, fp, offsets, keys, P, N)``: per curve the origin, the points sorted
    by (TP, FP), and the end ``(P, N)``; keys one row per curve (sorted key order).
    """
    points = to_pandas(points, every=True)  # polars / pyarrow frames of points
    if not isinstance(points, pd.DataFrame):
        raise TypeError(f"points must be a pandas DataFrame (e.g. the output of pr_curve), "
                        f"got {type(points).__name__}")
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
    if {F.TP, F.FP} <= cols:
        kind = "counts"
    elif {F.RECALL, F.PRECISION} <= cols:
        kind = "pr"
    elif {F.FPR, F.TPR} <= cols:
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

    codes, key_frame = _curve_codes(points, by, n)

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
            raise ValueError(f"points column {col!r} must be finite and >= 0; row {k} has "
                             f"{a[k]!r}")
        return a

    def where(k):
        keys = "" if by is None else ", ".join(
            f"{c}={_py(key_frame[c].iloc[k])!r}" for c in key_frame.columns) + ", "
        return f"row {k} ({keys}" + ", ".join(
            f"{c}={_py(points[c].iloc[k])!r}" for c in cols_used) + ")"

    if kind == "counts":
        cols_used = [F.TP, F.FP]
        tp, fp = num(F.TP, check=False), num(F.FP, check=False)
    else:
        cols_used = [F.RECALL, F.PRECISION] if kind == "pr" else [F.FPR, F.TPR]
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

    # writable and contiguous: pandas hands out read-only views, a second kernel
    # specialisation (tests/test_specialisations.py)
    tp, fp = (np.require(a, np.float64, ["C", "W"]) for a in (tp, fp))
    # rows ordered by (curve, TP, FP): pr_curve output already is, so no sort then
    if _is_sorted(codes, tp, fp):
        order = None
    else:
        order = np.lexsort((fp, tp, codes))
        codes, tp, fp = codes[order], tp[order], fp[order]
        if Pcol is not None:
            Pcol, Ncol = Pcol[order], Ncol[order]
    counts = np.bincount(codes)
    starts = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    empty = np.empty(0)
    status, row, P, N, complete = _check_points(
        starts, tp, fp, empty if Pcol is None else Pcol, empty if Ncol is None else Ncol, _TOL)

    def orig(i):
        return int(i) if order is None else int(order[i])

    if status != OK:
        k = orig(row)
        c = int(np.searchsorted(starts, row, side="right") - 1)
        if status in (BAD_TP, BAD_FP):
            col = F.TP if status == BAD_TP else F.FP
            raise ValueError(f"points column {col!r} must be finite and >= 0; {where(k)}")
        if status == TOTALS_VARY:
            raise ValueError(f"class counts differ between rows of one curve ({where(k)}); "
                             "n_pos/n_neg/pos_neg_ratio must be constant within a curve")
        if status == TP_OVER:
            raise ValueError(f"{where(k)} has more true positives than the curve's "
                             f"n_pos={P[c]:g}")
        if status == FP_OVER:
            raise ValueError(f"{where(k)} implies more false positives than the curve's "
                             f"n_neg={N[c]:g}: its precision is below what the class balance "
                             "allows at that recall")
        raise ValueError(
            f"points of one curve are not one ranking: {where(k)} has more true positives "
            f"but fewer false positives than {where(orig(row - 1))}; FP must not decrease "
            "as TP grows (check the by= columns: does each key identify one curve?)"
        )
    if complete:  # every curve runs from the origin to (P, N): use the input as it is
        T, Fp, off = tp, fp, starts
    else:
        T, Fp, off = _with_ends_batch(starts, tp, fp, P, N)
    first = starts[:-1] if order is None else order[starts[:-1]]
    keys = (key_frame.iloc[first].reset_index(drop=True) if by is not None
            else pd.DataFrame(index=range(1)))
    return T, Fp, off, keys, P, N


def _curve_codes(points, by, n):
    """Curve code of each row (sorted key order) and a frame of the key columns.

    Fast path for rows already grouped in sorted key order (as the output of
    :func:`pr_curve` is): codes from the key changes, no hashing. Otherwise (or on any
    doubt: missing values, incomparable types) :func:`prroc_numba._ragged._group_codes`.
    """
    if by is None:
        return np.zeros(n, dtype=np.int64), pd.DataFrame(index=range(n))
    names = [by] if isinstance(by, str) else list(by)
    if all(c in points.columns for c in names) and n > 1:
        try:
            cols = [points[c].to_numpy() for c in names]
            if not any(pd.isna(a).any() for a in cols):
                change = np.zeros(n - 1, dtype=bool)
                increasing = np.zeros(n - 1, dtype=bool)
                equal_so_far = np.ones(n - 1, dtype=bool)
                for a in cols:
                    gt = a[1:] > a[:-1]
                    eq = a[1:] == a[:-1]
                    increasing |= equal_so_far & gt
                    equal_so_far &= eq
                    change |= ~eq
                # every key change goes up: runs are contiguous and in sorted order
                if np.array_equal(change, increasing):
                    codes = np.zeros(n, dtype=np.int64)
                    np.cumsum(change, out=codes[1:])
                    return codes, points[names]
        except TypeError:
            pass
    return _group_codes(points, by, n)


def _describe_curves(keys, bad):
    idx = np.flatnonzero(bad)
    if keys.shape[1] == 0:
        names = ["the curve"]
    else:
        names = [", ".join(f"{c}={_py(keys[c].iloc[i])!r}" for c in keys.columns)
                 for i in idx[:5]]
    more = f" and {idx.size - 5} more" if idx.size > 5 else ""
    return "; ".join(names) + more


def _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio):
    g = _check_grid(grid, "recall" if space == "pr" else "FPR")
    tp, fp, off, keys, P, N = _pack_points(points, by, space, n_pos, n_neg, pos_neg_ratio)
    kern = _precision_at_recall_batch if space == "pr" else _tpr_at_fpr_batch
    mat = kern(tp, fp, off, g, bool(hull))
    bad = (P <= 0) if space == "pr" else (P <= 0) | (N <= 0)
    if bad.any():
        import warnings

        what = "no positives" if space == "pr" else "no positives or no negatives"
        warnings.warn(f"{what}: interpolated values are NaN for {_describe_curves(keys, bad)}",
                      UndefinedMetricWarning, stacklevel=3)
    return g, keys, mat


_INTERP_PARAMS = """
    points : DataFrame
        One row per curve point: columns ``tp`` and ``fp`` (e.g. the output of
        :func:`pr_curve` or :func:`roc_curve`, any ``hull``), or ``recall`` and
        ``precision``, or ``fpr`` and ``tpr``, plus the key columns. Rows may come in
        any order; each curve's points must be one ranking (FP non-decreasing in TP).
        The origin and the end point ``(P, N)`` are added to every curve.
    grid : int or array-like of shape (n_grid,)
        Ascending recalls (``space="pr"``) or FPRs (``space="roc"``) in [0, 1]; an int
        ``n`` means ``np.linspace(0, 1, n)``.
    by : str or list of str, default=None
        Key columns; one curve per distinct key (sorted key order). None: one curve.
    space : {"pr", "roc"}, default="pr"
        ``"pr"``: precision at each recall, count-interpolated (linear in ROC space,
        never linear in PR space); at recall 0 the curve's flat start (0 when the top
        block holds only negatives); at a recall shared by several points the best
        precision. ``"roc"``: TPR at each FPR, linear; at an FPR shared by several
        points the highest TPR.
    hull : bool, default=False
        Interpolate the ROC convex hull (in PR space: the achievable PR curve).
    n_pos, n_neg : float or str, default=None
        Class totals (numbers, or column names constant within each curve). Default
        with ``tp``/``fp`` columns: the largest ``tp`` and ``fp`` of each curve (right
        for :func:`pr_curve` output, which ends at ``(P, N)``). Needed for rate columns
        (or ``pos_neg_ratio``), except ``fpr``/``tpr`` with ``space="roc"``.
    pos_neg_ratio : float or str, default=None
        ``P / N`` instead of ``n_pos`` and ``n_neg``."""


def interpolate_matrix(points, *, grid, by=None, space="pr", hull=False, n_pos=None,
                       n_neg=None, pos_neg_ratio=None):
    """Many curves onto one shared grid, as a dense matrix (for array users).

    Parameters
    ----------
    {params}

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
    >>> pts = pd.DataFrame({"m": ["a", "a", "b"], "tp": [5, 10, 3], "fp": [5, 30, 1]})
    >>> keys, values = prn.interpolate_matrix(pts, grid=[0.5, 1.0], by="m")
    >>> keys
       m
    0  a
    1  b
    >>> values
    array([[0.5 , 0.25],
           [0.75, 0.75]])
    """
    _, keys, mat = _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio)
    return keys, mat


@with_output
def interpolate(points, *, grid, by=None, space="pr", hull=False, n_pos=None, n_neg=None,
                pos_neg_ratio=None):
    """Many curves' points onto one shared grid, in one call (a tidy frame).

    The building block of curve averaging (:func:`average_curves`) and pointwise
    bands: one Numba kernel interpolates every curve (``prange`` over curves).

    Parameters
    ----------
    {params}

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
    g, keys, mat = _interp(points, grid, by, space, hull, n_pos, n_neg, pos_neg_ratio)
    xname, yname = (F.RECALL, F.PRECISION) if space == "pr" else (F.FPR, F.TPR)
    n_curves, n_grid = mat.shape
    frame = keys.iloc[np.repeat(np.arange(n_curves), n_grid)].reset_index(drop=True)
    frame[xname] = np.tile(g, n_curves)
    frame[yname] = mat.ravel()
    return frame


def _quantile_name(q):
    return f"q{q:g}"


@with_output
def average_curves(points, *, grid, curve, by=None, space="pr", hull=False,
                   quantiles=(0.025, 0.5, 0.975), n_pos=None, n_neg=None, pos_neg_ratio=None):
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
    >>> prn.average_curves(pts, grid=[0.5, 1.0], curve="rep", quantiles=[0.5])
       recall  precision        sd  n_curves  q0.5
    0     0.5       0.75  0.353553         2  0.75
    1     1.0       0.50  0.000000         2  0.50
    """
    qs = np.atleast_1d(np.asarray(quantiles, dtype=np.float64))
    if qs.ndim != 1 or (~np.isfinite(qs) | (qs < 0) | (qs > 1)).any():
        raise ValueError(f"quantiles must be probabilities in [0, 1], got {quantiles!r}")
    curve_cols = [curve] if isinstance(curve, str) else list(curve or [])
    if not curve_cols:
        raise ValueError("curve= must name the column(s) that tell the averaged curves apart")
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    overlap = set(by_cols) & set(curve_cols)
    if overlap:
        raise ValueError(f"column(s) {sorted(overlap)} are in both by= and curve=")
    g, keys, mat = _interp(points, grid, by_cols + curve_cols, space, hull, n_pos, n_neg,
                           pos_neg_ratio)
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
        block = mat[starts[j]:starts[j + 1]]
        ok = ~np.isnan(block)
        cnt = ok.sum(axis=0)
        s = np.where(ok, block, 0.0).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(cnt > 0, s / cnt, np.nan)
            dev = np.where(ok, block - mean, 0.0)
            sd = np.where(cnt > 1, np.sqrt((dev * dev).sum(axis=0) / (cnt - 1)), np.nan)
        srt = np.sort(block, axis=0)  # NaN last
        for qi, q in enumerate(qs):
            h = (cnt - 1) * q
            lo = np.floor(h).astype(np.int64)
            hi = np.minimum(lo + 1, np.maximum(cnt - 1, 0))
            lo = np.maximum(lo, 0)
            cols = np.arange(g.size)
            a, b = srt[lo, cols], srt[hi, cols]
            qv[qi, j] = np.where(cnt > 0, a + (h - np.floor(h)) * (b - a), np.nan)
        stats["mean"][j], stats["sd"][j], stats["n"][j] = mean, sd, cnt
    xname, yname = (F.RECALL, F.PRECISION) if space == "pr" else (F.FPR, F.TPR)
    frame = group_keys.iloc[np.repeat(np.arange(n_groups), g.size)].reset_index(drop=True)
    frame[xname] = np.tile(g, n_groups)
    frame[yname] = stats["mean"].ravel()
    frame[SD] = stats["sd"].ravel()
    frame[N_CURVES] = stats["n"].ravel().astype(np.int64)
    for qi, q in enumerate(qs):
        frame[_quantile_name(q)] = qv[qi].ravel()
    return frame


interpolate.__doc__ = interpolate.__doc__.replace("    {params}", _INTERP_PARAMS.strip("\n"))
interpolate_matrix.__doc__ = interpolate_matrix.__doc__.replace(
    "    {params}", _INTERP_PARAMS.strip("\n"))
