# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Curves given as points: pr2roc's job, done right
#
# Often there are no scores, only a curve: a PR table from a paper, operating points
# exported by another tool, a vendor's report. With the class counts (or only their
# ratio) every PR point with recall > 0 is one confusion matrix (Davis & Goadrich 2006,
# Theorem 3.1), so the curve can be moved to ROC space, hulled, resampled correctly
# and integrated -- without ever drawing a straight line in PR space.
#
# `PRCurve` and `ROCCurve` do this for one curve; `interpolate` and `average_curves`
# for thousands at once.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import prroc_numba as prn
from prroc_numba import plot as pplot

pd.set_option("display.precision", 4)

# %% [markdown]
# ## A PR table from a paper
#
# Five operating points reported for a model evaluated on 20 positives and 2000
# negatives (the setting of the paper's Table 1).

# %%
reported = pd.DataFrame(
    {"recall": [0.1, 0.25, 0.35, 0.5, 0.8], "precision": [1.0, 0.5, 0.2, 0.25, 0.05]}
)
curve = prn.PRCurve(reported, n_pos=20, n_neg=2000)
curve

# %%
roc = curve.to_roc()
print("the same points in ROC space:\n", roc.points().round(4))
# round trip: ROC back to PR gives the points we started from
np.testing.assert_allclose(roc.to_pr().points()[1:-1], reported.to_numpy(), atol=1e-12)

# %% [markdown]
# Between two reported points the curve is **not** the straight line: TP and FP grow
# together. `precision_at` evaluates the correct curve anywhere and `auc` integrates it.
# The point (0.35, 0.2) lies under the ROC convex hull: the *achievable* curve
# (`hull=True`) skips it and runs from (0.25, 0.5) to (0.5, 0.25) -- through exactly the
# paper's Table 1 points.

# %%
print(curve.precision_at([0.3, 0.35, 0.4, 0.45]).round(3))
achievable = curve.precision_at([0.3, 0.35, 0.4, 0.45], hull=True).round(3)
print(achievable)
assert achievable.tolist() == [0.375, 0.318, 0.286, 0.265]  # Table 1
areas = {m: curve.auc(m) for m in ["dg", "integral", "trapezoid"]}
areas["achievable (hull, dg)"] = curve.auc("dg", hull=True)
assert areas["trapezoid"] > areas["integral"]
pd.Series(areas, name="AUC-PR").to_frame()

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pts = curve.to_frame()
pplot.plot_pr(
    pts, ax=ax1, connect="line", color="tab:red", baseline=False, label="straight lines (wrong)"
)
pplot.plot_pr(pts, ax=ax1, hull=curve.hull().to_frame(), color="tab:blue", label="interpolated")
ax1.plot(reported.recall, reported.precision, "ko", ms=4, label="reported points")
ax1.legend(fontsize=8)
ax1.set_title("The reported PR points")
rocf = roc.to_frame()
pplot.plot_roc(rocf, ax=ax2, hull=roc.hull().to_frame(), label="reported points")
ax2.set_xlim(-0.002, 0.2)
ax2.set_title("The same points in ROC space (FPR up to 0.2)")
fig.tight_layout()

# %% [markdown]
# ## Where pr2roc goes wrong
#
# * a point at recall 0 (e.g. `(0, 1)`): it is the ROC origin, whatever its precision;
# * points that cannot come from one data set (precision below the prevalence, or FP
#   falling as TP grows): a clear error naming the point, never a silent curve;
# * only the ratio of positives to negatives known: `pos_neg_ratio=` (rates are
#   scale-free; the `dg` estimator, which steps one positive at a time, then asks for
#   counts).

# %%
with_origin = prn.PRCurve([(0.0, 1.0), (0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
print(with_origin.to_roc().points().round(4))

try:
    prn.PRCurve([(0.25, 0.5), (0.5, 0.001)], n_pos=20, n_neg=2000)
except ValueError as err:
    print("ValueError:", err)

ratio_only = prn.PRCurve(reported, pos_neg_ratio=20 / 2000)
print(
    "integral with only the ratio:",
    round(ratio_only.auc("integral"), 6),
    "== with counts:",
    round(curve.auc("integral"), 6),
)
assert np.isclose(ratio_only.auc("integral"), curve.auc("integral"))

# %% [markdown]
# ## Thousands of curves onto one grid
#
# Cross-validation folds, bootstrap replicates, models: `interpolate` puts every curve
# of a tidy frame on a shared recall grid (correctly interpolated) in one kernel call,
# and `average_curves` summarises them at each grid point (vertical averaging).

# %%
rng = np.random.default_rng(7)
folds = []
for fold in range(20):
    n = 1500
    y = (rng.random(n) < 0.05).astype(int)
    folds.append(
        pd.DataFrame({"fold": fold, "label": y, "score": rng.standard_normal(n) + 1.4 * y})
    )
folds = pd.concat(folds, ignore_index=True)
fold_curves = prn.pr_curve(folds, score="score", label="label", by="fold")
on_grid = prn.interpolate(fold_curves, grid=101, by="fold")
print(len(fold_curves), "points of 20 curves ->", on_grid.shape[0], "grid rows")
on_grid.head()

# %%
avg = prn.average_curves(fold_curves, grid=101, curve="fold")
fig, ax = plt.subplots(figsize=(6, 4.5))
pplot.plot_pr(fold_curves, ax=ax, color="0.8", lw=0.6, legend=False, baseline=False)
pplot.plot_bands(
    avg, ax=ax, low="q0.025", high="q0.975", baseline=folds.label.mean(), color="tab:blue"
)
ax.set_title("20 folds: mean curve and 95% range")
