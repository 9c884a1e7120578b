"""Davis & Goadrich (2006) reproduced (issue 3): Table 1, Figure 6, Theorem 3.2,
Corollary 3.1 and the tuning-set method.

The expected numbers are the paper's (and the AUCCalculator jar's, see
tests/data/README.md); dominance is checked with ``naive.polyline_range``.
"""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import load_case

import prroc_numba as prn


@pytest.mark.parametrize("hull", [False, True])
def test_table1(hull):
    """Table 1: A = (TP 5, FP 5), B = (TP 10, FP 30), 20 positives, 2000 negatives."""
    case = load_case("c15_dg_table1")
    pts = prn.pr_curve(case.frame, score="score", label="label", hull=hull, interpolate="dg")
    ab = pts[(pts["tp"] >= 5) & (pts["tp"] <= 10)]
    assert list(ab["tp"]) == [5, 6, 7, 8, 9, 10]
    assert list(ab["fp"]) == [5, 10, 15, 20, 25, 30]
    assert list(ab["recall"].round(2)) == [0.25, 0.30, 0.35, 0.40, 0.45, 0.50]
    assert list(ab["precision"].round(3)) == [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]
    # A and B are vertices (thresholds 3 and 2), the four between are interpolated
    assert list(ab["threshold"].isna()) == [False, True, True, True, True, False]
    assert list(ab["threshold"].dropna()) == [3.0, 2.0]


def _figure6():
    # 433 positives, 56,164 negatives: 9 positives on top (recall 0.0208, precision 1),
    # everything else tied below
    P, N = 433, 56164
    y = np.r_[np.ones(P), np.zeros(N)]
    s = np.r_[np.full(9, 2.0), np.ones(P - 9 + N)]
    return y, s, P, N


def test_figure6_correct_interpolation_vs_straight_line():
    y, s, P, N = _figure6()
    dg = prn.auc_pr(y, s, method="dg")
    integral = prn.auc_pr(y, s, method="integral")
    trapezoid = prn.auc_pr(y, s, method="trapezoid")
    assert dg == pytest.approx(0.0303, abs=5e-5)  # the AUCCalculator jar
    assert integral == pytest.approx(0.03, abs=2e-3)  # paper: 0.031
    assert trapezoid == pytest.approx(0.50, abs=0.02)  # paper: 0.50
    # the straight line from (9/433, 1) to (1, P / (P + N)), with the (0, 1) end point
    assert trapezoid == pytest.approx(9 / P + (1 - 9 / P) * (1 + P / (P + N)) / 2, abs=1e-12)
    # the curve is already its own hull
    assert prn.auc_pr(y, s, method="dg", hull=True) == pytest.approx(dg, abs=1e-15)


def _roc_dominates(a, b, eps=1e-12):
    """Does ROC polyline a (fpr, tpr columns) dominate b, where both are defined? Compares
    the one-sided limits (lowest, highest tpr) at every breakpoint of either curve; both
    curves are linear between them."""
    ax, ay, bx, by_ = (
        a["fpr"].to_numpy(),
        a["tpr"].to_numpy(),
        b["fpr"].to_numpy(),
        b["tpr"].to_numpy(),
    )
    xs = np.union1d(ax, bx)
    for x in xs[xs <= min(ax[-1], bx[-1])]:
        alo, ahi = naive.polyline_range(ax, ay, x)
        blo, bhi = naive.polyline_range(bx, by_, x)
        if blo > alo + eps or bhi > ahi + eps:
            return False
    return True


def _pr_dominates(a, b, eps=1e-12):
    """Does PR curve a dominate b? Each curve is its points (recall, FP / P) joined with
    FP linear in TP (the correct PR interpolation); precision at recall r > 0 is
    r / (r + FP / P). Compared at every breakpoint r > 0 of either curve (lowest and
    highest precision there) and just above recall 0."""

    def curve(c):
        return c["recall"].to_numpy(), c["fp"].to_numpy() / c["tp"].to_numpy()[-1]

    ar, af = curve(a)
    br, bf = curve(b)
    rs = np.union1d(ar, br)
    rs = rs[(rs > 0) & (rs <= min(ar[-1], br[-1]))]
    rs = np.r_[rs[0] * 1e-6, rs]
    for r in rs:
        alo, ahi = naive.polyline_range(ar, af, r)  # lowest FP = highest precision
        blo, bhi = naive.polyline_range(br, bf, r)
        pa_hi, pa_lo = r / (r + alo), r / (r + ahi)
        pb_hi, pb_lo = r / (r + blo), r / (r + bhi)
        if pb_hi > pa_hi + eps or pb_lo > pa_lo + eps:
            return False
    return True


def _pair(rng, n, kind):
    y = np.r_[np.ones(max(2, n // 3)), np.zeros(n - max(2, n // 3))]
    a = np.round(rng.normal(size=n) + y, int(rng.integers(0, 2)))
    if kind == "improved":
        b = a.copy()
        up = rng.random(n) < 0.3
        b[up & (y == 1)] += rng.uniform(0, 2, size=(up & (y == 1)).sum())
        b = np.round(b, 1)
        return y, b, a  # b dominates a
    b = np.round(rng.normal(size=n) + y * rng.uniform(0, 2), int(rng.integers(0, 2)))
    return y, a, b


def test_theorem_3_2_dominance_in_roc_iff_in_pr():
    rng = np.random.default_rng(32)
    frames = []
    for i in range(60):
        y, sa, sb = _pair(rng, int(rng.integers(6, 40)), "improved" if i % 2 else "random")
        frames.append(pd.DataFrame({"pair": i, "y": y, "a": sa, "b": sb}))
    df = pd.concat(frames, ignore_index=True)
    seen = set()
    for hull in (False, True):
        kw = dict(score=["a", "b"], label="y", by="pair", hull=hull)
        roc = dict(iter(prn.roc_curve(df, **kw).groupby(["pair", "model"])))
        pr = dict(iter(prn.pr_curve(df, **kw).groupby(["pair", "model"])))
        for i in range(60):
            for m1, m2 in [("a", "b"), ("b", "a")]:
                in_roc = _roc_dominates(roc[i, m1], roc[i, m2])
                assert in_roc == _pr_dominates(pr[i, m1], pr[i, m2])
                seen.add(in_roc)
    assert seen == {True, False}  # both outcomes were exercised


@pytest.mark.parametrize(
    "name",
    [
        "c03_n200_r20",
        "c05_n5000_r20_ties",
        "rand02_n1000_1to1_round2",
        "edge_top_group_two_negatives",
    ],
)
def test_corollary_3_1_achievable_curve_dominates(name):
    case = load_case(name)
    kw = dict(score="score", label="label")
    raw_roc, hull_roc = prn.roc_curve(case.frame, **kw), prn.roc_curve(case.frame, hull=True, **kw)
    assert _roc_dominates(hull_roc, raw_roc)
    assert _pr_dominates(prn.pr_curve(case.frame, hull=True, **kw), prn.pr_curve(case.frame, **kw))
    # the points it drops are exactly those under the ROC hull (same thresholds in both)
    hull_pr = prn.pr_curve(case.frame, hull=True, **kw)
    np.testing.assert_array_equal(hull_pr["threshold"], hull_roc["threshold"])
    np.testing.assert_array_equal(hull_pr[["tp", "fp"]], hull_roc[["tp", "fp"]])


def test_tuning_set_method():
    """Section 3, last paragraphs: thresholds from the tuning hull, curves on test data."""
    rng = np.random.default_rng(6)
    n = 3000
    y = (rng.random(2 * n) < 0.1).astype(float)
    s = np.round(rng.normal(size=2 * n) + 1.5 * y, 1)
    tune = {"score": s[:n], "label": y[:n]}
    test = {"score": s[n:], "label": y[n:]}
    hull = prn.roc_curve(score=tune["score"], label=tune["label"], hull=True)
    roc = prn.roc_curve(score=test["score"], label=test["label"], thresholds=hull)
    assert list(roc["threshold"]) == list(hull["threshold"])
    # the test curve at the tuning thresholds lies under the test data's own hull and
    # its area is at most that hull's
    own = prn.roc_curve(score=test["score"], label=test["label"], hull=True)
    assert _roc_dominates(own, roc)
    assert (
        np.trapezoid(roc["tpr"], roc["fpr"])
        <= prn.auc_roc(test["label"], test["score"], hull=True) + 1e-12
    )
