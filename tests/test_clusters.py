"""cluster=: whole clusters resampled (paired across models), on bootstrap, compare,
bootstrap_curve and operating_points."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba._core.packing import pack
from prroc_numba._resampling.design import cluster_codes
from tests.kernel_probes import _paired_counts_one

R = importlib.import_module("prroc_numba._resampling.plan")
run_mod = importlib.import_module("prroc_numba._resampling.run")


def _rows(n=600, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "m1": y + rng.normal(size=n),
            "m2": np.round(0.6 * y + rng.normal(size=n), 1),
            "w": rng.choice([0.0, 1.0, 2.0], size=n, p=[0.1, 0.6, 0.3]),
        }
    )


def _clustered(n_clusters=300, size=5, seed=0):
    """Clusters of ``size`` rows sharing their label and a strong score effect."""
    rng = np.random.default_rng(seed)
    yc = (rng.random(n_clusters) < 0.2).astype(int)
    effect = rng.normal(size=n_clusters) * 1.5
    c = np.repeat(np.arange(n_clusters), size)
    y = yc[c]
    s = y + effect[c] + 0.3 * rng.normal(size=c.size)
    return pd.DataFrame({"c": c, "y": y, "s": s, "s2": s + 0.5 * rng.normal(size=c.size)})


@pytest.mark.parametrize("curve", ["pr", "roc"])
def test_one_row_clusters_give_exactly_the_paired_row_bootstrap(curve):
    """Wide input takes the paired row path; one-row clusters, numbered in row order,
    give the same slots and streams, hence the same replicates bit for bit."""
    df = _rows()
    kw = {
        "score": ["m1", "m2"],
        "label": "y",
        "curve": curve,
        "n_boot": 50,
        "seed": 3,
        "return_replicates": True,
    }
    _, rows = prn.bootstrap(df, **kw)
    _, clus = prn.bootstrap(df, cluster=np.arange(len(df)), **kw)
    np.testing.assert_array_equal(rows.estimate, clus.estimate)
    a = prn.compare(df, score=["m1", "m2"], label="y", n_boot=50, seed=3)
    b = prn.compare(
        df, score=["m1", "m2"], label="y", n_boot=50, seed=3, cluster=np.arange(len(df))
    )
    assert (a.resampling == "stratified").all() and (b.resampling == "stratified cluster").all()
    pd.testing.assert_frame_equal(a.drop(columns="resampling"), b.drop(columns="resampling"))
    a = prn.bootstrap_curve(df, score=["m1", "m2"], label="y", n_boot=30, seed=3, grid=11)
    b = prn.bootstrap_curve(
        df, score=["m1", "m2"], label="y", n_boot=30, seed=3, grid=11, cluster=np.arange(len(df))
    )
    pd.testing.assert_frame_equal(a.drop(columns="resampling"), b.drop(columns="resampling"))


def test_one_row_clusters_match_the_one_model_row_bootstrap_in_distribution():
    """One model takes the grouped draws (other random numbers): the same distribution,
    so the standard errors agree within Monte Carlo error at large B."""
    df = _rows(n=800, seed=1)
    kw = {"score": "m1", "label": "y", "n_boot": 3000, "seed": 5}
    rows = prn.bootstrap(df, **kw)
    clus = prn.bootstrap(df, cluster=np.arange(len(df)), **kw)
    assert clus.se[0] == pytest.approx(rows.se[0], rel=0.08)
    assert clus.ci_low[0] == pytest.approx(rows.ci_low[0], abs=0.02)


def test_replicates_equal_the_materialised_cluster_resample():
    df = _clustered(60, 4)
    df = df.assign(w=np.random.default_rng(2).choice([0.5, 1.0, 2.0], size=len(df)))
    kw = {
        "score": ["s", "s2"],
        "label": "y",
        "weight": "w",
        "method": "integral",
        "n_boot": 5,
        "seed": 7,
        "stratified": False,
    }
    _, reps = prn.bootstrap(df, cluster="c", return_replicates=True, **kw)
    batch = pack(df, score=["s", "s2"], label="y", weight="w")
    plan = R.Plan(batch, False, cluster_codes(df, "c", batch))
    for b in range(5):
        mult = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(7), b)[
            plan.slot
        ]
        # every row of a cluster comes along as often as its cluster was drawn
        per_cluster = pd.Series(mult).groupby(df.c.to_numpy()).agg(["min", "max"])
        assert (per_cluster["min"] == per_cluster["max"]).all()
        assert per_cluster["min"].sum() == df.c.nunique()
        for m in ["s", "s2"]:
            ref = prn.auc_pr(df.y, df[m], sample_weight=df.w * mult, method="integral")
            got = reps[(reps.model == m) & (reps.replicate == b)].estimate.iloc[0]
            assert got == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("stratified", [True, False])
def test_clustered_data_get_wider_intervals(stratified):
    df = _clustered()
    kw = {"score": "s", "label": "y", "n_boot": 1000, "seed": 0, "stratified": stratified}
    rows = prn.bootstrap(df, **kw)
    clus = prn.bootstrap(df, cluster="c", **kw)
    assert clus.se[0] > 1.5 * rows.se[0]
    assert clus.ci_high[0] - clus.ci_low[0] > 1.5 * (rows.ci_high[0] - rows.ci_low[0])
    op_rows = prn.operating_points(
        df, score="s", label="y", targets=["max_f1"], n_boot=300, seed=0, stratified=stratified
    )
    op_clus = prn.operating_points(
        df,
        score="s",
        label="y",
        targets=["max_f1"],
        n_boot=300,
        seed=0,
        stratified=stratified,
        cluster="c",
    )
    width = {
        k: (f.recall_ci_high - f.recall_ci_low)[0]
        for k, f in (("rows", op_rows), ("clus", op_clus))
    }
    assert width["clus"] > width["rows"]


def test_by_groups_resample_their_own_clusters():
    df = pd.concat(
        [_clustered(100, 3, seed=1).assign(g="a"), _clustered(100, 3, seed=2).assign(g="b")]
    )
    res = prn.bootstrap(df, score=["s", "s2"], label="y", by="g", cluster="c", n_boot=100, seed=1)
    assert list(res.g) == ["a", "a", "b", "b"] and res.se.notna().all()


def test_errors():
    df = _clustered(50, 3)
    mixed = df.assign(c=np.arange(len(df)) // 7)  # clusters holding both classes
    with pytest.raises(ValueError, match="stratified=False"):
        prn.bootstrap(mixed, score="s", label="y", cluster="c", n_boot=10)
    prn.bootstrap(mixed, score="s", label="y", cluster="c", n_boot=10, stratified=False)
    with pytest.raises(ValueError, match="interval='bca' with cluster="):
        prn.bootstrap(df, score="s", label="y", cluster="c", n_boot=10, interval="bca")
    with pytest.raises(ValueError, match="test='delong'"):
        prn.compare(df, score=["s", "s2"], label="y", cluster="c", test="delong", curve="roc")
    with pytest.raises(ValueError, match="cluster has 3 rows"):
        prn.bootstrap(df, score="s", label="y", cluster=[1, 2, 3], n_boot=10)
    with pytest.raises(ValueError, match="missing values"):
        prn.bootstrap(
            df.assign(c=np.where(df.c == 3, np.nan, df.c)),
            score="s",
            label="y",
            cluster="c",
            n_boot=10,
        )
    with pytest.raises(ValueError, match="'cc' is not a column"):
        prn.bootstrap(df, score="s", label="y", cluster="cc", n_boot=10)
    with pytest.raises(ValueError, match="pass n_boot"):
        prn.operating_points(df, score="s", label="y", cluster="c")
