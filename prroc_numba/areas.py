"""Areas under ROC and PR curves, one row per curve (or one float).

The estimators themselves live in :mod:`prroc_numba._kernels.area`; this module checks
the names (:mod:`prroc_numba._checks`) and runs the fused sort + sweep + area kernel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

import numpy as np

from . import _backends
from . import _frames as F
from . import _schema as S
from ._calls import checked, with_output
from ._checks import method_code, method_label, metric_names
from ._core import device as _device
from ._core import partial as _partial
from ._core.area_frames import auc_frame, batch_areas, metrics_frame, prg_frame
from ._core.classes import check_args
from ._core.dataframes import Output
from ._core.inputs import Inputs
from ._core.multiclass import check_device
from ._core.pr_floor import check_normalize, normalized_batch
from ._core.resolve import check_not_proba
from ._docs import fill_doc
from ._options.estimator import Estimator, check_prg
from ._resampling import folds as _folds


@with_output
@fill_doc
def auc(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    curve: str = "pr",
    method: str | None = None,
    hull: bool = False,
    partial: tuple[float, float] | None = None,
    partial_focus: str = "fpr",
    standardize: bool = False,
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    fold: str | ArrayLike | None = None,
    normalize: bool = False,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Area under the PR or ROC curve of many curves at once.

    Parameters
    ----------
    {shared}
    {methods}
    {partial}
    {device}
    {fold}
    normalize : bool, default=False
        Boyd et al.'s (2012) normalised AUC-PR, ``(auc - min) / (1 - min)``, ``min`` the
        least area the estimator gives over every ranking of the curve's ``P``
        positives and ``N`` negatives: ``1 + (1 - pi) ln(1 - pi) / pi`` for
        ``"integral"`` (their closed form, exact at every size), ``(1 / P) sum_i i / (N
        + i)`` for ``"ap"`` (their finite-sample minimum) and that less ``1 / (2 (P +
        N))`` for ``"dg"``. 0 for the worst ranking, 1 for a perfect one, whatever the
        prevalence. ``curve="pr"``, whole areas (no ``hull=``, ``partial=``), whole
        class counts (no weights or soft labels), in-memory binary input; ``method``
        gets ``", normalized"``.

    Returns
    -------
    DataFrame
        Key columns, then ``curve`` and ``method`` (what produced the area: ``"pr"`` or
        ``"roc"``; the AUC method, ``"_hull"`` appended with ``hull=True``, and the range
        of a partial area, e.g. ``"trapezoid, fpr 0-0.1, standardized"``), then ``auc``:
        one row per curve (multiclass: per class, pair or average, see ``average``). NaN (with an
        :class:`~prroc_numba.UndefinedMetricWarning` naming the curves) where the area is
        undefined: no positives (PR, ROC) or no negatives (ROC).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> df = pd.DataFrame({"s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1],
    ...                    "y": [1, 0, 1, 1, 0, 0], "m": list("aaabbb")})
    >>> prn.auc(df, score="s", label="y", by="m", curve="roc")
       m curve     method  auc
    0  a   roc  trapezoid  0.5
    1  b   roc  trapezoid  1.0

    Partial areas: the ROC area up to FPR 0.1 (McClish-standardized, as scikit-learn's
    ``roc_auc_score(max_fpr=0.1)``), and the PR area over recalls 0.5 to 1:

    >>> prn.auc(df, score="s", label="y", curve="roc", partial=(0, 0.5),
    ...         standardize=True)
      curve                              method       auc
    0   roc  trapezoid, fpr 0-0.5, standardized  0.703704
    >>> prn.auc(df, score="s", label="y", method="integral", partial=(0.5, 1)).round(4)
      curve                  method     auc
    0    pr  integral, recall 0.5-1  0.3433

    Cross-validation folds: each fold's area, their mean and the pooled area:

    >>> prn.auc(df, score="s", label="y", fold=[0, 1, 0, 1, 0, 1], curve="roc")
         fold curve     method       auc
    0       0   roc  trapezoid  1.000000
    1       1   roc  trapezoid  0.500000
    2    mean   roc  trapezoid  0.750000
    3  pooled   roc  trapezoid  0.777778
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    est = Estimator(curve, method, hull, partial, partial_focus, standardize, bool(normalize))
    if normalize:
        check_normalize(curve, method, hull, partial, fold)
        if _backends.wing_for(data) is not None:
            raise ValueError("normalize=True is for in-memory input; collect the rows first")
    if fold is not None:
        return _folds.split(lambda d, i: _auc(d, i, est, device), data, inp, fold)
    return _auc(data, inp, est, device)


def _auc(data, inp: Inputs, est: Estimator, device):
    """:func:`auc` without ``fold=``, its options built."""
    curve, hull = est.curve, bool(est.hull)
    if curve == "prg":
        return _auprg(data, inp, est, device)
    code = method_code(curve, est.method)
    if inp.multiclass == "ovo":
        check_args(inp.multiclass, inp.classes, inp.average, False, curve)
    spec = _partial.check_partial(curve, est.partial, est.partial_focus, est.standardize)
    wing = _backends.wing_for(data)
    if wing is not None:
        if spec is not None:
            raise ValueError(
                f"partial= is not available for {_backends.input_name(data)}; compute whole areas"
            )
        wing.no_multiclass(inp.multiclass)
        out = wing.auc(data, curve, est.method, est.hull, **inp.binary())
        return F.describe(out, S.AUC, curve=curve, method=method_label(curve, est.method, hull))
    device, inp = inp.on_device(device)
    batch = inp.pack(data)
    check_device(batch, device)
    if spec is not None:  # partial areas run on the CPU (validated on the host anyway)
        out = _partial.partial_areas(batch, code, hull, curve, spec, est.standardize)
    elif device == "cuda":
        out = _device.backend().area_batch(batch, code, hull)
    else:
        out = batch_areas(batch, [code], [hull])[:, 0]
    if est.normalize:
        out = normalized_batch(batch, np.asarray(out), check_normalize(curve, est.method))
    return _device.tag(auc_frame(batch, curve, out, est.label), device)


def _auprg(data, inp: Inputs, est: Estimator, device):
    """``auc(..., curve="prg")``: the area under the Precision-Recall-Gain curve."""
    check_prg(data, est.method, device, inp, est.partial)
    return prg_frame(inp.pack(data), est.hull)


@with_output
@fill_doc
def metrics(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    metrics: str | Sequence[str] = ("auc_pr", "auc_roc"),
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    fold: str | ArrayLike | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Many metrics of many curves at once, from one sort and one sweep per curve.

    Parameters
    ----------
    {shared}
    {fold}
    metrics : str or sequence of str, default=("auc_pr", "auc_roc")
        Columns to compute, in this order:

        * ``"auc_pr"`` -- area under the PR curve, Davis & Goadrich (``auc(...,
          method="dg")``, PRROC's ``auc.davis.goadrich``);
        * ``"auc_pr_integral"`` -- the exact area under the same curve (``method=
          "integral"``, PRROC's ``auc.integral``);
        * ``"ap"`` -- average precision (scikit-learn's ``average_precision_score``);
        * ``"auc_pr_trapezoid"`` -- straight lines in PR space (over-optimistic; to
          compare);
        * ``"auc_roc"`` -- area under the ROC curve (scikit-learn's ``roc_auc_score``);
        * each of these with ``"_hull"`` appended -- the same estimator on the ROC
          convex hull / the achievable PR curve (``auc(..., hull=True)``);
        * ``"n_pos"``, ``"n_neg"`` -- total positive and negative mass (counts without
          weights), ``"prevalence"`` -- ``n_pos / (n_pos + n_neg)``;
        * ``"eer"`` -- the equal error rate: the false positive rate where the ROC convex
          hull crosses ``fpr = fnr`` (the rate achievable there by mixing the two
          neighbouring thresholds; the ROCCH-EER of speaker verification), NaN without
          positives or negatives. The DET curve itself is :func:`det_curve`.

        Every area equals the matching :func:`auc` call; see its ``method`` and ``hull``
        for what each estimator does.
    {device}
        On the GPU each area is its own sorted pass (one sort per area, not one for all).

    Returns
    -------
    DataFrame
        Key columns, then one column per metric: one row per curve. An area is NaN
        (with an :class:`~prroc_numba.UndefinedMetricWarning` naming the curves) where
        it is undefined: no positives (PR, ROC) or no negatives (ROC).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> df = pd.DataFrame({"s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1],
    ...                    "y": [1, 0, 1, 1, 0, 0], "m": list("aaabbb")})
    >>> prn.metrics(df, score="s", label="y", by="m", metrics=["ap", "auc_roc", "n_pos"])
       m        ap  auc_roc  n_pos
    0  a  0.833333      0.5    2.0
    1  b  1.000000      1.0    1.0
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    if fold is not None:
        return _folds.split(lambda d, i: _metrics(d, i, metrics, device), data, inp, fold)
    return _metrics(data, inp, metrics, device)


def _metrics(data, inp: Inputs, metrics, device):
    """:func:`metrics` without ``fold=``, its options built."""
    names = metric_names(metrics)
    multiclass = inp.multiclass
    if multiclass == "ovo":
        raise ValueError(
            "multiclass='ovo' is Hand & Till's ROC AUC: use auc(..., curve='roc', "
            "multiclass='ovo'); metrics() takes multiclass='ovr'"
        )
    wing = _backends.wing_for(data)
    if wing is not None:
        if S.EER in names:
            raise ValueError("metrics='eer' takes in-memory input; call data.compute() first")
        wing.no_multiclass(multiclass)
        return wing.metrics(data, names, **inp.binary())
    device, inp = inp.on_device(device)
    batch = inp.pack(data)
    check_device(batch, device)
    return _device.tag(metrics_frame(batch, names, device), device)


def _one(
    y_true,
    y_score,
    sample_weight,
    curve,
    method,
    hull,
    pos_label,
    device,
    partial=None,
    partial_focus="fpr",
    standardize=False,
):
    s = y_score if _device.is_gpu_array(y_score) else np.asarray(y_score)
    if len(s.shape) != 1:
        if not _device.is_gpu_array(s):
            check_not_proba(s, "y_score")
        raise ValueError(
            f"y_score must be 1-D (one curve), got shape {s.shape}; for several models use "
            "auc(df, score=['m1', 'm2'], label='y')"
        )
    frame = auc.__wrapped__(  # type: ignore[attr-defined]
        score=s,
        label=y_true,
        weight=sample_weight,
        curve=curve,
        method=method,
        hull=hull,
        pos_label=pos_label,
        device=device,
        partial=partial,
        partial_focus=partial_focus,
        standardize=standardize,
    )
    return float(frame[S.AUC].iloc[0])


@checked
def auc_pr(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    method: str | None = "dg",
    hull: bool = False,
    pos_label: Any = None,
    device: str | None = None,
    partial: tuple[float, float] | None = None,
    standardize: bool = False,
) -> float:
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
    partial : (float, float), default=None
        Only the area over this recall range (see :func:`auc`).
    standardize : bool, default=False
        Divide the partial area by the range's width.

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> round(prn.auc_pr([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], method="ap"), 6)
    0.833333
    """
    return _one(
        y_true,
        y_score,
        sample_weight,
        "pr",
        method,
        hull,
        pos_label,
        device,
        partial,
        "fpr",
        standardize,
    )


@checked
def auc_roc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    hull: bool = False,
    pos_label: Any = None,
    device: str | None = None,
    partial: tuple[float, float] | None = None,
    partial_focus: str = "fpr",
    standardize: bool = False,
) -> float:
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
    partial : (float, float), default=None
        Only the area over this FPR range (TPR range with ``partial_focus="tpr"``).
    partial_focus : {"fpr", "tpr"}, default="fpr"
    standardize : bool, default=False
        McClish's correction; ``auc_roc(y, s, partial=(0, x), standardize=True)`` equals
        scikit-learn's ``roc_auc_score(y, s, max_fpr=x)``.

    Returns
    -------
    float

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.auc_roc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.75
    """
    return _one(
        y_true,
        y_score,
        sample_weight,
        "roc",
        None,
        hull,
        pos_label,
        device,
        partial,
        partial_focus,
        standardize,
    )
