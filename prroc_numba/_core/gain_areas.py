"""Areas under Precision-Recall-Gain curves (Flach & Kull 2015) of a packed batch.

The gains are a projective map of the ROC counts; :func:`prg_areas` is what
``auc(..., curve="prg")`` and the table's areas return, :func:`prg_gains` and
:func:`prg_points` what ``prg_curve`` draws.
"""

from __future__ import annotations

import numpy as np

from .._core.batch import lengths_to_offsets
from .sweep import sweep_points


def prg_gains(tp, fp, off, P, N):
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


def prg_points(batch, hull):
    """(thr, tp, fp, off, P, N): every curve's sweep (or ROC hull vertices), origin first.

    The PRG convex hull's vertices are the ROC convex hull's (the gains are a
    projective map of ROC space that keeps "better" on the same side), so the hull is
    the library's ROC hull kernel on the counts.
    """
    return sweep_points(batch, None, hull=bool(hull))


def drop_tp0(thr, tp, fp, off):
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
    rg, pg = prg_gains(tp, fp, off, P, N)
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


def prg_areas(batch, hull=False):
    """AUPRG of every curve of a batch (NaN without positives or negatives)."""
    _, tp, fp, off, P, N = prg_points(batch, hull)
    out = _auprg(tp, fp, off, P, N)
    bad = (P <= 0) | (N <= 0)
    out[bad] = np.nan
    return out, bad
