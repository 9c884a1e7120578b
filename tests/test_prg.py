"""Precision-Recall-Gain curves and AUPRG against Flach & Kull's reference implementation
(values stored by tests/data/prg_pyprg.py) and the slow definitions in tests/naive.py."""

import json
import warnings
from pathlib import Path

import naive
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

REF = json.loads((Path(__file__).parent / "data" / "peers" / "prg_pyprg.json").read_text())


@pytest.mark.parametrize("case", REF, ids=lambda c: c["name"])
def test_auprg_and_points_match_the_authors_implementation(case):
    y, s = np.array(case["labels"]), np.array(case["scores"])
    got = prn.auc(score=s, label=y, curve="prg").auc[0]
    assert got == pytest.approx(case["auprg"], rel=1e-10, abs=1e-12)
    pts = prn.prg_curve(score=s, label=y)
    ref = np.array(case["points"])
    np.testing.assert_allclose(pts[["tp", "fp"]].to_numpy(), ref[:, 2:], rtol=0, atol=0)
    np.testing.assert_allclose(
        pts[["recall_gain", "precision_gain"]].to_numpy(), ref[:, :2], rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("case", REF, ids=lambda c: c["name"])
def test_prg_hull_matches_the_authors_convex_hull(case):
    y, s = np.array(case["labels"]), np.array(case["scores"])
    hull = prn.prg_curve(score=s, label=y, hull=True)
    area = prn.auc(score=s, label=y, curve="prg", hull=True).auc[0]
    # the definition: the ROC hull (brute force) mapped to PRG space, its area from 0
    _, tp, fp = naive.sweep(s, y, 1 - y)
    k = naive.upper_hull(tp, fp)
    assert area == pytest.approx(
        naive.auprg_counts(tp[k], fp[k], y.sum(), (1 - y).sum()), rel=1e-10, abs=1e-12
    )
    ref = case["hull"][::-1]  # pyprg lists the upper hull right to left
    if case["points"][0][0] < 0:
        # pyprg hulls the raw curve's points and its crossing of recall gain 0; that is
        # the same hull unless the curve enters the square at its first point with
        # TP > 0 (then pyprg's crossing comes from the TP = 0 points below the hull)
        assert area == pytest.approx(naive.area_from_zero(ref), rel=1e-10, abs=1e-12)
    # inside the square, pyprg's vertices lie on the library's hull (pyprg keeps some
    # collinear points that rounding puts a hair above the chord) and ours are theirs
    xs, ys = hull.recall_gain.to_numpy(), hull.precision_gain.to_numpy()
    keep = np.r_[True, np.diff(xs) > 0]  # the top of a vertical run
    inside = [(a, b) for a, b in ref if 0 < a < 1]
    if inside:
        xa, ya = np.array(inside).T
        np.testing.assert_allclose(np.interp(xa, xs[keep], ys[keep]), ya, atol=1e-9)
    theirs = {(round(a, 9), round(b, 9)) for a, b in ref}
    assert {(round(a, 9), round(b, 9)) for a, b in zip(xs, ys) if 0 < a < 1} <= theirs
    # the hull lies on or above every point of the curve
    pts = prn.prg_curve(score=s, label=y)
    top = np.interp(pts.recall_gain, xs[keep], ys[keep])
    assert np.all(pts.precision_gain <= top + 1e-9)


def _random(seed, n, ties):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.1, 0.6)).astype(int)
    y[:2] = [1, 0]
    s = rng.normal(size=n) + rng.uniform(0, 2) * y
    if ties:
        s = np.round(s, 1)
    w = rng.integers(1, 4, size=n).astype(float)
    return y, s, w


@pytest.mark.parametrize("seed", range(8))
def test_auprg_matches_the_definition_with_weights_and_ties(seed):
    y, s, w = _random(seed, 60 + 20 * seed, seed % 2 == 1)
    ref = naive.auprg(s, w * y, w * (1 - y))
    got = prn.auc(score=s, label=y, weight=w, curve="prg").auc[0]
    assert got == pytest.approx(ref, rel=1e-10, abs=1e-12)
    # integer weights = duplicated rows
    dup = prn.auc(
        score=np.repeat(s, w.astype(int)), label=np.repeat(y, w.astype(int)), curve="prg"
    ).auc[0]
    assert got == pytest.approx(dup, rel=1e-12, abs=1e-12)
    pts = prn.prg_curve(score=s, label=y, weight=w)
    ref_pts = np.array(naive.prg_points(s, w * y, w * (1 - y)))
    np.testing.assert_allclose(
        pts[["recall_gain", "precision_gain", "tp", "fp"]].to_numpy(), ref_pts, rtol=1e-10
    )


def test_prg_batches_by_group_and_model():
    ys, ss = [], []
    frames = []
    for g in range(4):
        y, s, _ = _random(10 + g, 50 + 30 * g, g % 2 == 0)
        frames.append(pd.DataFrame({"g": g, "y": y, "a": s, "b": -s + y}))
        ys.append(y)
        ss.append(s)
    df = pd.concat(frames, ignore_index=True)
    res = prn.auc(df, score=["a", "b"], label="y", by="g", curve="prg")
    assert list(res.columns) == ["g", "model", "auc"]
    for row in res.itertuples():
        sub = df[df.g == row.g]
        one = prn.auc(score=sub[row.model].to_numpy(), label=sub.y.to_numpy(), curve="prg")
        assert row.auc == one.auc[0]
    pts = prn.prg_curve(df, score=["a", "b"], label="y", by="g", hull=True)
    assert list(pts.columns[:2]) == ["g", "model"]
    one = prn.prg_curve(score=ss[1], label=ys[1], hull=True)
    got = pts[(pts.g == 1) & (pts.model == "a")].drop(columns=["g", "model"])
    pd.testing.assert_frame_equal(got.reset_index(drop=True), one)


def test_prg_perfect_and_undefined():
    res = prn.auc(score=[3, 2, 1, 0], label=[1, 1, 0, 0], curve="prg")
    assert res.auc[0] == pytest.approx(1.0)
    with pytest.warns(prn.UndefinedMetricWarning, match="AUPRG is NaN"):
        res = prn.auc(score=[3, 2, 1], label=[1, 1, 1], curve="prg")
    assert np.isnan(res.auc[0])
    with pytest.warns(prn.UndefinedMetricWarning, match="gains are NaN"):
        pts = prn.prg_curve(score=[3, 2, 1], label=[0, 0, 0])
    assert pts.empty or pts.recall_gain.isna().all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prn.prg_curve(score=[3, 2, 1], label=[1, 0, 1], hull=True)


def test_prg_errors_name_the_argument():
    with pytest.raises(ValueError, match="method="):
        prn.auc(score=[3, 2, 1], label=[1, 0, 1], curve="prg", method="dg")
    with pytest.raises(ValueError, match="partial="):
        prn.auc(score=[3, 2, 1], label=[1, 0, 1], curve="prg", partial=(0, 0.5))
    with pytest.raises(ValueError, match="device="):
        prn.auc(score=[3, 2, 1], label=[1, 0, 1], curve="prg", device="cuda")
