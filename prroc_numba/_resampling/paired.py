"""Paired tests of several models scored on the same rows, without resampling rows.

DeLong's placement values and covariance of the ROC AUCs (:func:`delong_parts`,
:func:`delong_cov`; computed in O(N log N) from each curve's sorted order, Sun & Xu
2014) and Venkatraman's (1996) paired permutation test (:func:`venkatraman_pairs`), which
:func:`~prroc_numba.compare`, :func:`~prroc_numba.delong` and
:func:`~prroc_numba.power` read.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._checks import kernel_seed
from .._drivers import placements_batch, venkatraman_paired
from .._warnings import UndefinedMetricWarning
from .intervals import normal_interval, normal_p


def delong_parts(batch):
    """Placement values split by class, per group: list of (V10 (m, M), V01 (n, M))."""
    if not np.all(((batch.pos == 0) | (batch.pos == 1)) & (batch.pos + batch.neg == 1)):
        raise ValueError(
            "DeLong's test needs hard 0/1 labels without sample weights (as in pROC); "
            "drop weight= / soft_labels=, or use test='bootstrap'"
        )
    v = placements_batch(batch.values, batch.offsets, batch.pos, batch.label_start)
    M = batch.n_models
    parts = []
    for g in range(batch.group_offsets.size - 1):
        a, e = batch.group_offsets[g], batch.group_offsets[g + 1]
        n = e - a
        block = v[batch.offsets[g * M] : batch.offsets[g * M + M]].reshape(M, n).T
        y = batch.pos[a:e] == 1
        parts.append((block[y], block[~y]))
    return parts


def delong_cov(v10, v01):
    """(theta (M,), cov (M, M)): AUCs and DeLong's covariance (sample covariances, n-1)."""
    m, n = v10.shape[0], v01.shape[0]
    theta = v10.mean(axis=0) if m else np.full(v10.shape[1], np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        d10 = v10 - theta
        d01 = v01 - theta
        s10 = d10.T @ d10 / (m - 1) if m > 1 else np.full((v10.shape[1],) * 2, np.nan)
        s01 = d01.T @ d01 / (n - 1) if n > 1 else np.full((v10.shape[1],) * 2, np.nan)
        cov = s10 / m + s01 / n
    return theta, cov


def venkatraman_pairs(batch, ia, ib, n_perm, seed):
    """(AUCs (n_curves,), E (G*K,), p (G*K,)): Venkatraman's paired permutation test of
    each pair ``(ia[k], ib[k])`` in each group, ``p = #(E* >= E) / n_perm`` (pROC).
    """
    parts = delong_parts(batch)  # checks hard labels; its placements give the AUCs
    M, K = batch.n_models, ia.size
    G = len(parts)
    s = kernel_seed(seed)
    est = np.empty(batch.n_curves)
    e_obs = np.full(G * K, np.nan)
    p = np.full(G * K, np.nan)
    for g, (v10, v01) in enumerate(parts):
        est[g * M : (g + 1) * M] = v10.mean(axis=0) if v10.shape[0] else np.nan
        a, e = batch.group_offsets[g], batch.group_offsets[g + 1]
        n = e - a
        if v10.shape[0] == 0 or v01.shape[0] == 0:
            continue
        block = batch.values[batch.offsets[g * M] : batch.offsets[g * M + M]].reshape(M, n)
        rows = [np.argsort(block[m], kind="stable") for m in range(M)]
        sign = np.where(batch.pos[a:e] == 1, 1.0, -1.0)
        for k in range(K):
            r, q = rows[ia[k]], rows[ib[k]]
            obs = float(np.abs(np.cumsum(sign[q]) - np.cumsum(sign[r])).sum())
            perm = venkatraman_paired(r, q, sign, s, g * K + k, n_perm)
            e_obs[g * K + k] = obs
            p[g * K + k] = np.count_nonzero(perm >= obs) / n_perm
    return est, e_obs, p


def delong_pairs(est, covs, ia, ib, ca, cb, level):
    """``(diff, ci_low, ci_high, p, z, se)`` of each pair by DeLong's test (``covs``:
    each group's estimates and covariance).
    """
    K = ia.size
    var_d = np.empty(len(covs) * K)
    for g, (_, cov) in enumerate(covs):
        var_d[g * K : (g + 1) * K] = cov[ia, ia] + cov[ib, ib] - 2 * cov[ia, ib]
    diff = est[ca] - est[cb]
    if np.any(np.isnan(var_d)):
        warnings.warn(
            "DeLong's variance needs at least two positives and two negatives "
            "in every group; the affected comparisons are NaN",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        sig = np.sqrt(var_d)
        z = diff / sig
    z = np.where(np.isnan(z) & (diff == 0), 0.0, z)  # identical AUCs: z = 0 (pROC)
    p = normal_p(z)
    lo, hi = normal_interval(diff, sig, level)
    return diff, lo, hi, p, z, sig
