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
# # Comparing many models on a skewed dataset
#
# Six classifiers scored on the same 8,000 examples, 3% positives -- the setting where
# ROC curves look reassuring and PR curves tell the truth. This notebook shows the whole
# evaluation in a few calls, all models at once:
#
# 1. AUC-PR by the four estimators (and why the linear trapezoid is not one to report);
# 2. PR and ROC curves of every model, with iso-F1 lines and the no-skill baseline;
# 3. bootstrap confidence intervals (paired: every model sees the same resampled rows);
# 4. paired comparisons against a baseline model, with adjusted p-values;
# 5. pointwise bootstrap bands around the PR curves.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import prroc_numba as prn
from prroc_numba import plot as pplot

pd.set_option("display.precision", 3)
rng = np.random.default_rng(2006)
n = 8_000
y = (rng.random(n) < 0.03).astype(int)
latent = rng.standard_normal(n)
data = pd.DataFrame({"label": y})
# models of different quality; some share errors (latent), one is coarse (ties)
data["boosting"] = 2.2 * y + 0.6 * latent + rng.standard_normal(n)
data["forest"] = 2.0 * y + 0.6 * latent + rng.standard_normal(n)
data["logistic"] = 1.5 * y + rng.standard_normal(n)
data["scorecard"] = np.round(1.6 * y + rng.standard_normal(n))  # 7 distinct scores
data["heuristic"] = 0.9 * y + rng.standard_normal(n)
data["baseline"] = 0.5 * y + rng.standard_normal(n)
models = ["boosting", "forest", "logistic", "scorecard", "heuristic", "baseline"]
print(f"{n} rows, {y.sum()} positives ({y.mean():.1%})")

# %% [markdown]
# ## AUC-PR by four estimators
#
# `dg` (Davis & Goadrich, the default) and `integral` follow the correctly interpolated
# curve; `ap` is scikit-learn's average precision (steps); `trapezoid` joins the points
# with straight lines in PR space -- too high, most visibly for the coarse `scorecard`,
# whose few points are far apart.

# %%
table = pd.concat(
    {
        m: prn.auc(data, score=models, label="label", method=m).set_index("model")["auc"]
        for m in ["dg", "integral", "ap", "trapezoid"]
    },
    axis=1,
)
table["AUC-ROC"] = prn.auc(data, score=models, label="label", curve="roc")["auc"].to_numpy()
assert table.loc["scorecard", "trapezoid"] > table.loc["scorecard", "integral"] + 0.03
table

# %%
pr = prn.pr_curve(data, score=models, label="label")
roc = prn.roc_curve(data, score=models, label="label")
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
pplot.plot_pr(pr, ax=ax1, iso_f1=True, auc=prn.auc(data, score=models, label="label"))
ax1.set_title("PR: the differences are large")
pplot.plot_roc(roc, ax=ax2, auc=prn.auc(data, score=models, label="label", curve="roc"))
ax2.set_title("ROC: every model looks fine")
fig.tight_layout()

# %% [markdown]
# ## Bootstrap confidence intervals
#
# `bootstrap` resamples rows 1,000 times (stratified by default: the class counts stay
# fixed, so the interval is for AUC-PR at this prevalence -- right for a fixed test set;
# pass `stratified=False` when the prevalence itself was sampled). Wide input is
# resampled **paired**: all six models see the same rows in each replicate.

# %%
boot = prn.bootstrap(data, score=models, label="label", n_boot=1000, seed=1)
assert (boot.ci_low <= boot.estimate).all() and (boot.estimate <= boot.ci_high).all()
boot

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
pplot.plot_intervals(boot, ax=ax)
ax.set_title("AUC-PR (dg) with 95% bootstrap intervals")
fig.tight_layout()

# %% [markdown]
# ## Paired comparisons against the baseline
#
# Because the replicates are paired, the difference between two models is bootstrapped
# directly -- much tighter than comparing two separate intervals. `compare` tests every
# model against `baseline=` (or all pairs) and adjusts the p-values (Holm).

# %%
cmp = prn.compare(data, score=models, label="label", n_boot=1000, seed=1, baseline="baseline")
cmp

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
pplot.plot_intervals(cmp, ax=ax)
ax.set_title("AUC-PR difference to the baseline model")
fig.tight_layout()

# %% [markdown]
# ## Pointwise bands around the PR curves
#
# `bootstrap_curve` puts every replicate's curve on a shared recall grid (correct PR
# interpolation) and returns pointwise percentile bands. At recall 0 a curve takes its
# flat-start value: the precision of its first step, 0 when the top-scored example is a
# negative (as PRROC).

# %%
bands = prn.bootstrap_curve(
    data, score=["boosting", "logistic", "heuristic"], label="label", n_boot=300, seed=1, grid=101
)
fig, ax = plt.subplots(figsize=(6, 4.5))
pplot.plot_bands(bands, ax=ax, baseline=y.mean())
pplot.add_iso_f1(ax, levels=[0.3, 0.5])
ax.set_title("PR curves with 95% pointwise bands")
# %% [markdown]
# The same figure pieces compose by hand: `add_no_skill` draws the prevalence line (PR)
# or the diagonal (ROC), `add_iso_f1` the F1 contours, on any axes.

# %%
fig, ax = plt.subplots(figsize=(5, 4))
pplot.add_iso_f1(ax, levels=[0.2, 0.4, 0.6, 0.8])
pplot.add_no_skill(ax, prevalence=y.mean())
pplot.plot_pr(
    pr[pr.model == "scorecard"],
    ax=ax,
    connect="step",
    baseline=False,
    label="steps (AP)",
    color="tab:gray",
)
pplot.plot_pr(
    pr[pr.model == "scorecard"],
    ax=ax,
    connect="line",
    baseline=False,
    label="straight lines (trapezoid)",
    color="tab:red",
)
pplot.plot_pr(
    pr[pr.model == "scorecard"],
    ax=ax,
    baseline=False,
    label="interpolated (dg / integral)",
    color="tab:blue",
)
ax.set_title("One coarse model, three readings")
