"""auc_ci: Boyd et al.'s (2013) closed forms computed by hand, DeLong against pROC."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.conftest import CASE_NAMES, load_case

PROC_CASES = [n for n in CASE_NAMES if "proc" in load_case(n).ref]


def _z(level):
    # the normal quantile by bisection on erf (independent of statistics.NormalDist)
    lo, hi = 0.0, 10.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < 1 - (1 - level) / 2:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _boyd(theta, n, level, ci):
    z = _z(level)
    if ci == "binomial":
        h = z * math.sqrt(theta * (1 - theta) / n)
        return max(0.0, theta - h), min(1.0, theta + h)
    eta = math.log(theta / (1 - theta))
    tau = 1 / math.sqrt(n * theta * (1 - theta))
    return (1 / (1 + math.exp(-(eta - z * tau))), 1 / (1 + math.exp(-(eta + z * tau))))


@pytest.mark.parametrize("ci", ["logit", "binomial"])
@pytest.mark.parametrize("level", [0.9, 0.95])
@pytest.mark.parametrize(
    "name", ["c03_n200_r20", "c04_n5000_r1", "c06_n5000_r200", "c13_n5000_r20_paired"]
)
def test_boyd_formulas_on_the_oracle_cases(name, level, ci):
    case = load_case(name)
    res = prn.auc_ci(
        case.frame, score=case.scores, label="label", ci=ci, level=level, method="integral"
    )
    n_pos = int(case.frame["label"].sum())
    for i, col in enumerate(case.scores):
        theta = case.ref["prroc"]["hard"][col]["pr_auc_integral"]  # PRROC's estimate
        row = res.iloc[i] if len(case.scores) > 1 else res.iloc[0]
        assert row["estimate"] == pytest.approx(theta, abs=1e-12)
        lo, hi = _boyd(theta, n_pos, level, ci)
        assert row["ci_low"] == pytest.approx(lo, abs=1e-12)
        assert row["ci_high"] == pytest.approx(hi, abs=1e-12)


def test_hand_numbers():
    # theta = 0.5, n = 25, z(0.95) = 1.959964: binomial 0.5 +- 1.959964 * 0.1
    y = np.r_[np.ones(25), np.zeros(25)]  # all tied: every estimator gives 0.5
    res = prn.auc_ci(score=np.zeros(50), label=y, ci="binomial", method="ap")
    assert res.estimate[0] == pytest.approx(0.5)
    assert res.ci_low[0] == pytest.approx(0.5 - 0.1959963985, abs=1e-9)
    res = prn.auc_ci(score=np.zeros(50), label=y, ci="logit", method="ap")
    # logit(0.5) = 0, tau = 1 / sqrt(25 * 0.25) = 0.4
    assert res.ci_high[0] == pytest.approx(1 / (1 + math.exp(-0.4 * 1.959963985)), abs=1e-9)


@pytest.mark.parametrize("name", PROC_CASES)
def test_delong_matches_proc(name):
    case = load_case(name)
    ref = case.ref["proc"]["roc"]
    cols = [c for c in case.scores if c in ref]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # single-positive case
        res = prn.auc_ci(case.frame, score=cols, label="label", curve="roc", ci="delong")
    for i, col in enumerate(cols):
        r = ref[col]
        assert res["estimate"].iloc[i] == pytest.approx(r["auc"], abs=1e-12)
        if r["delong_var"] is not None:
            assert res["ci_low"].iloc[i] == pytest.approx(r["delong_ci95_lower"], abs=1e-9)
            assert res["ci_high"].iloc[i] == pytest.approx(r["delong_ci95_upper"], abs=1e-9)


def test_weights_use_kish_effective_positives():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.random(n) < 0.3
    s = y + rng.normal(size=n)
    w = rng.choice([1.0, 2.0, 5.0], size=n)
    res = prn.auc_ci(score=s, label=y, weight=w, ci="binomial", method="integral")
    theta = prn.auc_pr(y, s, sample_weight=w, method="integral")
    p = w[y]
    n_eff = p.sum() ** 2 / (p * p).sum()
    lo, hi = _boyd(theta, n_eff, 0.95, "binomial")
    assert res.ci_low[0] == pytest.approx(lo, abs=1e-12)
    assert res.ci_high[0] == pytest.approx(hi, abs=1e-12)
    # scaling every weight changes nothing; equal weights give the count of positives
    res2 = prn.auc_ci(score=s, label=y, weight=w * 7.5, ci="binomial", method="integral")
    assert res2.ci_low[0] == pytest.approx(res.ci_low[0], abs=1e-12)
    res3 = prn.auc_ci(score=s, label=y, weight=np.full(n, 3.0), method="integral")
    res4 = prn.auc_ci(score=s, label=y, method="integral")
    assert res3.ci_low[0] == pytest.approx(res4.ci_low[0], abs=1e-12)


def test_by_groups_and_undefined():
    df = pd.DataFrame(
        {"g": list("aaaabbbb"), "s": [4, 3, 2, 1, 4, 3, 2, 1], "y": [1, 0, 1, 0, 0, 0, 0, 0]}
    )
    with pytest.warns(prn.UndefinedMetricWarning, match="g='b'"):
        res = prn.auc_ci(df, score="s", label="y", by="g")
    assert list(res.columns) == [
        "g",
        "curve",
        "method",
        "interval",
        "estimate",
        "ci_low",
        "ci_high",
    ]
    assert np.isfinite(res.ci_low[0]) and np.isnan(res.ci_low[1])


def test_logit_is_nan_at_one_binomial_is_a_point():
    y = [1, 1, 0, 0]
    s = [4, 3, 2, 1]
    assert np.isnan(prn.auc_ci(score=s, label=y).ci_low[0])
    b = prn.auc_ci(score=s, label=y, ci="binomial")
    assert (b.ci_low[0], b.ci_high[0]) == (1.0, 1.0)


def test_errors():
    kw = {"score": [0.2, 0.4, 0.6], "label": [0, 1, 1]}
    with pytest.raises(ValueError, match="ci='wilson' is not known"):
        prn.auc_ci(**kw, ci="wilson")
    with pytest.raises(ValueError, match="curve='roc'"):
        prn.auc_ci(**kw, ci="delong")
    with pytest.raises(ValueError, match="ci='delong'"):
        prn.auc_ci(**kw, curve="roc")
    with pytest.raises(ValueError, match="weight"):
        prn.auc_ci(**kw, curve="roc", ci="delong", weight=[1, 2, 3])
    with pytest.raises(ValueError, match="level"):
        prn.auc_ci(**kw, level=95)
