"""The fused Poisson bootstrap on the device against a slow reference: replicate ``b`` of a
curve is the CPU AUC of the data with each input row weighted by its Poisson(1) count
from the shared stream (``poisson_count_cpu``), and scikit-learn's AP / ROC AUC with
those counts as ``sample_weight``. Paired: every model of a group sees the same counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn
from prroc_numba._checks import kernel_seed
from prroc_numba._core.packing import pack
from prroc_numba._drivers import cuda as gpu
from prroc_numba._kernels import area
from prroc_numba._kernels.poisson import poisson_count_cpu, replicate_key_cpu

N_BOOT = 4
METHODS = {
    ("pr", "dg"): area.DG,
    ("pr", "integral"): area.INTEGRAL,
    ("pr", "ap"): area.AP,
    ("pr", "trapezoid"): area.PR_TRAPEZOID,
    ("roc", "trapezoid"): area.ROC_TRAPEZOID,
}


def _counts(seed, b, n):
    key = np.uint64(replicate_key_cpu(seed, b))
    return np.array([poisson_count_cpu(key, r) for r in range(n)], dtype=float)


def _frame(rng, n=90, weights=False):
    y = (rng.random(n) < 0.35).astype(int)
    df = pd.DataFrame(
        {
            "g": np.repeat(["a", "b", "c"], n // 3)[rng.permutation(n)],  # groups interleaved
            "y": y,
            "m1": np.round(y + rng.normal(size=n), 1),  # ties
            "m2": np.round(0.5 * y + rng.normal(size=n), 0),  # long tie runs
        }
    )
    if weights:
        df["w"] = rng.choice([0.0, 0.5, 1.0, 2.0], size=n)
    return df


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("key", list(METHODS))
def test_replicates_equal_reference(key, weights):
    curve, method = key
    rng = np.random.default_rng(7)
    df = _frame(rng, weights=weights)
    res, reps = prn.bootstrap(
        df,
        score=["m1", "m2"],
        label="y",
        by="g",
        weight="w" if weights else None,
        curve=curve,
        method=method,
        n_boot=N_BOOT,
        seed=11,
        stratified=False,
        device="cuda",
        return_replicates=True,
    )
    assert res.attrs["device"] == "cuda" and reps.attrs["device"] == "cuda"
    s = kernel_seed(11)
    w0 = df["w"].to_numpy() if weights else np.ones(len(df))
    for b in range(N_BOOT):
        w = w0 * _counts(s, b, len(df))
        want = prn.auc(
            df.assign(w=w),
            score=["m1", "m2"],
            label="y",
            by="g",
            weight="w",
            curve=curve,
            method=method,
            device="cpu",
        )
        got = reps[reps.replicate == b].reset_index(drop=True)
        np.testing.assert_allclose(got["estimate"], want["auc"], rtol=1e-12, atol=1e-12)
        if method in ("ap",) or curve == "roc":
            for (g, m), val in zip(zip(got["g"], got["model"]), got["estimate"]):
                sel = (df.g == g).to_numpy()
                ref = (average_precision_score if curve == "pr" else roc_auc_score)(
                    df.y[sel], df[m][sel], sample_weight=w[sel]
                )
                assert val == pytest.approx(ref, abs=1e-12)
    est = prn.auc(
        df,
        score=["m1", "m2"],
        label="y",
        by="g",
        weight="w" if weights else None,
        curve=curve,
        method=method,
    )
    np.testing.assert_allclose(res["estimate"], est["auc"], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("chunk,sup", [(1, 2), (4, 3), (1024, 256)])
def test_kernel_chunking_does_not_change_replicates(chunk, sup):
    """Chunk and super-chunk boundaries (inside long tie runs at chunk=1, 4) change
    nothing."""
    rng = np.random.default_rng(3)
    df = _frame(rng)
    b = pack(df, score=["m2", "m1"], label="y", by="g")
    ref = gpu.poisson_replicates(b, area.DG, 5, 3, b.rows, chunk=1024)
    got = gpu.poisson_replicates(b, area.DG, 5, 3, b.rows, chunk=chunk, sup=sup)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)


def test_replicate_blocks(monkeypatch):
    """Replicates computed in several blocks equal one block (seeded per replicate)."""
    from prroc_numba._drivers import cuda as driver

    rng = np.random.default_rng(4)
    b = pack(_frame(rng), score="m1", label="y")
    ref = gpu.poisson_replicates(b, area.AP, 9, 5, chunk=8)
    monkeypatch.setattr(driver, "_MAX_CELLS", 24)  # 12 chunks -> blocks of 2 replicates
    np.testing.assert_array_equal(gpu.poisson_replicates(b, area.AP, 9, 5, chunk=8), ref)


def test_compare_paired_equals_reference():
    rng = np.random.default_rng(8)
    df = _frame(rng)
    res = prn.compare(
        df,
        score=["m1", "m2"],
        label="y",
        n_boot=N_BOOT,
        seed=2,
        stratified=False,
        device="cuda",
        p_value="percentile",  # the reference below is the percentile p
    )
    assert res.attrs["device"] == "cuda"
    s = kernel_seed(2)
    d = []
    for b in range(N_BOOT):
        w = _counts(s, b, len(df))
        a = prn.auc(df.assign(w=w), score=["m1", "m2"], label="y", weight="w")["auc"]
        d.append(a.iloc[0] - a.iloc[1])
    d = np.array(d)
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert res.ci_low.iloc[0] == pytest.approx(lo, abs=1e-12)
    assert res.ci_high.iloc[0] == pytest.approx(hi, abs=1e-12)
    p = min(1.0, 2 * min((d <= 0).sum() + 1, (d >= 0).sum() + 1) / (N_BOOT + 1))
    assert res.p_value.iloc[0] == pytest.approx(p)
    est = prn.auc(df, score=["m1", "m2"], label="y")["auc"]
    assert res["diff"].iloc[0] == pytest.approx(est.iloc[0] - est.iloc[1], abs=1e-12)


def test_soft_labels_replicates():
    rng = np.random.default_rng(9)
    n = 40
    p = np.round(rng.random(n), 2)
    x = np.round(p + rng.normal(size=n), 1)
    _, reps = prn.bootstrap(
        score=x,
        label=p,
        soft_labels=True,
        method="integral",
        n_boot=3,
        seed=1,
        stratified=False,
        device="cuda",
        return_replicates=True,
    )
    s = kernel_seed(1)
    for b in range(3):
        want = prn.auc(
            score=x, label=p, soft_labels=True, method="integral", weight=_counts(s, b, n)
        )["auc"].iloc[0]
        assert reps.estimate.iloc[b] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("key", list(METHODS))
def test_gpu_replicates_equal_cpu_poisson_replicates(key, weights):
    """One stream, two engines: the CPU's resampling="poisson" and the device give the same
    replicates for the same seed and data (paired models, groups, ties, zero weights)."""
    curve, method = key
    df = _frame(np.random.default_rng(12), weights=weights)
    kw = dict(
        score=["m1", "m2"],
        label="y",
        by="g",
        weight="w" if weights else None,
        curve=curve,
        method=method,
        n_boot=N_BOOT,
        seed=5,
        stratified=False,
        return_replicates=True,
    )
    _, gpu_reps = prn.bootstrap(df, device="cuda", **kw)
    _, cpu_reps = prn.bootstrap(df, device="cpu", resampling="poisson", **kw)
    assert cpu_reps.attrs.get("device", "cpu") == "cpu"
    np.testing.assert_allclose(
        gpu_reps["estimate"].to_numpy(), cpu_reps["estimate"].to_numpy(), rtol=1e-12, atol=1e-12
    )
    paired_gpu = prn.compare(
        df, device="cuda", **{k: v for k, v in kw.items() if k != "return_replicates"}
    )
    paired_cpu = prn.compare(
        df, resampling="poisson", **{k: v for k, v in kw.items() if k != "return_replicates"}
    )
    np.testing.assert_allclose(
        paired_gpu[["ci_low", "ci_high", "p_value"]].to_numpy(),
        paired_cpu[["ci_low", "ci_high", "p_value"]].to_numpy(),
        rtol=1e-12,
        atol=1e-12,
    )
