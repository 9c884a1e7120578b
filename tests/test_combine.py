"""compare(..., by=, combine=True): per pair, the differences pooled across data sets
(inverse variance and DerSimonian-Laird) equal the slow formulas and statsmodels."""

import math
import warnings

import naive
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn


def _datasets(seed, n_sets=6, spread=0.6):
    rng = np.random.default_rng(seed)
    frames = []
    for g in range(n_sets):
        n = int(rng.integers(150, 400))
        y = rng.random(n) < rng.uniform(0.15, 0.5)
        lift = rng.normal(0.4, spread)  # data sets disagree on how much a beats b
        frames.append(
            pd.DataFrame(
                {
                    "dataset": f"d{g}",
                    "y": y,
                    "a": (1.0 + lift) * y + rng.normal(size=n),
                    "b": 1.0 * y + rng.normal(size=n),
                    "c": 0.5 * y + rng.normal(size=n),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("test", ["bootstrap", "delong"])
@pytest.mark.parametrize("seed", [0, 1])
def test_pooled_rows_equal_the_slow_formulas(seed, test):
    df = _datasets(seed)
    kw = dict(label="y", by="dataset", curve="roc", test=test, combine=True)
    if test == "bootstrap":
        kw.update(n_boot=300, seed=seed)
    res = prn.compare(df, score=["a", "b", "c"], **kw)
    per = res[res.combined.isna()]
    pooled = res[res.combined.notna()]
    assert len(per) == 6 * 3 and len(pooled) == 2 * 3
    assert pooled.dataset.isna().all()
    for (a, b), grp in per.groupby(["model_a", "model_b"], sort=False):
        ref = naive.pooled_difference(grp["diff"].tolist(), grp["se"].tolist())
        fx = pooled[(pooled.model_a == a) & (pooled.model_b == b) & (pooled.combined == "fixed")]
        rd = pooled[(pooled.model_a == a) & (pooled.model_b == b) & (pooled.combined == "random")]
        assert fx["diff"].iloc[0] == pytest.approx(ref[0], rel=1e-12)
        assert fx["se"].iloc[0] == pytest.approx(ref[1], rel=1e-12)
        assert rd["diff"].iloc[0] == pytest.approx(ref[2], rel=1e-12)
        assert rd["se"].iloc[0] == pytest.approx(ref[3], rel=1e-12)
        assert fx.q.iloc[0] == pytest.approx(ref[4], rel=1e-12)
        assert rd.tau2.iloc[0] == pytest.approx(ref[5], rel=1e-12, abs=1e-15)
        z = 1.959963984540054
        assert rd.ci_low.iloc[0] == pytest.approx(ref[2] - z * ref[3], rel=1e-9)
        p = math.erfc(abs(ref[2] / ref[3]) / math.sqrt(2))
        assert rd.p_value.iloc[0] == pytest.approx(p, rel=1e-9, abs=1e-300)
        assert fx.n_groups.iloc[0] == 6
    # the per-data-set rows are compare's own (plus se)
    plain = prn.compare(df, score=["a", "b", "c"], **{**kw, "combine": False})
    pd.testing.assert_frame_equal(
        per.drop(columns=["se", "combined", "q", "tau2", "n_groups"]).reset_index(drop=True),
        plain.astype({"dataset": object}),
        check_dtype=False,
    )


def test_bootstrap_se_is_the_wald_tests_se():
    # compare's Wald p-value is erfc(|diff| / se / sqrt 2) with se the SD of the
    # replicate differences: the se column must reproduce it
    df = _datasets(3, n_sets=3)
    res = prn.compare(
        df, score=["a", "b"], label="y", by="dataset", n_boot=200, seed=1, combine=True
    )
    per = res[res.combined.isna()]
    p = [math.erfc(abs(d) / s / math.sqrt(2)) for d, s in zip(per["diff"], per["se"])]
    np.testing.assert_allclose(per.p_value, p, rtol=1e-10)


def test_pooled_matches_statsmodels_random_effects():
    meta = pytest.importorskip("statsmodels.stats.meta_analysis")
    df = _datasets(5, n_sets=8, spread=0.8)
    res = prn.compare(
        df, score=["a", "b"], label="y", by="dataset", curve="roc", test="delong", combine=True
    )
    per = res[res.combined.isna()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sm = meta.combine_effects(per["diff"].to_numpy(), per["se"].to_numpy() ** 2, method_re="dl")
    assert sm.tau2 > 0  # heterogeneous: statsmodels does not truncate tau2 at 0
    frame = sm.summary_frame()
    fx = res[res.combined == "fixed"].iloc[0]
    rd = res[res.combined == "random"].iloc[0]
    assert fx["diff"] == pytest.approx(frame.loc["fixed effect", "eff"], rel=1e-10)
    assert fx["se"] == pytest.approx(frame.loc["fixed effect", "sd_eff"], rel=1e-10)
    assert rd["diff"] == pytest.approx(frame.loc["random effect", "eff"], rel=1e-10)
    assert rd["se"] == pytest.approx(frame.loc["random effect", "sd_eff"], rel=1e-10)
    assert rd["ci_low"] == pytest.approx(frame.loc["random effect", "ci_low"], rel=1e-8)
    assert rd["tau2"] == pytest.approx(sm.tau2, rel=1e-10)


def test_combine_errors():
    df = _datasets(0, n_sets=2)
    with pytest.raises(ValueError, match="by="):
        prn.compare(df, score=["a", "b"], label="y", combine=True)
    with pytest.raises(ValueError, match="test='bootstrap' or 'delong'"):
        prn.compare(
            df,
            score=["a", "b"],
            label="y",
            by="dataset",
            curve="roc",
            test="venkatraman",
            combine=True,
        )
