"""Coverage of bootstrap intervals for AUC-PR on binormal data (the long study).

Negatives score N(0, 1), positives N(mu, 1); the population AUC-PR at prevalence pi is
the integral of precision over recall along the population curve, computed here by
numerical quadrature. Each simulated data set gets a 95% interval; the share of
intervals that contain the population value is the coverage.

Two designs x two resampling schemes:

* design "fixed": exactly ``pi * n`` positives (case-control data, a fixed test set);
* design "sampled": each row is positive with probability ``pi`` (prevalence sampled);
* ``stratified=True`` keeps the class counts of the data, ``stratified=False`` does not.

Run (about a minute per row at the defaults on 2 cores)::

    python benchmarks/coverage_study.py [n_sets] [n_boot]

The interval menu (issue 11): percentile, BCa (bootstrap), logit and binomial (Boyd,
Eng & Page 2013, :func:`prroc_numba.auc_ci`) at n = 500, 2,000, 5,000 and prevalence
1%, 5%, 20% (fixed class counts, stratified bootstrap); and clustered data (clusters of
5 rows sharing their label and a random score effect) with and without ``cluster=``::

    python benchmarks/coverage_study.py menu [n_sets] [n_boot]

The fast version of this check is ``tests/test_bootstrap.py::
test_percentile_interval_coverage_binormal``.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import integrate, stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import prroc_numba as prn


def population_auc_pr(mu, prevalence):
    def integrand(t):
        r = stats.norm.sf(t - mu)
        f = stats.norm.sf(t)
        return prevalence * r / (prevalence * r + (1 - prevalence) * f) * stats.norm.pdf(t - mu)

    return integrate.quad(integrand, mu - 12, mu + 12, limit=200)[0]


def simulate(n_sets, n, prevalence, mu, design, rng):
    if design == "fixed":
        n_pos = round(n * prevalence)
        y = np.tile(np.r_[np.ones(n_pos), np.zeros(n - n_pos)], n_sets)
    else:
        y = (rng.random(n_sets * n) < prevalence).astype(float)
    return pd.DataFrame(
        {"g": np.repeat(np.arange(n_sets), n), "y": y, "s": rng.normal(size=y.size) + mu * y}
    )


def study(n_sets=500, n_boot=1000, mu=1.5, prevalence=0.1, seed=0):
    truth = population_auc_pr(mu, prevalence)
    rows = []
    for n in (2000, 5000):
        for design in ("fixed", "sampled"):
            df = simulate(n_sets, n, prevalence, mu, design, np.random.default_rng(seed))
            for stratified in (True, False):
                for interval in ("percentile", "bca"):
                    if interval == "bca" and n > 2000:
                        continue  # the jackknife makes BCa slower; one size is enough
                    t = time.perf_counter()
                    res = prn.bootstrap(
                        df,
                        score="s",
                        label="y",
                        by="g",
                        n_boot=n_boot,
                        stratified=stratified,
                        interval=interval,
                        seed=seed,
                        progress=False,
                    )
                    cover = np.mean((res.ci_low <= truth) & (truth <= res.ci_high))
                    rows.append(
                        {
                            "n": n,
                            "design": design,
                            "stratified": stratified,
                            "interval": interval,
                            "coverage": cover,
                            "mc_se": np.sqrt(cover * (1 - cover) / n_sets),
                            "mean_width": float((res.ci_high - res.ci_low).mean()),
                            "seconds": time.perf_counter() - t,
                        }
                    )
    table = pd.DataFrame(rows)
    print(
        f"binormal mu = {mu}, prevalence {prevalence}, population AUC-PR {truth:.4f}; "
        f"{n_sets} data sets, B = {n_boot}, 95% intervals (method dg)"
    )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return table


def _cover(res, truth, lo="ci_low", hi="ci_high"):
    return float(np.mean((res[lo] <= truth) & (truth <= res[hi])))


def menu(
    n_sets=1000,
    n_boot=1000,
    mu=1.5,
    seed=0,
    ns=(500, 2000, 5000),
    prevalences=(0.01, 0.05, 0.2),
    bca_max_n=2000,
):
    """Coverage of the interval menu, fixed class counts (stratified bootstrap)."""
    rows = []
    for prevalence in prevalences:
        truth = population_auc_pr(mu, prevalence)
        for n in ns:
            df = simulate(n_sets, n, prevalence, mu, "fixed", np.random.default_rng(seed))
            row = {"prevalence": prevalence, "n": n, "n_pos": round(n * prevalence), "truth": truth}
            t = time.perf_counter()
            for interval in ("percentile", "bca"):
                if interval == "bca" and n > bca_max_n:
                    row[interval] = np.nan  # the jackknife is slow; see bca_max_n
                    continue
                res = prn.bootstrap(
                    df,
                    score="s",
                    label="y",
                    by="g",
                    n_boot=n_boot,
                    interval=interval,
                    seed=seed,
                    progress=False,
                )
                row[interval] = _cover(res, truth)
            for ci in ("logit", "binomial"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
                    res = prn.auc_ci(df, score="s", label="y", by="g", ci=ci)
                row[ci] = _cover(res, truth)
            row["seconds"] = time.perf_counter() - t
            rows.append(row)
    table = pd.DataFrame(rows)
    print(
        f"interval menu: binormal mu = {mu}, fixed class counts, {n_sets} data sets, "
        f"B = {n_boot}, 95% intervals of AUC-PR (method dg); Monte Carlo SE of a "
        f"coverage near 0.95: {np.sqrt(0.95 * 0.05 / n_sets):.3f}"
    )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return table


def clustered(
    n_sets=1000, n_boot=1000, mu=1.5, size=5, n=2000, prevalence=0.1, effect_sd=1.0, seed=0
):
    """Clusters of ``size`` rows sharing their label and a N(0, effect_sd) score effect;
    the marginal score of a row is binormal with separation mu / sqrt(1 + effect_sd^2)."""
    rng = np.random.default_rng(seed)
    n_cl = n // size
    yc = (rng.random((n_sets, n_cl)) < prevalence).astype(float)
    yc[:, 0] = 1.0  # every set has a positive cluster
    effect = rng.normal(size=(n_sets, n_cl)) * effect_sd
    y = np.repeat(yc, size, axis=1).ravel()
    s = (mu * y + np.repeat(effect, size, axis=1).ravel() + rng.normal(size=y.size)) / np.sqrt(
        1 + effect_sd**2
    )
    df = pd.DataFrame(
        {
            "g": np.repeat(np.arange(n_sets), n_cl * size),
            "y": y,
            "s": s,
            "c": np.tile(np.repeat(np.arange(n_cl), size), n_sets),
        }
    )
    truth = population_auc_pr(mu / np.sqrt(1 + effect_sd**2), prevalence)
    rows = []
    for stratified in (True, False):
        for cluster in (None, "c"):
            res = prn.bootstrap(
                df,
                score="s",
                label="y",
                by="g",
                n_boot=n_boot,
                seed=seed,
                stratified=stratified,
                cluster=cluster,
                progress=False,
            )
            rows.append(
                {
                    "stratified": stratified,
                    "cluster": cluster or "-",
                    "coverage": _cover(res, truth),
                    "mean_width": float((res.ci_high - res.ci_low).mean()),
                }
            )
    table = pd.DataFrame(rows)
    print(
        f"clustered: {n_sets} sets of {n_cl} clusters x {size} rows, cluster-level "
        f"prevalence {prevalence} (sampled), population AUC-PR {truth:.4f}, B = {n_boot}"
    )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return table


if __name__ == "__main__":
    if sys.argv[1:2] == ["menu"]:
        args = [int(a) for a in sys.argv[2:4]]
        menu(*args)
        clustered(*args)
    else:
        args = [int(a) for a in sys.argv[1:3]]
        study(*args)
