"""Confusion-matrix sweeps and ROC / PR curves as tidy frames.

Each function validates and packs its input (:func:`prroc_numba._ragged.pack`), runs
one batch kernel over all curves (:func:`prroc_numba._kernels.sweep._sweep_batch`) and
returns one long frame: key columns first, then one row per curve point.
"""

from __future__ import annotations

import numpy as np

from . import _frames as F
from ._kernels.sweep import _sweep_batch
from ._ragged import pack, warn_undefined

_SHARED_PARAMS = """
    data : DataFrame or None, default=None
        Table holding the columns named by ``score``, ``label``, ``by`` and ``weight``;
        None when arrays are passed directly.
    score : str, list of str, or array-like of shape (n_samples,) or (n_samples, n_models)
        Score column; a list of columns (wide input: one model per column, output gets
        a ``model`` column); or arrays (2-D: one model per column). Higher scores mean
        "more positive"; a row is predicted positive when ``score >= threshold``.
    label : str or array-like of shape (n_samples,)
        Binary labels: 0/1, -1/1, bool, or any two values with ``pos_label=``;
        fractional values in [0, 1] only with ``soft_labels=True``.
    by : str, list of str, or array-like, default=None
        Grouping column(s) (long input): one curve per group, keys in sorted order.
    weight : str or array-like of shape (n_samples,), default=None
        Non-negative sample weights. Rows of weight 0 are ignored, as in scikit-learn:
        they add no threshold, so zero weight is exactly the removal of the row.
    pos_label : scalar, default=None
        The value of ``label`` that marks a positive.
    soft_labels : bool, default=False
        Read ``label`` as P(positive) in [0, 1]: a row adds ``weight*label`` to the
        positives and ``weight*(1-label)`` to the negatives (PRROC's soft labels)."""


def _doc(f):
    f.__doc__ = f.__doc__.replace("    {shared}", _SHARED_PARAMS.strip("\n"))
    return f


def _not_yet(feature):
    raise NotImplementedError(
        f"{feature} is not available yet (ROC convex hull / achievable PR curve / "
        "interpolation / thresholds= feature)"
    )


def _sweep(batch):
    """Run the sweep kernel; returns thr, tp, fp, out_offsets and P, N per point."""
    thr, tp, fp, out_offsets = _sweep_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    P, N = batch.totals()
    lengths = np.diff(out_offsets)
    return thr, tp, fp, out_offsets, np.repeat(P, lengths), np.repeat(N, lengths), P, N


@_doc
def confusion(data=None, *, score, label, by=None, weight=None, thresholds=None,
              pos_label=None, soft_labels=False):
    """Confusion matrix at every distinct score, for many curves at once.

    Parameters
    ----------
    {shared}
    thresholds : array-like or DataFrame, default=None
        Evaluate at exactly these thresholds instead of every distinct score.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``. Per curve: the
        origin row (``threshold=+inf``, ``tp = fp = 0``), then one row per distinct
        score in descending order. Counts are float64 (weighted sums).

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.confusion(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0])
       threshold   tp   fp   fn   tn
    0        inf  0.0  0.0  2.0  2.0
    1        0.9  1.0  0.0  1.0  2.0
    2        0.8  2.0  1.0  0.0  1.0
    3        0.1  2.0  2.0  0.0  0.0
    """
    if thresholds is not None:
        _not_yet("thresholds=")
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    thr, tp, fp, off, Pp, Np, _, _ = _sweep(batch)
    return F.points_frame(batch.keys, off, {
        F.THRESHOLD: thr, F.TP: tp, F.FP: fp, F.FN: Pp - tp, F.TN: Np - fp,
    })


@_doc
def roc_curve(data=None, *, score, label, by=None, weight=None, hull=False, thresholds=None,
              pos_label=None, soft_labels=False):
    """ROC curves (every distinct threshold) for many curves at once.

    Parameters
    ----------
    {shared}
    hull : bool, default=False
        Only the vertices of the ROC convex hull.
    thresholds : array-like or DataFrame, default=None
        Evaluate at exactly these thresholds.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``fpr``, ``tpr``, ``tp``, ``fp``; per curve the
        origin (``threshold=+inf``) first, thresholds descending, as scikit-learn's
        ``roc_curve(..., drop_intermediate=False)``. A curve without positives (or
        negatives) has ``tpr`` (or ``fpr``) NaN, with an
        :class:`~prroc_numba.UndefinedMetricWarning` naming it.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.roc_curve(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0])
       threshold  fpr  tpr   tp   fp
    0        inf  0.0  0.0  0.0  0.0
    1        0.9  0.0  0.5  1.0  0.0
    2        0.8  0.5  1.0  2.0  1.0
    3        0.1  1.0  1.0  2.0  2.0
    """
    if hull:
        _not_yet("hull=True")
    if thresholds is not None:
        _not_yet("thresholds=")
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    thr, tp, fp, off, Pp, Np, P, N = _sweep(batch)
    warn_undefined(batch, (P <= 0) | (N <= 0), "no positives or no negatives: tpr or fpr is NaN")
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.where(Np > 0, fp / Np, np.nan)
        tpr = np.where(Pp > 0, tp / Pp, np.nan)
    return F.points_frame(batch.keys, off, {
        F.THRESHOLD: thr, F.FPR: fpr, F.TPR: tpr, F.TP: tp, F.FP: fp,
    })


@_doc
def pr_curve(data=None, *, score, label, by=None, weight=None, hull=False, interpolate=None,
             thresholds=None, pos_label=None, soft_labels=False):
    """Precision-recall curves (every distinct threshold) for many curves at once.

    Parameters
    ----------
    {shared}
    hull : bool, default=False
        Only the vertices of the achievable PR curve (the ROC convex hull in PR space).
    interpolate : {None, "dg", "continuous"}, default=None
        Add points between vertices on the correctly interpolated curve.
    thresholds : array-like or DataFrame, default=None
        Evaluate at exactly these thresholds.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``recall``, ``precision``, ``tp``, ``fp``; per
        curve the origin first (``threshold=+inf``, recall 0), thresholds descending:
        scikit-learn's ``precision_recall_curve`` points in reverse order. Precision is
        undefined where ``tp + fp = 0``; as in scikit-learn it is reported as 1 at the
        origin and 0 elsewhere (only zero-weight rows can cause that). A curve without
        positives has recall NaN, with an :class:`~prroc_numba.UndefinedMetricWarning`.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.pr_curve(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0])
       threshold  recall  precision   tp   fp
    0        inf     0.0   1.000000  0.0  0.0
    1        0.9     0.5   1.000000  1.0  0.0
    2        0.8     1.0   0.666667  2.0  1.0
    3        0.1     1.0   0.500000  2.0  2.0
    """
    if hull:
        _not_yet("hull=True")
    if interpolate is not None:
        _not_yet("interpolate=")
    if thresholds is not None:
        _not_yet("thresholds=")
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    thr, tp, fp, off, Pp, Np, P, N = _sweep(batch)
    warn_undefined(batch, P <= 0, "no positives: recall is NaN")
    recall, precision = _recall_precision(tp, fp, Pp, off)
    return F.points_frame(batch.keys, off, {
        F.THRESHOLD: thr, F.RECALL: recall, F.PRECISION: precision, F.TP: tp, F.FP: fp,
    })


def _recall_precision(tp, fp, Pp, off):
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(Pp > 0, tp / Pp, np.nan)
        d = tp + fp
        precision = np.where(d > 0, tp / d, 0.0)
    precision[off[:-1]] = 1.0  # the origin: scikit-learn's (recall 0, precision 1)
    return recall, precision
