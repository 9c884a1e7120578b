"""Batched interpolation onto shared grids: kernels (issue 4) and the public interpolate."""

from __future__ import annotations

import warnings

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import random_batch
from hypothesis import given, settings
from hypothesis import strategies as st

import prroc_numba as prn
from prroc_numba._drivers.grid import precision_at_recall_batch, tpr_at_fpr_batch
from prroc_numba._kernels.grid import (
    _precision_at_recall,
    _precision_by_grid_point,
    _precision_by_step,
    _tpr_at_fpr,
)
from prroc_numba._kernels.hull import _hull_indices

# ----------------------------------------------------------------------------- kernels


def _pr(tp, fp, grid):
    out = np.empty(len(grid))
    _precision_at_recall(np.asarray(tp, float), np.asarray(fp, float), np.asarray(grid, float), out)
    return out


def _roc(tp, fp, grid):
    out = np.empty(len(grid))
    _tpr_at_fpr(np.asarray(tp, float), np.asarray(fp, float), np.asarray(grid, float), out)
    return out


def test_table1_count_interpolation():
    # Davis & Goadrich 2006, Table 1: P = 20, N = 2000, A = (5, 5), B = (10, 30)
    tp = [0, 5, 10, 20]
    fp = [0, 5, 30, 2000]
    got = _pr(tp, fp, np.arange(5, 11) / 20)
    np.testing.assert_allclose(got, [5 / 10, 6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40], rtol=1e-15)
    np.testing.assert_allclose(np.round(got, 3), [0.5, 0.375, 0.318, 0.286, 0.265, 0.25])


def test_recall_zero_is_flat_start_or_zero():
    # leaves the origin: flat at the first vertex's precision
    assert _pr([0, 2, 4], [0, 1, 6], [0.0])[0] == pytest.approx(2 / 3)
    # top block negatives only: starts at precision 0
    assert _pr([0, 0, 2, 4], [0, 3, 4, 6], [0.0])[0] == 0.0
    # and tends to 0 continuously from the right
    assert _pr([0, 0, 2, 4], [0, 3, 4, 6], [1e-9])[0] < 1e-8


def test_same_tp_takes_lowest_fp_and_same_fp_highest_tp():
    tp = [0, 2, 2, 2, 4]
    fp = [0, 1, 3, 5, 6]
    # recall 0.5 = TP 2 reached by three vertices: best precision 2 / 3
    assert _pr(tp, fp, [0.5])[0] == pytest.approx(2 / 3)
    # just above: on the segment (2, 5) -> (4, 6)
    t = 0.5000001 * 4
    assert _pr(tp, fp, [0.5000001])[0] == pytest.approx(t / (t + 5 + (t - 2) * 0.5))
    tp = [0, 1, 3, 4, 4]
    fp = [0, 2, 2, 2, 4]
    # FPR 0.5 = FP 2 reached by three vertices: highest TPR 1.0
    assert _roc(tp, fp, [0.5])[0] == 1.0
    assert _roc(tp, fp, [0.25])[0] == pytest.approx(0.125)
    # FPR 0 with vertices (0,0) only: TPR 0; with several at FP 0: the highest
    assert _roc([0, 2, 3, 4], [0, 0, 1, 2], [0.0])[0] == 0.5


def test_undefined_curves_and_out_of_range_grid_give_nan():
    assert np.isnan(_pr([0, 0], [0, 3], [0.0, 0.5])).all()
    assert np.isnan(_roc([0, 3], [0, 0], [0.0, 0.5])).all()
    assert np.isnan(_roc([0, 0], [0, 3], [0.5])).all()
    got = _pr([0, 1, 2], [0, 1, 2], [-0.1, 0.5, 1.2])
    assert np.isnan(got[0]) and np.isnan(got[2]) and got[1] == 0.5


def _random_sweeps(rng, n_curves, n_max):
    """Sweeps of random scored data with ties, weights (incl. zero) and soft labels."""
    from prroc_numba._kernels.sweep import _sweep_one

    tps, fps = [], []
    for c in range(n_curves):
        n = int(rng.integers(1, n_max + 1))
        s = np.round(rng.normal(size=n), int(rng.integers(0, 2)))
        y = (rng.random(n) < rng.uniform(0.1, 0.8)).astype(float)
        kind = c % 3
        if kind == 0:
            w = np.ones(n)
        elif kind == 1:
            w = rng.choice([0.0, 0.5, 1.0, 3.0], size=n)
        else:
            w = np.ones(n)
            y = np.clip(y * 0.6 + rng.random(n) * 0.4, 0, 1)
        _, tp, fp = _sweep_one(s, w * y, w * (1 - y))
        tps.append(tp)
        fps.append(fp)
    return tps, fps


def _grid_with_vertices(tp, fp, rng, space):
    base = np.linspace(0, 1, 21)
    if space == "pr":
        extra = tp / tp[-1] if tp[-1] > 0 else np.array([])
    else:
        extra = fp / fp[-1] if fp[-1] > 0 else np.array([])
    # vertex values and their floating-point neighbours (the exact-match rule's edges)
    near = np.concatenate([extra, np.nextafter(extra, 2.0), np.nextafter(extra, -1.0)])
    g = np.concatenate([base, near, rng.random(5)])
    # (no subnormal grid values: both sides would compare rounding noise there)
    return np.unique(g[((g >= 1e-300) | (g == 0)) & (g <= 1)])


@pytest.mark.parametrize("hull", [False, True])
def test_kernels_match_naive_on_random_sweeps(hull):
    rng = np.random.default_rng(4)
    tps, fps = _random_sweeps(rng, 120, 40)
    for tp, fp in zip(tps, fps):
        if hull:
            idx = _hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        for space, kern, ref in (
            ("pr", _pr, naive.precision_at_recall),
            ("roc", _roc, naive.tpr_at_fpr),
        ):
            g = _grid_with_vertices(tp, fp, rng, space)
            np.testing.assert_allclose(
                kern(tp, fp, g),
                ref(tp, fp, g),
                rtol=1e-12,
                atol=1e-15,
                err_msg=f"{space} tp={tp} fp={fp}",
            )


def _both_walks(tp, fp, grid):
    """The walk by TP step (both ways of filling a segment: vectorized after the walk,
    or point by point; checked equal) and the walk by grid point."""
    by_step = np.full(grid.size, -1.0)
    by_point = np.full(grid.size, -2.0)
    _precision_by_step(tp, fp, grid, by_step, tp[-1], True)
    one_by_one = np.full(grid.size, -3.0)
    _precision_by_step(tp, fp, grid, one_by_one, tp[-1], False)
    np.testing.assert_array_equal(by_step, one_by_one)
    _precision_by_grid_point(tp, fp, grid, by_point, tp[-1])
    return by_step, by_point


@pytest.mark.parametrize("hull", [False, True])
def test_pr_walk_by_tp_step_equals_walk_by_grid_point_bit_for_bit(hull):
    """The two walks of _precision_at_recall (by TP step where the grid is dense, by
    grid point where it is coarse) give the same floats, on sweeps with ties, weights
    and soft labels, on grids holding every vertex's recall, its floating-point
    neighbours, repeated values, 0 and 1; and both equal the naive reference."""
    rng = np.random.default_rng(36)
    tps, fps = _random_sweeps(rng, 300, 60)
    checked = 0
    for tp, fp in zip(tps, fps):
        if hull:
            idx = _hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        if tp[-1] <= 0:
            continue
        for base in (3, 101):
            g = np.sort(
                np.concatenate(
                    [
                        _grid_with_vertices(tp, fp, rng, "pr"),
                        np.linspace(0, 1, base)[:: max(1, base // 7)],
                    ]
                )
            )
            by_step, by_point = _both_walks(tp, fp, g)
            np.testing.assert_array_equal(by_step, by_point, err_msg=f"tp={tp} fp={fp}")
            np.testing.assert_allclose(
                by_step, naive.precision_at_recall(tp, fp, g), rtol=1e-12, atol=1e-15
            )
            checked += 1
    assert checked > 300
    # skewed classes (the case the walk by TP step is for): many FP steps per TP step
    t = np.concatenate([[0.0], np.repeat(np.arange(1.0, 6.0), 40)])
    f = np.concatenate([[0.0], np.arange(1.0, 201.0)])
    g = np.linspace(0, 1, 1001)
    by_step, by_point = _both_walks(t, f, g)
    np.testing.assert_array_equal(by_step, by_point)
    np.testing.assert_allclose(by_step, naive.precision_at_recall(t, f, g), rtol=1e-12)


def test_pr_kernel_takes_either_walk_with_the_same_result():
    """_precision_at_recall walks by TP step on a dense valid grid and by grid point
    on a coarse one or on a grid outside [0, 1] (NaN there, as documented)."""
    t = np.array([0.0, 1, 1, 1, 2, 2, 3, 4])
    f = np.array([0.0, 0, 1, 2, 2, 5, 5, 9])
    for g in (np.linspace(0, 1, 9), np.linspace(0, 1, 3), np.array([0.0, 0.0, 0.5, 1.0])):
        by_step, by_point = _both_walks(t, f, g)
        np.testing.assert_array_equal(by_step, by_point)
        np.testing.assert_array_equal(_pr(t, f, g), by_point)
    got = _pr(t, f, np.array([0.0, 0.25, 0.5, 0.75, 1.0, 1.5]))
    assert np.isnan(got[-1]) and not np.isnan(got[:-1]).any()
    np.testing.assert_array_equal(got[:-1], _pr(t, f, np.linspace(0, 1, 5)))


@pytest.mark.parametrize("hull", [False, True])
def test_batch_kernels_equal_single_curve_kernels(hull):
    rng = np.random.default_rng(5)
    tps, fps = _random_sweeps(rng, 60, 30)
    offsets = np.zeros(len(tps) + 1, dtype=np.int64)
    np.cumsum([t.size for t in tps], out=offsets[1:])
    tp = np.concatenate(tps)
    fp = np.concatenate(fps)
    grid = np.linspace(0, 1, 37)
    got_pr = precision_at_recall_batch(tp, fp, offsets, grid, hull)
    got_roc = tpr_at_fpr_batch(tp, fp, offsets, grid, hull)
    assert got_pr.shape == got_roc.shape == (len(tps), grid.size)
    for c, (t, f) in enumerate(zip(tps, fps)):
        if hull:
            idx = _hull_indices(t, f)
            t, f = t[idx], f[idx]
        np.testing.assert_array_equal(got_pr[c], _pr(t, f, grid))
        np.testing.assert_array_equal(got_roc[c], _roc(t, f, grid))


# ------------------------------------------------------------------- public interpolate


def _scored_batch(rng, n_curves, n_max):
    """Random scored curves (ties, weights incl. zero) with both classes in each."""
    df = random_batch(rng, n_curves, n_max, ties=True, weights=True)
    extra = pd.DataFrame(
        {
            "g": np.tile(np.arange(n_curves), 2),
            "s": np.round(rng.normal(size=2 * n_curves), 1),
            "y": np.repeat([1.0, 0.0], n_curves),
            "w": rng.choice([0.5, 1.0, 2.0], size=2 * n_curves),
        }
    )
    return pd.concat([df, extra], ignore_index=True).sample(frac=1.0, random_state=1)


def _naive_matrix(df, grid, space, hull):
    rows = []
    for _, part in df.groupby("g", sort=True):
        s = part["s"].to_numpy()
        y = part["y"].to_numpy()
        w = part["w"].to_numpy()
        _, tp, fp = naive.sweep(s, w * y, w * (1 - y))
        if hull:
            idx = naive.upper_hull(tp, fp)
            tp, fp = tp[idx], fp[idx]
        ref = naive.precision_at_recall if space == "pr" else naive.tpr_at_fpr
        rows.append(ref(tp, fp, grid))
    return np.array(rows)


@pytest.mark.parametrize("n_curves", [1, 10, 10_000])
@pytest.mark.parametrize("space", ["pr", "roc"])
def test_interpolate_equals_each_curve_alone(n_curves, space):
    rng = np.random.default_rng(n_curves)
    n_max = 30 if n_curves < 100 else 6
    df = _scored_batch(rng, n_curves, n_max)
    grid = np.linspace(0, 1, 41 if n_curves < 100 else 11)
    make = prn.pr_curve if space == "pr" else prn.roc_curve
    pts = make(df, score="s", label="y", by="g", weight="w")
    keys, mat = prn.interpolate_matrix(pts, grid=grid, by="g", space=space)
    assert mat.shape == (n_curves, grid.size)
    np.testing.assert_array_equal(keys["g"], np.arange(n_curves))
    np.testing.assert_allclose(mat, _naive_matrix(df, grid, space, False), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_interpolate_hull_equals_naive_hull(space):
    rng = np.random.default_rng(11)
    df = _scored_batch(rng, 10, 40)
    grid = np.linspace(0, 1, 57)
    make = prn.pr_curve if space == "pr" else prn.roc_curve
    pts = make(df, score="s", label="y", by="g", weight="w")
    _, mat = prn.interpolate_matrix(pts, grid=grid, by="g", space=space, hull=True)
    np.testing.assert_allclose(mat, _naive_matrix(df, grid, space, True), rtol=1e-12, atol=1e-15)


def test_interpolate_frame_layout_and_invariances():
    rng = np.random.default_rng(3)
    df = _scored_batch(rng, 7, 25)
    pts = prn.pr_curve(df, score="s", label="y", by="g", weight="w")
    grid = np.linspace(0, 1, 11)
    out = prn.interpolate(pts, grid=grid, by="g")
    assert list(out.columns) == ["g", "recall", "precision"]
    assert len(out) == 7 * 11
    _, mat = prn.interpolate_matrix(pts, grid=grid, by="g")
    np.testing.assert_array_equal(out["precision"].to_numpy(), mat.ravel())
    np.testing.assert_array_equal(out["recall"].to_numpy(), np.tile(grid, 7))
    # row order of the input does not matter (points are sorted per curve)
    shuffled = pts.sample(frac=1.0, random_state=0)
    np.testing.assert_array_equal(prn.interpolate_matrix(shuffled, grid=grid, by="g")[1], mat)
    # an int grid is linspace(0, 1, n)
    np.testing.assert_array_equal(prn.interpolate_matrix(pts, grid=11, by="g")[1], mat)
    # ROC output columns
    roc = prn.interpolate(pts, grid=grid, by="g", space="roc")
    assert list(roc.columns) == ["g", "fpr", "tpr"]
    # one curve without by
    one = prn.interpolate(pts[pts["g"] == 2], grid=grid)
    assert list(one.columns) == ["recall", "precision"]
    np.testing.assert_array_equal(one["precision"], mat[2])


def test_interpolate_two_key_columns_sorted_or_not():
    rng = np.random.default_rng(9)
    df = _scored_batch(rng, 12, 20)
    df["model"] = np.where(df["g"] % 3 == 0, "b", "a")
    df["rep"] = df["g"] // 3
    pts = prn.pr_curve(df, score="s", label="y", by=["model", "rep"], weight="w")
    grid = np.linspace(0, 1, 9)
    keys, mat = prn.interpolate_matrix(pts, grid=grid, by=["model", "rep"])  # fast path
    k2, m2 = prn.interpolate_matrix(
        pts.sample(frac=1.0, random_state=2), grid=grid, by=["model", "rep"]
    )  # hashed grouping
    pd.testing.assert_frame_equal(keys, k2)
    np.testing.assert_array_equal(mat, m2)
    assert keys.values.tolist() == sorted(keys.values.tolist())
    for i, (m, r) in enumerate(keys.itertuples(index=False)):
        part = pts[(pts["model"] == m) & (pts["rep"] == r)]
        np.testing.assert_allclose(
            mat[i],
            naive.precision_at_recall(part["tp"].to_numpy(), part["fp"].to_numpy(), grid),
            rtol=1e-12,
            atol=1e-15,
        )
    # categorical keys: category order, like every other function (pandas groupby)
    cat = pts.assign(model=pd.Categorical(pts["model"], categories=["b", "a"]))
    k3, m3 = prn.interpolate_matrix(
        cat.sample(frac=1.0, random_state=3), grid=grid, by=["model", "rep"]
    )
    expect = keys.assign(model=pd.Categorical(keys["model"], categories=["b", "a"]))
    expect = expect.sort_values(["model", "rep"])
    assert k3.astype(str).values.tolist() == expect.astype(str).values.tolist()
    np.testing.assert_array_equal(m3, mat[expect.index.to_numpy()])
    cat_pack = prn.auc(
        df.assign(model=pd.Categorical(df["model"], categories=["b", "a"])),
        score="s",
        label="y",
        by=["model", "rep"],
        weight="w",
    )
    assert cat_pack[["model", "rep"]].astype(str).values.tolist() == k3.astype(str).values.tolist()


def test_interpolate_rates_input_equals_counts_input():
    rng = np.random.default_rng(8)
    df = _scored_batch(rng, 5, 30)
    pts = prn.pr_curve(df, score="s", label="y", by="g", weight="w")
    grid = np.linspace(0, 1, 23)
    _, ref = prn.interpolate_matrix(pts, grid=grid, by="g")
    tot = pts.groupby("g")[["tp", "fp"]].transform("max")
    rates = pts.assign(P=tot["tp"], N=tot["fp"])[["g", "recall", "precision", "P", "N"]]
    # drop TP = 0 rows: from rates they carry no FP count (documented); keep curves whose
    # top block holds a positive
    first = pts.groupby("g").nth(1)
    ok = first.loc[first["tp"] > 0, "g"].to_numpy()
    sub = rates[rates["g"].isin(ok)]
    _, got = prn.interpolate_matrix(sub, grid=grid, by="g", n_pos="P", n_neg="N")
    np.testing.assert_allclose(got, ref[np.isin(np.arange(5), ok)], rtol=1e-12, atol=1e-15)
    roc = prn.roc_curve(df, score="s", label="y", by="g", weight="w")
    _, ref_roc = prn.interpolate_matrix(roc, grid=grid, by="g", space="roc")
    _, got_roc = prn.interpolate_matrix(roc[["g", "fpr", "tpr"]], grid=grid, by="g", space="roc")
    np.testing.assert_allclose(got_roc, ref_roc, rtol=1e-12, atol=1e-15)


def test_interpolate_points_of_a_paper_table():
    # two models' PR tables with a scalar class balance; Table 1 for model "a"
    pts = pd.DataFrame(
        {"model": ["a", "a", "b"], "recall": [0.25, 0.5, 0.5], "precision": [0.5, 0.25, 0.5]}
    )
    out = prn.interpolate(pts, grid=np.arange(5, 11) / 20, by="model", n_pos=20, n_neg=2000)
    a = out[out["model"] == "a"]["precision"].to_numpy()
    np.testing.assert_allclose(a, [5 / 10, 6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40], rtol=1e-14)
    same = prn.PRCurve(recall=[0.5], precision=[0.5], n_pos=20, n_neg=2000)
    b = out[out["model"] == "b"]["precision"].to_numpy()
    np.testing.assert_allclose(b, same.precision_at(np.arange(5, 11) / 20), rtol=1e-15)


def test_curve_without_positives_warns_and_gives_nan():
    pts = pd.DataFrame(
        {
            "g": [0, 0, 1, 1],
            "tp": [1, 2, 0, 0],
            "fp": [0, 1, 1, 2],
            "recall": [0.5, 1.0, np.nan, np.nan],
        }
    )  # recall 0/0: no positives
    with pytest.warns(prn.UndefinedMetricWarning, match="g=1"):
        _, mat = prn.interpolate_matrix(pts, grid=[0.0, 0.5, 1.0], by="g")
    assert np.isnan(mat[1]).all() and np.isfinite(mat[0]).all()


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(points=[1, 2]), TypeError, "points must be a pandas DataFrame"),
        (dict(points=pd.DataFrame({"a": [1]})), ValueError, "needs columns 'tp' and 'fp'"),
        (dict(points=pd.DataFrame({"tp": [], "fp": []})), ValueError, "points is empty"),
        (dict(grid=[0.5, 0.1]), ValueError, "ascending"),
        (dict(grid=[0.5, np.nan]), ValueError, r"finite and in \[0, 1\]"),
        (dict(grid=1), ValueError, "too few"),
        (dict(grid="x"), TypeError, "grid must be"),
        (dict(space="det"), ValueError, "space='det'"),
        (dict(by="nope"), ValueError, "'nope' is not a column"),
        (
            dict(points=pd.DataFrame({"g": [0, 0], "tp": [1, 2], "fp": [3, 1]})),
            ValueError,
            r"not one ranking: row 1 \(g=0, tp=2, fp=1\)",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "tp": [-1.0], "fp": [1.0]})),
            ValueError,
            "'tp' must be finite and >= 0",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "recall": [0.5], "precision": [0.5]})),
            ValueError,
            "need the class balance",
        ),
        (
            dict(
                points=pd.DataFrame({"g": [0], "recall": [0.5], "precision": [0.0]}),
                n_pos=1,
                n_neg=1,
            ),
            ValueError,
            "precision 0 at recall > 0 is impossible",
        ),
        (
            dict(
                points=pd.DataFrame({"g": [0, 0], "tp": [1, 2], "fp": [1, 2], "P": [2, 3]}),
                n_pos="P",
                n_neg=5,
            ),
            ValueError,
            "constant within a curve",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "tp": [3.0], "fp": [1.0]}), n_pos=2, n_neg=5),
            ValueError,
            "more true positives than the curve's n_pos=2",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "tp": [1.0], "fp": [np.inf]})),
            ValueError,
            "'fp' must be finite and >= 0",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "tp": [1.0], "fp": [9.0]}), n_pos=2, n_neg=5),
            ValueError,
            "more false positives than the curve's n_neg=5",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "fpr": [0.5], "tpr": [1.5]}), space="roc"),
            ValueError,
            r"'tpr' must be in \[0, 1\]",
        ),
        (
            dict(points=pd.DataFrame({"g": [0], "tp": ["a"], "fp": [1.0]})),
            TypeError,
            "'tp' must be numeric",
        ),
        (dict(n_pos=3), ValueError, "pass both n_pos= and n_neg="),
        (dict(n_pos=3, n_neg=3, pos_neg_ratio=1), ValueError, "not both"),
    ],
)
def test_interpolate_errors(kwargs, exc, match):
    args = dict(
        points=pd.DataFrame({"g": [0, 0], "tp": [1.0, 2.0], "fp": [0.0, 1.0]}),
        grid=[0.0, 1.0],
        by="g",
    )
    args.update(kwargs)
    points = args.pop("points")
    with pytest.raises(exc, match=match):
        prn.interpolate(points, **args)


# ------------------------------------------------------------------- vertical averaging


def test_average_curves_equals_numpy_summaries_of_naive_curves():
    rng = np.random.default_rng(21)
    frames = []
    for model in ("m1", "m2"):
        df = _scored_batch(rng, 9, 30)
        pts = prn.pr_curve(df, score="s", label="y", by="g", weight="w")
        frames.append(pts.assign(model=model).rename(columns={"g": "rep"}))
    pts = pd.concat(frames, ignore_index=True)
    grid = np.linspace(0, 1, 15)
    qs = (0.1, 0.5, 0.9)
    out = prn.average_curves(pts, grid=grid, curve="rep", by="model", quantiles=qs)
    assert list(out.columns) == [
        "model",
        "recall",
        "precision",
        "sd",
        "n_curves",
        "q0.1",
        "q0.5",
        "q0.9",
    ]
    for model in ("m1", "m2"):
        part = pts[pts["model"] == model]
        mat = np.array(
            [
                naive.precision_at_recall(c["tp"].to_numpy(), c["fp"].to_numpy(), grid)
                for _, c in part.groupby("rep", sort=True)
            ]
        )
        got = out[out["model"] == model]
        np.testing.assert_allclose(got["precision"], mat.mean(axis=0), rtol=1e-12)
        np.testing.assert_allclose(got["sd"], mat.std(axis=0, ddof=1), rtol=1e-10, atol=1e-14)
        assert (got["n_curves"] == 9).all()
        for q in qs:
            np.testing.assert_allclose(
                got[f"q{q:g}"], np.quantile(mat, q, axis=0), rtol=1e-12, atol=1e-15
            )


def test_average_curves_roc_and_edge_cases():
    pts = pd.DataFrame(
        {
            "rep": [0, 0, 1, 1, 2, 2],
            "tp": [1, 2, 2, 2, 0, 0],
            "fp": [0, 2, 0, 2, 1, 2],
            "tpr": [0.5, 1, 1, 1, np.nan, np.nan],
            "fpr": [0, 1, 0, 1, 0.5, 1],
        }
    )
    with pytest.warns(prn.UndefinedMetricWarning):
        out = prn.average_curves(pts, grid=[0.5], curve="rep", space="roc")
    # rep 2 has no positives: left out of the summaries at every grid point
    assert out["n_curves"].tolist() == [2]
    assert out["tpr"].iloc[0] == pytest.approx((0.75 + 1.0) / 2)
    one = prn.average_curves(pts[pts["rep"] == 0], grid=[0.5], curve="rep", space="roc")
    assert np.isnan(one["sd"].iloc[0]) and one["n_curves"].iloc[0] == 1
    with pytest.raises(ValueError, match="both by= and curve="):
        prn.average_curves(pts, grid=[0.5], curve="rep", by="rep")
    with pytest.raises(ValueError, match="quantiles"):
        prn.average_curves(pts, grid=[0.5], curve="rep", quantiles=[1.5])
    with pytest.raises(ValueError, match="curve= must name"):
        prn.average_curves(pts, grid=[0.5], curve=[])


def test_no_global_numpy_state_change():
    before = np.geterr()
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        pts = pd.DataFrame(
            {
                "g": [0, 0, 1, 1],
                "tp": [0, 0, 1, 2],
                "fp": [1, 2, 0, 0],
                "recall": [np.nan, np.nan, 0.5, 1],
                "fpr": [0.5, 1, np.nan, np.nan],
            }
        )
        prn.interpolate(pts, grid=5, by="g")
        prn.interpolate(pts, grid=5, by="g", space="roc", hull=True)
        prn.average_curves(pts, grid=5, curve="g")
    assert np.geterr() == before


def test_roc_interpolation_matches_numpy_interp_on_sklearn_curve():
    from sklearn.metrics import roc_curve as sk_roc

    rng = np.random.default_rng(17)
    y = (rng.random(400) < 0.3).astype(int)
    s = np.round(rng.normal(size=400) + y, 1)
    fpr, tpr, _ = sk_roc(y, s, drop_intermediate=False)
    # grid values away from every vertex FPR: linear interpolation is unambiguous there
    grid = np.sort(rng.random(200))
    grid = grid[np.min(np.abs(grid[:, None] - fpr[None, :]), axis=1) > 1e-9]
    pts = prn.roc_curve(score=s, label=y)
    got = prn.interpolate(pts, grid=grid, space="roc")["tpr"].to_numpy()
    np.testing.assert_allclose(got, np.interp(grid, fpr, tpr), rtol=1e-12, atol=1e-15)
    # and at the vertex FPRs the highest TPR there (sklearn's last point at that FPR)
    ufpr = np.unique(fpr)
    top = np.array([tpr[fpr == v].max() for v in ufpr])
    got_v = prn.interpolate(pts, grid=ufpr, space="roc")["tpr"].to_numpy()
    np.testing.assert_allclose(got_v, top, rtol=1e-12, atol=1e-15)


def test_pr_interpolation_at_sklearn_recalls_is_the_best_precision_there():
    from sklearn.metrics import precision_recall_curve

    rng = np.random.default_rng(18)
    y = (rng.random(300) < 0.2).astype(int)
    s = np.round(rng.normal(size=300) + y, 1)
    prec, rec, _ = precision_recall_curve(y, s)
    urec = np.unique(rec[rec > 0])
    best = np.array([prec[rec == v].max() for v in urec])
    pts = prn.pr_curve(score=s, label=y)
    got = prn.interpolate(pts, grid=urec)["precision"].to_numpy()
    np.testing.assert_allclose(got, best, rtol=1e-12)


# ------------------------------------------------------------------ property (hypothesis)


@st.composite
def _count_curves(draw):
    """Sweep-order count vertices from integer steps (ties: zero steps in TP or FP)."""
    k = draw(st.integers(1, 12))
    dt = draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))
    df = draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))
    tp = np.concatenate([[0.0], np.cumsum(dt)]).astype(float)
    fp = np.concatenate([[0.0], np.cumsum(df)]).astype(float)
    return tp, fp


@settings(max_examples=150, deadline=None)
@given(_count_curves(), st.lists(st.floats(0, 1, allow_subnormal=False), max_size=6))
def test_property_kernels_equal_naive(curve, extra):
    tp, fp = curve
    grid_pr = np.unique(np.concatenate([extra, tp / tp[-1] if tp[-1] > 0 else [], [0, 1]]))
    grid_roc = np.unique(np.concatenate([extra, fp / fp[-1] if fp[-1] > 0 else [], [0, 1]]))
    np.testing.assert_allclose(
        _pr(tp, fp, grid_pr), naive.precision_at_recall(tp, fp, grid_pr), rtol=1e-12, atol=1e-15
    )
    np.testing.assert_allclose(
        _roc(tp, fp, grid_roc), naive.tpr_at_fpr(tp, fp, grid_roc), rtol=1e-12, atol=1e-15
    )
    # on the hull the PR curve is never below the curve itself
    idx = _hull_indices(tp, fp)
    on_hull = _pr(tp[idx], fp[idx], grid_pr)
    assert (
        np.nan_to_num(on_hull, nan=0) >= np.nan_to_num(_pr(tp, fp, grid_pr), nan=0) - 1e-12
    ).all()


# ------------------------------------------- class totals from the rate columns (issue 9)


def _thresholded_frame():
    rng = np.random.default_rng(2000)
    y = (rng.random(2000) < 0.2).astype(int)
    return pd.DataFrame({"s": y + rng.normal(size=2000), "y": y})


def _vertices_at(df, thresholds):
    """Origin, the counts at each threshold (numpy, independent), then (P, N)."""
    s, y = df["s"].to_numpy(), df["y"].to_numpy()
    tp = [0.0] + [float(((s >= t) & (y == 1)).sum()) for t in thresholds]
    fp = [0.0] + [float(((s >= t) & (y == 0)).sum()) for t in thresholds]
    return tp + [float(y.sum())], fp + [float((1 - y).sum())]


def test_interpolate_infers_P_from_recall_on_a_curve_short_of_recall_1():
    df = _thresholded_frame()
    thr = [2.0, 1.0, 0.5]
    pts = prn.pr_curve(df, score="s", label="y", thresholds=thr)
    assert pts["recall"].iloc[-1] < 0.95  # the curve stops short of (P, N)
    tp, fp = _vertices_at(df, thr)
    want = naive.precision_at_recall(tp, fp, [0.5])[0]
    got = prn.interpolate(pts, grid=[0.5])["precision"].iloc[0]
    assert got == pytest.approx(want, rel=1e-12)
    # the old guess (P = the largest tp) gives another number
    assert naive.precision_at_recall(tp[:-1], fp[:-1], [0.5])[0] != pytest.approx(want)
    _, mat = prn.interpolate_matrix(pts, grid=[0.5])
    assert mat[0, 0] == pytest.approx(want, rel=1e-12)


def test_interpolate_roc_joins_the_last_point_to_1_1():
    df = _thresholded_frame()
    thr = [1.5, 0.5]
    pts = prn.roc_curve(df, score="s", label="y", thresholds=thr)
    tp, fp = _vertices_at(df, thr)
    want = naive.tpr_at_fpr(tp, fp, [0.5])[0]
    got = prn.interpolate(pts, grid=[0.5], space="roc")["tpr"].iloc[0]
    assert got == pytest.approx(want, rel=1e-12)
    assert pts["fpr"].iloc[-1] < 0.5  # 0.5 lies on the segment to (1, 1)


def test_interpolate_without_fpr_is_nan_beyond_the_last_point():
    df = _thresholded_frame()
    pts = prn.pr_curve(df, score="s", label="y", thresholds=[2.0, 1.0, 0.5])
    last = pts["recall"].iloc[-1]
    with pytest.warns(prn.UndefinedMetricWarning, match="n_neg="):
        out = prn.interpolate(pts, grid=[0.5, 0.99])
    assert np.isfinite(out["precision"].iloc[0]) and np.isnan(out["precision"].iloc[1])
    assert last < 0.99
    with pytest.raises(
        ValueError, match=r"achievable curve \(hull=True\) needs the number of negatives"
    ):
        prn.interpolate(pts, grid=[0.5], hull=True)
    P, N = int(df.y.sum()), int((1 - df.y).sum())
    full = prn.interpolate(pts, grid=[0.5, 0.99], n_pos=P, n_neg=N)  # totals given: known
    assert np.isfinite(full["precision"]).all()


def test_interpolate_totals_that_cannot_be_known_are_errors():
    with pytest.raises(ValueError, match="no 'recall'.*n_pos= and n_neg="):
        prn.interpolate(pd.DataFrame({"tp": [1.0, 2.0], "fp": [1.0, 3.0]}), grid=[0.5])
    zero = pd.DataFrame({"m": ["a", "a"], "tp": [0.0, 0.0], "fp": [1.0, 2.0], "recall": [0.0, 0.0]})
    with pytest.raises(
        ValueError,
        match=r"curve of row 0 \(m='a'.*no row of that curve "
        r"has recall > 0.*n_pos=",
    ):
        prn.interpolate(zero, grid=[0.5], by="m")
    mixed = pd.DataFrame(
        {"m": ["a", "a"], "tp": [1.0, 4.0], "fp": [0.0, 1.0], "recall": [0.1, 0.2]}
    )  # P = 10 and P = 20
    with pytest.raises(ValueError, match=r"disagree on its number of positives.*m='a'"):
        prn.interpolate(mixed, grid=[0.5], by="m")
    roc = pd.DataFrame({"tp": [1.0], "fp": [1.0], "recall": [0.5]})
    with pytest.raises(ValueError, match="space='roc' needs the number of negatives"):
        prn.interpolate(roc, grid=[0.5], space="roc")


# ------------------------------------------- the one-pass check of packed points
def _random_points(rng):
    """One curve's rows (sorted or not) with rates and per-row totals, usual or not."""
    n = int(rng.integers(1, 12))
    tp = np.sort(rng.integers(0, 20, n)).astype(float)
    fp = np.sort(rng.integers(0, 20, n)).astype(float)
    P = tp[-1] if rng.random() < 0.7 else tp[-1] + rng.integers(0, 3)
    N = fp[-1] if rng.random() < 0.7 else fp[-1] + rng.integers(0, 3)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_rate, n_rate = tp / P, fp / N
    k = int(rng.integers(0, n))
    trick = rng.integers(0, 12)
    if trick == 1:  # a rate off by about the tolerance (either side) or far off
        p_rate[k] *= 1 + rng.choice([0.4e-6, 0.6e-6, 0.99e-6, 1.01e-6, 2e-6, 1e-3, -1e-6])
    elif trick == 2:
        n_rate[k] = np.nan if rng.random() < 0.5 else 0.0
    elif trick == 3:  # FP decreasing, slightly (rounding) or clearly
        fp[k] = max(fp[k] - rng.choice([1e-12, 1.0]), 0.0)
    elif trick == 4:
        tp[k] = rng.choice([np.nan, -1.0, np.inf])
    elif trick == 5:  # rows out of order
        rng.shuffle(tp)
    elif trick == 6:  # the largest rate reached twice, by different counts
        p_rate[-1] = p_rate[k]
    elif trick == 7:  # a count slightly above the total
        tp[-1] = P * (1 + rng.choice([1e-12, 1e-3]))
    elif trick == 8:  # no positives: rates NaN (0/0)
        tp[:] = 0.0
        p_rate[:] = np.nan
    elif trick == 9:
        p_rate[k] = np.inf
    elif trick == 11:  # totals so small or large that the margins leave normal numbers
        tp *= rng.choice([1e-290, 1e-280, 1e290, 1e300])
    P_row = np.full(n, float(max(P, 1.0)))
    N_row = np.full(n, float(max(N, 1.0)))
    if trick == 10:
        P_row[k] += 1.0
    return tp, fp, p_rate, n_rate, P_row, N_row


def test_one_pass_check_equals_the_exact_passes():
    # the one-pass check (_check_one) must give what the several exact passes give
    # (order test, then _check_curve): status, row, totals, completeness; the exact
    # passes are the reference (they were the check before the one pass existed)
    from prroc_numba._kernels.points import (
        NOT_SORTED,
        OK,
        _check_curve,
        _check_one,
        _in_order,
    )

    rng = np.random.default_rng(7)
    empty = np.empty(0)
    seen = set()
    for _ in range(3000):
        tp, fp, p_rate, n_rate, P_row, N_row = _random_points(rng)
        n = tp.size
        # the curve's rows [a:b) follow rows of other curves (garbage here, never read)
        pad = int(rng.integers(0, 3))
        junk = rng.choice([np.nan, -1.0, np.inf, 5.0], pad)
        tp, fp, p_rate, n_rate, P_row, N_row = (
            np.concatenate([junk, x]) if x.size else x
            for x in (tp, fp, p_rate, n_rate, P_row, N_row)
        )
        a, b = pad, pad + n
        mode = int(rng.integers(0, 4))
        args = [
            (empty, empty, empty, empty),
            (empty, empty, p_rate, empty),
            (empty, empty, p_rate, n_rate),
            (P_row, N_row, empty, empty),
        ][mode]
        P1, N1, P2, N2 = (np.full(1, -7.0) for _ in range(4))
        got = _check_one(a, b, tp, fp, *args, 1e-9, P1, N1, 0)
        if _in_order(a, b, tp, fp):
            want = _check_curve(a, b, tp, fp, *args, 1e-9, P2, N2, 0)
        else:
            want = (NOT_SORTED, a, False)
        assert tuple(got) == tuple(want), (tp, fp, args)
        if want[0] == OK:
            assert P1[0] == P2[0] and N1[0] == N2[0]
        seen.add(int(want[0]))
    assert len(seen) >= 8  # the cases reach most outcomes
