"""Areas under ROC and PR curves, one row per curve (or one float).

The estimators themselves live in :mod:`prroc_numba._kernels.area`; this module checks
the names (:mod:`prroc_numba._methods`) and runs the fused sort + sweep + area kernel.
"""

from __future__ import annotations

import numpy as np

from . import _frames as F
from ._kernels.area import _area_batch
from ._methods import method_code
from ._ragged import check_not_proba, pack, warn_undefined
from .curves import _doc

_METHODS_DOC = """
    curve : {"pr", "roc"}, default="pr"
    method : str, default=None
        For ``curve="pr"``: ``"dg"`` (default) -- Davis & Goadrich: one point per
        integer TP between vertices, trapezoids, flat start at recall 0 from the first
        point's precision (PRROC's ``auc.davis.goadrich``; equals the AUCCalculator jar
        when the top score block holds a positive -- when it holds only negatives the
        jar drops those points and we follow PRROC, starting at precision 0);
        ``"integral"`` -- the exact area under the same count-interpolated curve
        (PRROC's ``auc.integral``; exact for weights and soft labels); ``"ap"`` --
        average precision, the step sum (scikit-learn's ``average_precision_score``);
        ``"trapezoid"`` -- straight lines in PR space through scikit-learn's
        ``precision_recall_curve`` points: over-optimistic (Davis & Goadrich 2006,
        section 4), offered only to compare. For non-integer TP steps (weights, soft
        labels) ``"dg"`` takes unit TP steps and then the next vertex (PRROC has no DG
        there); prefer ``"integral"``. For ``curve="roc"``: ``"trapezoid"`` (default;
        tied scores count half, equal to the Mann-Whitney statistic).
    hull : bool, default=False
        Area under the ROC convex hull (ROC) or under the achievable PR curve (PR,
        Davis & Goadrich 2006, Corollary 3.1: the hull's vertices mapped to PR space),
        with the same estimator applied to the hull vertices (see
        :func:`~prroc_numba.roc_curve` and :func:`~prroc_numba.pr_curve` with
        ``hull=True`` for the vertices). ``method="integral"`` is then the exact area
        under the achievable curve, ``"dg"`` the paper's algorithm (hull, then integer-TP
        interpolation, then trapezoids). A top block of negatives is never a hull
        vertex, so every hull estimator starts flat at the first vertex's precision. The
        hull is picked on the data it is measured on (optimistic); for the paper's
        tuning-set method pass tuning-hull thresholds to the curve functions."""


@_doc
def auc(data=None, *, score, label, by=None, weight=None, curve="pr", method=None, hull=False,
        pos_label=None, soft_labels=False):
    """Area under the PR or ROC curve of many curves at once.

    Parameters
    ----------
    {shared}
    {methods}

    Returns
    -------
    DataFrame
        Key columns, then ``auc``: one row per curve. NaN (with an
        :class:`~prroc_numba.UndefinedMetricWarning` naming the curves) where the area is
        undefined: no positives (PR, ROC) or no negatives (ROC).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> df = pd.DataFrame({"s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1],
    ...                    "y": [1, 0, 1, 1, 0, 0], "m": list("aaabbb")})
    >>> prn.auc(df, score="s", label="y", by="m", curve="roc")
       m  auc
    0  a  0.5
    1  b  1.0
    """
    code = method_code(curve, method)
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    out = _area_batch(batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start,
                      code, bool(hull))
    P, N = batch.totals()
    bad = (P <= 0) | (N <= 0) if curve == "roc" else P <= 0
    warn_undefined(batch, bad, f"AUC-{curve.upper()} is undefined (no positives"
                   + (" or no negatives)" if curve == "roc" else ")") + ": NaN")
    return F.curves_frame(batch.keys, {F.AUC: out})


auc.__doc__ = auc.__doc__.replace("    {methods}", _METHODS_DOC.strip("\n"))


def _one(y_true, y_score, sample_weight, curve, method, hull, pos_label):
    s = np.asarray(y_score)
    if s.ndim != 1:
        check_not_proba(s, "y_score")
        raise ValueError(
            f"y_score must be 1-D (one curve), got shape {s.shape}; for several models use "
            "auc(df, score=['m1', 'm2'], label='y')"
        )
    frame = auc(score=s, label=y_true, weight=sample_weight, curve=curve, method=method,
                hull=hull, pos_label=pos_label)
    return float(frame[F.AUC].iloc[0])


def auc_pr(y_true, y_score, *, sample_weight=None, method="dg", hull=False, pos_label=None):
    """Area under one precision-recall curve (scikit-learn style).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (0/1, -1/1, bool, or two values with ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    sample_weight : array-like of shape (n_samples,), default=None
    method : {"dg", "integral", "ap", "trapezoid"}, default="dg"
        See :func:`auc`.
    hull : bool, default=False
        Area under the achievable PR curve.
    pos_label : scalar, default=None

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> round(prn.auc_pr([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], method="ap"), 6)
    0.833333
    """
    return _one(y_true, y_score, sample_weight, "pr", method, hull, pos_label)


def auc_roc(y_true, y_score, *, sample_weight=None, hull=False, pos_label=None):
    """Area under one ROC curve (scikit-learn's ``roc_auc_score`` for binary labels).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    hull : bool, default=False
        Area under the ROC convex hull.
    pos_label : scalar, default=None

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.auc_roc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.75
    """
    return _one(y_true, y_score, sample_weight, "roc", None, hull, pos_label)
