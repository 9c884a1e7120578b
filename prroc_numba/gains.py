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
(:func:`prroc_numba._sweep.points`); the hull reuses the ROC hull kernel on the gains;
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
from ._dataframes import Output, with_output
from ._ragged import lengths_to_offsets, pack, warn_undefined
from ._sweep import points

__all__ = ["prg_curve"]


def _gains(tp, fp, off, P, N):
    """Recall and precision gains of every point, laid out like ``tp``.

    A point with ``TP = 0`` has recall gain -inf and precision gain NaN; where every
    row is predicted positive (``FN + TN = 0``) the gains are (1, 0), as in Flach &
    Kull's implementation.
    """
    lens = np.diff(off)
    Pc, Nc = np.repeat(P, lens), np.repeat(N, lens)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = Pc / Nc
        rg = 1.0 - ratio * ((Pc - tp) / tp)
        pg = 1.0 - ratio * (fp / tp)
    everything = (Pc - tp) + (Nc - fp) == 0
    rg = np.where(everything, 1.0, rg)
    pg = np.where(everything, 0.0, pg)
    return rg, pg


def _prg_points(batch, hull):
    """(thr, tp, fp, off, P, N): every curve's sweep (or ROC hull vertices), origin first.

    The PRG convex hull's vertices are the ROC convex hull's (the gains are a
    projective map of ROC space that keeps "better" on the same side), so the hull is
    the library's ROC hull kernel on the counts.
    """
    return points(batch, None, hull=bool(hull))


def _drop_tp0(thr, tp, fp, off):
    """The points with ``TP > 0`` (finite gains), and their offsets."""
    keep = tp > 0
    curve = np.repeat(np.arange(off.size - 1), np.diff(off))
    off2 = lengths_to_offsets(np.bincount(curve[keep], minlength=off.size - 1))
    return thr[keep], tp[keep], fp[keep], off2


def _auprg(tp, fp, off, P, N):
    """Area under each curve's PRG points for recall gain >= 0 (trapezoids in PRG space).

    ``tp``/``fp``: each curve's sweep in order, origin first. The curve enters the unit
    square's left edge between its last point with recall gain < 0 and its first with
    recall gain >= 0, where TP reaches ``P^2 / (P + N)`` on the straight line between
    the two in count space; from there the points are joined by straight lines in PRG
    space (the same curve), as Flach & Kull's ``calc_auprg`` does.
    """
    n_curves = off.size - 1
    out = np.full(n_curves, np.nan)
    n = tp.size
    if n == 0:
        return out
    rg, pg = _gains(tp, fp, off, P, N)
    curve = np.repeat(np.arange(n_curves), np.diff(off))
    idx = np.arange(n)
    big = np.iinfo(np.int64).max
    first = np.full(n_curves, big)
    np.minimum.at(first, curve, np.where((tp > 0) & (rg >= 0), idx, big))
    c = np.flatnonzero((first < big) & (first > off[:-1]))
    # trapezoids from each point to the next, inside a curve, after its first rg >= 0
    seg = np.r_[False, (idx[1:] > first[curve[1:]]) & (curve[1:] == curve[:-1])]
    prev_rg, prev_pg = np.r_[0.0, rg[:-1]], np.r_[0.0, pg[:-1]]
    with np.errstate(invalid="ignore"):
        area = np.where(seg, (rg - prev_rg) * (pg + prev_pg) / 2.0, 0.0)
    total = np.bincount(curve, weights=area, minlength=n_curves)
    # the piece from recall gain 0 to the first point with rg >= 0 (count space)
    j = first[c]
    i = j - 1
    Pc, Nc = P[c], N[c]
    t0 = Pc * Pc / (Pc + Nc)
    dtp = tp[j] - tp[i]
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(dtp > 0, (t0 - tp[i]) / np.where(dtp > 0, dtp, 1.0), 0.5)
        f0 = fp[i] + a * (fp[j] - fp[i])
        pg0 = 1.0 - (Pc / Nc) * (f0 / t0)
        total[c] += rg[j] * (pg0 + pg[j]) / 2.0
    out[c] = total[c]
    return out


def check_prg(data, method, device, args):
    """Refuse what AUPRG (the estimate and the bootstrap) does not offer, clearly."""
    from ._checks import area_code
    from ._ragged import is_dask

    area_code("prg", method)
    for name in ("partial", "multiclass", "average"):
        if args.get(name) is not None:
            raise ValueError(f"curve='prg' takes binary input and whole areas; drop {name}=")
    if device not in (None, "cpu"):
        raise ValueError("curve='prg' runs on the CPU; pass device='cpu' or leave it None")
    if is_dask(data):
        raise ValueError("curve='prg' needs every row in one place; compute it on pandas input")


def prg_areas(batch, hull=False):
    """AUPRG of every curve of a batch (NaN without positives or negatives)."""
    _, tp, fp, off, P, N = _prg_points(batch, hull)
    out = _auprg(tp, fp, off, P, N)
    bad = (P <= 0) | (N <= 0)
    out[bad] = np.nan
    return out, bad


@with_output
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
    data : DataFrame, default=None
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
    batch = pack(
        data,
        score=score,
        label=label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        soft_labels=soft_labels,
    )
    thr, tp, fp, off, P, N = _prg_points(batch, hull)
    thr, tp, fp, off = _drop_tp0(thr, tp, fp, off)
    rg, pg = _gains(tp, fp, off, P, N)
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
