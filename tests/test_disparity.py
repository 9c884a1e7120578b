"""disparity(): subgroup areas and gaps with paired bootstrap intervals.

References: scikit-learn (``average_precision_score``, ``roc_auc_score``) and the slow
references of ``tests/naive.py`` on each group's rows; fairlearn's ``MetricFrame`` as
a peer for the per-group values and its summaries; identities of the design (an exact
copy of a model gets identical intervals, one intersected column equals several).
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn
from prroc_numba._resampling.subgroup_draws import subgroup_replicates
from prroc_numba._resampling.subgroup_options import SubgroupOptions
from prroc_numba.comparison import adjust_pvalues
from tests import naive


def _frame(n=1500, seed=0, prevalence=(0.2, 0.2, 0.2)):
    """Three groups ``a``, ``b``, ``c`` (with given prevalences), two sexes, two models
    and an exact copy of the first."""
    rng = np.random.default_rng(seed)
    g = rng.choice(list("abc"), n)
    prev = np.select([g == "a", g == "b"], prevalence[:2], prevalence[2])
    y = (rng.random(n) < prev).astype(int)
    shift = np.select([g == "a", g == "b"], [1.5, 1.0], 0.6)
    m1 = y * shift + rng.normal(size=n)
    return pd.DataFrame(
        {
            "y": y,
            "m1": m1,
            "m2": 0.8 * y + rng.normal(size=n),
            "copy": m1,
            "g": g,
            "sex": rng.choice(["F", "M"], n),
            "site": rng.choice(["s1", "s2"], n),
        }
    )


def _reference_area(y, s, method):
    if method == "ap":
        return average_precision_score(y, s)
    if method == "roc":
        return roc_auc_score(y, s)
    _, tp, fp = naive.sweep(s, y, 1 - y)
    if method == "dg":
        return naive.dg_area(tp, fp)
    return naive.pr_integral_numeric(tp, fp, steps=4000)


@pytest.mark.parametrize("method", ["dg", "integral", "ap", "roc"])
def test_group_areas_equal_the_reference_on_each_groups_rows(method):
    df = _frame(600)
    curve, m = ("roc", "trapezoid") if method == "roc" else ("pr", method)
    res = prn.disparity(
        df,
        score=["m1", "m2"],
        label="y",
        group="g",
        by="site",
        curve=curve,
        method=m,
        n_boot=50,
        seed=0,
    )
    assert len(res) == 2 * 2 * 3
    tol = 1e-6 if method == "integral" else 1e-10
    for row in res.itertuples():
        rows = df[(df.g == row.g) & (df.site == row.site)]
        want = _reference_area(rows.y.to_numpy(), rows[row.model].to_numpy(), method)
        assert row.estimate == pytest.approx(want, abs=tol)
        assert row.n_pos == rows.y.sum() and row.n_neg == (1 - rows.y).sum()
        assert row.prevalence == pytest.approx(rows.y.mean())
        whole = df[df.site == row.site]
        overall = _reference_area(whole.y.to_numpy(), whole[row.model].to_numpy(), method)
        assert row.difference == pytest.approx(row.estimate - overall, abs=tol)
        assert row.ratio == pytest.approx(row.estimate / overall, rel=1e-6)
        assert row.ci_low <= row.estimate <= row.ci_high
        assert row.difference_low <= row.difference <= row.difference_high


def test_columns_follow_the_contract():
    df = _frame(400)
    res = prn.disparity(df, score=["m1", "m2"], label="y", group="g", n_boot=20, seed=0)
    assert list(res.columns) == [
        "model", "g", "curve", "method", "interval", "resampling", "n_boot", "n_pos",
        "n_neg", "prevalence", "estimate", "ci_low", "ci_high", "reference", "difference",
        "difference_low", "difference_high", "ratio", "ratio_low", "ratio_high", "p_value",
        "p_adjusted", "n_degenerate",
    ]  # fmt: skip
    assert (res.resampling == "stratified by group and class").all()
    assert (res.reference == "overall").all()
    for _, fam in res.groupby("model"):
        np.testing.assert_allclose(fam.p_adjusted, adjust_pvalues(fam.p_value, "holm"))


def test_between_groups_and_to_overall_are_the_extremes():
    df = _frame(900, seed=1)
    kw = {"score": ["m1", "m2"], "label": "y", "group": "g", "n_boot": 100, "seed": 4}
    per = prn.disparity(df, **kw)
    btw = prn.disparity(df, **kw, reference="between_groups")
    to = prn.disparity(df, **kw, reference="to_overall")
    assert len(btw) == len(to) == 2
    for model in ("m1", "m2"):
        rows = per[per.model == model]
        b = btw[btw.model == model].iloc[0]
        lo, hi = rows.estimate.idxmin(), rows.estimate.idxmax()
        assert b.difference == pytest.approx(rows.estimate.max() - rows.estimate.min())
        assert b.ratio == pytest.approx(rows.estimate.min() / rows.estimate.max())
        assert b.g == rows.g[lo] and b.versus == rows.g[hi]
        assert b.estimate == rows.estimate[lo]
        assert b.difference_low <= b.difference <= b.difference_high
        t = to[to.model == model].iloc[0]
        far = rows.difference.abs().idxmax()
        assert t.difference == pytest.approx(rows.difference.abs().max())
        assert t.g == rows.g[far] and t.versus == "overall"


def test_reference_group():
    df = _frame(900, seed=2)
    res = prn.disparity(df, score="m1", label="y", group="g", reference="c", n_boot=100, seed=0)
    ref = res[res.g == "c"].iloc[0]
    assert ref.difference == 0 and np.isnan(ref.p_value)
    for row in res[res.g != "c"].itertuples():
        assert row.difference == pytest.approx(row.estimate - ref.estimate)
    # the reference row does not count in the adjustment's family
    others = res[res.g != "c"]
    np.testing.assert_allclose(others.p_adjusted, adjust_pvalues(others.p_value))
    with pytest.raises(ValueError, match="neither 'overall'"):
        prn.disparity(df, score="m1", label="y", group="g", reference="zz", n_boot=20)


@pytest.mark.parametrize("stratified", [True, False])
def test_an_exact_copy_gets_identical_intervals(stratified):
    df = _frame(900, seed=3)
    res = prn.disparity(
        df,
        score=["m1", "copy", "m2"],
        label="y",
        group="g",
        n_boot=200,
        seed=1,
        stratified=stratified,
        baseline="m1",
    )
    a, b = res[res.model == "m1"].reset_index(drop=True), res[res.model == "copy"]
    values = [
        "estimate",
        "ci_low",
        "ci_high",
        "difference",
        "difference_low",
        "difference_high",
        "ratio_low",
        "ratio_high",
        "p_value",
    ]
    pd.testing.assert_frame_equal(a[values], b[values].reset_index(drop=True))
    assert (b.difference_vs_baseline == 0).all() and (b.p_value_vs_baseline == 1).all()
    assert (b.difference_vs_baseline_low == 0).all() and (b.difference_vs_baseline_high == 0).all()
    assert a.difference_vs_baseline.isna().all()
    m2 = res[res.model == "m2"].reset_index(drop=True)
    np.testing.assert_allclose(m2.difference_vs_baseline, m2.difference - a.difference)
    ok = m2.difference_vs_baseline_low <= m2.difference_vs_baseline
    assert (ok & (m2.difference_vs_baseline <= m2.difference_vs_baseline_high)).all()


def test_intersected_columns_equal_one_combined_column():
    df = _frame(1200, seed=4)
    df["g_sex"] = df.g + "_" + df.sex
    kw = {"score": ["m1", "m2"], "label": "y", "n_boot": 100, "seed": 2}
    several = prn.disparity(df, group=["g", "sex"], **kw)
    one = prn.disparity(df, group="g_sex", **kw)
    assert list(several.g + "_" + several.sex) == list(one.g_sex)
    cols = several.columns.drop(["g", "sex"])
    pd.testing.assert_frame_equal(several[cols], one[one.columns.drop("g_sex")])
    inter = prn.disparity(df, group=["g", "sex"], reference=("a", "F"), **kw)
    assert inter.reference.iloc[0] == "a, F"


def test_fairlearn_agrees_on_groups_and_summaries():
    fl = pytest.importorskip("fairlearn.metrics")
    df = _frame(1500, seed=5)
    mf = fl.MetricFrame(
        metrics=average_precision_score, y_true=df.y, y_pred=df.m1, sensitive_features=df.g
    )
    kw = {"score": "m1", "label": "y", "group": "g", "method": "ap", "n_boot": 50, "seed": 0}
    ours = prn.disparity(df, **kw)
    np.testing.assert_allclose(ours.estimate, mf.by_group.to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(ours.difference, mf.by_group.to_numpy() - mf.overall, rtol=1e-12)
    btw = prn.disparity(df, **kw, reference="between_groups").iloc[0]
    assert btw.difference == pytest.approx(mf.difference(), rel=1e-12)
    assert btw.ratio == pytest.approx(mf.ratio(), rel=1e-12)
    to = prn.disparity(df, **kw, reference="to_overall").iloc[0]
    assert to.difference == pytest.approx(mf.difference(method="to_overall"), rel=1e-12)
    assert to.ratio == pytest.approx(mf.ratio(method="to_overall"), rel=1e-12)


def test_group_areas_and_overall_come_from_one_draw():
    """The overall curve's replicates are the bootstrap's own (the same seed, the
    Poisson counts keyed by input row), and the groups read the same counts."""
    df = _frame(700, seed=6)
    o = SubgroupOptions.check(
        df,
        score=["m1", "m2"],
        label="y",
        group="g",
        by=None,
        weight=None,
        curve="pr",
        method=None,
        normalize=False,
        reference="overall",
        n_boot=60,
        level=0.95,
        interval="percentile",
        stratified=False,
        seed=3,
        adjust="holm",
        baseline=None,
        poisson=True,
        design="poisson",
        cluster=None,
    )
    runs = subgroup_replicates(df, o)
    boot = {"score": ["m1", "m2"], "label": "y", "n_boot": 60, "seed": 3}
    boot |= {"resampling": "poisson", "stratified": False, "return_replicates": True}
    _, reps = prn.bootstrap(df, **boot)
    np.testing.assert_array_equal(runs.reps[0, 0].ravel(), reps.estimate.to_numpy())
    # each group's replicates: the bootstrap of that group's rows with the same counts
    _, by_group = prn.bootstrap(df, by="g", **boot)
    np.testing.assert_array_equal(runs.reps[0, 1:].ravel(), by_group.estimate.to_numpy())


def test_thread_count_does_not_change_the_numbers():
    df = _frame(800, seed=7)
    kw = {"score": ["m1", "m2"], "label": "y", "group": "g", "n_boot": 100, "seed": 5}
    ref = prn.disparity(df, **kw, stratified=False)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = prn.disparity(df, **kw, stratified=False)
    finally:
        numba.set_num_threads(old)
    pd.testing.assert_frame_equal(ref, one)


def test_stratified_false_counts_groups_left_without_positives():
    df = _frame(400, seed=8)
    thin = pd.DataFrame({"y": [1, 0, 0], "m1": [2.0, 0.1, -0.3], "g": "z"})
    df = pd.concat([df, thin], ignore_index=True)
    with pytest.warns(prn.PrevalenceWarning):
        res = prn.disparity(
            df, score="m1", label="y", group="g", n_boot=200, seed=0, stratified=False
        )
    z = res[res.g == "z"].iloc[0]
    assert z.resampling == "unstratified" and z.n_degenerate > 20
    assert (res[res.g != "z"].n_degenerate == 0).all()
    strat = prn.disparity(df, score="m1", label="y", group="g", n_boot=50, seed=0, curve="roc")
    assert (strat.n_degenerate == 0).all()


def test_a_group_without_positives_is_nan_and_named():
    df = _frame(300, seed=9)
    df.loc[df.g == "b", "y"] = 0
    with pytest.warns(prn.UndefinedMetricWarning, match="g='b'"):
        res = prn.disparity(df, score="m1", label="y", group="g", n_boot=20, seed=0, curve="roc")
    b = res[res.g == "b"].iloc[0]
    assert np.isnan(b.estimate) and np.isnan(b.difference) and np.isnan(b.p_value)
    assert res[res.g != "b"].estimate.notna().all()


def test_prevalence_warning_names_both_ways_out():
    df = _frame(1500, seed=10, prevalence=(0.05, 0.3, 0.2))
    with pytest.warns(prn.PrevalenceWarning, match=r"normalize=True.*curve='roc'"):
        prn.disparity(df, score="m1", label="y", group="g", n_boot=20, seed=0)
    norm = prn.disparity(df, score="m1", label="y", group="g", n_boot=20, seed=0, normalize=True)
    prn.disparity(df, score="m1", label="y", group="g", n_boot=20, seed=0, curve="roc")
    for row in norm.itertuples():
        rows = df[df.g == row.g]
        want = prn.auc(rows, score="m1", label="y", normalize=True).auc.iloc[0]
        assert row.estimate == pytest.approx(want, rel=1e-12)
    assert (norm.method == "dg, normalized").all()


def test_bad_input_errors():
    df = _frame(200, seed=11)
    kw = {"score": "m1", "label": "y", "n_boot": 20}
    bad = df.assign(g=df.g.where(df.index > 3))
    with pytest.raises(ValueError, match=r"'g' has 4 missing values.*fillna"):
        prn.disparity(bad, group="g", **kw)
    with pytest.raises(ValueError, match="one group only"):
        prn.disparity(df.assign(g="a"), group="g", **kw)
    with pytest.raises(ValueError, match="group="):
        prn.disparity(df, group=3, **kw)
    with pytest.raises(ValueError, match="baseline='zz'"):
        prn.disparity(df, score=["m1", "m2"], label="y", group="g", baseline="zz", n_boot=20)
    with pytest.raises(ValueError, match="interval="):
        prn.disparity(df, group="g", interval="bca", **kw)
    with pytest.raises(ValueError, match="class counts fixed"):
        prn.disparity(df, group="g", normalize=True, stratified=False, **kw)
    with pytest.raises(ValueError, match="row_id="):
        prn.disparity(df, group="g", row_id="id", **kw)
    with pytest.raises(TypeError, match="data="):
        prn.disparity(None, group="g", **kw)


def test_cluster_resampling_runs_and_is_labelled():
    df = _frame(600, seed=12)
    df["patient"] = np.arange(len(df)) // 3
    res = prn.disparity(
        df, score="m1", label="y", group="g", cluster="patient", stratified=False, n_boot=50, seed=0
    )
    assert (res.resampling == "unstratified cluster").all()
    one = prn.disparity(
        df.assign(patient=np.arange(len(df))),
        score="m1",
        label="y",
        group="g",
        cluster="patient",
        stratified=False,
        n_boot=50,
        seed=0,
    )
    np.testing.assert_allclose(one.estimate, res.estimate)


@pytest.mark.parametrize("stratified", [True, False])
def test_the_pooled_walk_and_the_block_walk_agree(stratified):
    """Unit weights take the one walk per overall curve (which gives its groups' curves
    too); no weights the eight-replicate walks of every curve: the same numbers."""
    df = _frame(700, seed=13).assign(w=1.0)
    kw = {"score": ["m1", "m2"], "label": "y", "group": "g", "n_boot": 64, "seed": 2}
    blocks = prn.disparity(df, **kw, stratified=stratified)
    pooled = prn.disparity(df, **kw, stratified=stratified, weight="w")
    pd.testing.assert_frame_equal(blocks, pooled, check_dtype=False)


def test_weighted_group_areas_equal_scikit_learn():
    df = _frame(600, seed=14)
    df["w"] = np.random.default_rng(0).choice([0.5, 1.0, 2.0], len(df))
    res = prn.disparity(
        df, score="m1", label="y", group="g", weight="w", method="ap", n_boot=30, seed=0
    )
    for row in res.itertuples():
        rows = df[df.g == row.g]
        want = average_precision_score(rows.y, rows.m1, sample_weight=rows.w)
        assert row.estimate == pytest.approx(want, rel=1e-12)
        assert row.n_pos == pytest.approx((rows.w * rows.y).sum())


@pytest.mark.filterwarnings("ignore::prroc_numba.PrevalenceWarning")
def test_a_group_absent_from_a_stratum_has_no_row_there():
    df = _frame(900, seed=15)
    df = df[~((df.site == "s2") & (df.g == "c"))]
    res = prn.disparity(df, score="m1", label="y", group="g", by="site", n_boot=50, seed=0)
    assert list(zip(res.site, res.g)) == [
        ("s1", "a"),
        ("s1", "b"),
        ("s1", "c"),
        ("s2", "a"),
        ("s2", "b"),
    ]
    btw = prn.disparity(
        df, score="m1", label="y", group="g", by="site", n_boot=50, seed=0,
        reference="between_groups",
    )  # fmt: skip
    for site, rows in res.groupby("site"):
        b = btw[btw.site == site].iloc[0]
        assert b.difference == pytest.approx(rows.estimate.max() - rows.estimate.min())
