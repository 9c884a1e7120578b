"""bootstrap(): the resampling kernels, the random streams, the intervals, coverage."""

from __future__ import annotations

import importlib
import warnings

import numba
import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import prroc_numba as prn
from prroc_numba._checks import area_code
from prroc_numba._core.packing import pack
from prroc_numba._drivers.resample import segments_batch
from prroc_numba._kernels.area import _areas_batch
from prroc_numba._kernels.rng import (
    _multinomial_cells,
    _multinomial_poisson,
    _multinomial_stratum,
    _stream,
)
from tests import kernel_probes as R
from tests import naive
from tests.conftest import random_batch
from tests.kernel_probes import _area_with_counts, _grouped_counts_one, _paired_counts_one


def _area_batch(values, offsets, pos, neg, label_start, code, hull):
    """One area per curve through the many-areas kernel (one code, one hull flag)."""
    return _areas_batch(
        values, offsets, pos, neg, label_start, np.array([code], np.int64), np.array([hull])
    )[:, 0]


boot_mod = importlib.import_module("prroc_numba._resampling.plan")
run_mod = importlib.import_module("prroc_numba._resampling.run")


@numba.njit
def _multinomial_cells_one(k, seed, out):
    _multinomial_cells(_stream(seed, 0, 0), k, k.sum(), out)


METHODS = [
    ("pr", "dg"),
    ("pr", "integral"),
    ("pr", "ap"),
    ("pr", "trapezoid"),
    ("roc", "trapezoid"),
    ("prg", None),
]


def _frame(n=300, seed=0, prev=0.2, ties=1):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prev).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "m1": np.round(y + rng.normal(size=n), ties),
            "m2": np.round(0.5 * y + rng.normal(size=n), ties),
            "m3": np.round(rng.normal(size=n), ties + 1),
            "w": rng.choice([0.0, 0.5, 1.0, 2.0], size=n),
        }
    )


# ----------------------------------------------------------------- random streams


@pytest.mark.parametrize(
    "n,p", [(10, 0.3), (1000, 0.002), (40, 0.2), (200, 0.5), (5000, 0.03), (60, 0.9), (100000, 0.4)]
)
def test_binomial_sampler_matches_scipy(n, p):
    """Chi-square goodness of fit of 20,000 draws against scipy.stats.binom."""
    x = R._binomial_many(12345, n, p, 20000)
    assert x.min() >= 0 and x.max() <= n
    lo, hi = stats.binom.ppf([1e-4, 1 - 1e-4], n, p).astype(int)
    edges = np.arange(lo, hi + 2)
    obs = np.histogram(np.clip(x, lo, hi), bins=edges - 0.5)[0]
    probs = stats.binom.pmf(np.arange(lo, hi + 1), n, p)
    probs[0] += stats.binom.cdf(lo - 1, n, p)
    probs[-1] += stats.binom.sf(hi, n, p)
    exp = probs * x.size
    # pool sparse cells so every expected count is >= 5
    o_pool, e_pool, o_acc, e_acc = [], [], 0.0, 0.0
    for o, e in zip(obs, exp):
        o_acc += o
        e_acc += e
        if e_acc >= 5:
            o_pool.append(o_acc)
            e_pool.append(e_acc)
            o_acc = e_acc = 0.0
    o_pool[-1] += o_acc
    e_pool[-1] += e_acc
    chi2 = np.sum((np.array(o_pool) - np.array(e_pool)) ** 2 / np.array(e_pool))
    dof = len(o_pool) - 1
    assert stats.chi2.sf(chi2, max(dof, 1)) > 1e-4
    assert abs(x.mean() - n * p) < 5 * np.sqrt(n * p * (1 - p) / x.size) + 1e-12


def test_binomial_edge_parameters():
    assert (R._binomial_many(1, 0, 0.5, 10) == 0).all()
    assert (R._binomial_many(1, 7, 0.0, 10) == 0).all()
    assert (R._binomial_many(1, 7, 1.0, 10) == 7).all()


def test_uniform_streams_distinct_and_uniform():
    u = R._uniform_many(3, 0, 0, 50000)
    assert stats.kstest(u, "uniform").pvalue > 1e-4
    v = R._uniform_many(3, 0, 1, 50000)
    w = R._uniform_many(3, 1, 0, 50000)
    assert not np.array_equal(u, v) and not np.array_equal(u, w)
    assert abs(np.corrcoef(u, v)[0, 1]) < 0.03
    np.testing.assert_array_equal(u, R._uniform_many(3, 0, 0, 50000))


# ----------------------------------------------------- kernels against references


def _segments(batch):
    return segments_batch(batch.values, batch.offsets, batch.pos, batch.neg, batch.label_start)


@pytest.mark.parametrize("curve,method", METHODS)
@pytest.mark.parametrize("hull", [False, True])
def test_walk_with_unit_counts_equals_auc(curve, method, hull):
    """Segments (merged negative runs) + counts of one give the data's own AUC."""
    rng = np.random.default_rng(7)
    df = random_batch(rng, 30, 120, weights=True)
    df.loc[df.groupby("g").head(1).index, "w"] = 1.0  # no group of zero weight
    batch = pack(df, score="s", label="y", by="g", weight="w")
    order, ps, ns, so, se, _sp, _sn = _segments(batch)
    code = area_code(curve, method)
    kept = pack(df[df.w > 0], score="s", label="y", by="g", weight="w")  # zero weight = removal
    ref = _area_batch(kept.values, kept.offsets, kept.pos, kept.neg, kept.label_start, code, hull)
    got = _area_with_counts(
        order, ps, ns, batch.offsets, so, se, batch.label_start, np.ones(batch.pos.size), code, hull
    )
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-14, equal_nan=True)


@pytest.mark.parametrize("curve,method", METHODS)
@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("hull", [False, True])
def test_paired_replicates_equal_materialised_data(curve, method, stratified, hull):
    """Replicate b of every model == the AUC of the rows it stands for, repeated."""
    df = _frame(150, seed=1)
    kw = {
        "score": ["m1", "m2", "m3"],
        "label": "y",
        "curve": curve,
        "method": method,
        "hull": hull,
        "n_boot": 6,
        "stratified": stratified,
        "seed": 11,
        "progress": False,
        "return_replicates": True,
    }
    _, reps = prn.bootstrap(df, **kw)
    batch = pack(df, score=["m1", "m2", "m3"], label="y")
    plan = boot_mod.Plan(batch, stratified)
    seed = run_mod.kernel_seed(11)
    for b in range(6):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, seed, b)[plan.slot]
        assert cnt.sum() == len(df)
        if stratified:
            assert cnt[df.y.to_numpy() == 1].sum() == df.y.sum()
        for m in ["m1", "m2", "m3"]:
            s, p, _ = naive.materialise(df[m].to_numpy(), df.y.to_numpy(), 1 - df.y.to_numpy(), cnt)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a resample may lack a class
                ref = prn.auc(score=s, label=p, curve=curve, method=method, hull=hull)["auc"].iloc[
                    0
                ]
            got = reps[(reps.model == m) & (reps.replicate == b)]["estimate"].iloc[0]
            np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-14, equal_nan=True)


def test_paired_replicates_with_weights_equal_materialised_data():
    df = _frame(120, seed=2)
    _, reps = prn.bootstrap(
        df,
        score=["m1", "m2"],
        label="y",
        weight="w",
        method="integral",
        n_boot=4,
        seed=5,
        progress=False,
        return_replicates=True,
    )
    batch = pack(df, score=["m1", "m2"], label="y", weight="w")
    plan = boot_mod.Plan(batch, True)
    kept = df[df.w > 0]  # zero weight is removal: those rows are never drawn
    assert batch.pos.size == len(kept)
    w = kept.w.to_numpy()
    for b in range(4):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(5), b)[
            plan.slot
        ]
        assert cnt.sum() == len(kept)
        for m in ["m1", "m2"]:
            ref = prn.auc_pr(kept.y, kept[m], sample_weight=w * cnt, method="integral")
            got = reps[(reps.model == m) & (reps.replicate == b)]["estimate"].iloc[0]
            assert got == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize(
    "curve,method,hull",
    [(c, m, False) for c, m in METHODS]
    + [("pr", "dg", True), ("roc", "trapezoid", True), ("prg", None, True)],
)
@pytest.mark.parametrize("stratified", [True, False])
def test_grouped_replicates_equal_materialised_data(curve, method, hull, stratified):
    """One model per group: counts drawn per segment; a segment's drawn positives
    (negatives) are given to one of its positive (negative) rows, the data repeated
    accordingly, and its AUC computed from scratch."""
    rng = np.random.default_rng(3)
    df = random_batch(rng, 8, 90)
    kw = {
        "score": "s",
        "label": "y",
        "by": "g",
        "curve": curve,
        "method": method,
        "n_boot": 4,
        "stratified": stratified,
        "seed": 21,
        "progress": False,
        "return_replicates": True,
        "hull": hull,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, reps = prn.bootstrap(df, **kw)
    batch = pack(df, score="s", label="y", by="g")
    order, _, _, so, se, sp, sn = _segments(batch)
    tabs = boot_mod._cell_tables(sp, sn, True)
    seed = run_mod.kernel_seed(21)
    for c in range(batch.n_curves):
        a, e = batch.offsets[c], batch.offsets[c + 1]
        x = batch.values[a:e]
        y = batch.pos[a:e]
        srt = order[a:e]
        for b in range(4):
            xp, xn = _grouped_counts_one(
                so, sp, sn, c, batch.curve_group[c], seed, b, stratified, *tabs
            )
            if stratified:
                assert xp.sum() == y.sum() and xn.sum() == (1 - y).sum()
            else:
                assert xp.sum() + xn.sum() == e - a
            cnt = np.zeros(e - a)
            start = 0
            for k, end in enumerate(se[so[c] : so[c + 1]]):
                rows = srt[start:end]
                if xp[k]:
                    cnt[rows[y[rows] == 1][0]] += xp[k]
                if xn[k]:
                    cnt[rows[y[rows] == 0][0]] += xn[k]
                start = end
            s, p, _ = naive.materialise(x, y, 1 - y, cnt)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = (
                    prn.auc(score=s, label=p, curve=curve, method=method, hull=hull)["auc"].iloc[0]
                    if s.size
                    else np.nan
                )
            got = reps[(reps.g == df.g.unique()[c]) & (reps.replicate == b)]
            np.testing.assert_allclose(
                got["estimate"].iloc[0], ref, rtol=1e-12, atol=1e-14, equal_nan=True
            )


def test_grouped_segment_counts_are_multinomial():
    """Mean and variance of a segment's stratified count: Binomial(P, k / P)."""
    df = pd.DataFrame({"s": [5, 5, 4, 3, 3, 3, 2, 1, 1, 0], "y": [1, 0, 1, 1, 1, 0, 0, 1, 0, 0]})
    batch = pack(df, score="s", label="y")
    _order, _, _, so, _se, sp, sn = _segments(batch)
    np.testing.assert_array_equal(sp, [1, 1, 2, 0, 1, 0])
    tabs = boot_mod._cell_tables(sp, sn, True)
    draws = np.array(
        [_grouped_counts_one(so, sp, sn, 0, 0, 99, b, True, *tabs)[0] for b in range(4000)]
    )
    P = 5
    expect = sp / P * P
    np.testing.assert_allclose(draws.mean(axis=0), expect, atol=0.08)
    np.testing.assert_allclose(draws.var(axis=0), P * (sp / P) * (1 - sp / P), atol=0.1)
    assert (draws.sum(axis=1) == P).all()


@pytest.mark.parametrize(
    "kind,k",
    [
        ("cells", [50.0, 100.0, 0.0, 30.0, 20.0]),  # conditional binomials
        ("cells", [1.0, 2.0, 1.0, 0.0, 1.0, 3.0]),  # row draws
        ("poisson", [50.0, 100.0, 0.0, 30.0, 20.0]),  # Poisson + fix-up
        ("poisson", [3.0, 1.0, 7.0, 2.0, 40.0, 1.0, 1.0, 900.0]),
        ("stratum", [30.0, 1500.0, 12.0, 8.0]),  # a cell above POISSON_MAX
        ("stratum", [30.0, 1500.0, 0.0, 1200.0, 12.0, 8.0, 40.0]),  # two big cells
    ],
)
def test_multinomial_cells_moments(kind, k):
    """Every branch of the per-cell samplers gives Multinomial(n; k / n) counts."""
    k = np.array(k)
    n = k.sum()
    if kind == "cells":
        draws = np.array([_cells(k, seed) for seed in range(20000)])
    else:
        zeros = np.zeros(0)
        lp, _, tabs = boot_mod._cell_tables(k, zeros, True)
        assert (lp[k > 1000] == -1).all() and (lp[(k > 0) & (k <= 1000)] >= 0).all()
        draws = _draws_tabled(k, lp, *tabs, kind == "poisson", 20000)
    assert (draws.sum(axis=1) == n).all() and (draws[:, k == 0] == 0).all()
    p = k / n
    np.testing.assert_allclose(draws.mean(axis=0), n * p, atol=4 * np.sqrt(n / 20000))
    cov = np.cov(draws.T)
    expect = n * (np.diag(p) - np.outer(p, p))
    np.testing.assert_allclose(cov, expect, atol=0.06 * n / 4)
    # every cell's marginal against scipy's binomial (chi-square, pooled tails)
    for i in np.flatnonzero(k > 0):
        obs = np.bincount(draws[:, i], minlength=int(n) + 1)
        pmf = stats.binom.pmf(np.arange(int(n) + 1), int(n), p[i])
        keep = pmf * draws.shape[0] >= 5
        o = np.r_[obs[keep], obs[~keep].sum()]
        e = np.r_[pmf[keep], pmf[~keep].sum()] * draws.shape[0]
        if e[-1] < 5:
            o[-2] += o[-1]
            e[-2] += e[-1]
            o, e = o[:-1], e[:-1]
        assert stats.chi2.sf(np.sum((o - e) ** 2 / e), max(o.size - 1, 1)) > 1e-4, i


@numba.njit
def _draws_tabled(k, lam_idx, lo, off, cdf, guide, direct, n_draws):
    out = np.empty((n_draws, k.size), dtype=np.int64)
    for r in range(n_draws):
        st = _stream(r, 0, 0)
        if direct:
            _multinomial_poisson(st, k, np.int64(k.sum()), lam_idx, lo, off, cdf, guide, out[r])
        else:
            _multinomial_stratum(st, k, k.sum(), lam_idx, lo, off, cdf, guide, out[r])
    return out


def _cells(k, seed):
    out = np.empty(k.size, dtype=np.int64)
    _multinomial_cells_one(k, seed, out)
    return out


def test_int32_counts_for_large_strata():
    """A stratum above 65,535 rows switches the count vector to int32; same results as
    the materialised replicate."""
    rng = np.random.default_rng(11)
    n = 70000
    y = (rng.random(n) < 0.02).astype(int)
    df = pd.DataFrame(
        {"y": y, "a": np.round(y + rng.normal(size=n), 2), "b": np.round(rng.normal(size=n), 2)}
    )
    batch = pack(df, score=["a", "b"], label="y")
    plan = boot_mod.Plan(batch, True)
    assert plan.count_type.dtype == np.int32
    _, reps = prn.bootstrap(
        df,
        score=["a", "b"],
        label="y",
        method="ap",
        n_boot=2,
        seed=1,
        progress=False,
        return_replicates=True,
    )
    cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(1), 1)[
        plan.slot
    ]
    for m in ["a", "b"]:
        ref = prn.auc_pr(df.y, df[m], sample_weight=cnt, method="ap")
        got = reps[(reps.model == m) & (reps.replicate == 1)].estimate.iloc[0]
        assert got == pytest.approx(ref, rel=1e-12)


def test_grouped_and_paired_paths_agree_in_distribution():
    """The per-segment and the per-row draws are the same bootstrap: compare moments."""
    df = _frame(600, seed=4, prev=0.1, ties=2)
    one = prn.bootstrap(df, score="m1", label="y", n_boot=3000, seed=1, progress=False)
    df["m1b"] = df.m1
    two = prn.bootstrap(df, score=["m1", "m1b"], label="y", n_boot=3000, seed=2, progress=False)
    assert one.se[0] == pytest.approx(two.se[0], rel=0.08)
    assert one.ci_low[0] == pytest.approx(two.ci_low[0], abs=0.015)
    assert one.ci_high[0] == pytest.approx(two.ci_high[0], abs=0.015)


# ------------------------------------------------------------- reproducibility


@pytest.mark.parametrize("score", ["m1", ["m1", "m2", "m3"]])
def test_same_seed_same_numbers_any_thread_count_and_chunking(score, monkeypatch):
    df = _frame(400, seed=5)
    kw = {
        "score": score,
        "label": "y",
        "n_boot": 200,
        "seed": 3,
        "progress": False,
        "return_replicates": True,
    }
    ref = prn.bootstrap(df, **kw)[1]
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = prn.bootstrap(df, **kw)[1]
    finally:
        numba.set_num_threads(old)
    monkeypatch.setattr(run_mod, "_CHUNK_WORK", 1.0)  # 8 replicates per chunk
    chunked = prn.bootstrap(df, **kw)[1]
    np.testing.assert_array_equal(ref.estimate, one.estimate)
    np.testing.assert_array_equal(ref.estimate, chunked.estimate)
    other = prn.bootstrap(df, **{**kw, "seed": 4})[1]
    assert not np.array_equal(ref.estimate, other.estimate)


def test_paired_models_see_the_same_rows():
    """Two identical score columns: every replicate difference is exactly 0."""
    df = _frame(500, seed=6)
    df["copy"] = df.m2
    _, reps = prn.bootstrap(
        df,
        score=["m2", "copy", "m1"],
        label="y",
        n_boot=300,
        stratified=False,
        seed=0,
        progress=False,
        return_replicates=True,
    )
    a = reps[reps.model == "m2"].estimate.to_numpy()
    b = reps[reps.model == "copy"].estimate.to_numpy()
    np.testing.assert_array_equal(a, b)
    assert np.std(a) > 0


def test_long_input_groups_resample_independently():
    """by=: a group's replicates do not depend on the other groups."""
    df = _frame(400, seed=7)
    df["g"] = np.repeat(["a", "b"], 200)
    both = prn.bootstrap(
        df,
        score="m1",
        label="y",
        by="g",
        n_boot=100,
        seed=1,
        progress=False,
        return_replicates=True,
    )[1]
    a = prn.bootstrap(
        df[df.g == "a"],
        score="m1",
        label="y",
        by="g",
        n_boot=100,
        seed=1,
        progress=False,
        return_replicates=True,
    )[1]
    np.testing.assert_array_equal(both[both.g == "a"].estimate, a.estimate)


# ---------------------------------------------------------------- the intervals


def test_percentile_and_basic_from_the_replicates():
    df = _frame(400, seed=8)
    kw = {
        "score": ["m1", "m2"],
        "label": "y",
        "n_boot": 400,
        "seed": 9,
        "progress": False,
        "return_replicates": True,
        "level": 0.9,
    }
    res, reps = prn.bootstrap(df, interval="percentile", **kw)
    basic = prn.bootstrap(df, interval="basic", **kw)[0]
    for i, m in enumerate(["m1", "m2"]):
        r = reps[reps.model == m].estimate.to_numpy()
        q = np.quantile(r, [0.05, 0.95])
        est = prn.auc_pr(df.y, df[m])
        assert res.estimate[i] == pytest.approx(est, rel=1e-12)
        assert res.se[i] == pytest.approx(np.std(r, ddof=1), rel=1e-12)
        assert (res.ci_low[i], res.ci_high[i]) == pytest.approx(tuple(q), rel=1e-12)
        assert (basic.ci_low[i], basic.ci_high[i]) == pytest.approx(
            (2 * est - q[1], 2 * est - q[0]), rel=1e-12
        )


def test_bca_against_jackknife_reference():
    """BCa with a delete-one jackknife done by brute force (small data)."""
    df = _frame(80, seed=9, prev=0.3)
    res, reps = prn.bootstrap(
        df,
        score="m1",
        label="y",
        n_boot=500,
        interval="bca",
        seed=2,
        progress=False,
        return_replicates=True,
    )
    est = prn.auc_pr(df.y, df.m1)
    jack = [prn.auc_pr(df.y.drop(i), df.m1.drop(i)) for i in df.index]
    a = naive.jackknife_acceleration(jack)
    r = reps.estimate.to_numpy()
    z0 = stats.norm.ppf((np.sum(r < est) + 0.5 * np.sum(r == est)) / r.size)
    qs = []
    for z in stats.norm.ppf([0.025, 0.975]):
        qs.append(stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))
    assert (res.ci_low[0], res.ci_high[0]) == pytest.approx(tuple(np.quantile(r, qs)), rel=1e-10)


def test_bca_large_n_uses_blocks():
    df = _frame(3000, seed=10, prev=0.05)
    res = prn.bootstrap(
        df, score=["m1", "m2"], label="y", n_boot=300, interval="bca", seed=2, progress=False
    )
    pct = prn.bootstrap(df, score=["m1", "m2"], label="y", n_boot=300, seed=2, progress=False)
    assert (res.ci_low < res.estimate).all() and (res.estimate < res.ci_high).all()
    np.testing.assert_allclose(res.ci_low, pct.ci_low, atol=0.03)


def test_degenerate_replicates_are_counted_and_left_out():
    df = pd.DataFrame({"s": np.arange(12.0), "y": [0] * 11 + [1]})
    with pytest.warns(prn.UndefinedMetricWarning, match="left out"):
        res, reps = prn.bootstrap(
            df,
            score="s",
            label="y",
            n_boot=400,
            stratified=False,
            seed=1,
            progress=False,
            return_replicates=True,
        )
    n_nan = int(reps.estimate.isna().sum())
    assert res.n_degenerate[0] == n_nan > 0
    assert res.se[0] == pytest.approx(reps.estimate.std(ddof=1), rel=1e-12)
    # stratified: never degenerate
    res = prn.bootstrap(df, score="s", label="y", n_boot=100, seed=1, progress=False)
    assert res.n_degenerate[0] == 0 and res.se[0] == 0


def test_curve_without_positives_is_nan_and_warned():
    df = pd.DataFrame({"s": [1.0, 2, 3, 4], "y": [0, 1, 0, 0], "g": [0, 0, 1, 1]})
    with pytest.warns(prn.UndefinedMetricWarning, match="no positives"):
        res = prn.bootstrap(df, score="s", label="y", by="g", n_boot=10, seed=0, progress=False)
    assert np.isnan(res.loc[1, ["estimate", "se", "ci_low", "ci_high"]].astype(float)).all()
    assert res.n_degenerate[1] == 0


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"interval": "student"}, "interval="),
        ({"n_boot": 1}, "n_boot"),
        ({"n_boot": 10.5}, "n_boot"),
        ({"level": 95}, "level"),
        ({"seed": "x"}, "seed"),
        ({"seed": -3}, "non-negative"),
        ({"curve": "det"}, "curve="),
        ({"method": "dg", "curve": "roc"}, "method="),
        ({"score": "nope"}, "'nope' is not a column"),
    ],
)
def test_bad_arguments(kw, match):
    df = _frame(50)
    args = {"score": "m1", "label": "y", "n_boot": 10, "progress": False}
    args.update(kw)
    with pytest.raises((ValueError, TypeError), match=match):
        prn.bootstrap(df, **args)


def test_stratified_with_soft_labels_is_an_error():
    df = pd.DataFrame({"s": [0.1, 0.5, 0.9, 0.3], "p": [0.2, 0.7, 1.0, 0.0]})
    with pytest.raises(ValueError, match="stratified=False"):
        prn.bootstrap(df, score="s", label="p", soft_labels=True, n_boot=10)
    res = prn.bootstrap(
        df,
        score="s",
        label="p",
        soft_labels=True,
        n_boot=50,
        stratified=False,
        seed=0,
        progress=False,
        method="integral",
    )
    assert np.isfinite(res.se[0])


def test_ctrl_c_stops_between_chunks(monkeypatch):
    """A KeyboardInterrupt raised during a chunk propagates (and the bar is closed)."""
    calls = []
    real = run_mod.run_items  # one call per chunk (the pool runs the kernel inside)

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(run_mod, "run_items", interrupted)
    monkeypatch.setattr(run_mod, "_CHUNK_WORK", 1.0)
    with pytest.raises(KeyboardInterrupt):
        prn.bootstrap(_frame(200), score="m1", label="y", n_boot=100, seed=0, progress=True)
    assert len(calls) == 2


def test_progress_bar_runs(capsys):
    df = _frame(200)
    res = prn.bootstrap(df, score="m1", label="y", n_boot=20, seed=0, progress=True)
    assert len(res) == 1


# ------------------------------------------------------------------- coverage


def _population_auc_pr(mu, prevalence):
    """AUC-PR of the binormal population: negatives N(0, 1), positives N(mu, 1)."""

    def integrand(t):
        r = stats.norm.sf(t - mu)
        f = stats.norm.sf(t)
        return prevalence * r / (prevalence * r + (1 - prevalence) * f) * stats.norm.pdf(t - mu)

    return integrate.quad(integrand, mu - 12, mu + 12, limit=200)[0]


@pytest.mark.slow
def test_percentile_interval_coverage_binormal():
    """300 data sets of n = 2,000 (200 positives, fixed: the stratified design), B = 400:
    the 95% percentile interval of AUC-PR (dg) covers the population value in a band a
    correct implementation meets (about 93% at this n, see DESIGN.md)."""
    n_sets, n, n_pos, mu = 300, 2000, 200, 1.5
    rng = np.random.default_rng(2024)
    y = np.tile(np.r_[np.ones(n_pos), np.zeros(n - n_pos)], n_sets)
    df = pd.DataFrame(
        {"g": np.repeat(np.arange(n_sets), n), "y": y, "s": rng.normal(size=y.size) + mu * y}
    )
    res = prn.bootstrap(df, score="s", label="y", by="g", n_boot=400, seed=7, progress=False)
    truth = _population_auc_pr(mu, n_pos / n)
    covered = np.mean((res.ci_low <= truth) & (truth <= res.ci_high))
    assert 0.90 <= covered <= 0.98
    # the estimator is close to unbiased here, and the se matches the spread of estimates
    assert abs(res.estimate.mean() - truth) < 0.01
    assert res.se.mean() == pytest.approx(res.estimate.std(), rel=0.15)


def test_overflowing_counts_rerun_wider(monkeypatch):
    """A slot count that overflows the paired walk's narrow count type is caught (the
    vector's total falls short of the draws) and the chunk re-runs with int32 counts:
    the same replicates. Forced here with a 1-bit count type, where every count above
    1 overflows.
    """
    df = _frame(400, seed=8)
    kw = {"score": ["m1", "m2"], "label": "y", "n_boot": 30, "seed": 2}
    ref = prn.bootstrap(df, return_replicates=True, **kw)[1]
    monkeypatch.setattr(run_mod, "_NARROW_COUNT", np.bool_)
    narrow = prn.bootstrap(df, return_replicates=True, **kw)[1]
    np.testing.assert_array_equal(ref.estimate, narrow.estimate)


# ------------------------------------------- the block walk: eight replicates per pass


def _both_walks(df, score, by, poisson, spec, n_boot):
    """Replicates ``0 .. n_boot - 1`` of every curve by the block walk and by the
    one-replicate walk, from one plan (hard labels, paired models)."""
    from prroc_numba._drivers import boot_paired, boot_paired_blocks, run_items
    from prroc_numba._kernels.resample import MULTINOMIAL, POISSON
    from prroc_numba._kernels.resample_blocks import LANES

    plan = boot_mod.Plan(pack(df, score=score, label="y", by=by), True, poisson=poisson)
    assert plan.hard and not plan.grouped
    rows = run_mod._rows(plan)
    draw = run_mod._draw(plan, POISSON if poisson else MULTINOMIAL)
    size = spec[2].size or 1
    single = np.full((plan.batch.n_curves, size, n_boot), -1e300)
    block = single.copy()
    G = plan.batch.n_curves // plan.batch.n_models
    run_items(boot_paired, G * n_boot, rows, draw, 7, 0, n_boot, spec, single)
    n_blocks = -(-n_boot // LANES)
    run_items(boot_paired_blocks, G * n_blocks, rows, (*draw, 255), 7, 0, n_boot, spec, block)
    assert draw[-1][0] == 0
    return single, block


@pytest.mark.parametrize("curve,method", METHODS)
@pytest.mark.parametrize("hull", [False, True])
def test_block_walk_equals_one_replicate_walk(curve, method, hull):
    """Eight replicates per pass over each model's rows give bit for bit the areas of
    one walk per replicate (tied scores, two groups of three models, a last block of
    five replicates)."""
    df = _frame(500, seed=11, ties=1)
    df["g"] = np.arange(len(df)) % 2
    spec = (area_code(curve, method), hull, np.empty(0))
    single, block = _both_walks(df, ["m1", "m2", "m3"], "g", False, spec, 21)
    assert np.all(single != -1e300)  # every replicate written
    np.testing.assert_array_equal(single, block)


@pytest.mark.parametrize("what", [-1, -2, -3])
@pytest.mark.parametrize("poisson", [False, True])
def test_block_walk_equals_one_replicate_walk_on_grids(what, poisson):
    """Values on a grid (precision at recall, TPR at FPR, FPR at TPR) and Poisson(1)
    counts: the block walk gives the one-replicate walk's values bit for bit."""
    df = _frame(400, seed=12, ties=2)
    spec = (what, False, np.linspace(0.0, 1.0, 11))
    single, block = _both_walks(df, ["m1", "m2"], None, poisson, spec, 13)
    np.testing.assert_array_equal(single, block)


def test_block_walk_runs_and_falls_back_on_a_count_above_its_lanes(monkeypatch):
    """Hard labels take the block walk; a slot count above what a byte lane holds
    (lowered here to 1, so nearly every replicate has one) re-runs the chunk with the
    one-replicate walk: the same replicates either way."""
    df = _frame(600, seed=13)
    kw = {"score": ["m1", "m2", "m3"], "label": "y", "n_boot": 40, "seed": 5}
    calls = []
    blocks = run_mod.boot_paired_blocks

    def counted(*args):
        calls.append(1)
        return blocks(*args)

    monkeypatch.setattr(run_mod, "boot_paired_blocks", counted)
    ref = prn.bootstrap(df, return_replicates=True, **kw)[1]
    assert calls
    singles = []
    single = run_mod.boot_paired

    def counted_single(*args):
        singles.append(1)
        return single(*args)

    monkeypatch.setattr(run_mod, "boot_paired", counted_single)
    monkeypatch.setattr(run_mod, "_BLOCK_COUNT_MAX", 1)
    fallback = prn.bootstrap(df, return_replicates=True, **kw)[1]
    assert singles
    np.testing.assert_array_equal(ref.estimate, fallback.estimate)


def test_curve_longer_than_int32_row_indices_is_refused(monkeypatch):
    """The plan's row indices and slots are int32: a longer curve gets a clear error
    (the limit lowered here; a real one holds 16 GiB of scores)."""
    monkeypatch.setattr(boot_mod, "_MAX_CURVE_ROWS", 50)
    df = pd.DataFrame({"s": np.arange(60.0), "y": np.arange(60) % 2})
    with pytest.raises(ValueError, match="more than 50 rows.*by="):
        prn.bootstrap(df, score="s", label="y", n_boot=5, seed=0)
    prn.bootstrap(df.iloc[:50], score="s", label="y", n_boot=5, seed=0)
