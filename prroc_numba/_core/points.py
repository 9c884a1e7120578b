"""The rules for curves given as points, in one place, and single curves built by them.

Points are read as confusion counts (Davis & Goadrich 2006, Theorem 3.1) and checked by
these rules, for one curve (:class:`~prroc_numba.PRCurve`,
:class:`~prroc_numba.ROCCurve`: the states here) and for frames of many curves
(:func:`.point_frames.pack_points`, whose checks run in the packing kernel
:mod:`prroc_numba._kernels.points` and whose status codes become these rules'
messages there). The user guide: ``docs/points.md``.

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

from typing import Protocol, TypeVar

import numpy as np
import pandas as pd

from .. import _schema as S
from .._checks import check_grid, positive_scalar
from .._drivers import hull_indices, precision_at_recall, tpr_at_fpr, vertex_area

#: relative tolerance for counts computed from rates (rounding in recall/precision)
POINTS_TOL = 1e-9


def pr_to_counts(recall, precision, P, where):
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


def class_counts(n_pos, n_neg, pos_neg_ratio, *, required, who):
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


def pairs(points, x, y, xname, yname, who):
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


def check_within(tp, fp, P, N, where, unit):
    """Counts must not exceed the class totals (clip rounding below ``POINTS_TOL``)."""
    over = fp > N * (1 + POINTS_TOL)
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


def sort_monotone(tp, fp, N, where, who="PRCurve"):
    """Order by (TP, FP); FP must not decrease (up to ``POINTS_TOL * N``, absorbed).

    Returns ``(order, tp[order], fp[order])`` with FP made non-decreasing.
    """
    order = np.lexsort((fp, tp))
    f = fp[order]
    drop = f[1:] < f[:-1] - POINTS_TOL * N
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


class State:
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


def framed(values, add0, add1, first, last):
    """``values`` with ``first`` prepended (``add0``) and ``last`` appended (``add1``)."""
    parts = ([first] if add0 else []), values, ([last] if add1 else [])
    return np.concatenate([np.asarray(p, float) for p in parts])


def with_ends(tp, fp, P, N):
    """Prepend the origin and append (P, N) where missing; returns arrays and flags."""
    add0 = not (tp.size and tp[0] == 0 and fp[0] == 0)
    add1 = not (tp.size and tp[-1] == P and fp[-1] == N)
    return framed(tp, add0, add1, 0.0, P), framed(fp, add0, add1, 0.0, N), add0, add1


def hull_of_points(tp, fp, P, N, known):
    """Upper ROC hull of arbitrary count points plus the origin and (P, N)."""
    order = np.lexsort((tp, fp))  # by FP, then TP: the x order of the monotone chain
    t, f, _, _ = with_ends(tp[order], fp[order], P, N)
    idx = hull_indices(t, f)
    return State(t[idx], f[idx], P, N, known)


def pr_state(points, recall, precision, n_pos, n_neg, pos_neg_ratio, who, achievable):
    P, N, known = class_counts(n_pos, n_neg, pos_neg_ratio, required=True, who=who)
    r, p = pairs(points, recall, precision, "recall", "precision", who)
    unit = "" if known else " (N = 1 in units of pos_neg_ratio)"
    keep = np.flatnonzero(r > 0)  # recall-0 points are the origin (module docstring)

    def where(k):
        k = int(keep[k])
        return _describe_point(k, "recall", r, "precision", p)

    tp, fp = pr_to_counts(r[keep], p[keep], P, where)
    tp, fp = check_within(tp, fp, P, N, where, unit)
    if achievable:
        return hull_of_points(tp, fp, P, N, known)
    order, tp, fp = sort_monotone(tp, fp, N, where, who)
    tp, fp, add0, add1 = with_ends(tp, fp, P, N)
    rr = framed(r[keep][order], add0, add1, 0.0, 1.0)
    given = p[keep][order]
    start = given[0] if given.size else P / (P + N)  # the origin: the flat start
    pp = framed(given, add0, add1, start, P / (P + N))
    return State(tp, fp, P, N, known, {"pr": (rr, pp)})


def roc_state(points, fpr, tpr, n_pos, n_neg, pos_neg_ratio, who, achievable):
    bal = class_counts(n_pos, n_neg, pos_neg_ratio, required=False, who=who)
    P, N, known = bal if bal is not None else (1.0, 1.0, False)
    x, y = pairs(points, fpr, tpr, "fpr", "tpr", who)

    def where(k):
        return _describe_point(k, "fpr", x, "tpr", y)

    tp, fp = y * P, x * N
    if achievable:
        return hull_of_points(tp, fp, P, N, known), bal is not None
    order, tp, fp = sort_monotone(tp, fp, N, where, who)
    tp, fp, add0, add1 = with_ends(tp, fp, P, N)
    xx = framed(x[order], add0, add1, 0.0, 1.0)
    yy = framed(y[order], add0, add1, 0.0, 1.0)
    return State(tp, fp, P, N, known, {"roc": (xx, yy)}), bal is not None


def state_from_counts(tp, fp, n_pos, n_neg, who):
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

    if (tp > P * (1 + POINTS_TOL)).any():
        k = int(np.argmax(tp > P * (1 + POINTS_TOL)))
        raise ValueError(f"{who}: {where(k)} has more true positives than n_pos={P:g}")
    tp, fp = check_within(tp, fp, P, N, where, "")
    _, tp, fp = sort_monotone(tp, fp, N, where, who)
    t, f, _, _ = with_ends(tp, fp, P, N)
    return State(t, f, P, N, True)


def curve_area(state, code, hull):
    """The area of a single curve's counts by estimator ``code`` (``hull``: its hull's)."""
    tp, fp = state.tp, state.fp
    if hull:
        idx = hull_indices(tp, fp)
        tp, fp = tp[idx], fp[idx]
    return float(vertex_area(tp, fp, code))


# ------------------------------------------------------------------ point-based curves


class _Rates(Protocol):
    """What :func:`rates` makes, for type checkers: a read-only array attribute."""

    def __get__(self, obj: object, owner: type | None = None, /) -> np.ndarray: ...


def rates(space: str, axis: int, doc: str) -> _Rates:
    """A read-only property: a copy of axis ``axis`` (0: x, 1: y) of the points' rates
    in ``space`` ("pr": recall, precision; "roc": fpr, tpr).
    """

    def get(self: PointCurve) -> np.ndarray:
        rates = self._s.roc() if space == "roc" else self._s.pr()
        return rates[axis].copy()

    return property(get, doc=doc)


_C = TypeVar("_C", bound="PointCurve")


class PointCurve:
    """What :class:`~prroc_numba.PRCurve` and :class:`~prroc_numba.ROCCurve` share: the
    class balance, the counts, the hull, grid values, the frame and the repr.
    """

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
        return type(self)._make(State(tp, fp, self._s.P, self._s.N, self._s.counts_known))

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
        idx = hull_indices(self._s.tp, self._s.fp)
        return self._from_counts(self._s.tp[idx], self._s.fp[idx])

    def _grid_values(self, grid, hull, roc):
        g = check_grid(grid, "FPR" if roc else "recall")
        tp, fp = self._s.tp, self._s.fp
        if hull:
            idx = hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        out = np.empty(g.size)
        (tpr_at_fpr if roc else precision_at_recall)(tp, fp, g, out)
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
