"""bootstrap_curve(): pointwise bands of count-interpolated PR curves."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba._kernels.resample import _segments_batch
from prroc_numba._kernels.sweep import _sweep_one
from prroc_numba._ragged import pack
from tests import naive
from tests.kernel_probes import _grouped_counts_one, _paired_counts_one

boot_mod = importlib.import_module("prroc_numba._resampling")
GRID = np.linspace(0, 1, 21)


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
    plan = boot_mod._Plan(batch, stratified)
    y = df.y.to_numpy()
    for m in ["m1", "m2"]:
        reps = []
        for b in range(B):
            cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, boot_mod._seed(3), b)[
                plan.slot
            ]
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


def test_grouped_bands_from_materialised_replicates():
    df = _frame(seed=1)
    df["g"] = np.repeat(["a", "b"], 100)
    B = 30
    res = prn.bootstrap_curve(
        df, score="m1", label="y", by="g", grid=GRID, n_boot=B, seed=5, progress=False
    )
    batch = pack(df, score="m1", label="y", by="g")
    order, _, _, so, se, sp, sn = _segments_batch(
        batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start
    )
    tabs = boot_mod._cell_tables(sp, sn, True)
    for c, g in enumerate(["a", "b"]):
        a, e = batch.offsets[c], batch.offsets[c + 1]
        x, y, srt = batch.values[a:e], batch.pos[a:e], order[a:e]
        reps = []
        for b in range(B):
            xp, xn = _grouped_counts_one(so, sp, sn, c, c, boot_mod._seed(5), b, True, *tabs)
            cnt = np.zeros(e - a)
            start = 0
            for k, end in enumerate(se[so[c] : so[c + 1]]):
                rows = srt[start:end]
                if xp[k]:
                    cnt[rows[y[rows] == 1][0]] += xp[k]
                if xn[k]:
                    cnt[rows[y[rows] == 0][0]] += xn[k]
                start = end
            reps.append(_naive_curve(x, y.astype(int), cnt))
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
