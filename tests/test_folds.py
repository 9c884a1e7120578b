"""fold=: per-fold, fold-averaged and pooled rows; the cvAUC influence-curve interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import prroc_numba as prn
from tests import naive


def _cv_frame(n=300, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    df = pd.DataFrame(
        {
            "y": y,
            "m1": y + rng.normal(size=n),
            "m2": 0.4 * y + rng.normal(size=n),
            "fold": rng.integers(0, 5, n),
            "site": rng.choice(["a", "b"], n),
        }
    )
    if ties:
        df["m1"] = df.m1.round(1)
    return df


def test_auc_fold_rows_are_per_fold_mean_and_pooled():
    df = _cv_frame()
    res = prn.auc(df, score=["m1", "m2"], label="y", by="site", fold="fold", curve="roc")
    assert list(res.columns) == ["site", "model", "fold", "auc"]
    assert len(res) == 2 * 2 * (5 + 2)
    for (site, m), sub in res.groupby(["site", "model"], sort=False):
        rows = df[df.site == site]
        per = [roc_auc_score(rows.y[rows.fold == f], rows[m][rows.fold == f]) for f in range(5)]
        assert list(sub.fold) == [0, 1, 2, 3, 4, "mean", "pooled"]
        np.testing.assert_allclose(sub.auc[:5], per, rtol=1e-12)
        np.testing.assert_allclose(sub.auc.iloc[5], np.mean(per), rtol=1e-12)
        np.testing.assert_allclose(sub.auc.iloc[6], roc_auc_score(rows.y, rows[m]), rtol=1e-12)


def test_fold_array_equals_fold_column_and_metrics_agree():
    df = _cv_frame(seed=1)
    a = prn.metrics(df, score="m1", label="y", fold="fold")
    b = prn.metrics(df, score="m1", label="y", fold=df.fold.to_numpy())
    c = prn.metrics(score=df.m1.to_numpy(), label=df.y.to_numpy(), fold=df.fold.to_numpy())
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    auc = prn.auc(df, score="m1", label="y", fold="fold")
    np.testing.assert_array_equal(a.auc_pr, auc.auc)


def test_fold_mean_is_nan_when_a_fold_is_undefined():
    df = _cv_frame(60, seed=2)
    df.loc[df.fold == 0, "y"] = 0
    with pytest.warns(prn.UndefinedMetricWarning):
        res = prn.auc(df, score="m1", label="y", fold="fold")
    assert np.isnan(res.auc[res.fold == "mean"]).all()
    assert np.isfinite(res.auc[res.fold == "pooled"]).all()


@pytest.mark.parametrize("ties", [False, True])
def test_influence_interval_matches_the_formula(ties):
    df = _cv_frame(250, seed=3, ties=ties)
    res = prn.auc_ci(
        df,
        score=["m1", "m2"],
        label="y",
        by="site",
        fold="fold",
        curve="roc",
        method="influence",
        level=0.9,
    )
    assert list(res.columns) == ["site", "model", "fold", "estimate", "se", "ci_low", "ci_high"]
    assert (res.fold == "mean").all()
    for _, row in res.iterrows():
        rows = df[df.site == row.site]
        want = naive.cv_auc_influence(
            rows[row.model].to_numpy(), rows.y.to_numpy(), rows.fold.to_numpy(), 0.9
        )
        np.testing.assert_allclose(
            row[["estimate", "se", "ci_low", "ci_high"]].to_numpy(float), want, rtol=1e-10
        )


def test_influence_interval_one_fold_is_the_delong_scale():
    """With a single fold the influence-curve variance is the empirical variance of the
    AUC's influence function: close to DeLong's (which uses n-1 denominators)."""
    df = _cv_frame(2000, seed=4)
    one = prn.auc_ci(
        df, score="m1", label="y", fold=np.zeros(len(df)), curve="roc", method="influence"
    )
    de = prn.delong(df, score="m1", label="y")
    np.testing.assert_allclose(one.estimate, de.auc, rtol=1e-12)
    np.testing.assert_allclose(one.se, de.se, rtol=0.01)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(method="influence"), "fold="),
        (dict(fold="fold"), "method='influence'"),
        (dict(method="influence", fold="fold", curve="pr"), "curve='roc'"),
        (dict(method="influence", fold="fold", curve="roc", weight="m2"), "weights"),
    ],
)
def test_influence_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        prn.auc_ci(_cv_frame(), score="m1", label="y", **kw)


def test_fold_bad_arguments():
    df = _cv_frame()
    with pytest.raises(ValueError, match="one fold id per row"):
        prn.auc(df, score="m1", label="y", fold=[0, 1])
    with pytest.raises(ValueError, match="both by= and fold="):
        prn.auc(df, score="m1", label="y", by="fold", fold="fold")
    with pytest.raises(TypeError, match="data is None"):
        prn.auc(score=df.m1.to_numpy(), label=df.y.to_numpy(), fold="fold")


# ------------------------------------------------------------ bootstrap(fold=)


def test_bootstrap_fold_rows_match_by_fold_and_mean_of_replicates():
    df = _cv_frame(240, seed=5)
    kw = dict(score=["m1", "m2"], label="y", n_boot=150, seed=7, level=0.9, progress=False)
    res = prn.bootstrap(df, fold="fold", **kw)
    assert list(res.columns) == [
        "model",
        "fold",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "n_degenerate",
    ]
    by_fold, reps = prn.bootstrap(df, by="fold", return_replicates=True, **kw)
    per = res[~res.fold.isin(["mean", "pooled"])].sort_values(["fold", "model"])
    np.testing.assert_array_equal(
        per[["estimate", "se", "ci_low", "ci_high"]].to_numpy(float),
        by_fold[["estimate", "se", "ci_low", "ci_high"]].to_numpy(float),
    )
    for m in ["m1", "m2"]:
        r = reps[reps.model == m].pivot(index="replicate", columns="fold", values="estimate")
        mean_reps = r.to_numpy().mean(axis=1)
        row = res[(res.model == m) & (res.fold == "mean")].iloc[0]
        est = by_fold[by_fold.model == m].estimate.mean()
        np.testing.assert_allclose(row.estimate, est, rtol=1e-12)
        np.testing.assert_allclose(row.se, mean_reps.std(ddof=1), rtol=1e-10)
        np.testing.assert_allclose(row.ci_low, np.quantile(mean_reps, 0.05), rtol=1e-10)
        np.testing.assert_allclose(row.ci_high, np.quantile(mean_reps, 0.95), rtol=1e-10)


@pytest.mark.parametrize("stratified", [True, False])
def test_pooled_bootstrap_draws_within_folds(stratified):
    """The pooled row's replicates, materialised: every replicate keeps each fold's row
    count (and, stratified, each fold's class counts), and its area is the naive AUC
    of the resampled rows."""
    import importlib

    from prroc_numba._ragged import pack
    from tests.kernel_probes import _paired_counts_one

    boot_mod = importlib.import_module("prroc_numba._resampling")
    df = _cv_frame(150, seed=6, ties=True)
    B = 40
    res = prn.bootstrap(
        df,
        score=["m1", "m2"],
        label="y",
        fold="fold",
        curve="roc",
        n_boot=B,
        seed=3,
        stratified=stratified,
        level=0.8,
        progress=False,
    )
    batch = pack(df, score=["m1", "m2"], label="y")
    codes = df.fold.to_numpy().astype(np.int64)
    plan = boot_mod._Plan(batch, stratified, strata=codes)
    y = df.y.to_numpy()
    reps = {m: [] for m in ["m1", "m2"]}
    for b in range(B):
        cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, boot_mod._seed(3), b)
        cnt = cnt[plan.slot]
        for f in range(5):
            rows = codes == f
            assert cnt[rows].sum() == rows.sum()
            if stratified:
                assert cnt[rows & (y == 1)].sum() == (rows & (y == 1)).sum()
        for m in reps:
            s, p, q = naive.materialise(df[m].to_numpy(), y * 1.0, 1.0 - y, cnt)
            reps[m].append(naive.roc_auc_pairs(s, p, q))
    for m, r in reps.items():
        row = res[(res.model == m) & (res.fold == "pooled")].iloc[0]
        np.testing.assert_allclose(row.ci_low, np.quantile(r, 0.1), rtol=1e-12)
        np.testing.assert_allclose(row.ci_high, np.quantile(r, 0.9), rtol=1e-12)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(interval="bca"), "interval='bca'"),
        (dict(return_replicates=True), "return_replicates"),
        (dict(resampling="poisson"), "poisson"),
    ],
)
def test_bootstrap_fold_refuses(kw, match):
    with pytest.raises(ValueError, match=match):
        prn.bootstrap(_cv_frame(), score="m1", label="y", fold="fold", n_boot=10, **kw)


def test_compare_fold_rows():
    df = _cv_frame(240, seed=8)
    kw = dict(score=["m1", "m2"], label="y", n_boot=120, seed=2, progress=False)
    res = prn.compare(df, fold="fold", **kw)
    assert list(res.columns[:3]) == ["model_a", "model_b", "fold"]
    assert list(res.fold) == [0, 1, 2, 3, 4, "mean", "pooled"]
    by_fold = prn.compare(df, by="fold", **kw)
    cols = ["diff", "ci_low", "ci_high", "p_value", "p_adjusted"]
    np.testing.assert_array_equal(res[cols].iloc[:5].to_numpy(float), by_fold[cols].to_numpy(float))
    _, reps = prn.bootstrap(df, by="fold", return_replicates=True, **kw)
    r = reps.pivot_table(index="replicate", columns=["model", "fold"], values="estimate")
    d = (r["m1"] - r["m2"]).to_numpy().mean(axis=1)
    mean = res.iloc[5]
    np.testing.assert_allclose(mean.ci_low, np.quantile(d, 0.025), rtol=1e-10)
    np.testing.assert_allclose(mean.ci_high, np.quantile(d, 0.975), rtol=1e-10)
    boot = prn.bootstrap(df, fold="fold", **kw)
    pooled = boot[boot.fold == "pooled"].estimate.to_numpy()
    np.testing.assert_allclose(res.iloc[6]["diff"], pooled[0] - pooled[1], rtol=1e-12)
    with pytest.raises(ValueError, match="test='bootstrap'"):
        prn.compare(df, fold="fold", test="delong", curve="roc", score=["m1", "m2"], label="y")


# ------------------------------------------------------ bootstrap_curve(fold=)


def _fold_reps(df, curve_code, g, B, seed, strata=None, by="fold"):
    import importlib

    from prroc_numba._ragged import pack

    boot_mod = importlib.import_module("prroc_numba._resampling")
    batch = pack(df, score="m1", label="y", by=by)
    plan = boot_mod._Plan(batch, True, strata=strata)
    return plan.run(boot_mod._seed(seed), B, False, False, "t", code=curve_code, grid=g)


@pytest.mark.parametrize("curve", ["roc", "pr"])
def test_bootstrap_curve_fold_rows(curve):
    df = _cv_frame(300, seed=9, ties=True)
    g = np.linspace(0, 1, 11)
    B = 80
    kw = dict(score="m1", label="y", curve=curve, grid=g, n_boot=B, seed=4, progress=False)
    res = prn.bootstrap_curve(df, fold="fold", **kw)
    v = "tpr" if curve == "roc" else "precision"
    x = "fpr" if curve == "roc" else "recall"
    assert list(res.columns) == ["fold", x, v, "ci_low", "ci_high"]
    assert list(res.fold.iloc[:: len(g)]) == [0, 1, 2, 3, 4, "mean", "pooled"]
    by_fold = prn.bootstrap_curve(df, by="fold", **kw)
    per = res.iloc[: 5 * len(g)]
    cols = [v, "ci_low", "ci_high"]
    np.testing.assert_array_equal(per[cols].to_numpy(float), by_fold[cols].to_numpy(float))
    # the fold-averaged curve, from each fold's vertices
    y = df.y.to_numpy()
    want = []
    for r in g:
        vals, tps, fps = [], [], []
        for f in range(5):
            rows = df.fold.to_numpy() == f
            _, tp, fp = naive.sweep(df.m1.to_numpy()[rows], y[rows] * 1.0, 1.0 - y[rows])
            if curve == "roc":
                vals.append(naive.tpr_at_fpr(tp, fp, [r])[0])
            else:
                tps.append(r * tp[-1])
                fps.append(naive.fp_at_recall(tp, fp, r))
        if curve == "roc":
            want.append(np.mean(vals))
        else:
            want.append(sum(tps) / (sum(tps) + sum(fps)) if r > 0 else np.nan)
    mean = res[res.fold == "mean"]
    ok = np.isfinite(want)
    np.testing.assert_allclose(mean[v].to_numpy()[ok], np.array(want)[ok], rtol=1e-12)
    # its band: quantiles of the replicates averaged over folds
    code = -2 if curve == "roc" else -1
    reps = _fold_reps(df, code, g, B, 4)  # (fold, grid, replicate)
    if curve == "roc":
        avg = reps.mean(axis=0)
    else:
        P = np.array([y[df.fold.to_numpy() == f].sum() for f in range(5)], float)
        with np.errstate(divide="ignore"):
            avg = P.sum() / (P[:, None, None] / reps).sum(axis=0)
    np.testing.assert_allclose(mean.ci_low, np.quantile(avg, 0.025, axis=1), rtol=1e-10)
    np.testing.assert_allclose(mean.ci_high, np.quantile(avg, 0.975, axis=1), rtol=1e-10)
    pooled = res[res.fold == "pooled"]
    reps_p = _fold_reps(df, code, g, B, 4, strata=df.fold.to_numpy().astype(np.int64), by=None)
    np.testing.assert_allclose(pooled.ci_low, np.quantile(reps_p[0], 0.025, axis=1), rtol=1e-12)


def test_bootstrap_curve_fold_simultaneous_is_wider():
    df = _cv_frame(300, seed=10)
    kw = dict(score="m1", label="y", curve="roc", grid=21, n_boot=100, seed=1, fold="fold")
    point = prn.bootstrap_curve(df, **kw)
    simul = prn.bootstrap_curve(df, band="simultaneous", **kw)
    m = (point.fold == "mean") & (point.fpr > 0.1) & (point.fpr < 0.9)
    assert ((simul.ci_high - simul.ci_low)[m] >= (point.ci_high - point.ci_low)[m] - 1e-12).all()


# ------------------------------------------------- curves and average_curves(fold=)


@pytest.mark.parametrize("func", [prn.roc_curve, prn.pr_curve])
def test_curve_fold_rows_are_per_fold_then_pooled(func):
    df = _cv_frame(120, seed=11, ties=True)
    res = func(df, score=["m1", "m2"], label="y", fold="fold")
    assert list(res.columns[:3]) == ["model", "fold", "threshold"]
    by_fold = func(df, score=["m1", "m2"], label="y", by="fold")
    pooled = func(df, score=["m1", "m2"], label="y")
    for m in ["m1", "m2"]:
        got = res[res.model == m]
        per = got[got.fold != "pooled"].drop(columns=["model", "fold"]).reset_index(drop=True)
        want = by_fold[by_fold.model == m].drop(columns=["model", "fold"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(per, want)
        assert list(dict.fromkeys(got.fold)) == [0, 1, 2, 3, 4, "pooled"]
        pool = got[got.fold == "pooled"].drop(columns=["model", "fold"]).reset_index(drop=True)
        pd.testing.assert_frame_equal(
            pool, pooled[pooled.model == m].drop(columns="model").reset_index(drop=True)
        )


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_average_curves_fold_matches_the_fold_averaged_band(space):
    df = _cv_frame(300, seed=12, ties=True)
    g = np.linspace(0.05, 1, 20)
    func = prn.pr_curve if space == "pr" else prn.roc_curve
    pts = func(df, score="m1", label="y", fold="fold")
    avg = prn.average_curves(pts, grid=g, fold="fold", space=space, quantiles=[0.5])
    band = prn.bootstrap_curve(
        df, score="m1", label="y", curve=space, grid=g, fold="fold", n_boot=10, seed=0
    )
    v = "precision" if space == "pr" else "tpr"
    np.testing.assert_allclose(avg[v], band[band.fold == "mean"][v], rtol=1e-12)
    assert (avg.n_curves == 5).all()
    plain = prn.average_curves(pts[pts.fold != "pooled"], grid=g, curve="fold", space=space)
    np.testing.assert_allclose(avg.sd, plain.sd, rtol=1e-12)
    if space == "roc":
        np.testing.assert_allclose(avg.tpr, plain.tpr, rtol=1e-12)


# ----------------------------------------------------------------- plots


@pytest.mark.parametrize("curve", ["roc", "pr"])
def test_plot_fold_draws_folds_thin_and_the_mean_with_its_band(curve):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot import plot_pr, plot_roc

    df = _cv_frame(300, seed=13)
    func, plot = (prn.roc_curve, plot_roc) if curve == "roc" else (prn.pr_curve, plot_pr)
    pts = func(df, score=["m1", "m2"], label="y", fold="fold")
    band = prn.bootstrap_curve(
        df,
        score=["m1", "m2"],
        label="y",
        curve=curve,
        fold="fold",
        n_boot=50,
        seed=0,
        band="simultaneous",
        grid=21,
    )
    for b in (band, None):
        ax = plot(pts, fold="fold", band=b)
        thin = [ln for ln in ax.lines if ln.get_lw() < 1]
        bold = [ln for ln in ax.lines if ln.get_lw() >= 2]
        assert len(thin) == 2 * 5 and len(bold) == 2
        assert len(ax.collections) == 2  # one band per model
        if b is not None:
            mean = band[(band.fold == "mean") & (band.model == "m1")]
            np.testing.assert_allclose(bold[0].get_ydata(), mean.iloc[:, 3])
        plt.close(ax.figure)
    with pytest.raises(ValueError, match="fold"):
        plot(pts.drop(columns="fold"), fold="fold")


def test_plot_bands_draws_fpr_at_tpr_horizontally():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from prroc_numba.plot import plot_bands

    df = _cv_frame(200, seed=14)
    res = prn.bootstrap_curve(
        df, score="m1", label="y", curve="roc", space="tpr", grid=11, n_boot=30, seed=0
    )
    ax = plot_bands(res)
    verts = ax.collections[0].get_paths()[0].vertices
    # the band spans FPR values (x) at the TPR grid (y)
    assert set(np.round(verts[:, 1], 6)) <= set(np.round(np.linspace(0, 1, 11), 6))
    plt.close(ax.figure)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(cluster="site"), "cluster="),
        (dict(resampling="poisson"), "poisson"),
    ],
)
def test_bootstrap_curve_fold_refuses(kw, match):
    with pytest.raises(ValueError, match=match):
        prn.bootstrap_curve(_cv_frame(), score="m1", label="y", fold="fold", n_boot=10, **kw)


def test_fold_frames_convert_to_polars():
    pytest.importorskip("polars")
    df = _cv_frame(90, seed=15)
    res = prn.auc(df, score="m1", label="y", fold="fold", output="polars")
    assert res["fold"].to_list() == ["0", "1", "2", "3", "4", "mean", "pooled"]


def test_bootstrap_fold_partial_area():
    """Any area: a partial ROC area per fold equals the by-fold bootstrap's."""
    df = _cv_frame(300, seed=16)
    kw = dict(score=["m1", "m2"], label="y", curve="roc", partial=(0, 0.3), n_boot=60, seed=5)
    res = prn.bootstrap(df, fold="fold", **kw)
    by_fold = prn.bootstrap(df, by="fold", **kw)
    per = res[~res.fold.isin(["mean", "pooled"])].sort_values(["fold", "model"])
    np.testing.assert_array_equal(
        per[["estimate", "ci_low", "ci_high"]].to_numpy(float),
        by_fold[["estimate", "ci_low", "ci_high"]].to_numpy(float),
    )
    pooled = res[res.fold == "pooled"].estimate.to_numpy()
    np.testing.assert_allclose(
        pooled,
        prn.auc(df, **{k: kw[k] for k in kw if k in ("score", "label", "curve", "partial")}).auc,
        rtol=1e-12,
    )
