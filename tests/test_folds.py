"""fold=: per-fold, fold-averaged and pooled rows; the cvAUC influence-curve interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

import prroc_numba as prn
from tests import naive


def _values(frame):
    """The columns without those saying what produced the numbers (tested elsewhere)."""
    return frame.columns.drop(
        ["curve", "method", "interval", "resampling", "n_boot"], errors="ignore"
    )


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
    assert list(res.columns) == ["site", "model", "fold", "curve", "method", "auc"]
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
    assert list(_values(res)) == ["site", "model", "fold", "estimate", "se", "ci_low", "ci_high"]
    assert res["interval"].eq("influence").all()
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


def _materialised(df, models, B, seed, stratified, stat):
    """Replicates of ``stat(score, y, counts)`` per model for the pooled rows and each
    fold, every replicate's counts drawn as the fold plan draws them (one count vector
    per replicate, within fold and class strata): ``out[model][fold or "pooled"]``."""
    import importlib

    from prroc_numba._core.packing import pack
    from tests.kernel_probes import _paired_counts_one

    boot_mod = importlib.import_module("prroc_numba._resampling.plan")
    run_mod = importlib.import_module("prroc_numba._resampling.run")
    batch = pack(df, score=models, label="y")
    codes = df.fold.to_numpy().astype(np.int64)
    plan = boot_mod.Plan(batch, stratified, strata=codes)
    y = df.y.to_numpy()
    out = {m: {k: [] for k in [*range(5), "pooled"]} for m in models}
    for b in range(B):
        cnt = _paired_counts_one(
            plan.strata_offsets, plan.n_strata, 0, run_mod.kernel_seed(seed), b
        )
        cnt = cnt[plan.slot]
        for f in range(5):
            rows = codes == f
            assert cnt[rows].sum() == rows.sum()
            if stratified:
                assert cnt[rows & (y == 1)].sum() == (rows & (y == 1)).sum()
        for m in models:
            s = df[m].to_numpy()
            out[m]["pooled"].append(stat(s, y, cnt))
            for f in range(5):
                rows = codes == f
                out[m][f].append(stat(s[rows], y[rows], cnt[rows]))
    return {m: {k: np.array(v) for k, v in d.items()} for m, d in out.items()}


def _roc_auc(s, y, cnt):
    s, p, q = naive.materialise(s, y * 1.0, 1.0 - y, cnt)
    return naive.roc_auc_pairs(s, p, q)


@pytest.mark.parametrize("stratified", [True, False])
def test_bootstrap_fold_rows_from_materialised_draws(stratified):
    """Per fold, fold mean and pooled: one count vector per replicate (rows drawn
    within fold and class), every curve reading it; each interval is the quantiles of
    the naive AUCs of the materialised replicates."""
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
    assert list(_values(res)) == [
        "model",
        "fold",
        "estimate",
        "se",
        "ci_low",
        "ci_high",
        "n_degenerate",
    ]
    reps = _materialised(df, ["m1", "m2"], B, 3, stratified, _roc_auc)
    for m, r in reps.items():
        r["mean"] = np.mean([r[f] for f in range(5)], axis=0)
        got = res[res.model == m].set_index("fold")
        for k, v in r.items():
            np.testing.assert_allclose(got.ci_low[k], np.quantile(v, 0.1), rtol=1e-12)
            np.testing.assert_allclose(got.ci_high[k], np.quantile(v, 0.9), rtol=1e-12)
            np.testing.assert_allclose(got.se[k], np.std(v, ddof=1), rtol=1e-10)
        est = prn.auc(df, score=m, label="y", curve="roc", fold="fold").set_index("fold")
        np.testing.assert_allclose(got.estimate, est.auc, rtol=1e-12)


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
    df = _cv_frame(150, seed=8)
    B = 40
    kw = dict(score=["m1", "m2"], label="y", curve="roc", n_boot=B, seed=2, progress=False)
    res = prn.compare(df, fold="fold", **kw)
    assert list(res.columns[:3]) == ["model_a", "model_b", "fold"]
    assert list(res.fold) == [0, 1, 2, 3, 4, "mean", "pooled"]
    boot = prn.bootstrap(df, fold="fold", **kw)
    est = boot.pivot(index="fold", columns="model", values="estimate")
    np.testing.assert_allclose(
        res.set_index("fold")["diff"], (est.m1 - est.m2)[res.fold], rtol=1e-12
    )
    reps = _materialised(df, ["m1", "m2"], B, 2, True, _roc_auc)
    for k in [*range(5), "pooled", "mean"]:
        if k == "mean":
            d = np.mean([reps["m1"][f] - reps["m2"][f] for f in range(5)], axis=0)
        else:
            d = reps["m1"][k] - reps["m2"][k]
        row = res[res.fold == k].iloc[0]
        np.testing.assert_allclose(row.ci_low, np.quantile(d, 0.025), rtol=1e-10, atol=1e-15)
        np.testing.assert_allclose(row.ci_high, np.quantile(d, 0.975), rtol=1e-10, atol=1e-15)
    with pytest.raises(ValueError, match="test='bootstrap'"):
        prn.compare(df, fold="fold", test="delong", curve="roc", score=["m1", "m2"], label="y")


# ------------------------------------------------------ bootstrap_curve(fold=)


@pytest.mark.parametrize("curve", ["roc", "pr"])
def test_bootstrap_curve_fold_rows(curve):
    df = _cv_frame(200, seed=9, ties=True)
    g = np.linspace(0, 1, 11)
    B = 30
    kw = dict(score="m1", label="y", curve=curve, grid=g, n_boot=B, seed=4, progress=False)
    res = prn.bootstrap_curve(df, fold="fold", **kw)
    v = "tpr" if curve == "roc" else "precision"
    x = "fpr" if curve == "roc" else "recall"
    assert list(_values(res)) == ["fold", x, v, "ci_low", "ci_high"]
    assert list(res.fold.iloc[:: len(g)]) == [0, 1, 2, 3, 4, "mean", "pooled"]

    def on_grid(s, y, cnt):
        s, p, q = naive.materialise(s, y * 1.0, 1.0 - y, cnt)
        _, tp, fp = naive.sweep(s, p, q)
        if curve == "roc":
            return naive.tpr_at_fpr(tp, fp, g)
        return naive.precision_on_recall_grid(tp, fp, g)

    def data_curve(s, y, cnt):
        return on_grid(s, y, np.ones(len(s)))

    y = df.y.to_numpy()
    want = {k: v[0] for k, v in _materialised(df, ["m1"], 1, 0, True, data_curve)["m1"].items()}
    reps = _materialised(df, ["m1"], B, 4, True, on_grid)["m1"]
    P = np.array([y[df.fold.to_numpy() == f].sum() for f in range(5)], float)
    # the fold-averaged curve: vertical mean (ROC), TP over TP + FP added up (PR)
    folds = np.array([want[f] for f in range(5)])
    reps_f = np.array([reps[f] for f in range(5)])  # (fold, replicate, grid)
    if curve == "roc":
        want["mean"] = folds.mean(axis=0)
        reps["mean"] = reps_f.mean(axis=0)
    else:
        with np.errstate(divide="ignore"):
            want["mean"] = P.sum() / (P[:, None] / folds).sum(axis=0)
            reps["mean"] = P.sum() / (P[:, None, None] / reps_f).sum(axis=0)
    for k in [*range(5), "mean", "pooled"]:
        got = res[res.fold == k]
        np.testing.assert_allclose(got[v], want[k], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.ci_low, np.quantile(reps[k], 0.025, axis=0), rtol=1e-10)
        np.testing.assert_allclose(got.ci_high, np.quantile(reps[k], 0.975, axis=0), rtol=1e-10)
    if curve == "pr":  # the count-space mean from each fold's vertices, written out
        for j, r in enumerate(g[1:], start=1):
            tps, fps = [], []
            for f in range(5):
                rows = df.fold.to_numpy() == f
                _, tp, fp = naive.sweep(df.m1.to_numpy()[rows], y[rows] * 1.0, 1.0 - y[rows])
                tps.append(r * tp[-1])
                fps.append(naive.fp_at_recall(tp, fp, r))
            np.testing.assert_allclose(want["mean"][j], sum(tps) / (sum(tps) + sum(fps)))


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
            y = "tpr" if "tpr" in mean.columns else "precision"
            np.testing.assert_allclose(bold[0].get_ydata(), mean[y])
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


def test_fold_missing_in_a_group_has_no_row():
    df = _cv_frame(300, seed=17)
    df = df[~((df.site == "b") & (df.fold == 4))]
    kw = dict(score="m1", label="y", by="site", fold="fold", curve="roc", n_boot=30, seed=1)
    res = prn.bootstrap(df, **kw)
    assert list(res[res.site == "b"].fold) == [0, 1, 2, 3, "mean", "pooled"]
    auc = prn.auc(df, score="m1", label="y", by="site", fold="fold", curve="roc")
    np.testing.assert_allclose(res.estimate, auc.auc, rtol=1e-12)
    assert np.isfinite(res.ci_low).all()


def test_bootstrap_fold_with_weights_and_with_arrays():
    """Weighted rows (the walk over masses) and plain arrays (two resampling runs): the
    estimates are the areas of auc(fold=), the intervals contain them."""
    df = _cv_frame(240, seed=18)
    df["w"] = np.random.default_rng(0).integers(1, 4, len(df)).astype(float)
    kw = dict(label="y", fold="fold", n_boot=40, seed=2)
    res = prn.bootstrap(df, score=["m1", "m2"], weight="w", **kw)
    auc = prn.auc(df, score=["m1", "m2"], label="y", weight="w", fold="fold")
    np.testing.assert_allclose(res.estimate, auc.auc, rtol=1e-12)
    arr = prn.bootstrap(
        score=df.m1.to_numpy(),
        label=df.y.to_numpy(),
        fold=df.fold.to_numpy(),
        n_boot=40,
        seed=2,
    )
    one = prn.auc(df, score="m1", label="y", fold="fold")
    np.testing.assert_allclose(arr.estimate, one.auc, rtol=1e-12)
    for r in (res, arr):
        assert ((r.ci_low <= r.estimate) & (r.estimate <= r.ci_high)).all()
