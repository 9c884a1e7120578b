"""Intervals: percentile, basic and BCa from replicates, normal; bands; paired differences.

The one quantile helper (:func:`row_quantiles`: numpy's default "linear" quantiles,
NaN replicates left out) serves every interval here, the bands of
:func:`~prroc_numba.bootstrap_curve` and :func:`~prroc_numba.average_curves`.
"""

from __future__ import annotations

import math
import warnings
from statistics import NormalDist

import numpy as np

from .._warnings import UndefinedMetricWarning

_NORM = NormalDist()


def warn_degenerate(batch, est, reps, n_boot, what="replicates", stacklevel=4):
    """Count NaN replicates of curves whose estimate is defined; warn if any."""
    n_bad = np.where(np.isfinite(est), np.isnan(reps).sum(axis=1), 0)
    if n_bad.any():
        c = int(np.argmax(n_bad))
        warnings.warn(
            f"{int(n_bad.sum())} bootstrap {what} had no positives (or, for ROC and PRG, no "
            f"negatives) and were left out (most in {batch.describe(c)}: {int(n_bad[c])} "
            f"of {n_boot}); use stratified=True to keep the class counts fixed",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    return n_bad


def row_quantiles(reps, q, sorted_reps=None):
    """Per-row quantiles ignoring NaN, numpy's default ("linear") definition; ``q`` has
    one level per row; ``sorted_reps``: ``np.sort(reps, axis=1)`` when the caller has it.
    The one quantile helper (intervals, bands, average_curves).
    """
    s = np.sort(reps, axis=1) if sorted_reps is None else sorted_reps  # NaN last
    n = np.isfinite(s).sum(axis=1)
    out = np.full(reps.shape[0], np.nan)
    ok = (n > 0) & np.isfinite(q)
    if not ok.any():
        return out
    pos = np.clip(q[ok], 0.0, 1.0) * (n[ok] - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, n[ok] - 1)
    rows = np.flatnonzero(ok)
    frac = pos - lo
    out[ok] = s[rows, lo] + frac * (s[rows, hi] - s[rows, lo])
    return out


def interval_bounds(reps, est, level, interval, jack=None):
    """se, ci_low, ci_high per row of ``reps`` (NaN replicates left out)."""
    alpha = 1.0 - level
    C = reps.shape[0]
    n = np.isfinite(reps).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.nansum(reps, axis=1) / np.maximum(n, 1), np.nan)
        dev = np.where(np.isfinite(reps), reps - mean[:, None], 0.0)
        se = np.where(n > 1, np.sqrt((dev * dev).sum(axis=1) / np.maximum(n - 1, 1)), np.nan)
    lo_q = np.full(C, alpha / 2)
    hi_q = np.full(C, 1 - alpha / 2)
    if interval == "bca":
        z_lo, z_hi = _NORM.inv_cdf(alpha / 2), _NORM.inv_cdf(1 - alpha / 2)
        for c in range(C):
            r = reps[c][np.isfinite(reps[c])]
            if r.size == 0 or not np.isfinite(est[c]):
                lo_q[c] = hi_q[c] = np.nan
                continue
            frac = (np.sum(r < est[c]) + 0.5 * np.sum(r == est[c])) / r.size
            frac = min(max(frac, 0.5 / r.size), 1 - 0.5 / r.size)
            z0 = _NORM.inv_cdf(frac)
            a = _acceleration(jack[c]) if jack is not None else 0.0
            for z, store in ((z_lo, lo_q), (z_hi, hi_q)):
                w = z0 + z
                den = 1.0 - a * w
                store[c] = _NORM.cdf(z0 + w / den) if den > 0 else (0.0 if z < 0 else 1.0)
    srt = np.sort(reps, axis=1)  # NaN last
    q_lo = row_quantiles(reps, lo_q, sorted_reps=srt)
    q_hi = row_quantiles(reps, hi_q, sorted_reps=srt)
    if interval == "basic":
        lo, hi = 2 * est - q_hi, 2 * est - q_lo
    else:
        lo, hi = q_lo, q_hi
    bad = ~np.isfinite(est)
    se[bad] = np.nan
    lo[bad] = np.nan
    hi[bad] = np.nan
    return se, lo, hi


def normal_interval(est, se, level):
    """``(est - z se, est + z se)``, ``z`` the ``(1 + level) / 2`` normal quantile."""
    z = _NORM.inv_cdf(1 - (1 - level) / 2)
    return est - z * se, est + z * se


def normal_p(z):
    """Two-sided normal p-value of every ``z`` (NaN where it is not finite)."""
    return np.array([math.erfc(abs(v) / math.sqrt(2)) if np.isfinite(v) else np.nan for v in z])


def _acceleration(theta):
    """Jackknife estimate of the BCa acceleration (Efron 1987)."""
    t = theta[np.isfinite(theta)]
    if t.size < 3:
        return 0.0
    d = t.mean() - t
    s2 = np.sum(d * d)
    if s2 <= 0:
        return 0.0
    return float(np.sum(d**3) / (6.0 * s2**1.5))


def band_bounds(reps, est, bad, band, level):
    """``(ci_low, ci_high)``, flat ``(curve, grid point)``: the pointwise percentile
    band or the sup-t band of the replicates ``(curves, grid, replicates)``; NaN for
    the ``bad`` curves.
    """
    C, G, B = reps.shape
    flat = reps.reshape(C * G, B)  # (curve, grid point) rows: no relayout copy
    if band == "pointwise":
        alpha = 1.0 - level
        srt = np.sort(flat, axis=1)  # NaN last
        lo = row_quantiles(flat, np.full(C * G, alpha / 2), sorted_reps=srt)
        hi = row_quantiles(flat, np.full(C * G, 1 - alpha / 2), sorted_reps=srt)
    else:
        lo, hi = sup_t_band(reps, est, level)
        lo, hi = lo.ravel(), hi.ravel()
    rows_bad = np.repeat(bad, G)
    lo[rows_bad] = np.nan
    hi[rows_bad] = np.nan
    return lo, hi


def sup_t_band(reps, est, level):
    """Simultaneous sup-t band (see :func:`bootstrap_curve`) of every curve.

    ``reps``: float64 ``(curves, grid, replicates)`` of values in [0, 1] (NaN: a
    left-out replicate); ``est``: ``(curves, grid)``. On the arcsine-square-root scale
    ``z = asin(sqrt(v))``: ``se`` the replicates' standard deviation at each grid
    point, ``c`` the ``level`` quantile of each replicate's ``max |z* - z| / se``, and
    the band ``sin(z -+ c se)^2`` (the angle kept in [0, pi/2]). Returns ``(lo, hi)``,
    each ``(curves, grid)``. Vectorised over curves and grid points; memory
    O(curves x grid x replicates), the size of ``reps`` itself.
    """
    C, G, B = reps.shape
    z = np.arcsin(np.sqrt(np.clip(reps, 0.0, 1.0)))
    ze = np.arcsin(np.sqrt(np.clip(est, 0.0, 1.0)))
    ok = np.isfinite(z)
    n = ok.sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.where(ok, z, 0.0).sum(axis=2) / np.maximum(n, 1), np.nan)
        dev = np.where(ok, z - mean[:, :, None], 0.0)
        se = np.where(n > 1, np.sqrt((dev * dev).sum(axis=2) / np.maximum(n - 1, 1)), np.nan)
        del dev
        live = (se > 0) & np.isfinite(ze)
        t = np.abs(z - ze[:, :, None]) / np.where(live, se, np.inf)[:, :, None]
    t = np.where(np.isfinite(t), t, -np.inf).max(axis=1)  # (curves, replicates)
    t[~np.isfinite(t)] = np.nan  # a replicate with no defined point
    crit = row_quantiles(t, np.full(C, level))
    half = crit[:, None] * np.where(live, se, 0.0)
    lo = np.sin(np.clip(ze - half, 0.0, np.pi / 2)) ** 2
    hi = np.sin(np.clip(ze + half, 0.0, np.pi / 2)) ** 2
    # where every replicate agrees the band is the estimate itself (no round trip)
    lo = np.where(live, lo, est)
    hi = np.where(live, hi, est)
    return lo, hi


# ------------------------------------------------------------ paired differences


def _wald_p(d, diff):
    """Two-sided normal p-value of ``diff / sd(d)`` per row (NaN replicates left out);
    a zero spread gives 1 for a zero difference and 0 otherwise.
    """
    valid = np.isfinite(d)
    n = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(valid, d, 0.0).sum(axis=1) / n
        dev = np.where(valid, d - mean[:, None], 0.0)
        se = np.sqrt((dev * dev).sum(axis=1) / (n - 1))
        z = np.where(se > 0, np.abs(diff) / se, np.where(diff == 0, 0.0, np.inf))
    return np.array(
        [math.erfc(v / math.sqrt(2)) if np.isfinite(v) or v == np.inf else np.nan for v in z]
    )


def boot_se(d):
    """The standard deviation of each row's finite replicate differences ``d``."""
    valid = np.isfinite(d)
    B = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(valid, d, 0.0).sum(axis=1) / B
        dev = np.where(valid, d - mean[:, None], 0.0)
        return np.sqrt((dev * dev).sum(axis=1) / (B - 1))


def boot_pairs(est, reps, ca, cb, level, p_value, stacklevel=3):
    """``(diff, ci_low, ci_high, p_value)`` of the curve pairs ``(ca, cb)`` from their
    paired replicates (:func:`compare`'s bootstrap test).
    """
    d = reps[ca] - reps[cb]
    diff = est[ca] - est[cb]
    n_bad = int(np.where(np.isfinite(diff), np.isnan(d).sum(axis=1), 0).sum())
    if n_bad:
        warnings.warn(
            f"{n_bad} bootstrap replicate differences had a resample with no positives "
            "(or, for ROC and PRG, no negatives) and were left out; use stratified=True to keep "
            "the class counts fixed",
            UndefinedMetricWarning,
            stacklevel=stacklevel,
        )
    _, lo, hi = interval_bounds(d, diff, level, "percentile")
    valid = np.isfinite(d)
    B = valid.sum(axis=1)
    if p_value == "percentile":
        below = ((d <= 0) & valid).sum(axis=1)
        above = ((d >= 0) & valid).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.minimum(1.0, 2.0 * np.minimum(below + 1, above + 1) / (B + 1))
    else:
        p = _wald_p(d, diff)
    p = np.where(np.isfinite(diff) & (B > 0), p, np.nan)
    return diff, lo, hi, p


def pair_index(G, M, pairs):
    """``(ia, ib, ca, cb)``: the models of each pair and the curves of each (group,
    pair), curves laid out group by group, ``M`` models each.
    """
    ia = np.array([i for i, _ in pairs], dtype=np.int64)
    ib = np.array([j for _, j in pairs], dtype=np.int64)
    ca = (np.arange(G)[:, None] * M + ia[None, :]).ravel()
    cb = (np.arange(G)[:, None] * M + ib[None, :]).ravel()
    return ia, ib, ca, cb
