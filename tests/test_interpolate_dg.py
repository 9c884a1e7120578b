"""PR interpolation (issue 3): pr_curve(interpolate="dg" | "continuous"), with and
without hull=True, and the dg / integral areas over the achievable curve.

References: PRROC's ``auc.davis.goadrich`` and ``auc.integral`` and the AUCCalculator
jar (oracle cases), ``hull_reference.pr_hull_auc_integral``, and the literal
``naive.dg_points`` / ``naive.trapezoid_pr`` / ``naive.pr_integral_numeric``.
"""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import CASE_NAMES, load_case, random_batch

import prroc_numba as prn

TOL = 1e-9


def _trapezoid(frame):
    return float(np.trapezoid(frame["precision"].to_numpy(), frame["recall"].to_numpy()))


def _mode_cases():
    out = []
    for name in CASE_NAMES:
        case = load_case(name)
        for mode, _kw, _, _ in case.modes():
            for col in case.scores:
                out.append((name, mode, col))
    return out


def _kw(case, mode):
    return next(kw for m, kw, _, _ in case.modes() if m == mode)


@pytest.mark.parametrize("name,mode,col", _mode_cases())
def test_dg_points_give_prroc_dg_area(name, mode, col):
    """Trapezoids over pr_curve(interpolate='dg') are PRROC's DG area (hard labels) and
    auc(method='dg') in every mode; the jar agrees where its top block has a positive."""
    case = load_case(name)
    kw = dict(score=col, **_kw(case, mode))
    pts = prn.pr_curve(case.frame, interpolate="dg", **kw)
    area = _trapezoid(pts)
    assert area == pytest.approx(prn.auc(case.frame, method="dg", **kw)["auc"].iloc[0], abs=TOL)
    ref = case.ref["prroc"][mode][col]["pr_auc_davis_goadrich"]
    if ref is not None:
        assert area == pytest.approx(ref, abs=TOL)
    jar = case.ref.get("auccalculator_jar")
    if mode == "hard" and jar and jar["top_block_has_positive"]:
        assert area == pytest.approx(jar["auc_pr"], abs=TOL)
    # interpolated rows carry no threshold; the vertices are the sweep's
    raw = prn.pr_curve(case.frame, **kw)
    vert = pts[pts["threshold"].notna()].reset_index(drop=True)
    np.testing.assert_array_equal(vert["threshold"], raw["threshold"])
    np.testing.assert_array_equal(vert[["tp", "fp"]], raw[["tp", "fp"]])


@pytest.mark.parametrize("name,mode,col", _mode_cases())
def test_continuous_points_integrate_to_prroc_integral(name, mode, col):
    """Dense numeric integration of the continuous curve gives PRROC's integral."""
    case = load_case(name)
    kw = dict(score=col, **_kw(case, mode))
    pts = prn.pr_curve(case.frame, interpolate="continuous", recall_step=2e-4, **kw)
    ref = case.ref["prroc"][mode][col]["pr_auc_integral"]
    assert _trapezoid(pts) == pytest.approx(ref, abs=2e-6)
    assert np.diff(pts["recall"]).max() <= 2e-4 + 1e-15


@pytest.mark.parametrize(
    "name,col", [(n, c) for n in CASE_NAMES for c in load_case(n).ref.get("hull_reference", {})]
)
def test_achievable_curve_areas(name, col):
    """hull=True: integral = hull_reference; the continuous achievable curve integrates to
    it; dg over the hull = the paper's points through the (brute-force) hull vertices."""
    case = load_case(name)
    ref = case.ref["hull_reference"][col]["pr_hull_auc_integral"]
    kw = dict(score=col, label="label", hull=True)
    integral = prn.auc(case.frame, method="integral", **kw)["auc"].iloc[0]
    assert integral == pytest.approx(ref, abs=TOL)
    cont = prn.pr_curve(case.frame, interpolate="continuous", recall_step=2e-4, **kw)
    assert _trapezoid(cont) == pytest.approx(ref, abs=2e-6)
    dg = prn.auc(case.frame, method="dg", **kw)["auc"].iloc[0]
    pts = prn.pr_curve(case.frame, interpolate="dg", **kw)
    assert _trapezoid(pts) == pytest.approx(dg, abs=TOL)
    verts = prn.pr_curve(case.frame, **kw)
    t, f = naive.dg_points(verts["tp"].to_numpy(), verts["fp"].to_numpy())
    assert dg == pytest.approx(naive.trapezoid_pr(t, f), abs=TOL)
    # the achievable curve is never below the raw one
    assert integral >= case.ref["prroc"]["hard"][col]["pr_auc_integral"] - 1e-12


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hull", [False, True])
def test_dg_points_match_naive(seed, hull):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 15, 60)
    df = df[df.groupby("g")["y"].transform("sum") > 0]
    pts = prn.pr_curve(df, score="s", label="y", by="g", hull=hull, interpolate="dg")
    verts = prn.pr_curve(df, score="s", label="y", by="g", hull=hull)
    for g, v in verts.groupby("g"):
        t, f = naive.dg_points(v["tp"].to_numpy(), v["fp"].to_numpy())
        p = pts[pts["g"] == g]
        np.testing.assert_allclose(p["tp"], t, rtol=0, atol=1e-12)
        np.testing.assert_allclose(p["fp"], f, rtol=0, atol=1e-9)
        np.testing.assert_allclose(
            p["precision"], naive.flat_start_precision(t, f), rtol=0, atol=1e-12
        )
        np.testing.assert_allclose(p["recall"], t / t[-1], rtol=0, atol=1e-15)
        # one row per integer TP between vertices: consecutive TP differ by <= 1
        assert (np.diff(p["tp"]) <= 1 + 1e-12).all()


@pytest.mark.parametrize("hull", [False, True])
def test_continuous_points_lie_on_the_exact_curve(hull):
    rng = np.random.default_rng(5)
    df = random_batch(rng, 10, 400, weights=True)
    df = df[(df["y"] * df["w"]).groupby(df["g"]).transform("sum") > 0]
    kw = dict(score="s", label="y", by="g", weight="w", hull=hull)
    verts = prn.pr_curve(df, **kw)
    pts = prn.pr_curve(df, interpolate="continuous", recall_step=0.05, **kw)
    for g, v in verts.groupby("g"):
        p = pts[pts["g"] == g]
        vt, vf = v["tp"].to_numpy(), v["fp"].to_numpy()
        P = vt[-1]
        assert np.diff(p["recall"]).max() <= 0.05 + 1e-15
        np.testing.assert_array_equal(p.loc[p["threshold"].notna(), "threshold"], v["threshold"])
        # precision(r) = r / (a r + b) on the segment between the surrounding vertices
        is_vertex = p["threshold"].notna().to_numpy()
        seg = np.cumsum(is_vertex)  # interpolated rows follow vertex seg - 1
        n_interp = 0
        for r, prec, k, vx in zip(p["recall"], p["precision"], seg, is_vertex):
            if vx:
                continue
            n_interp += 1
            ta, tb, fa, fb = vt[k - 1], vt[k], vf[k - 1], vf[k]
            s = (fb - fa) / (tb - ta)
            a, b = 1 + s, (fa - s * ta) / P
            assert prec == pytest.approx(r / (a * r + b), rel=1e-9)
        assert n_interp > 0


def test_fractional_tp_steps_take_unit_steps_then_the_vertex():
    # sweep: (0, 0), (0.5, 0), (2.7, 0), (2.7, 1)
    pts = prn.pr_curve(score=[3, 2, 1], label=[1, 1, 0], weight=[0.5, 2.2, 1.0], interpolate="dg")
    np.testing.assert_allclose(pts["tp"], [0, 0.5, 1.5, 2.5, 2.7, 2.7])
    np.testing.assert_allclose(pts["fp"], [0, 0, 0, 0, 0, 1])
    assert pts["threshold"].isna().tolist() == [False, False, True, True, False, False]
    # the dg area is the trapezoids over exactly these points
    dg = prn.auc_pr([1, 1, 0], [3, 2, 1], sample_weight=[0.5, 2.2, 1.0], method="dg")
    assert _trapezoid(pts) == pytest.approx(dg, abs=1e-15)


def test_origin_precision_conventions():
    s, y = [3, 3, 2, 1], [1, 0, 1, 0]
    raw = prn.pr_curve(score=s, label=y)
    # one convention at recall 0: the raw curve starts flat too (scikit-learn puts 1)
    assert raw["precision"].iloc[0] == 0.5 == raw["precision"].iloc[1]
    # sweep (tp, fp): (0, 0), (1, 1), (2, 1), (2, 2); hull: (0, 0), (2, 1), (2, 2)
    for kw, first in [
        (dict(hull=True), 2 / 3),
        (dict(interpolate="dg"), 0.5),
        (dict(interpolate="continuous"), 0.5),
        (dict(hull=True, interpolate="dg"), 2 / 3),
    ]:
        out = prn.pr_curve(score=s, label=y, **kw)
        assert out["recall"].iloc[0] == 0.0
        # flat start at the first point's precision
        assert out["precision"].iloc[0] == pytest.approx(first, abs=1e-15)
        assert out["precision"].iloc[0] == pytest.approx(out["precision"].iloc[1], abs=1e-15)
    # top block of negatives only: PRROC's convention, precision 0 at recall 0
    case = load_case("edge_top_group_negative")
    out = prn.pr_curve(case.frame, score="score", label="label", interpolate="dg")
    assert out["precision"].iloc[0] == 0.0 and out["precision"].iloc[1] == 0.0
    # ... while the hull of that curve is the diagonal, precision P / (P + N) throughout
    out = prn.pr_curve(
        case.frame, score="score", label="label", hull=True, interpolate="continuous"
    )
    np.testing.assert_allclose(out["precision"], 3 / 5)


def test_dg_tends_to_integral_as_counts_grow():
    rng = np.random.default_rng(2)
    df = random_batch(rng, 1, 200)
    gaps = []
    for k in [1, 4, 16, 64, 256]:
        w = np.full(len(df), float(k))
        dg = prn.auc_pr(df["y"], df["s"], sample_weight=w, method="dg")
        integral = prn.auc_pr(df["y"], df["s"], sample_weight=w, method="integral")
        # integer weights = k copies of every row: the integral does not move
        assert integral == pytest.approx(prn.auc_pr(df["y"], df["s"], method="integral"), abs=1e-12)
        gaps.append(abs(dg - integral))
    assert all(b < a for a, b in zip(gaps, gaps[1:]))
    assert gaps[-1] < gaps[0] / 50


def test_interpolate_keeps_keys_and_wide_input():
    case = load_case("c12_n200_r1_paired")
    wide = prn.pr_curve(
        case.frame, score=["score", "score2"], label="label", hull=True, interpolate="dg"
    )
    assert list(wide.columns) == ["model", "threshold", "recall", "precision", "tp", "fp"]
    for col in ["score", "score2"]:
        one = prn.pr_curve(case.frame, score=col, label="label", hull=True, interpolate="dg")
        part = wide[wide["model"] == col].drop(columns="model").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, one)


def test_interpolate_argument_errors():
    s, y = [3, 2, 1], [1, 0, 1]
    with pytest.raises(ValueError, match="interpolate='linear' is not known"):
        prn.pr_curve(score=s, label=y, interpolate="linear")
    with pytest.raises(ValueError, match="recall_step= applies only"):
        prn.pr_curve(score=s, label=y, interpolate="dg", recall_step=0.1)
    with pytest.raises(ValueError, match="recall_step= applies only"):
        prn.pr_curve(score=s, label=y, recall_step=0.1)
    for bad in [0, 0.0, 1.5, -0.1, "0.1", True, np.nan]:
        with pytest.raises(ValueError, match="recall_step must be a number in"):
            prn.pr_curve(score=s, label=y, interpolate="continuous", recall_step=bad)


def test_interpolate_curve_without_positives_warns():
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        out = prn.pr_curve(score=[3, 2, 1], label=[0, 0, 0], interpolate="dg", hull=True)
    assert out["recall"].isna().all()
    assert list(out["fp"]) == [0.0, 3.0]
