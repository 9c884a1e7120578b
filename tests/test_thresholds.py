"""thresholds= (issue 3): counts at given cut-offs, per curve from a frame, and the
paper's tuning-set method (hull thresholds from tuning data applied to test data).

Reference: ``naive.counts_at`` (the definition, one threshold at a time) and the
single-curve calls of the same API.
"""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import load_case, random_batch

import prroc_numba as prn


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [False, True])
def test_counts_at_array_thresholds_match_naive(seed, weights):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 6, 80, weights=weights)
    thr = np.concatenate(
        [
            [np.inf, -np.inf, 0.0, 0.0],
            rng.normal(size=6),
            df["s"].sample(4, random_state=seed).to_numpy(),
        ]
    )
    kw = dict(score="s", label="y", by="g", weight="w" if weights else None)
    out = prn.confusion(df, thresholds=thr, **kw)
    expected_thr = np.sort(thr)[::-1]
    for g, sub in df.groupby("g"):
        w = sub["w"].to_numpy() if weights else np.ones(len(sub))
        y = sub["y"].to_numpy()
        tp, fp = naive.counts_at(sub["s"].to_numpy(), w * y, w * (1 - y), expected_thr)
        o = out[out["g"] == g]
        np.testing.assert_array_equal(o["threshold"], expected_thr)
        np.testing.assert_allclose(o["tp"], tp, rtol=0, atol=1e-12)
        np.testing.assert_allclose(o["fp"], fp, rtol=0, atol=1e-12)
        np.testing.assert_allclose(o["fn"], (w * y).sum() - tp, rtol=0, atol=1e-12)
        np.testing.assert_allclose(o["tn"], (w * (1 - y)).sum() - fp, rtol=0, atol=1e-12)


def test_thresholds_at_every_score_reproduce_the_sweep():
    case = load_case("c05_n5000_r20_ties")
    kw = dict(score="score", label="label")
    sweep = prn.confusion(case.frame, **kw)
    thr = np.concatenate([[np.inf], case.frame["score"].unique()])
    pd.testing.assert_frame_equal(prn.confusion(case.frame, thresholds=thr, **kw), sweep)
    for f in (prn.roc_curve, prn.pr_curve):
        pd.testing.assert_frame_equal(f(case.frame, thresholds=thr, **kw), f(case.frame, **kw))
    # and with the sweep frame itself as thresholds (no key columns)
    pd.testing.assert_frame_equal(prn.confusion(case.frame, thresholds=sweep, **kw), sweep)


def _tuning_test(rng, n_models=3, n=400):
    y_tune = (rng.random(n) < 0.3).astype(float)
    y_test = (rng.random(n) < 0.3).astype(float)
    tune = pd.DataFrame({"y": y_tune})
    test = pd.DataFrame({"y": y_test})
    for m in range(n_models):
        tune[f"m{m}"] = np.round(rng.normal(size=n) + y_tune * (m + 0.5), 1)
        test[f"m{m}"] = np.round(rng.normal(size=n) + y_test * (m + 0.5), 1)
    return tune, test, [f"m{m}" for m in range(n_models)]


def test_tuning_hull_applied_to_test_data_wide():
    rng = np.random.default_rng(0)
    tune, test, models = _tuning_test(rng)
    hull = prn.roc_curve(tune, score=models, label="y", hull=True)
    out = prn.confusion(test, score=models, label="y", thresholds=hull)
    roc = prn.roc_curve(test, score=models, label="y", thresholds=hull)
    pr = prn.pr_curve(test, score=models, label="y", thresholds=hull, interpolate="dg")
    for m in models:
        thr = hull.loc[hull["model"] == m, "threshold"].to_numpy()
        o = out[out["model"] == m]
        np.testing.assert_array_equal(o["threshold"], thr)
        tp, fp = naive.counts_at(
            test[m].to_numpy(), test["y"].to_numpy(), 1 - test["y"].to_numpy(), thr
        )
        np.testing.assert_array_equal(o["tp"], tp)
        np.testing.assert_array_equal(o["fp"], fp)
        r = roc[roc["model"] == m]
        np.testing.assert_allclose(r["fpr"], fp / (1 - test["y"]).sum(), rtol=1e-15)
        np.testing.assert_allclose(r["tpr"], tp / test["y"].sum(), rtol=1e-15)
        # DG points between the test-data points at the tuning thresholds
        p = pr[pr["model"] == m]
        t_exp, f_exp = naive.dg_points(tp, fp)
        np.testing.assert_allclose(p["tp"], t_exp, rtol=0, atol=1e-12)
        np.testing.assert_allclose(p["fp"], f_exp, rtol=0, atol=1e-9)
        np.testing.assert_array_equal(p.loc[p["threshold"].notna(), "threshold"], thr)


def test_tuning_hull_applied_to_test_data_long():
    rng = np.random.default_rng(1)
    tune = random_batch(rng, 5, 300)
    test = random_batch(rng, 5, 300)
    hull = prn.roc_curve(tune, score="s", label="y", by="g", hull=True)
    out = prn.pr_curve(test, score="s", label="y", by="g", thresholds=hull)
    for g, h in hull.groupby("g"):
        one = prn.pr_curve(
            test[test["g"] == g], score="s", label="y", thresholds=h["threshold"].to_numpy()
        )
        part = out[out["g"] == g].drop(columns="g").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, one)


def test_frame_rows_in_any_order_and_extra_curve_columns():
    rng = np.random.default_rng(2)
    df = random_batch(rng, 4, 100)
    frame = pd.DataFrame(
        {
            "g": [2, 0, 1, 3, 0, 2, 1, 3],
            "threshold": [0.5, -0.2, 0.1, 1.0, np.inf, -np.inf, 0.3, 0.0],
            "tp": 0.0,
        }
    )
    out = prn.confusion(df, score="s", label="y", by="g", thresholds=frame)
    assert list(out["g"]) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert list(out["threshold"]) == [np.inf, -0.2, 0.3, 0.1, 0.5, -np.inf, 1.0, 0.0]


def test_precision_where_undefined_with_thresholds():
    # a threshold above every score gives (0, 0): precision 1 on the raw curve (as at the
    # origin); the flat start on an interpolated curve
    out = prn.pr_curve(score=[3, 2, 1], label=[1, 0, 1], thresholds=[10, 2.5, 1])
    assert list(out["precision"]) == [1.0, 1.0, 2 / 3]
    out = prn.pr_curve(score=[3, 2, 1], label=[1, 0, 1], thresholds=[2, 1])
    assert list(out["precision"]) == [0.5, 2 / 3]
    out = prn.pr_curve(
        score=[3, 2, 1], label=[0, 0, 1], thresholds=[np.inf, 2, 1], interpolate="dg"
    )
    assert list(out["precision"]) == [0.0, 0.0, 1 / 3]


# ----------------------------------------------------------------------------- errors


@pytest.fixture
def two_groups():
    return pd.DataFrame({"g": list("aabb"), "s": [2, 1, 2, 1], "y": [1, 0, 0, 1]})


def test_frame_without_key_columns(two_groups):
    with pytest.raises(ValueError, match=r"lacks the key column\(s\) \['g'\]"):
        prn.confusion(
            two_groups, score="s", label="y", by="g", thresholds=pd.DataFrame({"threshold": [1.0]})
        )


def test_frame_without_threshold_column(two_groups):
    with pytest.raises(ValueError, match="no 'threshold' column"):
        prn.roc_curve(
            two_groups,
            score="s",
            label="y",
            by="g",
            thresholds=pd.DataFrame({"g": ["a"], "thr": [1.0]}),
        )


def test_frame_with_curves_not_in_data(two_groups):
    frame = pd.DataFrame({"g": ["a", "b", "c"], "threshold": [1.0, 1.0, 1.0]})
    with pytest.raises(ValueError, match=r"1 curve\(s\) that are not in the data \(g='c'\)"):
        prn.confusion(two_groups, score="s", label="y", by="g", thresholds=frame)


def test_frame_missing_curves_of_the_data(two_groups):
    frame = pd.DataFrame({"g": ["a"], "threshold": [1.0]})
    with pytest.raises(ValueError, match=r"no rows for 1 curve\(s\) of the data \(g='b'\)"):
        prn.pr_curve(two_groups, score="s", label="y", by="g", thresholds=frame)


def test_frame_with_unknown_columns(two_groups):
    # a frame keyed by model passed to a call keyed by g only
    frame = pd.DataFrame({"g": ["a", "b"], "model": ["x", "x"], "threshold": [1.0, 1.0]})
    with pytest.raises(ValueError, match=r"column\(s\) \['model'\] that are not key columns"):
        prn.confusion(two_groups, score="s", label="y", by="g", thresholds=frame)


def test_frame_key_types_disagree(two_groups):
    frame = pd.DataFrame({"g": [1, 2], "threshold": [1.0, 1.0]})
    with pytest.raises(ValueError, match="cannot match the thresholds frame"):
        prn.confusion(two_groups, score="s", label="y", by="g", thresholds=frame)


@pytest.mark.parametrize(
    "bad,err,match",
    [
        ([1.0, np.nan], ValueError, "2 NaN|1 NaN"),
        ([], ValueError, "thresholds is empty"),
        ([[1.0, 2.0]], ValueError, "must be 1-D"),
        (["a", "b"], TypeError, "must be numbers"),
        ("0.5", TypeError, "array-like of numbers or a DataFrame"),
    ],
)
def test_bad_threshold_arrays(bad, err, match):
    with pytest.raises(err, match=match):
        prn.confusion(score=[2, 1], label=[1, 0], thresholds=bad)


def test_frame_with_nan_threshold(two_groups):
    frame = pd.DataFrame({"g": ["a", "b"], "threshold": [1.0, np.nan]})
    with pytest.raises(ValueError, match="column 'threshold' has 1 NaN"):
        prn.confusion(two_groups, score="s", label="y", by="g", thresholds=frame)


def test_empty_frame(two_groups):
    with pytest.raises(ValueError, match="thresholds frame is empty"):
        prn.confusion(
            two_groups,
            score="s",
            label="y",
            by="g",
            thresholds=pd.DataFrame({"g": [], "threshold": []}),
        )


@pytest.mark.parametrize("f", [prn.roc_curve, prn.pr_curve])
def test_hull_with_thresholds_is_refused(f):
    with pytest.raises(ValueError, match="take the hull on tuning data"):
        f(score=[2, 1], label=[1, 0], thresholds=[1.5], hull=True)


def test_scalar_threshold_is_one_threshold():
    out = prn.confusion(score=[2, 1], label=[1, 0], thresholds=1.5)
    assert list(out["tp"]) == [1.0] and list(out["fp"]) == [0.0]
