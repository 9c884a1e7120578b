"""resampling="poisson": every replicate equals the data weighted by the documented
Poisson(1) counts of (seed, replicate, input row id), scored by scikit-learn / naive.py."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn
from tests import naive

_seed = importlib.import_module("prroc_numba._checks").kernel_seed


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame(
        {
            "y": y,
            "a": np.round(y + rng.normal(size=n), 1),  # ties
            "b": rng.normal(size=n),
            "g": rng.choice(["u", "v"], n),
            "w": rng.integers(0, 3, n).astype(float),  # integer weights, some zero
        }
    )


def _reference(df, model, counts, curve, method):
    s, y = df[model].to_numpy(), df["y"].to_numpy()
    w = counts * (df["w"].to_numpy() if "w" in df else 1.0)
    if w[y == 1].sum() == 0 or (curve == "roc" and w[y == 0].sum() == 0):
        return np.nan
    if curve == "roc":
        return roc_auc_score(y, s, sample_weight=w)
    if method == "ap":
        return average_precision_score(y, s, sample_weight=w)
    _, tp, fp = naive.sweep(s, w * y, w * (1 - y))
    return naive.dg_area(tp, fp)


@pytest.mark.parametrize("curve, method", [("pr", "ap"), ("pr", "dg"), ("roc", None)])
def test_replicates_equal_count_weighted_data(curve, method):
    df = _data()
    B = 6
    _, reps = prn.bootstrap(
        df,
        score=["a", "b"],
        label="y",
        by="g",
        weight="w",
        curve=curve,
        method=method,
        n_boot=B,
        seed=11,
        resampling="poisson",
        return_replicates=True,
    )
    s = _seed(11)
    for b in range(B):
        counts = naive.poisson_counts(s, b, len(df))  # ids are positions in the input
        for g in ("u", "v"):
            sub = df["g"] == g
            for m in ("a", "b"):
                got = reps.query("g == @g and model == @m and replicate == @b")["estimate"]
                want = _reference(df[sub], m, counts[sub.to_numpy()], curve, method)
                assert got.iloc[0] == pytest.approx(want, abs=1e-12, nan_ok=True)


def test_one_model_and_estimate():
    df = _data(seed=2).drop(columns="w")
    res, reps = prn.bootstrap(
        df, score="a", label="y", n_boot=5, seed=3, resampling="poisson", return_replicates=True
    )
    assert res["estimate"].iloc[0] == pytest.approx(prn.auc_pr(df["y"], df["a"]), abs=1e-12)
    for b in range(5):
        counts = naive.poisson_counts(_seed(3), b, len(df))
        assert reps["estimate"].iloc[b] == pytest.approx(
            _reference(df, "a", counts, "pr", "dg"), abs=1e-12
        )


def test_compare_pairs_the_same_replicates():
    df = _data(seed=4)
    kw = {"score": ["a", "b"], "label": "y", "n_boot": 40, "seed": 5, "resampling": "poisson"}
    _, reps = prn.bootstrap(df, **kw, return_replicates=True)
    cmp = prn.compare(df, **kw)
    d = (
        reps[reps.model == "a"]["estimate"].to_numpy()
        - reps[reps.model == "b"]["estimate"].to_numpy()
    )
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert cmp["ci_low"].iloc[0] == pytest.approx(lo, abs=1e-12)
    assert cmp["ci_high"].iloc[0] == pytest.approx(hi, abs=1e-12)


def test_bootstrap_curve_replicates_on_the_grid():
    df = _data(seed=6).drop(columns="w")
    grid = np.linspace(0, 1, 6)
    B = 4
    bands = prn.bootstrap_curve(
        df, score="a", label="y", n_boot=B, seed=9, grid=grid, resampling="poisson", level=0.5
    )
    s, y = df["a"].to_numpy(), df["y"].to_numpy()
    reps = []
    for b in range(B):
        c = naive.poisson_counts(_seed(9), b, len(df))
        _, tp, fp = naive.sweep(s, c * y, c * (1 - y))
        reps.append(naive.precision_on_recall_grid(tp, fp, grid))
    reps = np.array(reps)
    np.testing.assert_allclose(bands["ci_low"], np.quantile(reps, 0.25, axis=0), atol=1e-12)
    np.testing.assert_allclose(bands["ci_high"], np.quantile(reps, 0.75, axis=0), atol=1e-12)


def test_same_numbers_any_thread_count_and_chunking(monkeypatch):
    import numba

    boot = importlib.import_module("prroc_numba._resampling.run")
    df = _data(seed=8)
    kw = {
        "score": ["a", "b"],
        "label": "y",
        "by": "g",
        "n_boot": 30,
        "seed": 1,
        "resampling": "poisson",
        "return_replicates": True,
    }
    ref = prn.bootstrap(df, **kw)[1]
    monkeypatch.setattr(boot, "_CHUNK_WORK", 100.0)  # many small chunks
    prev = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        other = prn.bootstrap(df, **kw)[1]
    finally:
        numba.set_num_threads(prev)
    pd.testing.assert_frame_equal(ref, other, check_exact=True)


def test_argument_errors():
    df = _data()
    with pytest.raises(ValueError, match="stratified=True cannot be combined"):
        prn.bootstrap(df, score="a", label="y", resampling="poisson", stratified=True)
    with pytest.raises(ValueError, match="resampling='bootstrap' is not known"):
        prn.bootstrap(df, score="a", label="y", resampling="bootstrap")
    with pytest.raises(ValueError, match="stratified=True cannot be combined"):
        prn.compare(df, score=["a", "b"], label="y", resampling="poisson", stratified=True)
