"""Whole-curve coverage of bootstrap bands (pointwise and simultaneous), ROC and PR.

Binormal data with a known true curve: negatives score N(0, 1), positives N(mu, 1),
exactly ``n_pos`` positives and ``n_neg`` negatives per data set (a fixed test set;
stratified bootstrap). The true curves on the grid:

* ROC: ``TPR(f) = Phi(mu + Phi^-1(f))``;
* PR: at recall ``r`` the threshold is ``t = mu + Phi^-1(1 - r)``, so ``FPR =
  1 - Phi(t)`` and ``precision = pi r / (pi r + (1 - pi) FPR)`` with ``pi = n_pos /
  (n_pos + n_neg)``.

A band "covers" when the true curve lies inside it at **every** grid point. Each
setting simulates ``n_sets`` data sets; all of a chunk's data sets go through one
:func:`prroc_numba.bootstrap_curve` call (``by="set"``), so no Python loop runs over
data sets or replicates. Level 0.95.

Run (nice'd; the defaults take several minutes on 2 cores)::

    nice python benchmarks/coverage_bands.py [n_sets] [n_boot]

and the table goes to ``benchmarks/results/coverage_bands.md``. The fast version of
this check is ``tests/test_bootstrap_curve.py::
test_simultaneous_roc_band_covers_the_true_curve``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import prroc_numba as prn  # noqa: E402

LEVEL = 0.95
MU = 1.0
#: (curve, n_pos, n_neg, grid): the grid avoids the ends, where a finite sample's
#: curve is pinned (TPR at FPR 0, precision at recall 0) and a band cannot be honest
SETTINGS = [
    ("roc", 100, 300, np.linspace(0.05, 0.8, 16)),
    ("roc", 300, 900, np.linspace(0.05, 0.8, 16)),
    ("pr", 100, 300, np.linspace(0.1, 0.9, 17)),
    ("pr", 300, 900, np.linspace(0.1, 0.9, 17)),
]
CHUNK = 100  # data sets per call


def true_curve(curve, grid, n_pos, n_neg, mu=MU):
    if curve == "roc":
        return stats.norm.cdf(mu + stats.norm.ppf(grid))
    pi = n_pos / (n_pos + n_neg)
    fpr = stats.norm.sf(mu + stats.norm.ppf(1 - grid))
    return pi * grid / (pi * grid + (1 - pi) * fpr)


def simulate(n_sets, n_pos, n_neg, seed):
    rng = np.random.default_rng(seed)
    n = n_pos + n_neg
    y = np.tile(np.r_[np.ones(n_pos, np.int8), np.zeros(n_neg, np.int8)], n_sets)
    s = rng.normal(size=n * n_sets) + MU * y
    return pd.DataFrame({"set": np.repeat(np.arange(n_sets), n), "y": y, "s": s})


def coverage(curve, n_pos, n_neg, grid, n_sets, n_boot, seed=0):
    truth = true_curve(curve, grid, n_pos, n_neg)
    hits = {"pointwise": [], "simultaneous": []}
    for c0 in range(0, n_sets, CHUNK):
        k = min(CHUNK, n_sets - c0)
        df = simulate(k, n_pos, n_neg, seed + c0)
        for band in hits:
            res = prn.bootstrap_curve(
                df,
                score="s",
                label="y",
                by="set",
                curve=curve,
                grid=grid,
                n_boot=n_boot,
                seed=c0,
                level=LEVEL,
                band=band,
                stratified=True,
                progress=False,
            )
            lo = res.ci_low.to_numpy().reshape(k, -1)
            hi = res.ci_high.to_numpy().reshape(k, -1)
            hits[band].append(((lo <= truth) & (truth <= hi)).all(axis=1))
    return {b: float(np.concatenate(h).mean()) for b, h in hits.items()}


def main(argv):
    n_sets = int(argv[0]) if argv else 500
    n_boot = int(argv[1]) if len(argv) > 1 else 1000
    rows = []
    for curve, n_pos, n_neg, grid in SETTINGS:
        t0 = time.perf_counter()
        cov = coverage(curve, n_pos, n_neg, grid, n_sets, n_boot)
        mc = 100 * np.sqrt(LEVEL * (1 - LEVEL) / n_sets)
        rows.append(
            f"| {curve} | {n_pos} / {n_neg} | {grid[0]:g} .. {grid[-1]:g} ({grid.size}) "
            f"| {100 * cov['pointwise']:.1f} | {100 * cov['simultaneous']:.1f} "
            f"| {mc:.1f} | {time.perf_counter() - t0:.0f} s |"
        )
        print(rows[-1], flush=True)
    head = (
        f"Whole-curve coverage (%) of 95% bootstrap bands, binormal mu={MU:g}, "
        f"{n_sets} data sets per row, B={n_boot}, stratified bootstrap "
        "(`python benchmarks/coverage_bands.py "
        f"{n_sets} {n_boot}`).\n\n"
        "| curve | positives / negatives | grid | pointwise | simultaneous (sup-t) "
        "| Monte Carlo sd | time |\n|---|---|---|---|---|---|---|\n"
    )
    out = Path(__file__).resolve().parent / "results" / "coverage_bands.md"
    out.write_text(head + "\n".join(rows) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
