"""Precision-Recall-Gain curves and AUPRG (Flach & Kull, NeurIPS 2015).

Precision and recall gain rescale precision and recall so that the always-positive
classifier sits at 0 and the perfect one at 1, in the harmonic scale of the F-scores:
with ``pi = P / (P + N)``,

    precision_gain = (precision - pi) / ((1 - pi) precision) = 1 - (P / N) (FP / TP),
    recall_gain    = (recall - pi) / ((1 - pi) recall)       = 1 - (P / N) (FN / TP).

Both are projective maps of ROC space (``1 / TPR`` and ``FPR / TPR`` are affine in the
gains), so straight lines stay straight: linear interpolation between PRG points is the
curve's own (unlike PR space), and the PRG convex hull's vertices are ROC convex hull
points. The points come from the library's one sort and sweep per curve
(:func:`prroc_numba._core.sweep.sweep_points`); the hull reuses the ROC hull kernel on the gains;
the area is a trapezoid sum over recall gains from 0 to 1, in numpy, over every curve
at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

import numpy as np

from . import _frames as F
from . import _schema as S
from ._calls import with_output
from ._core.batch import warn_undefined
from ._core.dataframes import Output
from ._core.gain_areas import drop_tp0, prg_gains, prg_points
from ._core.inputs import Inputs
from ._docs import fill_doc

__all__ = ["prg_curve"]


@with_output
@fill_doc
def prg_curve(
    data: Any = None,
    *,
    score: str | Sequence[str] | ArrayLike,
    label: str | ArrayLike,
    by: str | Sequence[str] | None = None,
    weight: str | ArrayLike | None = None,
    hull: bool = False,
    pos_label: Any = None,
    soft_labels: bool = False,
    output: Output = "pandas",
) -> pd.DataFrame:
    """Precision-Recall-Gain curves (Flach & Kull 2015) of many curves at once.

    One point per distinct score (ties form one point), thresholds descending, with
    ``TP > 0`` (the point before the first positive has recall gain -inf and is left
    out). Points with negative gains are kept: the curve's informative part is the unit
    square, which it enters at recall gain 0 (:func:`prroc_numba.auc` with
    ``curve="prg"`` gives the area there). Straight lines between points are the exact
    curve in PRG space.

    Parameters
    ----------
    {data}
    score, label, by, weight, pos_label, soft_labels
        As in :func:`prroc_numba.pr_curve`.
    hull : bool, default=False
        Only the vertices of the PRG convex hull: the upper hull of the points, whose
        vertices are those of the ROC convex hull (with ``TP > 0``).

    Returns
    -------
    DataFrame
        Key columns, then ``threshold``, ``recall_gain``, ``precision_gain``, ``tp``,
        ``fp``: one row per point. A curve without positives or negatives has no
        meaningful gains (NaN, with an :class:`~prroc_numba.UndefinedMetricWarning`).

    Examples
    --------
    >>> import prroc_numba as prn
    >>> prn.prg_curve(score=[0.9, 0.8, 0.7, 0.6, 0.5, 0.4], label=[1, 1, 0, 1, 0, 0])
       threshold  recall_gain  precision_gain   tp   fp
    0        0.9         -1.0        1.000000  1.0  0.0
    1        0.8          0.5        1.000000  2.0  0.0
    2        0.7          0.5        0.500000  2.0  1.0
    3        0.6          1.0        0.666667  3.0  1.0
    4        0.5          1.0        0.333333  3.0  2.0
    5        0.4          1.0        0.000000  3.0  3.0
    """
    batch = Inputs(score, label, by, weight, pos_label, soft_labels).pack(data)
    thr, tp, fp, off, P, N = prg_points(batch, hull)
    thr, tp, fp, off = drop_tp0(thr, tp, fp, off)
    rg, pg = prg_gains(tp, fp, off, P, N)
    bad = (P <= 0) | (N <= 0)
    warn_undefined(batch, bad, "no positives or no negatives: the gains are NaN")
    if bad.any():
        mask = np.repeat(bad, np.diff(off))
        rg = np.where(mask, np.nan, rg)
        pg = np.where(mask, np.nan, pg)
    return F.points_frame(
        batch.keys,
        off,
        {S.THRESHOLD: thr, S.RECALL_GAIN: rg, S.PRECISION_GAIN: pg, S.TP: tp, S.FP: fp},
    )
