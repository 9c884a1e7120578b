"""Curves of a packed batch as frames: what ``confusion``, ``roc_curve`` and
``pr_curve`` return for in-memory rows, and what the reduced table (:mod:`.table`)
returns for the rows it holds.

Each function sweeps every curve of a packed :class:`~prroc_numba._core.batch.Batch`
(:func:`prroc_numba._core.sweep.sweep_points`), writes the derived columns in one pass
(:func:`prroc_numba._kernels.columns._columns_range`) and builds one long frame: key
columns first, then one row per curve point.
"""

from __future__ import annotations

import numpy as np

from .. import _frames as F
from .. import _schema as S
from .._core.batch import warn_undefined
from .._drivers import columns_range, densify_batch, precision_flat_start
from .._drivers.threads import MIN_PARALLEL_ROWS, run_items
from .._kernels.columns import CONFUSION, PR, ROC
from .._kernels.densify import CONTINUOUS, DG
from .exact_ints import refuse
from .sweep import sweep_points

_INTERPOLATE = {"dg": DG, "continuous": CONTINUOUS}


def derived(tp, fp, off, P, N, kind):
    """The two columns of ``kind`` (:mod:`prroc_numba._kernels.columns`) of ragged
    counts, written in one pass; large outputs in row chunks on the thread pool.
    """
    n = tp.size
    a, b = np.empty(n), np.empty(n)
    args = (tp, fp, off, P, N, kind, a, b)
    if n < MIN_PARALLEL_ROWS:
        columns_range(*args, 0, n)
    else:
        run_items(columns_range, n, *args)
    return a, b


def check_curve_options(hull, thresholds, interpolate=None, recall_step=None):
    """The options of ``roc_curve`` / ``pr_curve`` that exclude each other."""
    if hull and thresholds is not None:
        raise ValueError(
            "hull=True with thresholds= would build the hull on the data being evaluated, "
            "which the tuning-set method avoids; take the hull on tuning data "
            "(roc_curve(tuning, ..., hull=True)) and pass it as thresholds= with hull=False"
        )
    if interpolate is not None and interpolate not in _INTERPOLATE:
        raise ValueError(
            f"interpolate={interpolate!r} is not known; use None, 'dg' (the paper's "
            "integer-TP points) or 'continuous' (points on the exact curve)"
        )
    if recall_step is not None:
        if interpolate != "continuous":
            raise ValueError(
                "recall_step= applies only to interpolate='continuous'; drop it or set "
                "interpolate='continuous'"
            )
        if (
            isinstance(recall_step, bool)
            or not isinstance(recall_step, (int, float, np.number))
            or not 0 < float(recall_step) <= 1
        ):
            raise ValueError(f"recall_step must be a number in (0, 1], got {recall_step!r}")


def confusion_frame(batch, thresholds=None, device="cpu"):
    """The ``confusion`` frame of a batch (at ``thresholds``, or every distinct score)."""
    thr, tp, fp, off, P, N = sweep_points(batch, thresholds, device=device)
    fn, tn = derived(tp, fp, off, P, N, CONFUSION)
    return F.points_frame(
        batch.keys,
        off,
        {S.THRESHOLD: thr, S.TP: tp, S.FP: fp, S.FN: fn, S.TN: tn},
    )


def roc_frame(batch, hull=False, thresholds=None, device="cpu"):
    """The ``roc_curve`` frame of a batch (NaN rates and a warning where undefined)."""
    thr, tp, fp, off, P, N = sweep_points(batch, thresholds, bool(hull), device)
    warn_undefined(batch, (P <= 0) | (N <= 0), "no positives or no negatives: tpr or fpr is NaN", 4)
    fpr, tpr = derived(tp, fp, off, P, N, ROC)
    return F.points_frame(
        batch.keys,
        off,
        {
            S.THRESHOLD: thr,
            S.FPR: fpr,
            S.TPR: tpr,
            S.TP: tp,
            S.FP: fp,
        },
    )


def pr_frame(batch, hull=False, interpolate=None, thresholds=None, recall_step=None, device="cpu"):
    """The ``pr_curve`` frame of a batch (options checked by :func:`check_curve_options`)."""
    if interpolate is not None:
        refuse(batch, "interpolate= (float thresholds)", "drop interpolate=")
    thr, tp, fp, off, P, N = sweep_points(batch, thresholds, bool(hull), device)
    warn_undefined(batch, P <= 0, "no positives: recall is NaN", 4)
    if interpolate is not None:
        step = 0.01 if recall_step is None else float(recall_step)
        thr, tp, fp, off = densify_batch(
            thr,
            tp,
            fp,
            off,
            np.ascontiguousarray(P * step, dtype=np.float64),
            _INTERPOLATE[interpolate],
        )
    recall, precision = derived(tp, fp, off, P, N, PR)
    if hull or interpolate is not None:
        precision = precision_flat_start(tp, fp, off)
    return F.points_frame(
        batch.keys,
        off,
        {
            S.THRESHOLD: thr,
            S.RECALL: recall,
            S.PRECISION: precision,
            S.TP: tp,
            S.FP: fp,
        },
    )


def equal_error_rate(batch, device="cpu") -> np.ndarray:
    """The equal error rate of each curve: the FPR where the ROC convex hull crosses
    ``fpr = fnr`` (``fpr + tpr = 1``), linear between the two hull vertices around the
    crossing (the ROCCH-EER of Brümmer's BOSARIS toolkit); NaN without positives or
    negatives.
    """
    thr, tp, fp, off, P, N = sweep_points(batch, None, hull=True, device=device)
    curve = np.repeat(np.arange(off.size - 1), np.diff(off))
    with np.errstate(invalid="ignore", divide="ignore"):
        x, y = fp / N[curve], tp / P[curve]
    below = (x + y < 1.0).astype(np.int64)
    # hull points run from (0, 0) (sum 0) to (1, 1) (sum 2), the sum increasing: the
    # crossing is on the edge into the first point with fpr + tpr >= 1
    k = off[:-1] + np.add.reduceat(below, off[:-1])
    k = np.minimum(k, off[1:] - 1)
    j = np.maximum(k - 1, off[:-1])
    x0, y0, x1, y1 = x[j], y[j], x[k], y[k]
    run = (x1 - x0) + (y1 - y0)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(run > 0, (1.0 - x0 - y0) / np.where(run > 0, run, 1.0), 0.0)
    eer = x0 + t * (x1 - x0)
    eer[(P <= 0) | (N <= 0)] = np.nan
    return eer


_INTERPOLATE = {"dg": DG, "continuous": CONTINUOUS}
