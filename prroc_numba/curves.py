"""Confusion-matrix sweeps and ROC / PR curves as tidy frames.

Each function validates and packs its input (:func:`prroc_numba._core.packing.pack`), sweeps
every curve (the class-split merge of :mod:`prroc_numba._kernels.columns` for hard,
unweighted labels, else :func:`prroc_numba._drivers.sweep.sweep_batch`), writes the
derived columns in one pass (:func:`prroc_numba._kernels.columns._columns_range`) and
returns one long frame built on those arrays: key columns first, then one row per curve
point.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

import numpy as np

from . import _backends
from . import _frames as F
from . import _schema as S
from ._calls import with_output
from ._core import device as _device
from ._core.batch import lengths_to_offsets, warn_undefined
from ._core.curve_frames import (
    check_curve_options,
    confusion_frame,
    derived,
    pr_frame,
    roc_frame,
)
from ._core.dataframes import Output
from ._core.inputs import Inputs
from ._core.multiclass import check_device
from ._core.sweep import sweep_points
from ._docs import fill_doc
from ._kernels.columns import ROC
from ._resampling import folds as _folds


def _pack_curves(data, inp: Inputs, device):
    """``(device, batch)``: the inputs on the device, packed, with the multiclass
    arguments of the curve functions checked.
    """
    multiclass, average = inp.multiclass, inp.average
    if multiclass == "ovo" or average in ("macro", "weighted", "samples"):
        raise ValueError(
            f"curves are one-vs-rest: multiclass={multiclass!r}, average={average!r} has no "
            "single curve; use multiclass='ovr' with average=None (one curve per class) or "
            "'micro' (the pooled curve). Averaged areas: auc(..., average='macro')"
        )
    device, inp = inp.on_device(device)
    batch = inp.pack(data)
    check_device(batch, device)
    return device, batch


@with_output
@fill_doc
def confusion(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    thresholds: ArrayLike | pd.DataFrame | None = None,
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Confusion matrix at every distinct score, for many curves at once.

    Parameters
    ----------
    {shared}
    {thresholds}
    {device}

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``tp``, ``fp``, ``fn``, ``tn``. Per curve: the
        origin row (``threshold=+inf``, ``tp = fp = 0``), then one row per distinct
        score in descending order; with ``thresholds``, one row per given threshold,
        descending. Counts are float64 (weighted sums).

    Examples
    --------
    >>> import pandas as pd, prroc_numba as prn
    >>> prn.confusion(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0])
       threshold   tp   fp   fn   tn
    0        inf  0.0  0.0  2.0  2.0
    1        0.9  1.0  0.0  1.0  2.0
    2        0.8  2.0  1.0  0.0  1.0
    3        0.1  2.0  2.0  0.0  0.0
    >>> prn.confusion(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0], thresholds=[0.5])
       threshold   tp   fp   fn   tn
    0        0.5  2.0  1.0  0.0  1.0

    Thresholds per model from a frame (here the ROC hull of tuning data):

    >>> tuning = pd.DataFrame({"m": list("aaaabbbb"), "s": [4, 3, 2, 1, 4, 3, 2, 1],
    ...                        "y": [1, 0, 1, 0, 0, 1, 0, 1]})
    >>> test = tuning.assign(s=[4, 2, 3, 1, 3, 4, 2, 1])
    >>> hull = prn.roc_curve(tuning, score="s", label="y", by="m", hull=True)
    >>> prn.confusion(test, score="s", label="y", by="m", thresholds=hull)
       m  threshold   tp   fp   fn   tn
    0  a        inf  0.0  0.0  2.0  2.0
    1  a        4.0  1.0  0.0  1.0  2.0
    2  a        2.0  2.0  1.0  0.0  1.0
    3  a        1.0  2.0  2.0  0.0  0.0
    4  b        inf  0.0  0.0  2.0  2.0
    5  b        1.0  2.0  2.0  0.0  0.0
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    wing = _backends.wing_for(data)
    if wing is not None:
        return wing.confusion(data, thresholds, **inp.binary())
    device, batch = _pack_curves(data, inp, device)
    return _device.tag(confusion_frame(batch, thresholds, device), device)


@with_output
@fill_doc
def roc_curve(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    hull: bool = False,
    thresholds: ArrayLike | pd.DataFrame | None = None,
    pos_label: Any = None,
    soft_labels: bool = False,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    fold: str | ArrayLike | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """ROC curves (every distinct threshold, or their convex hull) for many curves at once.

    Parameters
    ----------
    {shared}
    hull : bool, default=False
        Only the vertices of the ROC convex hull (Davis & Goadrich 2006, section 3):
        the upper hull of the sweep's points, from (0, 0) to (1, 1), collinear points
        dropped (so a hull edge through several tied-looking points keeps only its
        ends). Each vertex is a sweep point, with its threshold and counts: pass the
        result as ``thresholds=`` to apply those cut-offs to other data. Built on the
        weighted counts, so it works with sample weights and soft labels.
    {thresholds}
        Cannot be combined with ``hull=True``.
    {device}
    fold : str or array-like, default=None
        Cross-validation folds (a column or one fold id per row): each fold's curve,
        then the pooled curve (all rows), told apart by a ``fold`` column (the fold
        id, or ``"pooled"``) after the key columns.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``fpr``, ``tpr``, ``tp``, ``fp``; per curve the
        origin (``threshold=+inf``) first, thresholds descending, as scikit-learn's
        ``roc_curve(..., drop_intermediate=False)`` (with ``thresholds``: one row per
        given threshold, descending). A curve without positives (or
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
    >>> prn.roc_curve(score=[4, 3, 2, 1], label=[1, 0, 1, 0], hull=True)
       threshold  fpr  tpr   tp   fp
    0        inf  0.0  0.0  0.0  0.0
    1        4.0  0.0  0.5  1.0  0.0
    2        2.0  0.5  1.0  2.0  1.0
    3        1.0  1.0  1.0  2.0  2.0
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    if fold is not None:
        run = functools.partial(_roc_curve, hull=hull, thresholds=thresholds, device=device)
        return _folds.split(run, data, inp, fold, mean=False)
    return _roc_curve(data, inp, hull, thresholds, device)


def _roc_curve(data, inp: Inputs, hull, thresholds, device):
    """:func:`roc_curve` without ``fold=``, its inputs built."""
    check_curve_options(hull, thresholds)
    wing = _backends.wing_for(data)
    if wing is not None:
        return wing.roc_curve(data, bool(hull), thresholds, **inp.binary())
    device, batch = _pack_curves(data, inp, device)
    return _device.tag(roc_frame(batch, bool(hull), thresholds, device), device)


@with_output
@fill_doc
def det_curve(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    pos_label: Any = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Detection error tradeoff (DET) curves: false positive rate against false
    negative rate, for many curves at once.

    Parameters
    ----------
    {data}
    score : str, list of str or array-like
        Score column(s); several columns are several models (``model`` column).
    label : str or array-like
        Binary labels (0/1, -1/1, bool, or two values with ``pos_label``).
    by : str or list of str, optional
        Group columns: one curve per group (and model).
    weight : str or array-like, optional
        Sample weights.
    pos_label : scalar, optional
        The positive class of ``label``.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``fpr``, ``fnr`` (``fnr = 1 - tpr``): the
        points of scikit-learn's ``det_curve`` in this library's curve order
        (thresholds descending, as :func:`roc_curve`): from the last threshold with no
        false positive to the first with no false negative. A curve without positives
        or negatives has NaN rates, with an :class:`~prroc_numba.UndefinedMetricWarning`.
        The equal error rate is ``metrics(..., metrics="eer")``.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.det_curve(score=[0.1, 0.4, 0.35, 0.8], label=[0, 0, 1, 1])
       threshold  fpr  fnr
    0       0.80  0.0  0.5
    1       0.40  0.5  0.5
    2       0.35  0.5  0.0
    """
    if _backends.engine(data) != _backends.MEMORY:
        raise ValueError("det_curve takes in-memory input; call data.compute() first")
    inp = Inputs(score, label, by, weight, pos_label)
    _, batch = _pack_curves(data, inp, "cpu")
    thr, tp, fp, off, P, N = sweep_points(batch, None)
    warn_undefined(batch, (P <= 0) | (N <= 0), "no positives or no negatives: fpr or fnr is NaN")
    fpr, tpr = derived(tp, fp, off, P, N, ROC)
    idx, off = _det_rows(tp, fp, off, P, N)
    return F.points_frame(
        batch.keys, off, {S.THRESHOLD: thr[idx], S.FPR: fpr[idx], S.FNR: 1.0 - tpr[idx]}
    )


def _det_rows(tp, fp, off, P, N):
    """Rows of each swept curve that scikit-learn's ``det_curve`` keeps (the last with
    ``fp = 0`` to the first with ``tp = P``; every row of an undefined curve), and
    their offsets.
    """
    start, stop = off[:-1], off[1:]
    curve = np.repeat(np.arange(start.size), np.diff(off))
    first = start + np.add.reduceat(fp <= 0, start) - 1
    last = start + np.add.reduceat(tp < tp[stop - 1][curve], start)
    undefined = (P <= 0) | (N <= 0)
    first = np.where(undefined, start, first)
    last = np.where(undefined, stop - 1, last)
    lengths = last - first + 1
    new_off = lengths_to_offsets(lengths)
    idx = np.arange(new_off[-1], dtype=np.int64) + np.repeat(first - new_off[:-1], lengths)
    return idx, new_off


@with_output
@fill_doc
def pr_curve(
    data: Any = None,
    *,
    score: str | Sequence[str] | Mapping[Any, Sequence[str]] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    hull: bool = False,
    interpolate: str | None = None,
    thresholds: ArrayLike | pd.DataFrame | None = None,
    pos_label: Any = None,
    soft_labels: bool = False,
    recall_step: float | None = None,
    multiclass: str | None = None,
    classes: Sequence[Any] | None = None,
    average: str | None = None,
    device: str | None = None,
    fold: str | ArrayLike | None = None,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Precision-recall curves for many curves at once: raw, achievable, interpolated.

    Parameters
    ----------
    {shared}
    hull : bool, default=False
        Only the vertices of the achievable PR curve (Davis & Goadrich 2006, Corollary
        3.1): the ROC convex hull's vertices (see :func:`roc_curve`) mapped to PR space
        one confusion matrix at a time (Theorem 3.1). Never join them by straight lines
        in PR space; use ``interpolate``.
    interpolate : {None, "dg", "continuous"}, default=None
        Add points between consecutive points (of the sweep, the hull, or the given
        thresholds) on the correctly interpolated curve, where FP grows linearly with
        TP at the local skew ``s = (FP_B - FP_A) / (TP_B - TP_A)``:

        * ``"dg"`` -- the paper's points (section 4, Table 1): ``TP_A + x`` for each
          integer ``x`` with ``TP_A < TP_A + x < TP_B``, ``FP = FP_A + s x``. For a
          non-integer TP step (sample weights, soft labels) the same rule applies: unit
          TP steps from A, then B (PRROC computes no DG there; ``"continuous"`` is the
          exact curve). Joining these points by trapezoids, with the flat start below,
          gives ``auc(..., method="dg")``.
        * ``"continuous"`` -- points on the exact curve ``precision(r) = r / (a r + b)``
          (``a = 1 + s``, ``b = (FP_A - s TP_A) / P``), evenly spaced in recall inside
          each segment, at most ``recall_step`` apart; the area under it is
          ``auc(..., method="integral")``.

        Interpolated rows have ``threshold`` NaN. Segments where only FP grows (a
        vertical drop in PR space) get no points.
    {thresholds}
        Cannot be combined with ``hull=True``; combines with ``interpolate``.
    recall_step : float in (0, 1], default=None
        Largest recall gap between points for ``interpolate="continuous"`` (None means
        0.01); only valid with that option.
    {device}
    fold : str or array-like, default=None
        Cross-validation folds (a column or one fold id per row): each fold's curve,
        then the pooled curve (all rows), told apart by a ``fold`` column (the fold
        id, or ``"pooled"``) after the key columns.
        The sweep and the hull run on the device; interpolation of the (few) vertices
        runs on the host.

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``recall``, ``precision``, ``tp``, ``fp``; per
        curve the origin first (``threshold=+inf``, recall 0), thresholds descending:
        scikit-learn's ``precision_recall_curve`` points in reverse order, one row per
        point (with ``thresholds``: one row per given threshold, descending, plus the
        interpolated rows). Precision is undefined where ``tp + fp = 0`` (the origin, TP =
        0): every curve (raw, ``hull=True``, ``interpolate``) reports there the precision
        of its first point with ``tp + fp > 0``, i.e. it starts flat at recall 0, as the
        ``dg`` and ``integral`` areas (and PRROC) assume, and as :func:`interpolate`,
        :func:`bootstrap_curve`, :class:`PRCurve` and the plots do: one convention at
        recall 0. After a top score block of negatives only that precision is 0 (PRROC's
        convention; the AUCCalculator jar drops such points instead). scikit-learn's
        ``precision_recall_curve`` puts 1 at the origin; every other point is the same.

        A curve without positives has recall NaN, with an
        :class:`~prroc_numba.UndefinedMetricWarning`.

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.pr_curve(score=[0.9, 0.8, 0.8, 0.1], label=[1, 0, 1, 0])
       threshold  recall  precision   tp   fp
    0        inf     0.0   1.000000  0.0  0.0
    1        0.9     0.5   1.000000  1.0  0.0
    2        0.8     1.0   0.666667  2.0  1.0
    3        0.1     1.0   0.500000  2.0  2.0

    The paper's Table 1 (vertices A = (TP 5, FP 5) and B = (TP 10, FP 30)):

    >>> y = [1] * 5 + [0] * 5 + [1] * 5 + [0] * 25
    >>> s = [3] * 10 + [2] * 30
    >>> pts = prn.pr_curve(score=s, label=y, hull=True, interpolate="dg")
    >>> pts.round(3)
        threshold  recall  precision    tp    fp
    0         inf     0.0      0.500   0.0   0.0
    1         NaN     0.1      0.500   1.0   1.0
    2         NaN     0.2      0.500   2.0   2.0
    3         NaN     0.3      0.500   3.0   3.0
    4         NaN     0.4      0.500   4.0   4.0
    5         3.0     0.5      0.500   5.0   5.0
    6         NaN     0.6      0.375   6.0  10.0
    7         NaN     0.7      0.318   7.0  15.0
    8         NaN     0.8      0.286   8.0  20.0
    9         NaN     0.9      0.265   9.0  25.0
    10        2.0     1.0      0.250  10.0  30.0
    """
    inp = Inputs(score, label, by, weight, pos_label, soft_labels, multiclass, classes, average)
    run = functools.partial(
        _pr_curve,
        hull=hull,
        interpolate=interpolate,
        thresholds=thresholds,
        recall_step=recall_step,
        device=device,
    )
    if fold is not None:
        return _folds.split(run, data, inp, fold, mean=False)
    return run(data, inp)


def _pr_curve(data, inp: Inputs, *, hull, interpolate, thresholds, recall_step, device):
    """:func:`pr_curve` without ``fold=``, its inputs built."""
    check_curve_options(hull, thresholds, interpolate, recall_step)
    wing = _backends.wing_for(data)
    if wing is not None:
        return wing.pr_curve(data, bool(hull), interpolate, thresholds, recall_step, **inp.binary())
    device, batch = _pack_curves(data, inp, device)
    return _device.tag(
        pr_frame(batch, bool(hull), interpolate, thresholds, recall_step, device), device
    )
