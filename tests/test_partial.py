"""Partial areas: scikit-learn's max_fpr, dense integration of the count-interpolated
PR curve and slow references (tests/naive.py), invariances, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import prroc_numba as prn
from tests import naive
from tests.conftest import load_case, random_batch

RANGES = [(0.0, 1.0), (0.0, 0.1), (0.0, 0.37), (0.2, 0.6), (0.55, 1.0), (0.013, 0.9)]


def _curves(seed, n_curves=5, n_max=60, weights=False):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, n_curves, n_max, ties=True, weights=weights)
    # every curve needs both classes for ROC
    df.loc[df.groupby("g").head(1).index, "y"] = 1.0
    df.loc[df.groupby("g").tail(1).index, "y"] = 0.0
    return df


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_fpr", [0.05, 0.1, 0.3, 0.5, 0.8, 1.0])
def test_mcclish_equals_sklearn_max_fpr_with_ties(seed, max_fpr):
    df = _curves(seed)
    res = prn.auc(
        df, score="s", label="y", by="g", curve="roc", partial=(0, max_fpr), standardize=max_fpr < 1
    )
    for g, sub in df.groupby("g"):
        ref = roc_auc_score(sub.y, sub.s, max_fpr=max_fpr if max_fpr < 1 else None)
        assert res.loc[res.g == g, "auc"].iloc[0] == pytest.approx(ref, abs=1e-12)
    y, s = df.y.to_numpy(), df.s.to_numpy()
    assert prn.auc_roc(y, s, partial=(0, max_fpr), standardize=True) == pytest.approx(
        roc_auc_score(y, s, max_fpr=max_fpr)
        if max_fpr < 1
        else 0.5 * (1 + (roc_auc_score(y, s) - 0.5) / 0.5),
        abs=1e-12,
    )


@pytest.mark.parametrize("focus", ["fpr", "tpr"])
@pytest.mark.parametrize("hull", [False, True])
@pytest.mark.parametrize("lohi", RANGES)
def test_roc_partial_equals_dense_integration(lohi, hull, focus):
    df = _curves(11, weights=True)
    res = prn.auc(
        df,
        score="s",
        label="y",
        by="g",
        weight="w",
        curve="roc",
        hull=hull,
        partial=lohi,
        partial_focus=focus,
    )
    for g, sub in df.groupby("g"):
        w = sub.w.to_numpy()
        y = sub.y.to_numpy()
        _, tp, fp = naive.sweep(sub.s.to_numpy(), w * y, w * (1 - y))
        if hull:
            idx = naive.upper_hull(tp, fp)
            tp, fp = tp[idx], fp[idx]
        fpr, tpr = fp / fp[-1], tp / tp[-1]
        x, yv = (fpr, tpr) if focus == "fpr" else (tpr, 1 - fpr)
        ref = naive.polyline_partial_numeric(x, yv, *lohi)
        assert res.loc[res.g == g, "auc"].iloc[0] == pytest.approx(ref, abs=2e-6)


@pytest.mark.parametrize("lohi", RANGES)
@pytest.mark.parametrize("weights", [False, True])
def test_pr_integral_equals_dense_integration_of_the_count_interpolated_curve(lohi, weights):
    df = _curves(3, weights=weights)
    res = prn.auc(
        df,
        score="s",
        label="y",
        by="g",
        weight="w" if weights else None,
        method="integral",
        partial=lohi,
    )
    for g, sub in df.groupby("g"):
        w = sub.w.to_numpy() if weights else np.ones(len(sub))
        y = sub.y.to_numpy()
        _, tp, fp = naive.sweep(sub.s.to_numpy(), w * y, w * (1 - y))
        ref = naive.pr_partial_numeric(tp, fp, *lohi)
        assert res.loc[res.g == g, "auc"].iloc[0] == pytest.approx(ref, abs=1e-7)


@pytest.mark.parametrize("lohi", RANGES)
@pytest.mark.parametrize("hull", [False, True])
def test_pr_dg_ap_trapezoid_partial_equal_slow_references(lohi, hull):
    df = _curves(5)
    refs = {"dg": naive.dg_partial, "ap": naive.ap_partial, "trapezoid": naive.pr_trapezoid_partial}
    for method, fn in refs.items():
        res = prn.auc(df, score="s", label="y", by="g", method=method, partial=lohi, hull=hull)
        for g, sub in df.groupby("g"):
            y = sub.y.to_numpy()
            _, tp, fp = naive.sweep(sub.s.to_numpy(), y, 1 - y)
            if hull:
                idx = naive.upper_hull(tp, fp)
                tp, fp = tp[idx], fp[idx]
            ref = fn(tp, fp, *lohi)
            got = res.loc[res.g == g, "auc"].iloc[0]
            assert got == pytest.approx(ref, abs=1e-12), (method, g)


def test_dg_partial_close_to_the_exact_curve():
    # the paper's Table 1: between A (5, 5) and B (10, 30) the DG points lie on the
    # exact curve, so DG and integral differ only by the trapezoids' chords
    case = load_case("c15_dg_table1")
    kw = {"score": "score", "label": "label", "partial": (0.25, 0.5)}
    dg = prn.auc(case.frame, method="dg", **kw).auc[0]
    ig = prn.auc(case.frame, method="integral", **kw).auc[0]
    assert abs(dg - ig) < 2e-3 and dg > ig  # chords above a convex curve


@pytest.mark.parametrize("method", ["dg", "integral", "ap", "trapezoid"])
def test_full_range_is_the_whole_area_and_ranges_add_up(method):
    case = load_case("c05_n5000_r20_ties")
    kw = {"score": case.scores, "label": "label", "method": method}
    whole = prn.auc(case.frame, **kw).auc.to_numpy()
    full = prn.auc(case.frame, partial=(0, 1), **kw).auc.to_numpy()
    np.testing.assert_allclose(full, whole, rtol=1e-12)
    if method in ("integral", "ap", "trapezoid"):  # DG's cut adds a point: not additive
        a = prn.auc(case.frame, partial=(0, 0.3), **kw).auc.to_numpy()
        b = prn.auc(case.frame, partial=(0.3, 1), **kw).auc.to_numpy()
        np.testing.assert_allclose(a + b, whole, rtol=1e-12)
    std = prn.auc(case.frame, partial=(0.2, 0.7), standardize=True, **kw).auc.to_numpy()
    raw = prn.auc(case.frame, partial=(0.2, 0.7), **kw).auc.to_numpy()
    np.testing.assert_allclose(std, raw / 0.5, rtol=1e-12)


def test_roc_tpr_focus_standardized_bounds():
    # perfect model: 1 whatever the range; reversed: 0 raw area -> McClish below 0.5
    y = np.array([1, 1, 1, 0, 0, 0])
    s = np.arange(6, 0, -1.0)
    for focus in ["fpr", "tpr"]:
        assert prn.auc_roc(
            y, s, partial=(0.1, 0.6), partial_focus=focus, standardize=True
        ) == pytest.approx(1.0)
        # all tied: the diagonal gives exactly 0.5
        assert prn.auc_roc(
            y, np.zeros(6), partial=(0.1, 0.6), partial_focus=focus, standardize=True
        ) == pytest.approx(0.5)


def test_auc_pr_and_undefined_curves():
    y, s = [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]
    assert prn.auc_pr(y, s, method="ap", partial=(0, 0.5)) == pytest.approx(0.5)
    df = pd.DataFrame({"g": list("aabb"), "s": [1, 2, 1, 2], "y": [0, 1, 0, 0]})
    with pytest.warns(prn.UndefinedMetricWarning):
        res = prn.auc(df, score="s", label="y", by="g", partial=(0, 0.5))
    assert np.isnan(res.auc[1])


def test_errors():
    kw = {"score": [0.2, 0.4, 0.6, 0.1], "label": [0, 1, 1, 0]}
    with pytest.raises(ValueError, match="0 <= lo < hi <= 1"):
        prn.auc(**kw, partial=(0.5, 0.2))
    with pytest.raises(ValueError, match="0 <= lo < hi <= 1"):
        prn.auc(**kw, partial=(0, 1.5))
    with pytest.raises(TypeError, match="pair of numbers"):
        prn.auc(**kw, partial=0.1)
    with pytest.raises(ValueError, match="partial_focus='se'"):
        prn.auc(**kw, curve="roc", partial=(0, 0.1), partial_focus="se")
    with pytest.raises(ValueError, match="standardize=True needs a range"):
        prn.auc(**kw, standardize=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prn.auc(**kw, partial=[0, 0.5])  # a list is fine


@pytest.mark.parametrize(
    "curve,method,standardize,hull",
    [
        ("pr", "dg", False, False),
        ("pr", "integral", True, True),
        ("pr", "ap", False, False),
        ("roc", None, True, False),
        ("roc", None, False, True),
    ],
)
def test_bootstrap_replicates_are_partial_areas_of_the_resampled_rows(
    curve, method, standardize, hull
):
    import importlib

    from prroc_numba._core.packing import pack
    from tests.kernel_probes import _paired_counts_one

    R = importlib.import_module("prroc_numba._resampling.plan")
    run_mod = importlib.import_module("prroc_numba._resampling.run")
    rng = np.random.default_rng(4)
    n = 150
    y = (rng.random(n) < 0.3).astype(float)
    df = pd.DataFrame({"y": y, "s": np.round(y + rng.normal(size=n), 1)})
    kw = {
        "curve": curve,
        "method": method,
        "partial": (0.05, 0.4),
        "hull": hull,
        "standardize": standardize,
    }
    est, reps = prn.bootstrap(
        df, score="s", label="y", n_boot=6, seed=2, return_replicates=True, **kw
    )
    assert est.estimate[0] == pytest.approx(prn.auc(df, score="s", label="y", **kw).auc[0])
    batch = pack(df, score="s", label="y")
    plan = R.Plan(batch, True)
    for b in range(6):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(2), b)[
            plan.slot
        ]
        ref = prn.auc(score=df.s, label=df.y, weight=cnt, **kw).auc[0]
        assert reps.estimate[b] == pytest.approx(ref, rel=1e-12)


def test_compare_partial_areas():
    case = load_case("c13_n5000_r20_paired")
    kw = {
        "score": ["score", "score2"],
        "label": "label",
        "curve": "roc",
        "partial": (0, 0.1),
        "standardize": True,
    }
    res = prn.compare(case.frame, n_boot=200, seed=0, **kw)
    est = prn.auc(case.frame, **kw).auc.to_numpy()
    assert res["diff"][0] == pytest.approx(est[0] - est[1], rel=1e-12)
    assert res.ci_low[0] <= res["diff"][0] <= res.ci_high[0]
    with pytest.raises(ValueError, match="test='delong' compares whole"):
        prn.compare(case.frame, test="delong", **kw)
    with pytest.raises(ValueError, match="interval='bca'"):
        prn.bootstrap(case.frame, interval="bca", n_boot=10, **kw)
