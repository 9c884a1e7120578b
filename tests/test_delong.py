"""DeLong's variance, interval and paired test against pROC and an O(N^2) reference."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests import naive
from tests.conftest import CASE_NAMES, load_case

PROC_CASES = [n for n in CASE_NAMES if "proc" in load_case(n).ref]
PAIRED_CASES = [n for n in PROC_CASES if "paired_test_score_vs_score2" in load_case(n).ref["proc"]]


def _nan(v):
    return np.nan if v is None else v


@pytest.mark.parametrize("name", PROC_CASES)
def test_auc_variance_and_ci_match_proc(name):
    case = load_case(name)
    ref = case.ref["proc"]["roc"]
    cols = [c for c in case.scores if c in ref]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # single-positive case
        res = prn.delong(case.frame, score=cols, label="label")
    for i, col in enumerate(cols):
        r = ref[col]
        row = res.iloc[i]
        assert row["auc"] == pytest.approx(r["auc"], abs=1e-9)
        np.testing.assert_allclose(row["var"], _nan(r["delong_var"]), rtol=1e-9, atol=1e-15)
        if r["delong_var"] is not None:
            assert row["ci_low"] == pytest.approx(r["delong_ci95_lower"], abs=1e-9)
            assert row["ci_high"] == pytest.approx(r["delong_ci95_upper"], abs=1e-9)


@pytest.mark.parametrize("name", PAIRED_CASES)
def test_paired_delong_test_matches_proc(name):
    case = load_case(name)
    ref = case.ref["proc"]["paired_test_score_vs_score2"]
    res = prn.compare(
        case.frame, score=["score", "score2"], label="label", curve="roc", test="delong"
    )
    row = res.iloc[0]
    assert (row.model_a, row.model_b) == ("score", "score2")
    assert row.estimate_a == pytest.approx(ref["auc1"], abs=1e-12)
    assert row.estimate_b == pytest.approx(ref["auc2"], abs=1e-12)
    assert row.z == pytest.approx(ref["delong_Z"], rel=1e-9)
    assert row.p_value == pytest.approx(ref["delong_p_two_sided"], rel=1e-9)
    assert row.ci_low == pytest.approx(ref["delong_diff_ci95_lower"], abs=1e-9)
    assert row.ci_high == pytest.approx(ref["delong_diff_ci95_upper"], abs=1e-9)
    assert row.p_adjusted == row.p_value  # a family of one


def test_single_positive_gives_nan_variance_with_warning():
    case = load_case("edge_single_positive_middle")
    with pytest.warns(prn.UndefinedMetricWarning, match="DeLong"):
        res = prn.delong(case.frame, score="score", label="label")
    assert np.isnan(res["var"].iloc[0]) and res["auc"].iloc[0] == 0.5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_placements_match_the_quadratic_reference(seed):
    rng = np.random.default_rng(seed)
    n = 150
    y = (rng.random(n) < 0.3).astype(int)
    s1 = np.round(y + rng.normal(size=n), 1)  # many ties
    s2 = np.round(0.3 * y + 0.5 * s1 + rng.normal(size=n), 1)
    s3 = rng.normal(size=n)
    df = pd.DataFrame({"y": y, "s1": s1, "s2": s2, "s3": s3})
    res = prn.delong(df, score=["s1", "s2", "s3"], label="y")
    cmp = prn.compare(
        df, score=["s1", "s2", "s3"], label="y", curve="roc", test="delong", adjust="none"
    )
    for _, row in cmp.iterrows():
        a1, a2, v1, v2, cv = naive.delong_cov(
            df[row.model_a].to_numpy(), df[row.model_b].to_numpy(), y
        )
        assert row.estimate_a == pytest.approx(a1, rel=1e-12)
        assert row.estimate_b == pytest.approx(a2, rel=1e-12)
        assert row.z == pytest.approx((a1 - a2) / np.sqrt(v1 + v2 - 2 * cv), rel=1e-10)
        k = ["s1", "s2", "s3"].index(row.model_a)
        assert res["var"].iloc[k] == pytest.approx(v1, rel=1e-10)
    # AUC from the placements equals the trapezoid AUC
    np.testing.assert_allclose(
        res["auc"], prn.auc(df, score=["s1", "s2", "s3"], label="y", curve="roc")["auc"], rtol=1e-12
    )


def test_delong_by_groups_equals_separate_runs():
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {
            "g": np.repeat(["a", "b", "c"], 80),
            "y": rng.integers(0, 2, 240),
            "s": rng.normal(size=240),
            "t": rng.normal(size=240),
        }
    )
    both = prn.delong(df, score=["s", "t"], label="y", by="g")
    for g in "abc":
        one = prn.delong(df[df.g == g], score=["s", "t"], label="y")
        np.testing.assert_allclose(
            both[both.g == g][["auc", "var", "ci_low"]].to_numpy(),
            one[["auc", "var", "ci_low"]].to_numpy(),
            rtol=1e-12,
        )


def test_identical_models_give_z_zero_and_p_one():
    df = pd.DataFrame({"y": [1, 0, 1, 0, 1, 0, 0], "s": [3, 2, 5, 1, 4, 4, 0]})
    df["t"] = df.s
    res = prn.compare(df, score=["s", "t"], label="y", curve="roc", test="delong")
    assert res.z[0] == 0 and res.p_value[0] == 1 and res["diff"][0] == 0


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"curve": "pr"}, "curve='roc'"),
        ({"weight": "w"}, "without weights"),
        ({"hull": True}, "hull=False"),
    ],
)
def test_delong_errors(kw, match):
    df = pd.DataFrame(
        {"y": [1, 0, 1, 0], "s": [1, 2, 3, 4], "t": [4, 3, 2, 1], "w": [1.0, 2, 1, 1]}
    )
    args = {"score": ["s", "t"], "label": "y", "curve": "roc", "test": "delong"}
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        prn.compare(df, **args)


def test_delong_bad_level():
    with pytest.raises(ValueError, match="level"):
        prn.delong(score=[0.1, 0.4], label=[0, 1], level=2)


def test_compare_delong_warns_when_a_group_cannot_have_a_variance():
    df = pd.DataFrame(
        {
            "g": [0] * 6 + [1] * 6,
            "y": [1, 0, 1, 0, 1, 0] + [1, 0, 0, 0, 0, 0],
            "s": np.arange(12.0),
            "t": np.arange(12.0)[::-1] ** 2,
        }
    )
    with pytest.warns(prn.UndefinedMetricWarning, match="DeLong"):
        res = prn.compare(df, score=["s", "t"], label="y", by="g", curve="roc", test="delong")
    assert np.isfinite(res.p_value[0]) and np.isnan(res.p_value[1])
