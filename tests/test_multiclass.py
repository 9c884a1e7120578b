"""Multiclass (one-vs-rest, one-vs-one) and multilabel input against scikit-learn."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import prroc_numba as prn
from prroc_numba._checks import kernel_seed
from prroc_numba._core import multiclass as _multiclass
from prroc_numba._core.packing import pack
from prroc_numba._resampling.plan import Plan
from tests.kernel_probes import _paired_counts_one

CLASSES = ["cat", "dog", "eel", "fox"]
TOL = 1e-12


def _data(n=400, K=4, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    y = np.asarray(CLASSES[:K], dtype=object)[rng.integers(0, K, n)]
    P = rng.random((n, K)) + 0.6 * (y[:, None] == np.asarray(CLASSES[:K])[None, :])
    if ties:
        P = np.round(P, 1)  # many tied scores
    P = P / P.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n).astype(float)
    df = pd.DataFrame(P, columns=CLASSES[:K])
    df["y"] = y
    df["w"] = w
    return df


@pytest.fixture(scope="module")
def df():
    return _data()


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_ovr_roc_matches_sklearn(df, average):
    for w in (None, "w"):
        got = prn.auc(
            df, score=CLASSES, label="y", weight=w, curve="roc", multiclass="ovr", average=average
        )
        ref = skm.roc_auc_score(
            df.y,
            df[CLASSES],
            multi_class="ovr",
            average=average,
            labels=CLASSES,
            sample_weight=None if w is None else df[w],
        )
        assert list(got.columns) == ["curve", "method", "auc"] and len(got) == 1
        assert abs(got.auc.iloc[0] - ref) < TOL


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_ovo_roc_matches_sklearn_hand_till(df, average):
    got = prn.auc(df, score=CLASSES, label="y", curve="roc", multiclass="ovo", average=average)
    ref = skm.roc_auc_score(df.y, df[CLASSES], multi_class="ovo", average=average, labels=CLASSES)
    assert abs(got.auc.iloc[0] - ref) < TOL


def test_ovo_pairs_are_hand_till_pairs(df):
    got = prn.auc(df, score=CLASSES, label="y", curve="roc", multiclass="ovo")
    assert list(got.columns) == ["class_a", "class_b", "curve", "method", "auc"]
    assert len(got) == 6
    for _, r in got.iterrows():
        a, b = r.class_a, r.class_b
        sub = df[df.y.isin([a, b])]
        ref = 0.5 * (skm.roc_auc_score(sub.y == a, sub[a]) + skm.roc_auc_score(sub.y == b, sub[b]))
        assert abs(r.auc - ref) < TOL


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_average_precision_matches_sklearn_binarised(df, average):
    Y = label_binarize(df.y, classes=CLASSES)
    for w in (None, "w"):
        got = prn.auc(
            df, score=CLASSES, label="y", weight=w, method="ap", multiclass="ovr", average=average
        )
        ref = skm.average_precision_score(
            Y, df[CLASSES].to_numpy(), average=average, sample_weight=None if w is None else df[w]
        )
        np.testing.assert_allclose(got.auc.to_numpy(), np.atleast_1d(ref), rtol=0, atol=TOL)
        if average is None:
            assert got["class"].tolist() == CLASSES
        else:
            assert list(got.columns) == ["curve", "method", "auc"]


def test_roc_micro_matches_sklearn(df):
    Y = label_binarize(df.y, classes=CLASSES)
    got = prn.auc(
        df, score=CLASSES, label="y", weight="w", curve="roc", multiclass="ovr", average="micro"
    )
    ref = skm.roc_auc_score(Y, df[CLASSES].to_numpy(), average="micro", sample_weight=df.w)
    assert abs(got.auc.iloc[0] - ref) < TOL


def test_per_class_curves_match_sklearn(df):
    pr = prn.pr_curve(df, score=CLASSES, label="y", weight="w", multiclass="ovr")
    roc = prn.roc_curve(df, score=CLASSES, label="y", weight="w", multiclass="ovr")
    assert pr.columns[0] == "class" and roc.columns[0] == "class"
    for c in CLASSES:
        p, r, t = skm.precision_recall_curve(df.y == c, df[c], sample_weight=df.w)
        mine = pr[pr["class"] == c]
        np.testing.assert_allclose(mine.precision.to_numpy(), p[::-1], atol=TOL)
        np.testing.assert_allclose(mine.recall.to_numpy(), r[::-1], atol=TOL)
        np.testing.assert_array_equal(mine.threshold.to_numpy()[1:], t[::-1])
        fpr, tpr, _thr = skm.roc_curve(
            df.y == c, df[c], sample_weight=df.w, drop_intermediate=False
        )
        mine = roc[roc["class"] == c]
        np.testing.assert_allclose(mine.fpr.to_numpy(), fpr, atol=TOL)
        np.testing.assert_allclose(mine.tpr.to_numpy(), tpr, atol=TOL)


def test_micro_curve_is_the_pooled_problem(df):
    Y = label_binarize(df.y, classes=CLASSES)
    got = prn.pr_curve(df, score=CLASSES, label="y", weight="w", multiclass="ovr", average="micro")
    assert "class" not in got.columns
    p, r, _ = skm.precision_recall_curve(
        Y.ravel(), df[CLASSES].to_numpy().ravel(), sample_weight=np.repeat(df.w.to_numpy(), 4)
    )
    np.testing.assert_allclose(got.precision.to_numpy(), p[::-1], atol=TOL)
    np.testing.assert_allclose(got.recall.to_numpy(), r[::-1], atol=TOL)
    conf = prn.confusion(df, score=CLASSES, label="y", multiclass="ovr", average="micro")
    assert conf.tp.iloc[-1] == len(df) and conf.fp.iloc[-1] == 3 * len(df)


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_multilabel_matches_sklearn_indicator(average):
    rng = np.random.default_rng(3)
    n, K = 300, 3
    Y = (rng.random((n, K)) < [0.2, 0.5, 0.7]).astype(int)
    S = np.round(rng.random((n, K)) + 0.4 * Y, 1)
    w = rng.integers(1, 3, n).astype(float)
    df = pd.DataFrame(S, columns=["s0", "s1", "s2"]).assign(l0=Y[:, 0], l1=Y[:, 1], l2=Y[:, 2], w=w)
    got = prn.auc(
        df,
        score=["s0", "s1", "s2"],
        label=["l0", "l1", "l2"],
        weight="w",
        method="ap",
        average=average,
    )
    ref = skm.average_precision_score(Y, S, average=average, sample_weight=w)
    np.testing.assert_allclose(got.auc.to_numpy(), np.atleast_1d(ref), atol=TOL)
    if average is None:
        assert got["class"].tolist() == ["l0", "l1", "l2"]
    got = prn.auc(score=S, label=Y, curve="roc", average=average)
    ref = skm.roc_auc_score(Y, S, average=average)
    np.testing.assert_allclose(got.auc.to_numpy(), np.atleast_1d(ref), atol=TOL)


def test_groups_are_separate_problems(df):
    d = df.assign(fold=np.arange(len(df)) % 3)
    got = prn.auc(
        d, score=CLASSES, label="y", by="fold", method="ap", multiclass="ovr", average="macro"
    )
    assert got.fold.tolist() == [0, 1, 2]
    for f in range(3):
        sub = d[d.fold == f]
        ref = skm.average_precision_score(
            label_binarize(sub.y, classes=CLASSES), sub[CLASSES].to_numpy(), average="macro"
        )
        assert abs(got.auc.iloc[f] - ref) < TOL


def test_absent_class_is_nan_and_named(df):
    d = df.assign(fold=np.where(np.arange(len(df)) < 200, "a", "b"))
    d = d[~((d.fold == "b") & (d.y == "eel"))]
    with pytest.warns(prn.UndefinedMetricWarning, match=r"fold='b', class='eel'"):
        per = prn.auc(d, score=CLASSES, label="y", by="fold", multiclass="ovr")
    bad = per[per.auc.isna()]
    assert bad[["fold", "class"]].values.tolist() == [["b", "eel"]]
    with pytest.warns(prn.UndefinedMetricWarning, match="eel"):
        mac = prn.auc(d, score=CLASSES, label="y", by="fold", multiclass="ovr", average="macro")
    assert np.isfinite(mac.auc.iloc[0]) and np.isnan(mac.auc.iloc[1])
    # weighted: the absent class has weight 0, as scikit-learn
    with pytest.warns(prn.UndefinedMetricWarning):
        wtd = prn.auc(
            d,
            score=CLASSES,
            label="y",
            by="fold",
            multiclass="ovr",
            average="weighted",
            method="ap",
        )
    sub = d[d.fold == "b"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = skm.average_precision_score(
            label_binarize(sub.y, classes=CLASSES), sub[CLASSES].to_numpy(), average="weighted"
        )
    assert abs(wtd.auc.iloc[1] - ref) < TOL


def test_classes_mapping_and_errors(df):
    # columns named otherwise: classes= maps them, in column order
    d = df.rename(columns=dict(zip(CLASSES, ["p0", "p1", "p2", "p3"])))
    rev = ["p3", "p2", "p1", "p0"]
    got = prn.auc(d, score=rev, label="y", multiclass="ovr", classes=CLASSES[::-1])
    ref = prn.auc(df, score=CLASSES, label="y", multiclass="ovr")
    assert got["class"].tolist() == CLASSES[::-1]
    np.testing.assert_array_equal(got.auc.to_numpy(), ref.auc.to_numpy()[::-1])
    # default: sorted label values in column order
    dflt = prn.auc(d, score=["p0", "p1", "p2", "p3"], label="y", multiclass="ovr")
    np.testing.assert_array_equal(dflt.auc.to_numpy(), ref.auc.to_numpy())
    # a 2-D array with integer labels: the columns are the classes 0..K-1
    yi = pd.Series(df.y).map({c: i for i, c in enumerate(CLASSES)}).to_numpy()
    arr = prn.auc(score=df[CLASSES].to_numpy(), label=yi, multiclass="ovr")
    np.testing.assert_array_equal(arr.auc.to_numpy(), ref.auc.to_numpy())
    assert arr["class"].tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="classes= lists 3 classes but score has 4"):
        prn.auc(d, score=rev, label="y", multiclass="ovr", classes=CLASSES[:3])
    with pytest.raises(ValueError, match=r"values \{'cat'\} that are not among the classes"):
        prn.auc(d, score=rev, label="y", multiclass="ovr", classes=["x", "dog", "eel", "fox"])
    with pytest.raises(ValueError, match="label has 4 classes .* but score has 3 columns"):
        prn.auc(d, score=rev[:3], label="y", multiclass="ovr")
    with pytest.raises(ValueError, match="lists a class twice"):
        prn.auc(d, score=rev, label="y", multiclass="ovr", classes=["cat"] * 4)


def test_argument_errors(df):
    with pytest.raises(ValueError, match="multiclass='bad' is not known"):
        prn.auc(df, score=CLASSES, label="y", multiclass="bad")
    with pytest.raises(ValueError, match="average='mean' is not known"):
        prn.auc(df, score=CLASSES, label="y", multiclass="ovr", average="mean")
    with pytest.raises(ValueError, match="pass curve='roc'"):
        prn.auc(df, score=CLASSES, label="y", multiclass="ovo")
    with pytest.raises(ValueError, match="average= applies to multiclass input"):
        prn.auc(df, score="cat", label="w", average="macro")
    with pytest.raises(ValueError, match="would average curves|no single curve"):
        prn.pr_curve(df, score=CLASSES, label="y", multiclass="ovr", average="macro")
    with pytest.raises(ValueError, match="no single curve"):
        prn.roc_curve(df, score=CLASSES, label="y", multiclass="ovo")
    with pytest.raises(ValueError, match="bca"):
        prn.bootstrap(df, score=CLASSES, label="y", multiclass="ovr", interval="bca")
    with pytest.raises(ValueError, match="average='macro', 'weighted' or 'micro'"):
        prn.compare(df, score=CLASSES, label="y", multiclass="ovr")
    with pytest.raises(ValueError, match="by='model'"):
        prn.compare(df, score=CLASSES, label="y", multiclass="ovr", average="macro")
    with pytest.raises(ValueError, match="pos_label"):
        prn.auc(df, score=CLASSES, label="y", multiclass="ovr", pos_label="cat")
    bad = df.copy()
    bad.loc[3, "dog"] = np.nan
    with pytest.raises(ValueError, match="NaN or infinite"):
        prn.auc(bad, score=CLASSES, label="y", multiclass="ovr")


def test_input_not_modified(df):
    before = df.copy()
    prn.bootstrap(
        df,
        score=CLASSES,
        label="y",
        weight="w",
        multiclass="ovr",
        average="micro",
        n_boot=20,
        seed=0,
    )
    pd.testing.assert_frame_equal(df, before)


# ------------------------------------------------------------------ resampling


def _row_counts(batch, stratified, seed, b):
    """The multiplicity of every original row in replicate ``b`` (slow path)."""
    plan = Plan(batch, stratified)
    cnt = _paired_counts_one(plan.strata_offsets, plan.n_strata, 0, kernel_seed(seed), b)
    return cnt[plan.row_slot]


@pytest.mark.parametrize("stratified", [True, False])
def test_bootstrap_replicates_equal_a_slow_loop(stratified):
    d = _data(n=120, K=3, seed=5)
    cls = CLASSES[:3]
    kw = {
        "score": cls,
        "label": "y",
        "multiclass": "ovr",
        "n_boot": 6,
        "seed": 11,
        "stratified": stratified,
        "return_replicates": True,
    }
    res_m, reps_m = prn.bootstrap(d, average="macro", method="ap", **kw)
    _res_c, reps_c = prn.bootstrap(d, method="ap", **kw)
    _res_u, reps_u = prn.bootstrap(d, average="micro", curve="roc", **kw)
    # the estimate is the point estimate
    ref = prn.auc(d, score=cls, label="y", multiclass="ovr", average="macro", method="ap")
    assert res_m.estimate.iloc[0] == ref.auc.iloc[0]
    batch = pack(d, score=cls, label="y", multiclass="ovr")
    Y = label_binarize(d.y, classes=cls)
    S = d[cls].to_numpy()
    for b in range(6):
        w = _row_counts(batch, stratified, 11, b)
        if stratified:  # class counts fixed
            assert np.array_equal(Y.T @ w, Y.sum(axis=0))
        per = [skm.average_precision_score(Y[:, k], S[:, k], sample_weight=w) for k in range(3)]
        got = reps_c[reps_c.replicate == b].estimate.to_numpy()
        np.testing.assert_allclose(got, per, atol=TOL)  # the same rows for every class
        assert abs(reps_m[reps_m.replicate == b].estimate.iloc[0] - np.mean(per)) < TOL
        micro = skm.roc_auc_score(Y.ravel(), S.ravel(), sample_weight=np.repeat(w, 3))
        assert abs(reps_u[reps_u.replicate == b].estimate.iloc[0] - micro) < TOL


def test_bootstrap_intervals_are_sane():
    d = _data(n=600, K=3, seed=2, ties=False)
    cls = CLASSES[:3]
    res = prn.bootstrap(
        d, score=cls, label="y", multiclass="ovr", average="macro", n_boot=300, seed=0
    )
    r = res.iloc[0]
    assert r.ci_low < r.estimate < r.ci_high and 0.005 < r.se < 0.05
    ovo = prn.bootstrap(d, score=cls, label="y", multiclass="ovo", curve="roc", n_boot=100, seed=0)
    assert ovo[["class_a", "class_b"]].values.tolist() == [
        ["cat", "dog"],
        ["cat", "eel"],
        ["dog", "eel"],
    ]
    assert (ovo.ci_low < ovo.estimate).all() and (ovo.estimate < ovo.ci_high).all()


def test_compare_models_paired():
    d = _data(n=300, K=3, seed=4)
    cls = CLASSES[:3]
    rng = np.random.default_rng(0)
    weak = d.copy()
    weak[cls] = rng.random((len(d), 3))
    long = pd.concat([d.assign(model="good"), weak.assign(model="weak")], ignore_index=True)
    res = prn.compare(
        long,
        score=cls,
        label="y",
        by="model",
        multiclass="ovr",
        average="macro",
        n_boot=200,
        seed=0,
    )
    ests = prn.auc(long, score=cls, label="y", by="model", multiclass="ovr", average="macro")
    assert res[["model_a", "model_b"]].values.tolist() == [["good", "weak"]]
    assert res.estimate_a.iloc[0] == ests.auc.iloc[0]
    assert res.estimate_b.iloc[0] == ests.auc.iloc[1]
    assert res.p_value.iloc[0] < 0.05 and res.ci_low.iloc[0] > 0
    # paired: a model against itself differs by exactly 0 in every replicate
    same = pd.concat([d.assign(model="a"), d.assign(model="b")], ignore_index=True)
    res = prn.compare(
        same, score=cls, label="y", by="model", multiclass="ovr", average="micro", n_boot=50, seed=0
    )
    assert res["diff"].iloc[0] == 0 and res.ci_low.iloc[0] == 0 and res.ci_high.iloc[0] == 0
    # models must hold the same rows
    with pytest.raises(ValueError, match="same rows in the same order"):
        prn.compare(
            long.iloc[:-1],
            score=cls,
            label="y",
            by="model",
            multiclass="ovr",
            average="macro",
            n_boot=50,
        )


def test_bootstrap_curve_per_class():
    d = _data(n=200, K=3, seed=6)
    cls = CLASSES[:3]
    bands = prn.bootstrap_curve(
        d, score=cls, label="y", multiclass="ovr", grid=11, n_boot=50, seed=0
    )
    assert bands["class"].unique().tolist() == cls and len(bands) == 33
    assert (bands.ci_low <= bands.ci_high).all()


def test_rows_reduce_nan_rules():
    rows = _multiclass.Rows(
        np.array([0, 1]),
        np.zeros(1, np.int64),
        np.zeros(1, np.int64),
        3,
        np.array([0, 0, 0]),
        np.array([0.5, 0.5, 0.0]),
        pd.DataFrame(index=range(1)),
    )
    assert rows.reduce(np.array([0.2, 0.4, np.nan]))[0] == pytest.approx(0.3)
    assert np.isnan(rows.reduce(np.array([np.nan, 0.4, 0.1]))[0])


def test_multiclass_runs_on_the_cpu(df):
    batch = pack(df, score=CLASSES, label="y", multiclass="ovr")
    _multiclass.check_device(batch, "cpu")
    with pytest.raises(ValueError, match="run on the CPU for now"):
        _multiclass.check_device(batch, "cuda")


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_metrics_matches_auc(df, average):
    got = prn.metrics(
        df,
        score=CLASSES,
        label="y",
        weight="w",
        multiclass="ovr",
        average=average,
        metrics=("ap", "auc_roc", "auc_pr"),
    )
    for col, kw in (("ap", {"method": "ap"}), ("auc_roc", {"curve": "roc"}), ("auc_pr", {})):
        ref = prn.auc(
            df, score=CLASSES, label="y", weight="w", multiclass="ovr", average=average, **kw
        )
        np.testing.assert_allclose(got[col].to_numpy(), ref.auc.to_numpy(), atol=TOL)
    with pytest.raises(ValueError, match="metrics\\(\\) takes multiclass='ovr'"):
        prn.metrics(df, score=CLASSES, label="y", multiclass="ovo")


# ------------------------------------------- several models: score={"model": [columns]}


def _two_models(seed=5, n=300):
    base = _data(n=n, seed=seed)
    other = _data(n=n, seed=seed + 1)
    wide = pd.DataFrame({"y": base.y, "w": base.w})
    for c in CLASSES:
        wide[f"good_{c}"] = base[c]
        wide[f"rand_{c}"] = other[c]  # scores unrelated to base.y
    score = {m: [f"{m}_{c}" for c in CLASSES] for m in ("rand", "good")}
    return wide, score


def test_model_dict_gives_one_curve_set_per_model_like_scikit_learn():
    wide, score = _two_models()
    got = prn.auc(wide, score=score, label="y", weight="w", multiclass="ovr", method="ap")
    assert list(got.columns[:2]) == ["model", "class"]
    assert got.model.astype(str).tolist()[::4] == ["rand", "good"]  # the dict's order
    Y = label_binarize(wide.y, classes=CLASSES)
    for m, cols in score.items():
        ref = skm.average_precision_score(
            Y, wide[cols].to_numpy(), average=None, sample_weight=wide.w
        )
        mine = got[got.model == m].set_index("class").auc[CLASSES].to_numpy()
        np.testing.assert_allclose(mine, ref, rtol=0, atol=TOL)
    macro = prn.auc(wide, score=score, label="y", multiclass="ovr", average="macro", curve="roc")
    for m, cols in score.items():
        ref = skm.roc_auc_score(wide.y, wide[cols].to_numpy(), multi_class="ovr", labels=CLASSES)
        assert macro.set_index("model").auc[m] == pytest.approx(ref, abs=TOL)


def test_model_dict_equals_the_stacked_long_input_everywhere():
    wide, score = _two_models()
    stacked = pd.concat(
        [
            wide[cols].set_axis(CLASSES, axis=1).assign(y=wide.y, w=wide.w, model=m)
            for m, cols in score.items()
        ],
        ignore_index=True,
    )
    stacked["model"] = pd.Categorical(stacked.model, categories=list(score))  # dict order
    kw = dict(label="y", weight="w", multiclass="ovr")
    boot = dict(n_boot=40, seed=3, average="macro")
    calls = [
        (prn.pr_curve, {}),
        (prn.metrics, {"average": "weighted"}),
        (prn.compare, boot),  # compare pairs the stacked models too
    ]
    for f, extra in calls:
        a = f(wide, score=score, **kw, **extra)
        b = f(stacked, score=CLASSES, by="model", **kw, **extra)
        pd.testing.assert_frame_equal(a, b)


def test_model_dict_errors_name_the_fix():
    wide, score = _two_models()
    with pytest.raises(ValueError, match="multiclass='ovr'"):
        prn.auc(wide, score=score, label="y")
    with pytest.raises(ValueError, match="same number"):
        prn.auc(
            wide,
            score={"a": ["good_cat", "good_dog"], "b": score["rand"]},
            label="y",
            multiclass="ovr",
        )
    with pytest.raises(TypeError, match="list of its class"):
        prn.auc(wide, score={"a": "good_cat"}, label="y", multiclass="ovr")
    with pytest.raises(ValueError, match="already has one"):
        prn.auc(wide.assign(model=1), score=score, label="y", multiclass="ovr")
    with pytest.raises(ValueError, match="once per group"):
        prn.compare(
            wide.assign(site=np.arange(len(wide)) % 2),
            score=score,
            label="y",
            by="site",
            multiclass="ovr",
            average="macro",
            n_boot=20,
        )


def test_model_dict_bootstrap_is_paired_like_wide_input():
    wide, score = _two_models()
    kw = dict(label="y", multiclass="ovr", average="macro", n_boot=60, seed=2)
    # the same columns under two names: paired replicates give the same interval
    twin = prn.bootstrap(wide, score={"a": score["good"], "b": score["good"]}, **kw)
    assert twin.se[0] == twin.se[1] and twin.ci_low[0] == twin.ci_low[1]
    # point estimates are each model's own
    got = prn.bootstrap(wide, score=score, **kw).set_index("model")
    for m, cols in score.items():
        one = prn.auc(wide, score=cols, label="y", multiclass="ovr", average="macro")
        assert got.estimate[m] == pytest.approx(one.auc[0], abs=TOL)
