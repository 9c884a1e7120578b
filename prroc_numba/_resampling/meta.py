"""Differences of a pair of models carried across data sets: fixed and random effects.

Each data set ``g`` gives a difference ``d_g`` with a standard error ``s_g`` (the
bootstrap SE, or DeLong's). The fixed-effect (inverse-variance) estimate weights each
by ``w_g = 1 / s_g^2``; the random-effects estimate of DerSimonian & Laird (1986) adds
the between-data-set variance ``tau^2 = max(0, (Q - (k - 1)) / (sum w - sum w^2 / sum
w))``, ``Q = sum w (d - d_fixed)^2`` (Cochran's heterogeneity statistic), to each
variance. Intervals and two-sided p-values are normal.
"""

from __future__ import annotations

import numpy as np

from .intervals import normal_interval, normal_p

FIXED, RANDOM = "fixed", "random"


def combine(diff, se, level):
    """Pool the columns of ``diff``/``se`` (n_groups, n_pairs) over the groups.

    Groups where either is not finite or ``se`` is 0 are left out of that pair.
    Returns a dict of arrays of length ``2 * n_pairs`` (fixed-effect rows, then
    random-effects rows): ``diff``, ``se``, ``ci_low``, ``ci_high``, ``p_value``,
    ``q``, ``tau2``, ``n_groups``, ``kind``.
    """
    ok = np.isfinite(diff) & np.isfinite(se) & (se > 0)
    w = np.where(ok, 1.0 / np.where(ok, se, 1.0) ** 2, 0.0)
    d = np.where(ok, diff, 0.0)
    k = ok.sum(axis=0)
    sw = w.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        fixed = (w * d).sum(axis=0) / sw
        se_fixed = 1.0 / np.sqrt(sw)
        q = (w * (d - fixed) ** 2).sum(axis=0)
        c = sw - (w * w).sum(axis=0) / sw
        tau2 = np.where(k > 1, np.maximum(0.0, (q - (k - 1)) / c), 0.0)
        tau2 = np.where(np.isfinite(tau2), tau2, 0.0)
        ws = np.where(ok, 1.0 / (np.where(ok, se, 1.0) ** 2 + tau2), 0.0)
        rand = (ws * d).sum(axis=0) / ws.sum(axis=0)
        se_rand = 1.0 / np.sqrt(ws.sum(axis=0))
    est = np.concatenate([fixed, rand])
    s = np.concatenate([se_fixed, se_rand])
    with np.errstate(invalid="ignore", divide="ignore"):
        stat = np.abs(est) / s
    p = normal_p(stat)
    lo, hi = normal_interval(est, s, level)
    n = est.size // 2
    return {
        "diff": est,
        "se": s,
        "ci_low": lo,
        "ci_high": hi,
        "p_value": np.where(np.isfinite(est), p, np.nan),
        "q": np.concatenate([q, q]),
        "tau2": np.concatenate([np.full(n, np.nan), tau2]),
        "n_groups": np.concatenate([k, k]),
        "kind": np.array([FIXED] * n + [RANDOM] * n, dtype=object),
    }
