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

The fast version of this check is ``tests/test_bootstrap.py::
test_percentile_interval_coverage_binormal``.
"""

from __future__ import annotations

import sys
import time
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


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    study(*args)
