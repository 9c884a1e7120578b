"""bootstrap_curve(): pointwise bands of count-interpolated PR curves."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba._core.packing import pack
from prroc_numba._drivers.resample import segments_batch
from prroc_numba._kernels.sweep import _sweep_one
from tests import naive
from tests.kernel_probes import _grouped_counts_one, _paired_counts_one

boot_mod = importlib.import_module("prroc_numba._resampling.plan")
run_mod = importlib.import_module("prroc_numba._resampling.run")
GRID = np.linspace(0, 1, 21)
DATA = Path(__file__).parent / "data"


def _frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "m1": np.round(y + rng.normal(size=n), 1),
            "m2": np.round(0.5 * y + rng.normal(size=n), 2),
        }
    )


def _naive_curve(score, y, cnt):
    s, p, q = naive.materialise(score, y.astype(float), 1 - y.astype(float), cnt)
    _, tp, fp = naive.sweep(s, p, q)
    return naive.precision_on_recall_grid(tp, fp, GRID)


@pytest.mark.parametrize("stratified", [True, False])
def test_paired_bands_from_materialised_replicates(stratified):
    df = _frame()
    B = 40
    res = prn.bootstrap_curve(
        df,
        score=["m1", "m2"],
        label="y",
        grid=GRID,
        n_boot=B,
        stratified=stratified,
        seed=3,
        level=0.8,
        progress=False,
    )
    batch = pack(df, score=["m1", "m2"], label="y")
    plan = boot_mod.Plan(batch, stratified)
    y = df.y.to_numpy()
    for m in ["m1", "m2"]:
        reps = []
        for b in range(B):
            cnt = _paired_counts_one(
                plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(3), b
            )[plan.slot]
            reps.append(_naive_curve(df[m].to_numpy(), y, cnt))
        reps = np.array(reps)
        got = res[res.model == m]
        np.testing.assert_allclose(got.recall, GRID)
        _, tp, fp = naive.sweep(df[m].to_numpy(), y * 1.0, 1.0 - y)
        np.testing.assert_allclose(
            got.precision, naive.precision_on_recall_grid(tp, fp, GRID), rtol=1e-12
        )
        np.testing.assert_allclose(got.ci_low, np.quantile(reps, 0.1, axis=0), rtol=1e-12)
        np.testing.assert_allclose(got.ci_high, np.quantile(reps, 0.9, axis=0), rtol=1e-12)


@pytest.mark.parametrize("curve", ["pr", "roc"])
def test_grouped_bands_from_materialised_replicates(curve):
    """One model per group (segment-count draws): each replicate's curve materialised."""
    df = _frame(seed=1)
    df["g"] = np.repeat(["a", "b"], 100)
    B = 30
    res = prn.bootstrap_curve(
        df,
        score="m1",
        label="y",
        by="g",
        curve=curve,
        grid=GRID,
        n_boot=B,
        seed=5,
        progress=False,
    )
    batch = pack(df, score="m1", label="y", by="g")
    order, _, _, so, se, sp, sn = segments_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    tabs = boot_mod._cell_tables(sp, sn, True)
    for c, g in enumerate(["a", "b"]):
        a, e = batch.offsets[c], batch.offsets[c + 1]
        x, y, srt = batch.values[a:e], batch.pos[a:e], order[a:e]
        reps = []
        for b in range(B):
            xp, xn = _grouped_counts_one(so, sp, sn, c, c, run_mod.kernel_seed(5), b, True, *tabs)
            cnt = np.zeros(e - a)
            start = 0
            for k, end in enumerate(se[so[c] : so[c + 1]]):
                rows = srt[start:end]
                if xp[k]:
                    cnt[rows[y[rows] == 1][0]] += xp[k]
                if xn[k]:
                    cnt[rows[y[rows] == 0][0]] += xn[k]
                start = end
            yi = y.astype(int)
            if curve == "pr":
                reps.append(_naive_curve(x, yi, cnt))
            else:
                reps.append(_naive_roc(x, yi, cnt, "fpr"))
        got = res[res.g == g]
        np.testing.assert_allclose(got.ci_low, np.quantile(reps, 0.025, axis=0), rtol=1e-12)
        np.testing.assert_allclose(got.ci_high, np.quantile(reps, 0.975, axis=0), rtol=1e-12)


def test_precision_column_is_the_data_curve_and_hull_dominates():
    df = _frame(400, seed=2)
    res = prn.bootstrap_curve(
        df, score="m1", label="y", grid=GRID, n_boot=50, seed=0, progress=False
    )
    hull = prn.bootstrap_curve(
        df, score="m1", label="y", grid=GRID, n_boot=50, seed=0, hull=True, progress=False
    )
    _, tp, fp = _sweep_one(df.m1.to_numpy(), df.y.to_numpy(float), 1 - df.y.to_numpy(float))
    np.testing.assert_allclose(res.precision, naive.precision_on_recall_grid(tp, fp, GRID))
    assert (hull.precision.to_numpy()[1:] >= res.precision.to_numpy()[1:] - 1e-12).all()
    inside = (res.ci_low <= res.precision) & (res.precision <= res.ci_high)
    assert inside.mean() > 0.8


def test_identical_models_have_identical_bands():
    df = _frame(seed=3)
    df["copy"] = df.m2
    res = prn.bootstrap_curve(
        df, score=["m2", "copy"], label="y", grid=11, n_boot=60, seed=1, progress=False
    )
    a, b = res[res.model == "m2"], res[res.model == "copy"]
    np.testing.assert_array_equal(
        a[["ci_low", "ci_high"]].to_numpy(), b[["ci_low", "ci_high"]].to_numpy()
    )


@pytest.mark.parametrize(
    "grid,match",
    [(1, "too few"), ([0.5, 0.2], "increasing"), ([0, 1.5], r"\[0, 1\]"), (True, "int")],
)
def test_bad_grid(grid, match):
    with pytest.raises((ValueError, TypeError), match=match):
        prn.bootstrap_curve(_frame(), score="m1", label="y", grid=grid, n_boot=10)


# ------------------------------------------------------------------ ROC bands


def _naive_roc(score, y, cnt, space):
    s, p, q = naive.materialise(score, y.astype(float), 1 - y.astype(float), cnt)
    _, tp, fp = naive.sweep(s, p, q)
    f = naive.tpr_at_fpr if space == "fpr" else naive.fpr_at_tpr
    return f(tp, fp, GRID)


@pytest.mark.parametrize("space", ["fpr", "tpr"])
@pytest.mark.parametrize("stratified", [True, False])
def test_roc_bands_from_materialised_replicates(space, stratified):
    df = _frame()
    B = 30
    res = prn.bootstrap_curve(
        df,
        score=["m1", "m2"],
        label="y",
        curve="roc",
        space=space,
        grid=GRID,
        n_boot=B,
        stratified=stratified,
        seed=4,
        level=0.8,
        progress=False,
    )
    x, v = ("fpr", "tpr") if space == "fpr" else ("tpr", "fpr")
    descriptors = ["curve", "interval", "resampling", "n_boot"]
    assert list(res.columns) == ["model", *descriptors, x, v, "ci_low", "ci_high"]
    batch = pack(df, score=["m1", "m2"], label="y")
    plan = boot_mod.Plan(batch, stratified)
    y = df.y.to_numpy()
    for m in ["m1", "m2"]:
        reps = []
        for b in range(B):
            cnt = _paired_counts_one(
                plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(4), b
            )[plan.slot]
            reps.append(_naive_roc(df[m].to_numpy(), y, cnt, space))
        reps = np.array(reps)
        got = res[res.model == m]
        np.testing.assert_allclose(got[x], GRID)
        np.testing.assert_allclose(got[v], _naive_roc(df[m].to_numpy(), y, np.ones(len(y)), space))
        np.testing.assert_allclose(got.ci_low, np.quantile(reps, 0.1, axis=0), rtol=1e-12)
        np.testing.assert_allclose(got.ci_high, np.quantile(reps, 0.9, axis=0), rtol=1e-12)


@pytest.mark.parametrize("space", ["fpr", "tpr"])
def test_roc_bands_agree_with_proc(space):
    """pROC 1.18's stratified ci.se (sensitivity at specificity 1 - fpr) and ci.sp
    replicates (tests/data/proc_bands/proc_bands.R): the same estimate, and standard
    deviations and 2.5% / 97.5% quantiles within Monte Carlo error."""
    d = pd.read_csv(DATA / "proc_bands" / "data.csv")
    ref = pd.read_csv(DATA / "proc_bands" / "proc_bands.csv")
    ref = ref[ref.space == space].reset_index(drop=True)
    g = ref.x.to_numpy()
    B = 4000
    res = prn.bootstrap_curve(
        d,
        score="score",
        label="label",
        curve="roc",
        space=space,
        grid=g,
        n_boot=B,
        seed=0,
        stratified=True,
        progress=False,
    )
    v = "tpr" if space == "fpr" else "fpr"
    np.testing.assert_allclose(res[v], ref.estimate, atol=1e-12)
    np.testing.assert_allclose(res.ci_low, ref.q025, atol=0.02)
    np.testing.assert_allclose(res.ci_high, ref.q975, atol=0.02)
    # standard errors: the replicates themselves (the same draws as the band)
    batch = pack(d, score="score", label="label")
    plan = boot_mod.Plan(batch, True)
    code = {"fpr": -2, "tpr": -3}[space]
    reps = plan.run(run_mod.kernel_seed(0), B, False, False, "t", code=code, grid=g)[0]
    sd = reps.std(axis=1, ddof=1)
    live = ref.sd.to_numpy() > 0
    np.testing.assert_array_equal(sd > 0, live)
    np.testing.assert_allclose(sd[live], ref.sd[live], rtol=0.08)
    assert abs(np.mean(sd[live] / ref.sd[live]) - 1) < 0.02  # no bias overall


def test_roc_hull_band_dominates_the_curve():
    df = _frame(400, seed=2)
    kw = dict(score="m1", label="y", curve="roc", grid=GRID, n_boot=50, seed=0, progress=False)
    res = prn.bootstrap_curve(df, **kw)
    hull = prn.bootstrap_curve(df, hull=True, **kw)
    assert (hull.tpr.to_numpy() >= res.tpr.to_numpy() - 1e-12).all()


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(curve="det"), "curve='det'"),
        (dict(curve="pr", space="fpr"), "space='fpr'"),
        (dict(curve="roc", space="recall"), "space='recall'"),
        (dict(band="global"), "band='global'"),
    ],
)
def test_bad_curve_space_band(kw, match):
    with pytest.raises(ValueError, match=match):
        prn.bootstrap_curve(_frame(), score="m1", label="y", n_boot=10, **kw)


# ------------------------------------------------------------ simultaneous bands


@pytest.mark.parametrize("curve", ["pr", "roc"])
def test_simultaneous_band_is_the_sup_t_construction(curve):
    df = _frame(300, seed=6)
    B = 60
    kw = dict(score="m1", label="y", curve=curve, grid=GRID, n_boot=B, seed=2, progress=False)
    res = prn.bootstrap_curve(df, band="simultaneous", level=0.9, **kw)
    batch = pack(df, score="m1", label="y")
    plan = boot_mod.Plan(batch, True)
    code = -1 if curve == "pr" else -2
    reps = plan.run(run_mod.kernel_seed(2), B, False, False, "t", code=code, grid=GRID)[0]
    v = "precision" if curve == "pr" else "tpr"
    lo, hi = naive.sup_t_band(reps.T, res[v].to_numpy(), 0.9)
    np.testing.assert_allclose(res.ci_low, lo, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(res.ci_high, hi, rtol=1e-12, atol=1e-15)
    point = prn.bootstrap_curve(df, level=0.9, **kw)
    # the simultaneous band is wider than the pointwise one in the middle of the curve
    mid = slice(5, 16)
    wide = (res.ci_high - res.ci_low).to_numpy()[mid]
    narrow = (point.ci_high - point.ci_low).to_numpy()[mid]
    assert (wide >= narrow - 1e-12).mean() > 0.8


def _binormal_frame(n_sets, n_pos, n_neg, seed):
    rng = np.random.default_rng(seed)
    n = n_pos + n_neg
    y = np.tile(np.r_[np.ones(n_pos), np.zeros(n_neg)], n_sets)
    s = rng.normal(size=n * n_sets) + 1.0 * y
    return pd.DataFrame({"set": np.repeat(np.arange(n_sets), n), "y": y, "s": s})


def test_simultaneous_roc_band_covers_the_true_curve():
    """A small coverage check (the full study: benchmarks/coverage_bands.py): binormal
    data, true TPR(f) = Phi(1 + Phi^-1(f)); 200 data sets in one call. The simultaneous
    band covers the whole true curve on the grid about 95% of the time (level 0.95),
    the pointwise band markedly less often."""
    from scipy.stats import norm

    n_sets = 200
    df = _binormal_frame(n_sets, 80, 120, seed=11)
    g = np.linspace(0.05, 0.6, 12)
    true = norm.cdf(1.0 + norm.ppf(g))
    kw = dict(
        score="s",
        label="y",
        by="set",
        curve="roc",
        grid=g,
        n_boot=300,
        seed=1,
        level=0.95,
        progress=False,
    )
    cover = {}
    for band in ("pointwise", "simultaneous"):
        res = prn.bootstrap_curve(df, band=band, **kw)
        lo = res.ci_low.to_numpy().reshape(n_sets, -1)
        hi = res.ci_high.to_numpy().reshape(n_sets, -1)
        cover[band] = np.mean(((lo <= true) & (true <= hi)).all(axis=1))
    # binomial sd at 200 sets: 0.015; about -3 sd / +3 sd around 0.95 (the band is
    # slightly conservative: the full study, benchmarks/coverage_bands.py, gives 94-97%)
    assert 0.90 <= cover["simultaneous"] <= 0.995
    assert cover["pointwise"] < cover["simultaneous"] - 0.1
