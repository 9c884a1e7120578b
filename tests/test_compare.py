"""compare(): paired bootstrap differences, p-values, multiplicity adjustment."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import prroc_numba as prn
from prroc_numba.comparison import adjust_pvalues


def _frame(n=600, seed=0, prev=0.15):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prev).astype(int)
    base = rng.normal(size=n)
    return pd.DataFrame(
        {
            "y": y,
            "a": 1.2 * y + base,
            "b": 0.8 * y + 0.6 * base + 0.8 * rng.normal(size=n),
            "c": 0.2 * y + rng.normal(size=n),
        }
    )


@pytest.mark.parametrize("curve", ["pr", "roc", "prg"])
def test_ci_and_p_value_come_from_the_paired_replicates(curve):
    df = _frame()
    kw = {
        "score": ["a", "b", "c"],
        "label": "y",
        "curve": curve,
        "n_boot": 300,
        "seed": 4,
        "progress": False,
    }
    res = prn.compare(df, adjust="none", p_value="percentile", **kw)
    wald = prn.compare(df, adjust="none", **kw)  # p_value="wald" is the default
    _, reps = prn.bootstrap(df, return_replicates=True, **kw)
    est = prn.auc(df, score=["a", "b", "c"], label="y", curve=curve).set_index("model")["auc"]
    assert list(zip(res.model_a, res.model_b)) == [("a", "b"), ("a", "c"), ("b", "c")]
    for _, row in res.iterrows():
        d = (
            reps[reps.model == row.model_a].estimate.to_numpy()
            - reps[reps.model == row.model_b].estimate.to_numpy()
        )
        assert row.estimate_a == pytest.approx(est[row.model_a], rel=1e-12)
        assert row["diff"] == pytest.approx(est[row.model_a] - est[row.model_b], rel=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx(
            tuple(np.quantile(d, [0.025, 0.975])), rel=1e-12
        )
        p = min(1.0, 2 * min(np.sum(d <= 0) + 1, np.sum(d >= 0) + 1) / (d.size + 1))
        assert row.p_value == pytest.approx(p, rel=1e-12)
        assert row.p_adjusted == row.p_value
        w = wald[(wald.model_a == row.model_a) & (wald.model_b == row.model_b)].iloc[0]
        assert (w.ci_low, w.ci_high) == (row.ci_low, row.ci_high)
        z = abs(row["diff"]) / np.std(d, ddof=1)
        assert w.p_value == pytest.approx(2 * stats.norm.sf(z), rel=1e-9)


def test_wald_p_goes_below_the_percentile_floor():
    """The percentile p-value cannot go below 2 / (B + 1); the Wald p-value can."""
    df = _frame(seed=6)
    kw = {"score": ["a", "c"], "label": "y", "n_boot": 199, "seed": 2, "progress": False}
    perc = prn.compare(df, p_value="percentile", **kw)
    wald = prn.compare(df, **kw)
    assert perc.p_value[0] == pytest.approx(2 / 200)
    assert wald.p_value[0] < 0.1 * 2 / 200
    with pytest.raises(ValueError, match="p_value='exact'"):
        prn.compare(df, p_value="exact", **kw)


def test_identical_models_have_zero_difference():
    df = _frame(seed=1)
    df["a2"] = df.a
    res = prn.compare(
        df, score=["a", "a2"], label="y", n_boot=200, stratified=False, seed=0, progress=False
    )
    assert res["diff"][0] == 0 and res.ci_low[0] == 0 and res.ci_high[0] == 0
    assert res.p_value[0] == 1


def test_p_values_under_the_null_are_roughly_uniform():
    """Two exchangeable models (each row's two scores swapped at random): no true
    difference, so the p-values should spread over [0, 1] (loose check)."""
    rng = np.random.default_rng(5)
    n_sets, n = 200, 300
    y = (rng.random(n_sets * n) < 0.2).astype(int)
    s1 = y + rng.normal(size=y.size)
    s2 = y + rng.normal(size=y.size)
    swap = rng.random(y.size) < 0.5
    df = pd.DataFrame(
        {
            "g": np.repeat(np.arange(n_sets), n),
            "y": y,
            "m1": np.where(swap, s2, s1),
            "m2": np.where(swap, s1, s2),
        }
    )
    res = prn.compare(df, score=["m1", "m2"], label="y", by="g", n_boot=200, seed=1, progress=False)
    p = res.p_value.to_numpy()
    assert list(res.columns[:3]) == ["g", "model_a", "model_b"]
    assert 0.0 <= np.mean(p < 0.05) <= 0.12
    assert 0.35 <= np.mean(p < 0.5) <= 0.65
    assert stats.kstest(p, "uniform").pvalue > 1e-3


def test_baseline_compares_every_model_with_it():
    df = _frame(seed=2)
    res = prn.compare(
        df, score=["a", "b", "c"], label="y", baseline="b", n_boot=100, seed=0, progress=False
    )
    assert list(zip(res.model_a, res.model_b)) == [("a", "b"), ("c", "b")]
    assert (res.estimate_b == res.estimate_b[0]).all()
    with pytest.raises(ValueError, match="baseline='z'"):
        prn.compare(df, score=["a", "b"], label="y", baseline="z", n_boot=10)


def test_adjustment_is_per_group_family():
    df = pd.concat([_frame(seed=3).assign(g="x"), _frame(seed=4).assign(g="w")])
    res = prn.compare(
        df,
        score=["a", "b", "c"],
        label="y",
        by="g",
        n_boot=200,
        seed=0,
        progress=False,
        adjust="bonferroni",
    )
    assert list(res.g) == ["w"] * 3 + ["x"] * 3
    np.testing.assert_allclose(res.p_adjusted, np.minimum(1, 3 * res.p_value))


def _holm_naive(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adj = [0.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        adj[i] = running
    return adj


def _bh_naive(p):
    m = len(p)
    return [
        min(
            1.0,
            min(m * p[j] / sum(p[k] <= p[j] for k in range(m)) for j in range(m) if p[j] >= p[i]),
        )
        for i in range(m)
    ]


@pytest.mark.parametrize("seed", range(5))
def test_adjustments_against_their_definitions(seed):
    rng = np.random.default_rng(seed)
    p = rng.random(7) ** 3
    np.testing.assert_allclose(adjust_pvalues(p, "holm"), _holm_naive(list(p)))
    np.testing.assert_allclose(adjust_pvalues(p, "bh"), _bh_naive(list(p)))
    np.testing.assert_allclose(adjust_pvalues(p, "bonferroni"), np.minimum(1, 7 * p))
    np.testing.assert_array_equal(adjust_pvalues(p, "none"), p)
    q = p.copy()
    q[2] = np.nan
    got = adjust_pvalues(q, "holm")
    assert np.isnan(got[2])
    np.testing.assert_allclose(np.delete(got, 2), _holm_naive(list(np.delete(p, 2))))


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"score": "a"}, "several models"),
        ({"adjust": "sidak"}, "adjust="),
        ({"test": "wilcoxon"}, "test="),
        ({"n_boot": 0}, "n_boot"),
    ],
)
def test_compare_errors(kw, match):
    df = _frame(100)
    args = {"score": ["a", "b"], "label": "y", "n_boot": 10, "progress": False}
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        prn.compare(df, **args)


def test_degenerate_differences_warn():
    df = pd.DataFrame({"y": [1] + [0] * 11, "a": np.arange(12.0), "b": np.arange(12.0)[::-1]})
    with pytest.warns(prn.UndefinedMetricWarning, match="left out"):
        res = prn.compare(
            df, score=["a", "b"], label="y", stratified=False, n_boot=200, seed=0, progress=False
        )
    assert np.isfinite(res.p_value[0])


# ------------------------------------------------------------ baseline="best"


def _holm(p):
    """Holm's step-down adjustment, written out (the reference for the test below)."""
    p = np.asarray(p, dtype=float)
    m = p.size
    order = np.argsort(p)
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (m - rank) * p[i])
        adj[i] = min(1.0, running)
    return adj


def _four_models(seed=1, n=1500):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.15
    df = pd.DataFrame({"y": y})
    for name, s in [("a", 1.0), ("b", 1.6), ("c", 1.55), ("d", 0.5)]:
        df[name] = s * y + rng.normal(size=n)
    return df


@pytest.mark.parametrize("test", ["bootstrap", "delong"])
def test_baseline_best_matches_holm_adjusted_compare_rows(test):
    df = _four_models()
    kw = dict(label="y", test=test, n_boot=300, seed=0)
    if test == "delong":
        kw["curve"] = "roc"
    models = list("abcd")
    best = prn.compare(df, score=models, baseline="best", **kw)
    # the best is the model with the highest area, by auc()
    areas = prn.auc(df, score=models, label="y", curve=kw.get("curve", "pr")).set_index("model")
    top = areas.auc.idxmax()
    assert best.attrs["best"] == top and set(best.model_a) == {top}
    assert sorted(best.model_b) == sorted(set(models) - {top})
    assert (best["diff"] >= 0).all()
    # the all-pairs comparison, unadjusted, Holm-adjusted over the pairs with the best
    allp = prn.compare(df, score=models, adjust="none", **kw)
    rows = allp[(allp.model_a == top) | (allp.model_b == top)].copy()
    rows["other"] = np.where(rows.model_a == top, rows.model_b, rows.model_a)
    rows = rows.set_index("other").loc[best.model_b]
    np.testing.assert_allclose(best.p_value, rows.p_value, rtol=1e-12)
    np.testing.assert_allclose(best.p_adjusted, _holm(rows.p_value), rtol=1e-12)
    np.testing.assert_array_equal(best.not_worse, _holm(rows.p_value) >= 0.05)
    assert best.attrs["not_worse"] == sorted(best.model_b[best.not_worse])
    assert "holm" in best.attrs["summary"] and top in best.attrs["summary"]
    # b and c are close, a and d clearly worse
    assert set(best.attrs["not_worse"]) <= {"b", "c"} and "d" not in best.attrs["not_worse"]


def test_baseline_best_with_folds_decides_on_the_fold_means():
    df = _four_models().assign(f=lambda d: np.arange(len(d)) % 3)
    res = prn.compare(
        df, score=list("abcd"), label="y", fold="f", baseline="best", n_boot=100, seed=0
    )
    means = res[res.fold.astype(str) == "mean"]
    assert res.attrs["not_worse"] == sorted(means.model_b[means.not_worse])
    cv = prn.auc(df, score=list("abcd"), label="y", fold="f")
    cv = cv[cv.fold.astype(str) == "mean"].set_index("model").auc
    assert res.attrs["best"] == cv.idxmax()


def test_baseline_best_errors():
    df = _four_models()
    with pytest.raises(ValueError, match="venkatraman"):
        prn.compare(
            df, score=list("ab"), label="y", curve="roc", test="venkatraman", baseline="best"
        )
