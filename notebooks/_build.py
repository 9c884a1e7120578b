"""Write the example notebooks (clean, no outputs) from the cell sources below.

    python notebooks/_build.py            # write the .ipynb files
    python notebooks/_build.py --execute  # and run them in place (outputs kept)

The notebooks are executed top to bottom by ``tests/test_notebooks.py``; keep their
data small (each runs in well under a minute once the Numba cache is warm).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent


def notebook(cells):
    nb = new_notebook()
    nb.cells = [
        new_markdown_cell(src.strip()) if kind == "md" else new_code_cell(src.strip())
        for kind, src in cells
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    return nb


# --------------------------------------------------------------------------- (a) paper

PAPER = [
    (
        "md",
        r"""
# The paper, reproduced: Davis & Goadrich (2006)

*The Relationship Between Precision-Recall and ROC Curves* (ICML 2006) makes four
points. Each is one or two calls here:

1. **Table 1** -- how to interpolate between two PR points (not linearly);
2. **Figure 6** -- what linear interpolation does to the area (0.50 instead of 0.031);
3. **Figure 5** -- the ROC convex hull and its PR twin, the *achievable PR curve*;
4. **Figure 7** -- AUC-ROC and AUC-PR can rank two models in opposite order.
""",
    ),
    (
        "code",
        r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

import prroc_numba as prn
from prroc_numba import plot as pplot

pd.set_option("display.precision", 3)
""",
    ),
    (
        "md",
        r"""
## Table 1: correct interpolation between two points

20 positives and 2000 negatives. Point A has TP=5, FP=5; point B has TP=10, FP=30. We
build scores that produce exactly these points: 5 positives and 5 negatives tied at the
top score, 5 positives and 25 negatives at the next score, everything else below.
""",
    ),
    (
        "code",
        r"""
table1 = pd.DataFrame({
    "score": np.repeat([3.0, 3.0, 2.0, 2.0, 1.0, 1.0], [5, 5, 5, 25, 10, 1970]),
    "label": np.repeat([1, 0, 1, 0, 1, 0], [5, 5, 5, 25, 10, 1970]),
})
pts = prn.pr_curve(table1, score="score", label="label", interpolate="dg")
rows = pts[(pts.tp >= 5) & (pts.tp <= 10)][["tp", "fp", "recall", "precision"]]
rows.reset_index(drop=True)
""",
    ),
    (
        "md",
        r"""
Between A and B the local skew is (30 - 5) / (10 - 5) = 5 negatives per positive, so
each extra true positive brings 5 false positives: the rows with `threshold` NaN are
the paper's intermediate points. Precision falls 0.500, 0.375, 0.318, 0.286, 0.265,
0.250 -- not linearly.
""",
    ),
    (
        "code",
        r"""
paper = pd.DataFrame({"tp": [5, 6, 7, 8, 9, 10], "fp": [5, 10, 15, 20, 25, 30],
                      "recall": [0.25, 0.30, 0.35, 0.40, 0.45, 0.50],
                      "precision": [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]})
np.testing.assert_allclose(rows.to_numpy(float), paper.to_numpy(float), atol=5e-4)
print("Table 1 reproduced")
""",
    ),
    (
        "code",
        r"""
vertices = prn.pr_curve(table1, score="score", label="label")
fig, ax = plt.subplots(figsize=(5.5, 4.5))
pplot.plot_pr(vertices, ax=ax, connect="line", color="tab:red", lw=1, baseline=False,
              label="linear (wrong)")
pplot.plot_pr(vertices, ax=ax, connect="curve", color="tab:blue", baseline=False,
              label="interpolated (Davis & Goadrich)")
ax.plot(rows.recall, rows.precision, "o", color="tab:blue", ms=4, label="Table 1 points")
ax.set_xlim(0, 0.6)
ax.legend()
ax.set_title("Table 1: between A (0.25, 0.5) and B (0.5, 0.25)");
""",
    ),
    (
        "md",
        r"""
## Figure 6: the effect of incorrect interpolation

433 positives, 56,164 negatives, and a classifier that finds 9 positives (recall
0.02) with no false positives before it can say nothing more: all other examples tie.
The correct curve falls from precision 1 at recall 0.02 almost immediately to the
prevalence; the straight line claims half of the square.
""",
    ),
    (
        "code",
        r"""
fig6 = pd.DataFrame({
    "score": np.repeat([2.0, 1.0, 1.0], [9, 433 - 9, 56_164]),
    "label": np.repeat([1, 1, 0], [9, 433 - 9, 56_164]),
})
areas = {m: prn.auc_pr(fig6.label, fig6.score, method=m)
         for m in ["dg", "integral", "trapezoid", "ap"]}
pd.Series(areas, name="AUC-PR").to_frame()
""",
    ),
    (
        "code",
        r"""
# the paper: 0.031 at recall exactly 0.02 (8.66 of 433 positives); 9 positives give 0.030
assert abs(areas["dg"] - 0.031) < 0.0015
assert 0.50 <= areas["trapezoid"] < 0.52      # the paper: 0.50 (linear connection)

fig, ax = plt.subplots(figsize=(5.5, 4.5))
curve = prn.pr_curve(fig6, score="score", label="label")
pplot.plot_pr(curve, ax=ax, connect="line", color="tab:red", baseline=False,
              label=f"linear: AUC-PR {areas['trapezoid']:.2f}")
pplot.plot_pr(curve, ax=ax, color="tab:blue", label=f"correct: AUC-PR {areas['dg']:.3f}")
ax.set_title("Figure 6: one point, two interpolations");
""",
    ),
    (
        "md",
        r"""
## Figure 5: the ROC convex hull and the achievable PR curve

The convex hull in ROC space keeps the points no mixture of other thresholds can
beat. Mapped to PR space (Theorem 3.1) and interpolated correctly, its vertices give
the **achievable PR curve**, which dominates the raw PR curve (Corollary 3.1). The
same points are dropped in both spaces.
""",
    ),
    (
        "code",
        r"""
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
print(f"{len(roc)} ROC points, {len(roc_hull)} on the hull; "
      f"{len(pr)} PR points, {len(pr_hull)} on the achievable curve")
# the hull keeps the same thresholds in both spaces
assert np.array_equal(roc_hull.threshold.to_numpy(), pr_hull.threshold.to_numpy())
""",
    ),
    (
        "code",
        r"""
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pplot.plot_roc(roc, hull=roc_hull, ax=ax1, label="ROC curve")
ax1.set_title("Figure 5(a): convex hull in ROC space")
pplot.plot_pr(pr, hull=pr_hull, ax=ax2, label="PR curve")
ax2.set_title("Figure 5(c): the achievable PR curve")
fig.tight_layout()
""",
    ),
    (
        "code",
        r"""
auc_table = pd.DataFrame({
    "curve": ["raw", "hull / achievable"],
    "AUC-ROC": [prn.auc_roc(y, score), prn.auc_roc(y, score, hull=True)],
    "AUC-PR (dg)": [prn.auc_pr(y, score), prn.auc_pr(y, score, hull=True)],
})
assert (auc_table.iloc[1, 1:] >= auc_table.iloc[0, 1:]).all()   # the hull dominates
auc_table
""",
    ),
    (
        "md",
        r"""
### The tuning-set method (section 3)

Picking hull points on the test data is itself fitting. The paper's remedy: choose the
thresholds on a tuning set, then evaluate exactly those thresholds on the test set.
`thresholds=` takes the hull frame of the tuning data directly.
""",
    ),
    (
        "code",
        r"""
def sample(n_pos, n_neg, seed):
    r = np.random.default_rng(seed)
    return pd.DataFrame({
        "score": np.round(np.r_[r.normal(1.3, 1.0, n_pos), r.normal(0, 1.0, n_neg)], 1),
        "label": np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]})

tuning, test = sample(40, 400, seed=11), sample(40, 400, seed=12)
chosen = prn.roc_curve(tuning, score="score", label="label", hull=True)
on_test = prn.pr_curve(test, score="score", label="label", thresholds=chosen)
print(f"{len(chosen)} thresholds chosen on the tuning set:",
      np.round(chosen.threshold.to_numpy(), 1))
on_test[["threshold", "recall", "precision"]]
""",
    ),
    (
        "code",
        r"""
fig, ax = plt.subplots(figsize=(5.5, 4.5))
pplot.plot_pr(prn.pr_curve(test, score="score", label="label"), ax=ax, color="0.6", lw=1,
              label="test: all thresholds", baseline=False)
pplot.plot_pr(prn.pr_curve(test, score="score", label="label", hull=True), ax=ax,
              color="tab:orange", label="test: hull picked on test (optimistic)",
              baseline=False)
pplot.plot_pr(on_test, ax=ax, color="tab:blue", label="test: thresholds picked on tuning")
ax.plot(on_test.recall[1:], on_test.precision[1:], "o", color="tab:blue", ms=4)
ax.set_title("Hull thresholds from a tuning set");
""",
    ),
    (
        "md",
        r"""
## Figure 7: AUC-ROC and AUC-PR can disagree

Again 20 positives and 2000 negatives. Model I puts 11 positives at the very top and
scatters the other 9 deep in the ranking; model II puts every positive just below the
top 7 to 17% of the negatives. Model II wins in ROC space, model I wins -- by far -- in
PR space, as in the paper (there: AUC-ROC 0.813 vs 0.875, AUC-PR 0.514 vs 0.038; our
rankings give 0.813 vs 0.875 and 0.559 vs 0.035).
""",
    ),
    (
        "code",
        r"""
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
""",
    ),
    (
        "code",
        r"""
assert summary["AUC-ROC"].idxmax() == 1 and summary["AUC-PR"].idxmax() == 0  # opposite
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pplot.plot_roc(prn.roc_curve(fig7, score=["model I", "model II"], label="label"),
               auc=roc_auc, ax=ax1)
ax1.set_title("Figure 7(a): model II wins in ROC space")
pplot.plot_pr(prn.pr_curve(fig7, score=["model I", "model II"], label="label"),
              auc=pr_auc, ax=ax2)
ax2.set_title("Figure 7(b): model I wins in PR space")
fig.tight_layout()
""",
    ),
]


# ------------------------------------------------------------- (b) many models, skewed

MANY = [
    (
        "md",
        r"""
# Comparing many models on a skewed dataset

Six classifiers scored on the same 8,000 examples, 3% positives -- the setting where
ROC curves look reassuring and PR curves tell the truth. This notebook shows the whole
evaluation in a few calls, all models at once:

1. AUC-PR by the four estimators (and why the linear trapezoid is not one to report);
2. PR and ROC curves of every model, with iso-F1 lines and the no-skill baseline;
3. bootstrap confidence intervals (paired: every model sees the same resampled rows);
4. paired comparisons against a baseline model, with adjusted p-values;
5. pointwise bootstrap bands around the PR curves.
""",
    ),
    (
        "code",
        r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

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
data["scorecard"] = np.round(1.6 * y + rng.standard_normal(n))      # 7 distinct scores
data["heuristic"] = 0.9 * y + rng.standard_normal(n)
data["baseline"] = 0.5 * y + rng.standard_normal(n)
models = ["boosting", "forest", "logistic", "scorecard", "heuristic", "baseline"]
print(f"{n} rows, {y.sum()} positives ({y.mean():.1%})")
""",
    ),
    (
        "md",
        r"""
## AUC-PR by four estimators

`dg` (Davis & Goadrich, the default) and `integral` follow the correctly interpolated
curve; `ap` is scikit-learn's average precision (steps); `trapezoid` joins the points
with straight lines in PR space -- too high, most visibly for the coarse `scorecard`,
whose few points are far apart.
""",
    ),
    (
        "code",
        r"""
table = pd.concat({m: prn.auc(data, score=models, label="label", method=m).set_index("model")["auc"]
                   for m in ["dg", "integral", "ap", "trapezoid"]}, axis=1)
table["AUC-ROC"] = prn.auc(data, score=models, label="label", curve="roc")["auc"].to_numpy()
assert table.loc["scorecard", "trapezoid"] > table.loc["scorecard", "integral"] + 0.03
table
""",
    ),
    (
        "code",
        r"""
pr = prn.pr_curve(data, score=models, label="label")
roc = prn.roc_curve(data, score=models, label="label")
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
pplot.plot_pr(pr, ax=ax1, iso_f1=True, auc=prn.auc(data, score=models, label="label"))
ax1.set_title("PR: the differences are large")
pplot.plot_roc(roc, ax=ax2, auc=prn.auc(data, score=models, label="label", curve="roc"))
ax2.set_title("ROC: every model looks fine")
fig.tight_layout()
""",
    ),
    (
        "md",
        r"""
## Bootstrap confidence intervals

`bootstrap` resamples rows 1,000 times (stratified by default: the class counts stay
fixed, so the interval is for AUC-PR at this prevalence -- right for a fixed test set;
pass `stratified=False` when the prevalence itself was sampled). Wide input is
resampled **paired**: all six models see the same rows in each replicate.
""",
    ),
    (
        "code",
        r"""
boot = prn.bootstrap(data, score=models, label="label", n_boot=1000, seed=1)
assert (boot.ci_low <= boot.estimate).all() and (boot.estimate <= boot.ci_high).all()
boot
""",
    ),
    (
        "code",
        r"""
fig, ax = plt.subplots(figsize=(6, 3.5))
pplot.plot_intervals(boot, ax=ax)
ax.set_title("AUC-PR (dg) with 95% bootstrap intervals")
fig.tight_layout()
""",
    ),
    (
        "md",
        r"""
## Paired comparisons against the baseline

Because the replicates are paired, the difference between two models is bootstrapped
directly -- much tighter than comparing two separate intervals. `compare` tests every
model against `baseline=` (or all pairs) and adjusts the p-values (Holm).
""",
    ),
    (
        "code",
        r"""
cmp = prn.compare(data, score=models, label="label", n_boot=1000, seed=1, baseline="baseline")
cmp
""",
    ),
    (
        "code",
        r"""
fig, ax = plt.subplots(figsize=(6, 3.5))
pplot.plot_intervals(cmp, ax=ax)
ax.set_title("AUC-PR difference to the baseline model")
fig.tight_layout()
""",
    ),
    (
        "md",
        r"""
## Pointwise bands around the PR curves

`bootstrap_curve` puts every replicate's curve on a shared recall grid (correct PR
interpolation) and returns pointwise percentile bands. At recall 0 a curve takes its
flat-start value: the precision of its first step, 0 when the top-scored example is a
negative (as PRROC).
""",
    ),
    (
        "code",
        r"""
bands = prn.bootstrap_curve(data, score=["boosting", "logistic", "heuristic"], label="label",
                            n_boot=300, seed=1, grid=101)
fig, ax = plt.subplots(figsize=(6, 4.5))
pplot.plot_bands(bands, ax=ax, baseline=y.mean())
pplot.add_iso_f1(ax, levels=[0.3, 0.5])
ax.set_title("PR curves with 95% pointwise bands");
""",
    ),
    (
        "md",
        r"""
The same figure pieces compose by hand: `add_no_skill` draws the prevalence line (PR)
or the diagonal (ROC), `add_iso_f1` the F1 contours, on any axes.
""",
    ),
    (
        "code",
        r"""
fig, ax = plt.subplots(figsize=(5, 4))
pplot.add_iso_f1(ax, levels=[0.2, 0.4, 0.6, 0.8])
pplot.add_no_skill(ax, prevalence=y.mean())
pplot.plot_pr(pr[pr.model == "scorecard"], ax=ax, connect="step", baseline=False,
              label="steps (AP)", color="tab:gray")
pplot.plot_pr(pr[pr.model == "scorecard"], ax=ax, connect="line", baseline=False,
              label="straight lines (trapezoid)", color="tab:red")
pplot.plot_pr(pr[pr.model == "scorecard"], ax=ax, baseline=False,
              label="interpolated (dg / integral)", color="tab:blue")
ax.set_title("One coarse model, three readings");
""",
    ),
]


# -------------------------------------------------------------- (c) curves as points

POINTS = [
    (
        "md",
        r"""
# Curves given as points: pr2roc's job, done right

Often there are no scores, only a curve: a PR table from a paper, operating points
exported by another tool, a vendor's report. With the class counts (or only their
ratio) every PR point with recall > 0 is one confusion matrix (Davis & Goadrich 2006,
Theorem 3.1), so the curve can be moved to ROC space, hulled, resampled correctly
and integrated -- without ever drawing a straight line in PR space.

`PRCurve` and `ROCCurve` do this for one curve; `interpolate` and `average_curves`
for thousands at once.
""",
    ),
    (
        "code",
        r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

import prroc_numba as prn
from prroc_numba import plot as pplot

pd.set_option("display.precision", 4)
""",
    ),
    (
        "md",
        r"""
## A PR table from a paper

Five operating points reported for a model evaluated on 20 positives and 2000
negatives (the setting of the paper's Table 1).
""",
    ),
    (
        "code",
        r"""
reported = pd.DataFrame({"recall": [0.1, 0.25, 0.35, 0.5, 0.8],
                         "precision": [1.0, 0.5, 0.2, 0.25, 0.05]})
curve = prn.PRCurve(reported, n_pos=20, n_neg=2000)
curve
""",
    ),
    (
        "code",
        r"""
roc = curve.to_roc()
print("the same points in ROC space:\n", roc.points().round(4))
# round trip: ROC back to PR gives the points we started from
np.testing.assert_allclose(roc.to_pr().points()[1:-1], reported.to_numpy(), atol=1e-12)
""",
    ),
    (
        "md",
        r"""
Between two reported points the curve is **not** the straight line: TP and FP grow
together. `precision_at` evaluates the correct curve anywhere and `auc` integrates it.
The point (0.35, 0.2) lies under the ROC convex hull: the *achievable* curve
(`hull=True`) skips it and runs from (0.25, 0.5) to (0.5, 0.25) -- through exactly the
paper's Table 1 points.
""",
    ),
    (
        "code",
        r"""
print(curve.precision_at([0.3, 0.35, 0.4, 0.45]).round(3))
achievable = curve.precision_at([0.3, 0.35, 0.4, 0.45], hull=True).round(3)
print(achievable)
assert achievable.tolist() == [0.375, 0.318, 0.286, 0.265]   # Table 1
areas = {m: curve.auc(m) for m in ["dg", "integral", "trapezoid"]}
areas["achievable (hull, dg)"] = curve.auc("dg", hull=True)
assert areas["trapezoid"] > areas["integral"]
pd.Series(areas, name="AUC-PR").to_frame()
""",
    ),
    (
        "code",
        r"""
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
pts = curve.to_frame()
pplot.plot_pr(pts, ax=ax1, connect="line", color="tab:red", baseline=False,
              label="straight lines (wrong)")
pplot.plot_pr(pts, ax=ax1, hull=curve.hull().to_frame(), color="tab:blue",
              label="interpolated")
ax1.plot(reported.recall, reported.precision, "ko", ms=4, label="reported points")
ax1.legend(fontsize=8)
ax1.set_title("The reported PR points")
rocf = roc.to_frame()
pplot.plot_roc(rocf, ax=ax2, hull=roc.hull().to_frame(), label="reported points")
ax2.set_xlim(-0.002, 0.2)
ax2.set_title("The same points in ROC space (FPR up to 0.2)")
fig.tight_layout()
""",
    ),
    (
        "md",
        r"""
## Where pr2roc goes wrong

* a point at recall 0 (e.g. `(0, 1)`): it is the ROC origin, whatever its precision;
* points that cannot come from one data set (precision below the prevalence, or FP
  falling as TP grows): a clear error naming the point, never a silent curve;
* only the ratio of positives to negatives known: `pos_neg_ratio=` (rates are
  scale-free; the `dg` estimator, which steps one positive at a time, then asks for
  counts).
""",
    ),
    (
        "code",
        r"""
with_origin = prn.PRCurve([(0.0, 1.0), (0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
print(with_origin.to_roc().points().round(4))

try:
    prn.PRCurve([(0.25, 0.5), (0.5, 0.001)], n_pos=20, n_neg=2000)
except ValueError as err:
    print("ValueError:", err)

ratio_only = prn.PRCurve(reported, pos_neg_ratio=20 / 2000)
print("integral with only the ratio:", round(ratio_only.auc("integral"), 6),
      "== with counts:", round(curve.auc("integral"), 6))
assert np.isclose(ratio_only.auc("integral"), curve.auc("integral"))
""",
    ),
    (
        "md",
        r"""
## Thousands of curves onto one grid

Cross-validation folds, bootstrap replicates, models: `interpolate` puts every curve
of a tidy frame on a shared recall grid (correctly interpolated) in one kernel call,
and `average_curves` summarises them at each grid point (vertical averaging).
""",
    ),
    (
        "code",
        r"""
rng = np.random.default_rng(7)
folds = []
for fold in range(20):
    n = 1500
    y = (rng.random(n) < 0.05).astype(int)
    folds.append(pd.DataFrame({"fold": fold, "label": y,
                               "score": rng.standard_normal(n) + 1.4 * y}))
folds = pd.concat(folds, ignore_index=True)
fold_curves = prn.pr_curve(folds, score="score", label="label", by="fold")
on_grid = prn.interpolate(fold_curves, grid=101, by="fold")
print(len(fold_curves), "points of 20 curves ->", on_grid.shape[0], "grid rows")
on_grid.head()
""",
    ),
    (
        "code",
        r"""
avg = prn.average_curves(fold_curves, grid=101, curve="fold")
fig, ax = plt.subplots(figsize=(6, 4.5))
pplot.plot_pr(fold_curves, ax=ax, color="0.8", lw=0.6, legend=False, baseline=False)
pplot.plot_bands(avg, ax=ax, low="q0.025", high="q0.975", baseline=folds.label.mean(),
                 color="tab:blue")
ax.set_title("20 folds: mean curve and 95% range");
""",
    ),
]


NOTEBOOKS = {
    "01_paper_reproduced.ipynb": PAPER,
    "02_many_models.ipynb": MANY,
    "03_points_only.ipynb": POINTS,
}


def main(argv):
    for name, cells in NOTEBOOKS.items():
        nbformat.write(notebook(cells), HERE / name)
        print("wrote", HERE / name)
    if "--execute" in argv:
        import os

        from nbclient import NotebookClient

        # the kernel imports this checkout's package
        root = str(HERE.parent)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH")) if p
        )

        for name in NOTEBOOKS:
            nb = nbformat.read(HERE / name, as_version=4)
            NotebookClient(
                nb, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(HERE)}}
            ).execute()
            nbformat.write(nb, HERE / name)
            print("executed", HERE / name)


if __name__ == "__main__":
    main(sys.argv[1:])
