"""ROC convex hull (issue 3): roc_curve(hull=True), the hull kernel, hull areas.

References: the oracle cases' ``hull_reference`` (an independent monotone-chain hull
checked against scipy's ConvexHull; it keeps collinear vertices, ours drops them), the
brute-force ``naive.upper_hull``, and scikit-learn / PRROC areas for the raw curves.
"""

from __future__ import annotations

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import CASE_NAMES, load_case, random_batch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import prroc_numba as prn
from prroc_numba._drivers.sweep import sweep_batch
from prroc_numba._kernels.hull import _hull_batch, _hull_indices

TOL = 1e-9


def _ref_thresholds(ref):
    return [np.inf if t == "inf" else float(t) for t in ref["hull_thresholds"]]


def _hull_cases():
    return [(n, c) for n in CASE_NAMES for c in load_case(n).ref.get("hull_reference", {})]


@pytest.mark.parametrize("name,col", _hull_cases())
def test_hull_vertices_match_reference(name, col):
    case = load_case(name)
    ref = case.ref["hull_reference"][col]
    ours = prn.roc_curve(case.frame, score=col, label="label", hull=True)
    ref_thr = _ref_thresholds(ref)
    # ours drops exactly-collinear vertices: a subset, with the same end points
    assert set(ours["threshold"]) <= set(ref_thr)
    assert ours["threshold"].iloc[0] == ref_thr[0] == np.inf
    assert ours["threshold"].iloc[-1] == ref_thr[-1]
    assert len(ours) <= ref["n_hull_vertices"] == len(ref_thr)
    # every reference vertex that we dropped lies exactly on our hull
    raw = prn.roc_curve(case.frame, score=col, label="label").set_index("threshold")
    hx, hy = ours["fp"].to_numpy(), ours["tp"].to_numpy()
    for t in set(ref_thr) - set(ours["threshold"]):
        x, y = raw.loc[t, "fp"], raw.loc[t, "tp"]
        k = int(np.searchsorted(hx, x, side="left"))
        assert 0 < k < len(hx) and hx[k - 1] <= x <= hx[k]
        cross = (hx[k] - hx[k - 1]) * (y - hy[k - 1]) - (hy[k] - hy[k - 1]) * (x - hx[k - 1])
        assert cross == 0.0  # integer counts: exact


@pytest.mark.parametrize("name,col", _hull_cases())
def test_hull_areas_match_reference(name, col):
    case = load_case(name)
    ref = case.ref["hull_reference"][col]
    kw = dict(score=col, label="label", hull=True)
    roc = prn.auc(case.frame, curve="roc", **kw)["auc"].iloc[0]
    pr = prn.auc(case.frame, curve="pr", method="integral", **kw)["auc"].iloc[0]
    assert roc == pytest.approx(ref["roc_hull_auc"], abs=TOL)
    assert pr == pytest.approx(ref["pr_hull_auc_integral"], abs=TOL)
    # the frame's vertices give the same ROC area by trapezoids
    pts = prn.roc_curve(case.frame, **kw)
    assert np.trapezoid(pts["tpr"], pts["fpr"]) == pytest.approx(ref["roc_hull_auc"], abs=TOL)
    # and the scalar API agrees
    y, s = case.frame["label"], case.frame[col]
    assert prn.auc_roc(y, s, hull=True) == pytest.approx(ref["roc_hull_auc"], abs=TOL)
    assert prn.auc_pr(y, s, method="integral", hull=True) == pytest.approx(
        ref["pr_hull_auc_integral"], abs=TOL
    )


def test_hull_areas_wide_input_match_reference():
    case = load_case("c13_n5000_r20_paired")
    out = prn.auc(case.frame, score=case.scores, label="label", curve="roc", hull=True)
    for _, row in out.iterrows():
        assert row["auc"] == pytest.approx(
            case.ref["hull_reference"][row["model"]]["roc_hull_auc"], abs=TOL
        )


def _naive_hull_frame(df, score, pos, neg):
    rows = []
    for g, sub in df.groupby("g", sort=True):
        thr, tp, fp = naive.sweep(sub[score].to_numpy(), pos[sub.index], neg[sub.index])
        idx = naive.upper_hull(tp, fp)
        rows.append(pd.DataFrame({"g": g, "threshold": thr[idx], "tp": tp[idx], "fp": fp[idx]}))
    return pd.concat(rows, ignore_index=True)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["hard", "weights", "soft"])
def test_hull_matches_brute_force(seed, mode):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 12, 30, weights=mode == "weights", soft=mode == "soft")
    y = df["y"].to_numpy()
    if mode == "weights":
        w = df["w"].to_numpy()
        pos, neg, kw = w * y, w * (1 - y), {"label": "y", "weight": "w"}
    elif mode == "soft":
        p = df["p"].to_numpy()
        pos, neg, kw = p, 1 - p, {"label": "p", "soft_labels": True}
    else:
        pos, neg, kw = y, 1 - y, {"label": "y"}
    ours = (
        prn.roc_curve(df, score="s", by="g", hull=True, **kw)
        if _both_classes(df, pos, neg)
        else None
    )
    if ours is None:
        with pytest.warns(prn.UndefinedMetricWarning):
            ours = prn.roc_curve(df, score="s", by="g", hull=True, **kw)
    ref = _naive_hull_frame(df, "s", pos, neg)
    assert len(ours) == len(ref)
    np.testing.assert_array_equal(ours["g"], ref["g"])
    np.testing.assert_array_equal(ours["threshold"], ref["threshold"])
    np.testing.assert_allclose(ours[["tp", "fp"]], ref[["tp", "fp"]], rtol=0, atol=1e-12)


def _both_classes(df, pos, neg):
    P = pd.Series(pos).groupby(df["g"].to_numpy()).sum()
    N = pd.Series(neg).groupby(df["g"].to_numpy()).sum()
    return bool(((P > 0) & (N > 0)).all())


@pytest.mark.parametrize("seed", range(5))
def test_hull_properties_on_random_batches(seed):
    rng = np.random.default_rng(100 + seed)
    df = random_batch(rng, 40, 300, weights=seed % 2 == 1)
    kw = dict(score="s", label="y", by="g", weight="w" if seed % 2 else None)
    P = df.assign(m=df["y"] * (df["w"] if seed % 2 else 1)).groupby("g")["m"].sum()
    N = df.assign(m=(1 - df["y"]) * (df["w"] if seed % 2 else 1)).groupby("g")["m"].sum()
    keep = P.index[(P > 0) & (N > 0)]
    df = df[df["g"].isin(keep)]
    raw = prn.roc_curve(df, **kw)
    hull = prn.roc_curve(df, **kw, hull=True)
    for g, h in hull.groupby("g"):
        r = raw[raw["g"] == g]
        # vertices are a subset of the sweep points, with their thresholds and counts
        merged = h.merge(r, on=["g", "threshold"], suffixes=("", "_raw"), how="left")
        np.testing.assert_array_equal(merged[["tp", "fp"]], merged[["tp_raw", "fp_raw"]])
        # from (0, 0) to (1, 1)
        assert (h["fpr"].iloc[0], h["tpr"].iloc[0]) == (0.0, 0.0)
        assert (h["fpr"].iloc[-1], h["tpr"].iloc[-1]) == (1.0, 1.0)
        # strictly concave: slopes strictly decrease (collinear points dropped)
        dx, dy = np.diff(h["fp"].to_numpy()), np.diff(h["tp"].to_numpy())
        cross = dx[:-1] * dy[1:] - dy[:-1] * dx[1:]
        assert (cross < 0).all()
        # no sweep point above the hull
        xs, ys = r["fp"].to_numpy(), r["tp"].to_numpy()
        upper = np.interp(xs, h["fp"].to_numpy(), h["tp"].to_numpy())
        tops = np.array(
            [h["tp"][h["fp"] == x].max() if (h["fp"] == x).any() else u for x, u in zip(xs, upper)]
        )
        assert (ys <= np.maximum(upper, tops) + 1e-9).all()
    # hull areas are never below the raw areas (ROC trapezoid and PR integral)
    for curve, method in [("roc", None), ("pr", "integral"), ("pr", "dg")]:
        a0 = prn.auc(df, curve=curve, method=method, **kw)["auc"].to_numpy()
        a1 = prn.auc(df, curve=curve, method=method, hull=True, **kw)["auc"].to_numpy()
        if method == "dg" and seed % 2:
            continue  # DG on fractional TP steps is a convention, not an area of the curve
        assert (a1 >= a0 - 1e-12).all()


def test_hull_integer_weights_equal_duplication():
    rng = np.random.default_rng(7)
    df = random_batch(rng, 8, 60)
    df["w"] = rng.integers(1, 4, size=len(df)).astype(float)
    dup = df.loc[df.index.repeat(df["w"].astype(int))]
    a = prn.roc_curve(df, score="s", label="y", by="g", weight="w", hull=True)
    b = prn.roc_curve(dup, score="s", label="y", by="g", hull=True)
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))
    # zero weight = removal of the row
    df["w"] = rng.integers(0, 3, size=len(df)).astype(float)
    df.loc[df.groupby("g").head(1).index, "w"] = 1.0  # no group is all zero weight
    a = prn.roc_curve(df, score="s", label="y", by="g", weight="w", hull=True)
    b = prn.roc_curve(df[df["w"] > 0], score="s", label="y", by="g", weight="w", hull=True)
    pd.testing.assert_frame_equal(a, b)


def test_hull_batch_is_concatenation_of_single_curves():
    rng = np.random.default_rng(3)
    df = random_batch(rng, 10, 200)
    both = prn.roc_curve(df, score="s", label="y", by="g", hull=True)
    for g, sub in df.groupby("g"):
        one = prn.roc_curve(sub, score="s", label="y", hull=True)
        part = both[both["g"] == g].drop(columns="g").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, one)


def test_hull_wide_input_equals_long_input():
    case = load_case("c12_n200_r1_paired")
    wide = prn.roc_curve(case.frame, score=["score", "score2"], label="label", hull=True)
    for col in ["score", "score2"]:
        one = prn.roc_curve(case.frame, score=col, label="label", hull=True)
        part = wide[wide["model"] == col].drop(columns="model").reset_index(drop=True)
        pd.testing.assert_frame_equal(part, one)


def test_hull_batch_kernel_matches_single_kernel():
    rng = np.random.default_rng(11)
    df = random_batch(rng, 20, 100)
    sizes = df.groupby("g").size().to_numpy()
    offsets = np.zeros(sizes.size + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    y = df["y"].to_numpy()
    _, tp, fp, off = sweep_batch(df["s"].to_numpy(), offsets, y, 1 - y, offsets[:-1])
    idx, hoff = _hull_batch(tp, fp, off)
    for c in range(sizes.size):
        a, b = off[c], off[c + 1]
        np.testing.assert_array_equal(
            idx[hoff[c] : hoff[c + 1]] - a, _hull_indices(tp[a:b], fp[a:b])
        )


@pytest.mark.parametrize(
    "name",
    [
        "edge_all_tied",
        "edge_perfect",
        "edge_reversed",
        "edge_top_group_negative",
        "c09_n200_r20_alltied",
    ],
)
def test_hull_degenerate_curves(name):
    case = load_case(name)
    h = prn.roc_curve(case.frame, score="score", label="label", hull=True)
    expected = {"edge_perfect": [(0, 0), (0, 1), (1, 1)]}.get(name, [(0, 0), (1, 1)])
    assert list(zip(h["fpr"], h["tpr"])) == expected


def test_hull_with_zero_weight_rows_and_single_class_warns():
    # zero-weight rows create duplicate sweep points: the hull keeps one copy
    h = prn.roc_curve(score=[5, 4, 3, 2], label=[1, 0, 1, 0], weight=[0, 1, 1, 1], hull=True)
    assert list(zip(h["fp"], h["tp"])) == [(0, 0), (1, 1), (2, 1)]
    assert h["threshold"].iloc[0] == np.inf
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        h = prn.roc_curve(score=[3, 2, 1], label=[0, 0, 0], hull=True)
    assert list(h["fp"]) == [0.0, 3.0] and h["tpr"].isna().all()


@pytest.mark.parametrize(
    "name",
    [
        "c03_n200_r20",
        "c11_n200_r4_sampleweight",
        "c10_n200_soft",
        "edge_top_group_two_negatives",
        "rand03_n1000_1to50_round2",
    ],
)
def test_every_pr_estimator_over_the_achievable_curve(name):
    """hull=True applies the same estimator to the hull vertices (all modes); the
    vertices themselves are checked against brute force above."""
    case = load_case(name)
    for mode, kw, _pos, _neg in case.modes():
        h = prn.roc_curve(case.frame, score="score", hull=True, **kw)
        t, f = h["tp"].to_numpy(), h["fp"].to_numpy()
        got = {
            m: prn.auc(case.frame, score="score", method=m, hull=True, **kw)["auc"].iloc[0]
            for m in ["ap", "trapezoid", "integral", "dg"]
        }
        assert got["ap"] == pytest.approx(naive.average_precision(t, f), abs=TOL)
        assert got["integral"] == pytest.approx(naive.pr_integral_numeric(t, f), abs=1e-6)
        # straight lines through the hull's PR points, from scikit-learn's (0, 1)
        prec = np.r_[1.0, t[1:] / (t[1:] + f[1:])]
        assert got["trapezoid"] == pytest.approx(np.trapezoid(prec, t / t[-1]), abs=TOL)
        if mode == "hard":
            dt, df_ = naive.dg_points(t, f)
            assert got["dg"] == pytest.approx(naive.trapezoid_pr(dt, df_), abs=TOL)


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.integers(0, 1), min_size=2, max_size=25),
    data=st.data(),
)
def test_hull_property_based(labels, data):
    """Any small curve: the hull is the brute-force hull, its areas bound the raw ones."""
    n = len(labels)
    assume(0 < sum(labels) < n)
    scores = data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    weights = data.draw(st.lists(st.sampled_from([0.5, 1.0, 3.0]), min_size=n, max_size=n))
    y, s, w = np.array(labels, float), np.array(scores, float), np.array(weights)
    h = prn.roc_curve(score=s, label=y, weight=w, hull=True)
    thr, tp, fp = naive.sweep(s, w * y, w * (1 - y))
    idx = naive.upper_hull(tp, fp)
    np.testing.assert_array_equal(h["threshold"], thr[idx])
    np.testing.assert_allclose(h[["tp", "fp"]].to_numpy().T, [tp[idx], fp[idx]], atol=1e-12)
    for curve, method in [("roc", None), ("pr", "integral")]:
        raw = prn.auc(score=s, label=y, weight=w, curve=curve, method=method)["auc"].iloc[0]
        hull = prn.auc(score=s, label=y, weight=w, curve=curve, method=method, hull=True)[
            "auc"
        ].iloc[0]
        assert hull >= raw - 1e-12
