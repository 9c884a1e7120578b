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
* **End points.** The ROC origin (PR: recall 0, shown with the curve's flat start as
  in :func:`prroc_numba.pr_curve`: the precision of the first point with
  ``TP + FP > 0``) and the end ``(1, 1)`` (PR:
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

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

import numpy as np
import pandas as pd

from . import _schema as S
from ._checks import check_grid, default_grid, method_code, positive_scalar
from ._kernels.area import _area
from ._kernels.grid import _precision_at_recall, _tpr_at_fpr
from ._kernels.hull import _hull_indices
from ._ragged import POINTS_TOL as _TOL
from ._ragged import _pr_to_counts

__all__ = ["PRCurve", "ROCCurve"]


# ------------------------------------------------------------------------ validation


def _class_counts(n_pos, n_neg, pos_neg_ratio, *, required, who):
    """(P, N, counts_known) from the arguments; None when optional and absent."""
    if pos_neg_ratio is not None and (n_pos is not None or n_neg is not None):
        raise ValueError(
            f"{who}: pass either n_pos= and n_neg= (class counts) or pos_neg_ratio=, not both"
        )
    if pos_neg_ratio is not None:
        return positive_scalar(pos_neg_ratio, "pos_neg_ratio"), 1.0, False
    if (n_pos is None) != (n_neg is None):
        missing = "n_neg" if n_neg is None else "n_pos"
        raise ValueError(
            f"{who}: {missing}= is missing; pass both n_pos= and n_neg=, "
            "or pos_neg_ratio= (P / N) instead"
        )
    if n_pos is None:
        if required:
            raise ValueError(
                f"{who} needs the class balance to relate PR and ROC points: pass n_pos= "
                "and n_neg= (numbers of positives and negatives) or pos_neg_ratio= (P / N)"
            )
        return None
    return positive_scalar(n_pos, "n_pos"), positive_scalar(n_neg, "n_neg"), True


def _pairs(points, x, y, xname, yname, who):
    """Two float64 arrays from ``points`` (pairs, (n, 2) array or frame) or x=/y=."""
    if points is not None:
        if x is not None or y is not None:
            raise ValueError(f"{who}: pass points or {xname}=/{yname}=, not both")
        if isinstance(points, pd.DataFrame):
            missing = [c for c in (xname, yname) if c not in points.columns]
            if missing:
                raise ValueError(
                    f"{who}: points frame has no column(s) {missing}; it needs "
                    f"{xname!r} and {yname!r}"
                )
            x, y = points[xname].to_numpy(), points[yname].to_numpy()
        else:
            if not isinstance(points, np.ndarray):
                points = list(points)
            try:
                arr = np.asarray(points, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError(f"{who}: points must be numeric ({xname}, {yname}) pairs") from None
            if arr.ndim != 2 or arr.shape[1] != 2:
                raise ValueError(
                    f"{who}: points must be a sequence of ({xname}, {yname}) "
                    f"pairs, got an array of shape {arr.shape}"
                )
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
            raise ValueError(
                f"{who}: {arg} must be finite and in [0, 1]; point {k} has {arg}={a[k]!r}"
            )
    return x, y


def _describe_point(k, xname, x, yname, y):
    return f"point {k} ({xname}={x[k]:.6g}, {yname}={y[k]:.6g})"


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
            # the origin (0/0): the flat start, the precision of the first counted point
            counted = np.flatnonzero(d > 0)
            prec[d <= 0] = prec[counted[0]] if counted.size else np.nan
            self.rates["pr"] = (tp / self.P, prec)
        return self.rates["pr"]

    def roc(self):
        if "roc" not in self.rates:
            self.rates["roc"] = (self.fp / self.N, self.tp / self.P)
        return self.rates["roc"]


def _framed(values, add0, add1, first, last):
    """``values`` with ``first`` prepended (``add0``) and ``last`` appended (``add1``)."""
    parts = ([first] if add0 else []), values, ([last] if add1 else [])
    return np.concatenate([np.asarray(p, float) for p in parts])


def _with_ends(tp, fp, P, N):
    """Prepend the origin and append (P, N) where missing; returns arrays and flags."""
    add0 = not (tp.size and tp[0] == 0 and fp[0] == 0)
    add1 = not (tp.size and tp[-1] == P and fp[-1] == N)
    return _framed(tp, add0, add1, 0.0, P), _framed(fp, add0, add1, 0.0, N), add0, add1


class _Rates(Protocol):
    """What :func:`_rates` makes, for type checkers: a read-only array attribute."""

    def __get__(self, obj: object, owner: type | None = None, /) -> np.ndarray: ...


def _rates(space: str, axis: int, doc: str) -> _Rates:
    """A read-only property: a copy of axis ``axis`` (0: x, 1: y) of the points' rates
    in ``space`` ("pr": recall, precision; "roc": fpr, tpr).
    """

    def get(self: _PointCurve) -> np.ndarray:
        rates = self._s.roc() if space == "roc" else self._s.pr()
        return rates[axis].copy()

    return property(get, doc=doc)


_C = TypeVar("_C", bound="_PointCurve")


class _PointCurve:
    _space = ""

    def __init__(self, state):
        self._s = state

    # -- class balance
    @property
    def n_pos(self) -> float:
        """Number (mass) of positives; with only a ratio given, ``pos_neg_ratio``."""
        return self._s.P

    @property
    def n_neg(self) -> float:
        """Number (mass) of negatives; with only a ratio given, 1."""
        return self._s.N

    @property
    def pos_neg_ratio(self) -> float:
        """``n_pos / n_neg``."""
        return self._s.P / self._s.N

    @property
    def tp(self) -> np.ndarray:
        """True positives of each point (sweep order, origin first)."""
        return self._s.tp.copy()

    @property
    def fp(self) -> np.ndarray:
        """False positives of each point (sweep order, origin first)."""
        return self._s.fp.copy()

    def __len__(self) -> int:
        return self._s.tp.size

    def _from_counts(self, tp, fp):
        return type(self)._make(_State(tp, fp, self._s.P, self._s.N, self._s.counts_known))

    @classmethod
    def _make(cls, state):
        obj = cls.__new__(cls)
        obj._s = state
        return obj

    def hull(self: _C) -> _C:
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
        g = check_grid(grid, "FPR" if roc else "recall")
        tp, fp = self._s.tp, self._s.fp
        if hull:
            idx = _hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        out = np.empty(g.size)
        (_tpr_at_fpr if roc else _precision_at_recall)(tp, fp, g, out)
        return g, out

    def _xy(self):
        """The points' (x, y) rates: (recall, precision) or (fpr, tpr)."""
        return self._s.roc() if self._space == "roc" else self._s.pr()

    def _frame(self):
        """The points as a tidy frame in the columns of :func:`pr_curve` / :func:`roc_curve`."""
        x, y = self._xy()
        nx, ny = (S.FPR, S.TPR) if self._space == "roc" else (S.RECALL, S.PRECISION)
        return pd.DataFrame(
            {S.THRESHOLD: np.full(x.size, np.nan), nx: x, ny: y, S.TP: self._s.tp, S.FP: self._s.fp}
        )

    def __repr__(self) -> str:
        x, y = self._xy()
        names = ("fpr", "tpr") if self._space == "roc" else ("recall", "precision")
        bal = (
            f"n_pos={self._s.P:g}, n_neg={self._s.N:g}"
            if self._s.counts_known
            else f"pos_neg_ratio={self._s.P / self._s.N:g}"
        )
        return (
            f"{type(self).__name__}({names[0]}={np.round(x, 4).tolist()}, "
            f"{names[1]}={np.round(y, 4).tolist()}, {bal})"
        )


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
        self._s = _pr_state(
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
            _pr_state(
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
        return cls._make(_state_from_counts(tp, fp, n_pos, n_neg, "PRCurve.from_counts"))

    recall = _rates("pr", 0, "Recall of each point (origin first).")
    precision = _rates(
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
        tp, fp, add0, add1 = _with_ends(tp[pos], fp[pos], P, self._s.N)
        rr = _framed(g[pos], add0, add1, 0.0, 1.0)
        start = prec[pos][0] if pos.any() else P / (P + self._s.N)  # the flat start
        pp = _framed(prec[pos], add0, add1, start, P / (P + self._s.N))
        return PRCurve._make(_State(tp, fp, P, self._s.N, self._s.counts_known, {"pr": (rr, pp)}))

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
        return _curve_area(self._s, method_code("pr", method), hull)

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
        self._s, self._balanced = _roc_state(
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
        obj._s, obj._balanced = _roc_state(
            points, fpr, tpr, n_pos, n_neg, pos_neg_ratio, "ROCCurve.achievable", achievable=True
        )
        return obj

    @classmethod
    def _make(cls, state):
        obj = super()._make(state)
        obj._balanced = True
        return obj

    fpr = _rates("roc", 0, "False-positive rate of each point (origin first).")
    tpr = _rates("roc", 1, "True-positive rate of each point (origin first).")

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
        tp, fp, add0, add1 = _with_ends(tp, fp, P, N)
        xx = _framed(g, add0, add1, 0.0, 1.0)
        yy = _framed(tpr, add0, add1, 0.0, 1.0)
        out = ROCCurve._make(_State(tp, fp, P, N, self._s.counts_known, {"roc": (xx, yy)}))
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
        return _curve_area(self._s, method_code("roc", method), hull)

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
    rr = _framed(r[keep][order], add0, add1, 0.0, 1.0)
    given = p[keep][order]
    start = given[0] if given.size else P / (P + N)  # the origin: the flat start
    pp = _framed(given, add0, add1, start, P / (P + N))
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
    xx = _framed(x[order], add0, add1, 0.0, 1.0)
    yy = _framed(y[order], add0, add1, 0.0, 1.0)
    return _State(tp, fp, P, N, known, {"roc": (xx, yy)}), bal is not None


def _state_from_counts(tp, fp, n_pos, n_neg, who):
    tp = np.asarray(tp, dtype=np.float64).ravel()
    fp = np.asarray(fp, dtype=np.float64).ravel()
    if tp.size != fp.size or tp.size == 0:
        raise ValueError(f"{who}: tp and fp must be non-empty and of equal length")
    if not (np.isfinite(tp).all() and np.isfinite(fp).all()) or (tp < 0).any() or (fp < 0).any():
        raise ValueError(f"{who}: tp and fp must be finite and >= 0")
    P = float(tp.max()) if n_pos is None else positive_scalar(n_pos, "n_pos")
    N = float(fp.max()) if n_neg is None else positive_scalar(n_neg, "n_neg")
    if P <= 0 or N <= 0:
        raise ValueError(f"{who}: the curve needs positives and negatives; pass n_pos= and n_neg=")

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
