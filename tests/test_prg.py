"""Precision-Recall-Gain curves and AUPRG against Flach & Kull's reference implementation
(values stored by tests/data/prg_pyprg.py) and the slow definitions in tests/naive.py."""

import json
import warnings
from pathlib import Path

import naive
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import prroc_numba as prn
from prroc_numba._checks import kernel_seed
from prroc_numba._core.packing import pack
from prroc_numba._resampling.plan import Plan
from tests.kernel_probes import _paired_counts_one

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


# --------------------------------------------------------- bootstrap and compare


def _boot_frame(n=160, seed=3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "a": np.round(rng.normal(size=n) + 1.2 * y, 1),  # ties
            "b": rng.normal(size=n) + 0.5 * y,
            "g": rng.choice(["u", "v"], n),
            "w": rng.integers(0, 4, n).astype(float),  # integer weights, some zero
        }
    )


def _naive_auprg(s, pos, neg, hull):
    """AUPRG of the data by the slow definitions (NaN without both classes)."""
    if sum(pos) <= 0 or sum(neg) <= 0:
        return np.nan
    if not hull:
        return naive.auprg(s, pos, neg)
    _, tp, fp = naive.sweep(s, pos, neg)
    k = naive.upper_hull(tp, fp)
    return naive.auprg_counts(tp[k], fp[k], sum(pos), sum(neg))


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("hull", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_replicates_equal_auprg_of_the_resampled_rows(stratified, hull, weighted):
    """Every replicate of every (group, model) == AUPRG of the rows it draws, repeated
    (and weighted), by the slow definition; the estimate == auc(curve="prg")."""
    df = _boot_frame()
    kw = {"score": ["a", "b"], "label": "y", "by": "g", "curve": "prg", "hull": hull}
    if weighted:
        kw["weight"] = "w"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unstratified resample may lack a class
        res, reps = prn.bootstrap(
            df, n_boot=5, seed=8, stratified=stratified, return_replicates=True, **kw
        )
    est = prn.auc(df, **kw)
    np.testing.assert_allclose(res.estimate, est.auc, rtol=1e-12, atol=1e-15)
    if not weighted:
        assert (res.estimate.to_numpy() == est.auc.to_numpy()).all()  # the same bits
    kept = df[df.w > 0] if weighted else df  # zero weight is removal: never drawn
    batch = pack(df, score=["a", "b"], label="y", by="g", weight=kw.get("weight"))
    plan = Plan(batch, stratified)
    for gi, g in enumerate(["u", "v"]):
        sub = kept[kept.g == g]
        slots = plan.slot[batch.group_offsets[gi] : batch.group_offsets[gi + 1]]
        for b in range(5):
            cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, gi, kernel_seed(8), b)
            cnt = cnt[slots]
            if stratified:
                assert cnt[sub.y.to_numpy() == 1].sum() == sub.y.sum()
            w = cnt * (sub.w.to_numpy() if weighted else 1.0)
            y = sub.y.to_numpy()
            for m in ("a", "b"):
                ref = _naive_auprg(sub[m].to_numpy(), w * y, w * (1 - y), hull)
                got = reps.query("g == @g and model == @m and replicate == @b").estimate.iloc[0]
                np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
                if np.isfinite(ref) and not weighted:  # the materialised resample
                    s, p, _ = naive.materialise(sub[m].to_numpy(), y, 1 - y, cnt)
                    one = prn.auc(score=s, label=p, curve="prg", hull=hull).auc[0]
                    np.testing.assert_allclose(got, one, rtol=1e-12, atol=1e-14)


def test_poisson_replicates_equal_auprg_of_the_count_weighted_rows():
    """resampling="poisson": the class totals vary by replicate, so does the point
    where the curve enters recall gain 0; each replicate is the AUPRG of the data
    weighted by its documented Poisson(1) counts."""
    df = _boot_frame(120, seed=4)
    kw = {"score": ["a", "b"], "label": "y", "weight": "w", "curve": "prg", "seed": 2}
    _, reps = prn.bootstrap(df, n_boot=6, resampling="poisson", return_replicates=True, **kw)
    y = df.y.to_numpy()
    for b in range(6):
        w = naive.poisson_counts(kernel_seed(2), b, len(df)) * df.w.to_numpy()
        for m in ("a", "b"):
            ref = _naive_auprg(df[m].to_numpy(), w * y, w * (1 - y), False)
            got = reps.query("model == @m and replicate == @b").estimate.iloc[0]
            np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)


def test_bootstrap_bca_of_auprg_uses_the_jackknife_of_auprg():
    """BCa on AUPRG, with a delete-one jackknife done by brute force."""
    df = _boot_frame(70, seed=5)
    res, reps = prn.bootstrap(
        df, score="a", label="y", curve="prg", n_boot=400, interval="bca", seed=1,
        return_replicates=True,
    )  # fmt: skip
    y, s = df.y.to_numpy(), df.a.to_numpy()
    est = naive.auprg(s, y, 1 - y)
    assert res.estimate[0] == pytest.approx(est, rel=1e-12)
    keep = np.ones(len(df), bool)
    jack = []
    for i in range(len(df)):
        keep[i] = False
        jack.append(naive.auprg(s[keep], y[keep], 1 - y[keep]))
        keep[i] = True
    a = naive.jackknife_acceleration(jack)
    r = reps.estimate.to_numpy()
    z0 = stats.norm.ppf((np.sum(r < est) + 0.5 * np.sum(r == est)) / r.size)
    qs = [
        stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in stats.norm.ppf([0.025, 0.975])
    ]
    assert (res.ci_low[0], res.ci_high[0]) == pytest.approx(tuple(np.quantile(r, qs)), rel=1e-10)


def test_compare_auprg_by_group_with_weights():
    """Paired differences per group: estimates equal auc(curve="prg"), the interval the
    quantiles of the bootstrap's paired replicate differences (same seed)."""
    df = _boot_frame(300, seed=6)
    kw = {"score": ["a", "b"], "label": "y", "by": "g", "weight": "w", "curve": "prg"}
    res = prn.compare(df, n_boot=200, seed=3, adjust="none", **kw)
    assert set(res.curve) == {"prg"} and set(res.method) == {"trapezoid"}
    est = prn.auc(df, **kw).set_index(["g", "model"]).auc
    _, reps = prn.bootstrap(df, n_boot=200, seed=3, return_replicates=True, **kw)
    for row in res.itertuples():
        assert row.estimate_a == pytest.approx(est[(row.g, "a")], rel=1e-12)
        assert row.diff == pytest.approx(est[(row.g, "a")] - est[(row.g, "b")], rel=1e-12)
        r = reps[reps.g == row.g]
        d = r[r.model == "a"].estimate.to_numpy() - r[r.model == "b"].estimate.to_numpy()
        assert (row.ci_low, row.ci_high) == pytest.approx(
            tuple(np.quantile(d, [0.025, 0.975])), rel=1e-12
        )


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"method": "dg"}, "method='dg'.*PRG area"),
        ({"partial": (0, 0.5)}, "drop partial="),
    ],
)
def test_bootstrap_and_compare_of_auprg_refuse_what_it_lacks(kw, match):
    df = _boot_frame(40)
    args = {"score": ["a", "b"], "label": "y", "curve": "prg", "n_boot": 10}
    for fn in (prn.bootstrap, prn.compare):
        with pytest.raises(ValueError, match=match):
            fn(df, **args, **kw)


def test_bootstrap_curve_has_no_prg_bands():
    with pytest.raises(ValueError, match="curve='prg' is not known"):
        prn.bootstrap_curve(_boot_frame(40), score="a", label="y", curve="prg", n_boot=10)


def test_auprg_replicates_refuse_the_gpu_and_dask():
    """The GPU's Poisson bootstrap and Dask's sum segment terms in chunks, which the
    clipping at recall gain 0 (it depends on each replicate's totals) does not allow."""
    from prroc_numba._core.inputs import Inputs
    from prroc_numba._options.draws import Resampling
    from prroc_numba._options.estimator import Estimator
    from prroc_numba._options.replicates import replicates

    df = _boot_frame(40)
    args = {"curve": "prg", "method": None, "hull": False, "n_boot": 10, "stratified": False}
    args.update(seed=0, progress=False, score=["a", "b"], label="y")
    boot = Resampling(n_boot=10, stratified=False, seed=0, progress=False)
    with pytest.raises(ValueError, match="curve='prg' runs on the CPU; pass device='cpu'"):
        replicates(df, Inputs(["a", "b"], "y"), Estimator("prg"), boot, "cuda")
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(ValueError, match="compute it on pandas input"):
        prn.bootstrap(dd.from_pandas(df, npartitions=2), **args)


def test_fold_bootstrap_of_auprg_estimates_are_the_fold_areas():
    df = _boot_frame(200, seed=7).assign(f=lambda d: np.arange(len(d)) % 3)
    kw = {"score": ["a", "b"], "label": "y", "fold": "f", "curve": "prg"}
    res = prn.bootstrap(df, n_boot=20, seed=0, **kw)
    est = prn.auc(df, **kw)
    got = res.set_index(["model", "fold"]).estimate
    want = est.set_index(["model", "fold"]).auc
    np.testing.assert_allclose(got[want.index], want, rtol=1e-12, atol=1e-15)
    assert (res.ci_low <= res.estimate).all() and (res.estimate <= res.ci_high).all()


def test_cluster_replicates_equal_auprg_of_the_drawn_clusters():
    """cluster=: every row of a drawn cluster comes along as often as its cluster."""
    from prroc_numba._resampling.design import cluster_codes

    df = _boot_frame(150, seed=9).assign(c=lambda d: np.arange(len(d)) // 3)
    df["w"] += 0.5  # no zero weights: every row belongs to its cluster's draws
    kw = {"score": ["a", "b"], "label": "y", "weight": "w", "curve": "prg", "stratified": False}
    _, reps = prn.bootstrap(df, cluster="c", n_boot=5, seed=4, return_replicates=True, **kw)
    batch = pack(df, score=["a", "b"], label="y", weight="w")
    plan = Plan(batch, False, cluster_codes(df, "c", batch))
    y = df.y.to_numpy()
    for b in range(5):
        mult = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, kernel_seed(4), b)[
            plan.slot
        ]
        per_cluster = pd.Series(mult).groupby(df.c.to_numpy()).agg(["min", "max"])
        assert (per_cluster["min"] == per_cluster["max"]).all()
        w = mult * df.w.to_numpy()
        for m in ("a", "b"):
            ref = _naive_auprg(df[m].to_numpy(), w * y, w * (1 - y), False)
            got = reps.query("model == @m and replicate == @b").estimate.iloc[0]
            np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-12)
