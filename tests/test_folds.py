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
