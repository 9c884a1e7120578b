"""Areas under ROC and PR curves, one row per curve (or one float).

The estimators themselves live in :mod:`prroc_numba._kernels.area`; this module checks
the names (:mod:`prroc_numba._checks`) and runs the fused sort + sweep + area kernel.
"""

from __future__ import annotations

import numpy as np

from . import _device
from . import _frames as F
from . import _schema as S
from ._checks import method_code
from ._docs import fill_doc
from ._kernels.area import _area_batch
from ._ragged import check_not_proba, pack, warn_undefined


@fill_doc
def auc(data=None, *, score, label, by=None, weight=None, curve="pr", method=None, hull=False,
        pos_label=None, soft_labels=False, device=None):
    """Area under the PR or ROC curve of many curves at once.

    Parameters
    ----------
    {shared}
    {methods}
    {device}

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
    device, score, label, weight, by = _device.prepare(device, score, label, weight, by)
    batch = pack(data, score=score, label=label, by=by, weight=weight,
                 pos_label=pos_label, soft_labels=soft_labels)
    if device == "cuda":
        out = _device.backend().area_batch(batch, code, bool(hull))
    else:
        out = _area_batch(batch.values, batch.offsets, batch.pos, batch.neg,
                          batch.label_start, code, bool(hull))
    P, N = batch.totals()
    bad = (P <= 0) | (N <= 0) if curve == "roc" else P <= 0
    warn_undefined(batch, bad, f"AUC-{curve.upper()} is undefined (no positives"
                   + (" or no negatives)" if curve == "roc" else ")") + ": NaN")
    return _device.tag(F.curves_frame(batch.keys, {S.AUC: out}), device)


def _one(y_true, y_score, sample_weight, curve, method, hull, pos_label, device):
    s = y_score if _device.is_gpu_array(y_score) else np.asarray(y_score)
    if len(s.shape) != 1:
        if not _device.is_gpu_array(s):
            check_not_proba(s, "y_score")
        raise ValueError(
            f"y_score must be 1-D (one curve), got shape {s.shape}; for several models use "
            "auc(df, score=['m1', 'm2'], label='y')"
        )
    frame = auc(score=s, label=y_true, weight=sample_weight, curve=curve, method=method,
                hull=hull, pos_label=pos_label, device=device)
    return float(frame[S.AUC].iloc[0])


def auc_pr(y_true, y_score, *, sample_weight=None, method="dg", hull=False, pos_label=None,
           device=None):
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
    device : {"cpu", "cuda"}, default=None
        See :func:`auc`; GPU arrays run on the GPU.

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> round(prn.auc_pr([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], method="ap"), 6)
    0.833333
    """
    return _one(y_true, y_score, sample_weight, "pr", method, hull, pos_label, device)


def auc_roc(y_true, y_score, *, sample_weight=None, hull=False, pos_label=None, device=None):
    """Area under one ROC curve (scikit-learn's ``roc_auc_score`` for binary labels).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
    hull : bool, default=False
        Area under the ROC convex hull.
    pos_label : scalar, default=None
    device : {"cpu", "cuda"}, default=None
        See :func:`auc`; GPU arrays run on the GPU.

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.auc_roc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.75
    """
    return _one(y_true, y_score, sample_weight, "roc", None, hull, pos_label, device)
