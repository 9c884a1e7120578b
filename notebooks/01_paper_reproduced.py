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
# # The paper, reproduced: Davis & Goadrich (2006)
#
# *The Relationship Between Precision-Recall and ROC Curves* (ICML 2006) makes four
# points. Each is one or two calls here:
#
# 1. **Table 1** -- how to interpolate between two PR points (not linearly);
# 2. **Figure 6** -- what linear interpolation does to the area (0.50 instead of 0.031);
# 3. **Figure 5** -- the ROC convex hull and its PR twin, the *achievable PR curve*;
# 4. **Figure 7** -- AUC-ROC and AUC-PR can rank two models in opposite order.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import prroc_numba as prn
from prroc_numba import plot as pplot

pd.set_option("display.precision", 3)

# %% [markdown]
# ## Table 1: correct interpolation between two points
#
# 20 positives and 2000 negatives. Point A has TP=5, FP=5; point B has TP=10, FP=30. We
# build scores that produce exactly these points: 5 positives and 5 negatives tied at the
# top score, 5 positives and 25 negatives at the next score, everything else below.

# %%
table1 = pd.DataFrame(
    {
        "score": np.repeat([3.0, 3.0, 2.0, 2.0, 1.0, 1.0], [5, 5, 5, 25, 10, 1970]),
        "label": np.repeat([1, 0, 1, 0, 1, 0], [5, 5, 5, 25, 10, 1970]),
    }
)
pts = prn.pr_curve(table1, score="score", label="label", interpolate="dg")
rows = pts[(pts.tp >= 5) & (pts.tp <= 10)][["tp", "fp", "recall", "precision"]]
rows.reset_index(drop=True)

# %% [markdown]
# Between A and B the local skew is (30 - 5) / (10 - 5) = 5 negatives per positive, so
# each extra true positive brings 5 false positives: the rows with `threshold` NaN are
# the paper's intermediate points. Precision falls 0.500, 0.375, 0.318, 0.286, 0.265,
# 0.250 -- not linearly.

# %%
paper = pd.DataFrame(
    {
        "tp": [5, 6, 7, 8, 9, 10],
        "fp": [5, 10, 15, 20, 25, 30],
        "recall": [0.25, 0.30, 0.35, 0.40, 0.45, 0.50],
        "precision": [0.500, 0.375, 0.318, 0.286, 0.265, 0.250],
    }
)
np.testing.assert_allclose(rows.to_numpy(float), paper.to_numpy(float), atol=5e-4)
print("Table 1 reproduced")

# %%
vertices = prn.pr_curve(table1, score="score", label="label")
fig, ax = plt.subplots(figsize=(5.5, 4.5))
pplot.plot_pr(
    vertices, ax=ax, connect="line", color="tab:red", lw=1, baseline=False, label="linear (wrong)"
)
pplot.plot_pr(
    vertices,
    ax=ax,
    connect="curve",
    color="tab:blue",
    baseline=False,
    label="interpolated (Davis & Goadrich)",
)
ax.plot(rows.recall, rows.precision, "o", color="tab:blue", ms=4, label="Table 1 points")
ax.set_xlim(0, 0.6)
ax.legend()
ax.set_title("Table 1: between A (0.25, 0.5) and B (0.5, 0.25)")
# %% [markdown]
# ## Figure 6: the effect of incorrect interpolation
#
# 433 positives, 56,164 negatives, and a classifier that finds 9 positives (recall
# 0.02) with no false positives before it can say nothing more: all other examples tie.
# The correct curve falls from precision 1 at recall 0.02 almost immediately to the
# prevalence; the straight line claims half of the square.

# %%
fig6 = pd.DataFrame(
    {
        "score": np.repeat([2.0, 1.0, 1.0], [9, 433 - 9, 56_164]),
        "label": np.repeat([1, 1, 0], [9, 433 - 9, 56_164]),
    }
)
areas = {
    m: prn.auc_pr(fig6.label, fig6.score, method=m) for m in ["dg", "integral", "trapezoid", "ap"]
}
pd.Series(areas, name="AUC-PR").to_frame()

# %%
# the paper: 0.031 at recall exactly 0.02 (8.66 of 433 positives); 9 positives give 0.030
assert abs(areas["dg"] - 0.031) < 0.0015
assert 0.50 <= areas["trapezoid"] < 0.52  # the paper: 0.50 (linear connection)

fig, ax = plt.subplots(figsize=(5.5, 4.5))
curve = prn.pr_curve(fig6, score="score", label="label")
pplot.plot_pr(
    curve,
    ax=ax,
    connect="line",
    color="tab:red",
    baseline=False,
    label=f"linear: AUC-PR {areas['trapezoid']:.2f}",
)
pplot.plot_pr(curve, ax=ax, color="tab:blue", label=f"correct: AUC-PR {areas['dg']:.3f}")
ax.set_title("Figure 6: one point, two interpolations")
# %% [markdown]
# ## Figure 5: the ROC convex hull and the achievable PR curve
#
# The convex hull in ROC space keeps the points no mixture of other thresholds can
# beat. Mapped to PR space (Theorem 3.1) and interpolated correctly, its vertices give
# the **achievable PR curve**, which dominates the raw PR curve (Corollary 3.1). The
# same points are dropped in both spaces.

# %%
rng = np.random.default_rng(5)
n_pos, n_neg = 40, 400
y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
# a classifier with a lumpy ranking: three score levels plus noise, ties included
score = np.round(np.r_[rng.normal(1.3, 1.0, n_pos), rng.normal(0, 1.0, n_neg)], 1)
data = pd.DataFrame({"score": score, "label": y})

roc = prn.roc_curve(data, score="score", label="label")
roc_hull = prn.roc_curve(data, score="score", label="label", hull=True)
pr = prn.pr_curve(data, score="score", label="label")
pr_hull = prn.pr_curve(data, score="score", label="label", hull=True)
print(
    f"{len(roc)} ROC points, {len(roc_hull)} on the hull; "
    f"{len(pr)} PR points, {len(pr_hull)} on the achievable curve"
)
# the hull keeps the same thresholds in both spaces
assert np.array_equal(roc_hull.threshold.to_numpy(), pr_hull.threshold.to_numpy())

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pplot.plot_roc(roc, hull=roc_hull, ax=ax1, label="ROC curve")
ax1.set_title("Figure 5(a): convex hull in ROC space")
pplot.plot_pr(pr, hull=pr_hull, ax=ax2, label="PR curve")
ax2.set_title("Figure 5(c): the achievable PR curve")
fig.tight_layout()

# %%
auc_table = pd.DataFrame(
    {
        "curve": ["raw", "hull / achievable"],
        "AUC-ROC": [prn.auc_roc(y, score), prn.auc_roc(y, score, hull=True)],
        "AUC-PR (dg)": [prn.auc_pr(y, score), prn.auc_pr(y, score, hull=True)],
    }
)
assert (auc_table.iloc[1, 1:] >= auc_table.iloc[0, 1:]).all()  # the hull dominates
auc_table


# %% [markdown]
# ### The tuning-set method (section 3)
#
# Picking hull points on the test data is itself fitting. The paper's remedy: choose the
# thresholds on a tuning set, then evaluate exactly those thresholds on the test set.
# `thresholds=` takes the hull frame of the tuning data directly.


# %%
def sample(n_pos, n_neg, seed):
    r = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "score": np.round(np.r_[r.normal(1.3, 1.0, n_pos), r.normal(0, 1.0, n_neg)], 1),
            "label": np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)],
        }
    )


tuning, test = sample(40, 400, seed=11), sample(40, 400, seed=12)
chosen = prn.roc_curve(tuning, score="score", label="label", hull=True)
on_test = prn.pr_curve(test, score="score", label="label", thresholds=chosen)
print(
    f"{len(chosen)} thresholds chosen on the tuning set:", np.round(chosen.threshold.to_numpy(), 1)
)
on_test[["threshold", "recall", "precision"]]

# %%
fig, ax = plt.subplots(figsize=(5.5, 4.5))
pplot.plot_pr(
    prn.pr_curve(test, score="score", label="label"),
    ax=ax,
    color="0.6",
    lw=1,
    label="test: all thresholds",
    baseline=False,
)
pplot.plot_pr(
    prn.pr_curve(test, score="score", label="label", hull=True),
    ax=ax,
    color="tab:orange",
    label="test: hull picked on test (optimistic)",
    baseline=False,
)
pplot.plot_pr(on_test, ax=ax, color="tab:blue", label="test: thresholds picked on tuning")
ax.plot(on_test.recall[1:], on_test.precision[1:], "o", color="tab:blue", ms=4)
ax.set_title("Hull thresholds from a tuning set")


# %% [markdown]
# ## Figure 7: AUC-ROC and AUC-PR can disagree
#
# Again 20 positives and 2000 negatives. Model I puts 11 positives at the very top and
# scatters the other 9 deep in the ranking; model II puts every positive just below the
# top 7 to 17% of the negatives. Model II wins in ROC space, model I wins -- by far -- in
# PR space, as in the paper (there: AUC-ROC 0.813 vs 0.875, AUC-PR 0.514 vs 0.038; our
# rankings give 0.813 vs 0.875 and 0.559 vs 0.035).


# %%
def ranking(neg_above, n_neg=2000):
    # scores that place each positive below exactly `neg_above[j]` negatives
    neg = -np.arange(n_neg, dtype=float)
    pos = -(np.asarray(neg_above, dtype=float) - 0.5)
    return np.r_[pos, neg], np.r_[np.ones(len(pos), int), np.zeros(n_neg, int)]


s1, y7 = ranking(np.r_[np.zeros(11), np.linspace(400, 1264, 9)])
s2, _ = ranking(np.linspace(150, 350, 20))
fig7 = pd.DataFrame({"model I": s1, "model II": s2, "label": y7})

roc_auc = prn.auc(fig7, score=["model I", "model II"], label="label", curve="roc")
pr_auc = prn.auc(fig7, score=["model I", "model II"], label="label", curve="pr")
summary = roc_auc.rename(columns={"auc": "AUC-ROC"}).assign(**{"AUC-PR": pr_auc.auc})
summary

# %%
assert summary["AUC-ROC"].idxmax() == 1 and summary["AUC-PR"].idxmax() == 0  # opposite
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pplot.plot_roc(
    prn.roc_curve(fig7, score=["model I", "model II"], label="label"), auc=roc_auc, ax=ax1
)
ax1.set_title("Figure 7(a): model II wins in ROC space")
pplot.plot_pr(prn.pr_curve(fig7, score=["model I", "model II"], label="label"), auc=pr_auc, ax=ax2)
ax2.set_title("Figure 7(b): model I wins in PR space")
fig.tight_layout()
