"""normalize=True: Boyd et al.'s normalised AUC-PR and the least area it subtracts.

The least area of each estimator is checked against its formula (the closed form of
Boyd et al. for the integral, their finite-sample sum for AP) and against a brute-force
minimum over every ranking -- ties included -- of small data sets, computed with the
slow references of ``tests/naive.py``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score

import prroc_numba as prn
from prroc_numba._core.pr_floor import min_area
from tests import naive

AREAS = {
    "ap": naive.average_precision,
    "dg": naive.dg_area,
    "integral": lambda tp, fp: naive.pr_integral_numeric(tp, fp, steps=400),
}


def _brute_minimum(P, N):
    """The least area of each estimator over every assignment of scores 0 .. n-1 to the
    rows (every ranking, with every pattern of ties)."""
    y = np.r_[np.ones(P), np.zeros(N)]
    best = dict.fromkeys(AREAS, math.inf)
    for scores in itertools.product(range(P + N), repeat=P + N):
        _, tp, fp = naive.sweep(scores, y, 1 - y)
        for k, f in AREAS.items():
            best[k] = min(best[k], f(tp, fp))
    return best


@pytest.mark.parametrize("P,N", [(1, 1), (1, 3), (2, 1), (2, 2), (3, 2), (2, 3)])
def test_least_area_is_the_brute_force_minimum_over_every_ranking(P, N):
    brute = _brute_minimum(P, N)
    for method, value in brute.items():
        # the integral reference is numeric (midpoint rule): 1e-6
        tol = 1e-6 if method == "integral" else 1e-12
        assert min_area(P, N, method) == pytest.approx(value, abs=tol), method


@pytest.mark.parametrize("P,N", [(1, 9), (5, 95), (30, 70), (400, 9600), (7, 3)])
def test_least_area_formulas(P, N):
    pi = P / (P + N)
    closed = 1 + (1 - pi) * math.log(1 - pi) / pi  # Boyd et al.'s closed form
    assert min_area(P, N, "integral") == pytest.approx(closed, rel=1e-12)
    ap = sum(i / (N + i) for i in range(1, P + 1)) / P  # their finite-sample minimum
    assert min_area(P, N, "ap") == pytest.approx(ap, rel=1e-12)
    # DG: trapezoids through (i / P, i / (N + i)), i = 0 .. P
    prec = [i / (N + i) for i in range(P + 1)]
    dg = sum((prec[i - 1] + prec[i]) / 2 for i in range(1, P + 1)) / P
    assert min_area(P, N, "dg") == pytest.approx(dg, rel=1e-12)
    # the AP minimum tends to the closed form from above
    assert min_area(P, N, "ap") >= closed


def _frame(n=600, seed=0, prevalence=0.15):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    return pd.DataFrame({"y": y, "a": y + rng.normal(size=n), "b": 0.3 * y + rng.normal(size=n)})


@pytest.mark.parametrize("method", ["ap", "dg", "integral"])
def test_auc_normalize_is_the_raw_area_rescaled(method):
    df = _frame()
    raw = prn.auc(df, score=["a", "b"], label="y", method=method)
    norm = prn.auc(df, score=["a", "b"], label="y", method=method, normalize=True)
    P, N = int(df.y.sum()), int((1 - df.y).sum())
    m = min_area(P, N, method)
    np.testing.assert_allclose(norm.auc, (raw.auc - m) / (1 - m), rtol=1e-12)
    assert (norm["method"] == f"{method}, normalized").all()
    if method == "ap":  # and against scikit-learn
        sk = [average_precision_score(df.y, df[c]) for c in ("a", "b")]
        pi = df.y.mean()
        ap_min = sum(i / (N + i) for i in range(1, P + 1)) / P
        np.testing.assert_allclose(norm.auc, (np.array(sk) - ap_min) / (1 - ap_min))
        assert 0 < ap_min < pi  # below the no-skill level: the unachievable region


@pytest.mark.parametrize("method", ["ap", "dg", "integral"])
def test_normalized_worst_ranking_is_zero_and_perfect_one(method):
    y = np.r_[np.zeros(7), np.ones(3)]
    worst = prn.auc(score=np.arange(10.0)[::-1], label=y, method=method, normalize=True)
    best = prn.auc(score=np.arange(10.0), label=y, method=method, normalize=True)
    assert worst.auc.iloc[0] == pytest.approx(0.0, abs=1e-12)
    assert best.auc.iloc[0] == pytest.approx(1.0, abs=1e-12)


def test_bootstrap_normalize_rescales_every_replicate():
    df = _frame(800, seed=2)
    kw = {"score": ["a", "b"], "label": "y", "n_boot": 200, "seed": 1}
    raw, raw_reps = prn.bootstrap(df, **kw, return_replicates=True)
    norm, norm_reps = prn.bootstrap(df, **kw, normalize=True, return_replicates=True)
    P, N = int(df.y.sum()), int((1 - df.y).sum())
    m = min_area(P, N, "dg")
    np.testing.assert_allclose(norm_reps.estimate, (raw_reps.estimate - m) / (1 - m))
    np.testing.assert_allclose(norm.estimate, (raw.estimate - m) / (1 - m))
    np.testing.assert_allclose(norm.ci_low, (raw.ci_low - m) / (1 - m))
    assert (norm["method"] == "dg, normalized").all()


def test_compare_normalize_differences_are_of_normalized_areas():
    df = _frame(800, seed=3)
    kw = {"score": ["a", "b"], "label": "y", "n_boot": 200, "seed": 1, "method": "ap"}
    res = prn.compare(df, **kw, normalize=True)
    auc = prn.auc(df, score=["a", "b"], label="y", method="ap", normalize=True).auc
    assert res["diff"].iloc[0] == pytest.approx(auc.iloc[0] - auc.iloc[1], rel=1e-12)
    raw = prn.compare(df, **kw)
    P, N = int(df.y.sum()), int((1 - df.y).sum())
    m = min_area(P, N, "ap")
    assert res.ci_low.iloc[0] == pytest.approx(raw.ci_low.iloc[0] / (1 - m), rel=1e-9)


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"curve": "roc"}, "curve='roc'"),
        ({"method": "trapezoid"}, "method='trapezoid'"),
        ({"hull": True}, "hull="),
        ({"stratified": False}, "class counts fixed"),
        ({"resampling": "poisson", "stratified": False}, "class counts fixed"),
        ({"weight": "w"}, "class counts fixed"),
        ({"interval": "bca"}, "BCa"),
    ],
)
def test_bootstrap_normalize_refusals(kw, match):
    df = _frame(200).assign(w=np.linspace(0.5, 1.5, 200))
    with pytest.raises(ValueError, match=match):
        prn.bootstrap(df, score="a", label="y", n_boot=50, normalize=True, **kw)


def test_auc_normalize_refuses_weights():
    df = _frame(200).assign(w=np.linspace(0.5, 1.5, 200))
    with pytest.raises(ValueError, match="whole class counts"):
        prn.auc(df, score="a", label="y", weight="w", normalize=True)
