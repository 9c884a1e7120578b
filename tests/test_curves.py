"""Curves and AUCs on random batches (heavy ties, weights) against scikit-learn and the
slow references in naive.py, and the invariances every correct sweep must have."""

from __future__ import annotations

import warnings

import naive
import numpy as np
import pandas as pd
import pytest
from conftest import random_batch
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
)
from sklearn.metrics import roc_curve as sk_roc_curve

import prroc_numba as prn

METHODS = [("pr", "ap"), ("pr", "dg"), ("pr", "integral"), ("pr", "trapezoid"), ("roc", None)]


def _groups(df):
    return [(g, part) for g, part in df.groupby("g", sort=True)]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [False, True])
def test_batch_equals_sklearn(seed, weights):
    rng = np.random.default_rng(seed)
    df = random_batch(rng, 40, 60, weights=weights)
    wcol = "w" if weights else None
    # keep only groups with both classes present (with mass) for the sklearn comparison
    mass = df.assign(m=df["w"] if weights else 1.0)
    ok = mass.groupby("g").apply(
        lambda p: (p.m * p.y).sum() > 0 and (p.m * (1 - p.y)).sum() > 0, include_groups=False
    )
    df = df[df["g"].isin(ok[ok].index)]
    roc = prn.roc_curve(df, score="s", label="y", by="g", weight=wcol)
    pr = prn.pr_curve(df, score="s", label="y", by="g", weight=wcol)
    a_roc = prn.auc(df, score="s", label="y", by="g", weight=wcol, curve="roc")
    a_ap = prn.auc(df, score="s", label="y", by="g", weight=wcol, curve="pr", method="ap")
    for i, (g, part) in enumerate(_groups(df)):
        w = part["w"].to_numpy() if weights else None
        y, s = part["y"].to_numpy(), part["s"].to_numpy()
        fpr, tpr, thr = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        mine = roc[roc["g"] == g]
        np.testing.assert_allclose(mine["fpr"], fpr, atol=1e-12, rtol=0)
        np.testing.assert_allclose(mine["tpr"], tpr, atol=1e-12, rtol=0)
        np.testing.assert_array_equal(mine["threshold"], thr)
        prec, rec, _ = precision_recall_curve(y, s, sample_weight=w)
        mine = pr[pr["g"] == g]
        # scikit-learn's points; the origin (0/0) holds the curve's flat start, not 1
        want = prec[::-1].copy()
        want[0] = want[1]
        np.testing.assert_allclose(mine["precision"], want, atol=1e-12, rtol=0)
        np.testing.assert_allclose(mine["recall"], rec[::-1], atol=1e-12, rtol=0)
        assert a_roc["auc"].iloc[i] == pytest.approx(
            roc_auc_score(y, s, sample_weight=w), abs=1e-12
        )
        assert a_ap["auc"].iloc[i] == pytest.approx(
            average_precision_score(y, s, sample_weight=w), abs=1e-12
        )


@pytest.mark.parametrize("seed", range(3))
def test_sweep_and_areas_equal_naive(seed):
    """confusion() = the definition; ROC AUC = Mann-Whitney over pairs; AP = step sum;
    integral = numeric integration of the count-interpolated curve."""
    rng = np.random.default_rng(100 + seed)
    df = random_batch(rng, 12, 25, weights=True)
    conf = prn.confusion(df, score="s", label="y", by="g", weight="w")
    with warnings.catch_warnings():  # some random groups hold one class only
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        aucs = {
            m: prn.auc(df, score="s", label="y", by="g", weight="w", curve=c, method=m)
            for c, m in [("roc", None), ("pr", "ap"), ("pr", "integral")]
        }
    for i, (g, part) in enumerate(_groups(df)):
        s, y, w = part["s"].to_numpy(), part["y"].to_numpy(), part["w"].to_numpy()
        thr, tp, fp = naive.sweep(s, w * y, w * (1 - y))
        mine = conf[conf["g"] == g]
        np.testing.assert_array_equal(mine["threshold"], thr)
        np.testing.assert_allclose(mine["tp"], tp, atol=1e-12)
        np.testing.assert_allclose(mine["fp"], fp, atol=1e-12)
        np.testing.assert_allclose(mine["fn"], tp[-1] - tp, atol=1e-12)
        np.testing.assert_allclose(mine["tn"], fp[-1] - fp, atol=1e-12)
        P, N = tp[-1], fp[-1]
        if P > 0 and N > 0:
            assert aucs[None]["auc"].iloc[i] == pytest.approx(
                naive.roc_auc_pairs(s, w * y, w * (1 - y)), abs=1e-12
            )
        if P > 0:
            assert aucs["ap"]["auc"].iloc[i] == pytest.approx(
                naive.average_precision(tp, fp), abs=1e-12
            )
            assert aucs["integral"]["auc"].iloc[i] == pytest.approx(
                naive.pr_integral_numeric(tp, fp), abs=1e-6
            )


# ------------------------------------------------------------------------ invariances


def _all_aucs(df, **kw):
    kw.setdefault("by", "g")
    return np.column_stack(
        [
            prn.auc(df, score="s", label="y", curve=c, method=m, **kw)["auc"].to_numpy()
            for c, m in METHODS
        ]
    )


@pytest.fixture(scope="module")
def batch():
    rng = np.random.default_rng(7)
    df = random_batch(rng, 30, 80, weights=True)
    keep = df.groupby("g")["y"].transform(lambda y: 0 < y.sum() < len(y))
    return df[keep.astype(bool)].reset_index(drop=True)


def test_row_order(batch):
    shuffled = batch.sample(frac=1.0, random_state=3)
    np.testing.assert_allclose(
        _all_aucs(shuffled, weight="w"), _all_aucs(batch, weight="w"), atol=1e-12
    )


def test_strictly_increasing_transform(batch):
    moved = batch.assign(s=np.exp(batch["s"]) * 3.0 + 1.0)
    np.testing.assert_allclose(
        _all_aucs(moved, weight="w"), _all_aucs(batch, weight="w"), atol=1e-12
    )


@pytest.mark.filterwarnings("ignore::prroc_numba.UndefinedMetricWarning")
def test_zero_weight_is_removal(batch):
    rng = np.random.default_rng(1)
    w = batch["w"].to_numpy().copy()
    w[rng.random(w.size) < 0.3] = 0.0
    w[w == 0] = 0.0
    dropped = batch.assign(w=w)[w > 0]
    got = _all_aucs(batch.assign(w=w), weight="w")
    want = _all_aucs(dropped, weight="w")
    np.testing.assert_allclose(got, want, atol=1e-12)
    for fn in (prn.confusion, prn.roc_curve, prn.pr_curve):
        pd.testing.assert_frame_equal(
            fn(batch.assign(w=w), score="s", label="y", by="g", weight="w"),
            fn(dropped, score="s", label="y", by="g", weight="w"),
        )


def test_integer_weight_is_duplication(batch):
    rng = np.random.default_rng(2)
    k = rng.integers(1, 4, size=len(batch))
    dup = batch.loc[batch.index.repeat(k)].reset_index(drop=True)
    got = _all_aucs(batch.assign(w=k.astype(float)), weight="w")
    np.testing.assert_allclose(got, _all_aucs(dup), atol=1e-12)
    a = prn.confusion(batch.assign(w=k.astype(float)), score="s", label="y", by="g", weight="w")
    b = prn.confusion(dup, score="s", label="y", by="g")
    pd.testing.assert_frame_equal(a, b)


def test_batch_equals_each_curve_alone(batch):
    together = _all_aucs(batch, weight="w")
    for i, (_g, part) in enumerate(_groups(batch)):
        alone = _all_aucs(part, weight="w", by=None)
        np.testing.assert_array_equal(together[i], alone[0])
    conf = prn.confusion(batch, score="s", label="y", by="g", weight="w")
    for g, part in _groups(batch):
        alone = prn.confusion(part, score="s", label="y", weight="w")
        mine = conf[conf["g"] == g].drop(columns="g").reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone)


def test_curve_order_irrelevant(batch):
    # relabel groups so that their sorted order is reversed
    relabeled = batch.assign(g=1000 - batch["g"])
    a = prn.auc(batch, score="s", label="y", by="g", weight="w")
    b = prn.auc(relabeled, score="s", label="y", by="g", weight="w")
    np.testing.assert_array_equal(a["auc"].to_numpy(), b["auc"].to_numpy()[::-1])
    np.testing.assert_array_equal(b["g"].to_numpy(), 1000 - a["g"].to_numpy()[::-1])


def test_soft_label_equals_split_weights():
    """A soft label p is one positive row of weight p plus one negative of weight 1-p."""
    rng = np.random.default_rng(5)
    n = 300
    s = np.round(rng.normal(size=n), 1)
    p = rng.random(n)
    soft = prn.auc(score=s, label=p, soft_labels=True, curve="pr", method="integral")
    split = prn.auc(
        score=np.r_[s, s],
        label=np.r_[np.ones(n), np.zeros(n)],
        weight=np.r_[p, 1 - p],
        curve="pr",
        method="integral",
    )
    assert soft["auc"].iloc[0] == pytest.approx(split["auc"].iloc[0], abs=1e-12)
    roc_soft = prn.auc(score=s, label=p, soft_labels=True, curve="roc")
    roc_split = prn.auc(
        score=np.r_[s, s], label=np.r_[np.ones(n), np.zeros(n)], weight=np.r_[p, 1 - p], curve="roc"
    )
    assert roc_soft["auc"].iloc[0] == pytest.approx(roc_split["auc"].iloc[0], abs=1e-12)


# ---------------------------------------------------------------------- input forms


@pytest.fixture(scope="module")
def wide():
    rng = np.random.default_rng(11)
    n = 500
    y = (rng.random(n) < 0.2).astype(int)
    return pd.DataFrame(
        {
            "y": y,
            "m1": np.round(rng.normal(size=n) + y, 1),
            "m2": rng.normal(size=n) + 0.5 * y,
            "m3": -rng.normal(size=n),
            "site": rng.choice(["x", "y", "z"], size=n),
        }
    )


def test_wide_equals_long(wide):
    w = prn.auc(wide, score=["m1", "m2", "m3"], label="y", by="site")
    long = wide.melt(
        id_vars=["y", "site"], value_vars=["m1", "m2", "m3"], var_name="model", value_name="s"
    )
    lg = prn.auc(long, score="s", label="y", by=["site", "model"])
    assert list(w.columns) == ["site", "model", "curve", "method", "auc"]
    pd.testing.assert_frame_equal(w, lg)
    wc = prn.roc_curve(wide, score=["m1", "m2", "m3"], label="y", by="site")
    lc = prn.roc_curve(long, score="s", label="y", by=["site", "model"])
    pd.testing.assert_frame_equal(wc, lc)


def test_arrays_equal_frame(wide):
    a2 = prn.auc(score=wide[["m1", "m2", "m3"]].to_numpy(), label=wide["y"].to_numpy())
    fr = prn.auc(wide, score=["m1", "m2", "m3"], label="y")
    np.testing.assert_array_equal(a2["auc"], fr["auc"])
    assert list(a2["model"]) == [0, 1, 2]
    one = prn.auc(score=wide["m1"], label=wide["y"])
    assert list(one.columns) == ["curve", "method", "auc"]
    assert one["auc"].iloc[0] == fr["auc"].iloc[0]
    by_arr = prn.auc(score=wide["m1"].to_numpy(), label=wide["y"], by=wide["site"].to_numpy())
    by_col = prn.auc(wide, score="m1", label="y", by="site")
    np.testing.assert_array_equal(by_arr["auc"], by_col["auc"])
    assert list(by_arr.columns) == ["group", "curve", "method", "auc"]


def test_label_forms(wide):
    y = wide["y"].to_numpy()
    s = wide["m2"].to_numpy()
    want = prn.auc_pr(y, s, method="ap")
    assert prn.auc_pr(y.astype(bool), s, method="ap") == want
    assert prn.auc_pr(np.where(y == 1, 1, -1), s, method="ap") == want
    assert prn.auc_pr(np.where(y == 1, "case", "control"), s, method="ap", pos_label="case") == want
    assert prn.auc_pr(np.where(y == 1, 2, 7), s, method="ap", pos_label=2) == want
    assert prn.auc_pr(y.astype(float), s, method="ap") == want
    assert prn.auc_pr(y, s, method="ap") == pytest.approx(average_precision_score(y, s))


def test_key_dtypes_and_order_kept(wide):
    df = wide.assign(
        k=pd.Categorical(wide["site"], categories=["z", "y", "x"]),
        num=wide["site"].map({"x": 3, "y": 1, "z": 2}),
    )
    out = prn.auc(df, score="m1", label="y", by=["num"])
    assert out["num"].dtype == df["num"].dtype
    assert list(out["num"]) == [1, 2, 3]
    out = prn.auc(df, score="m1", label="y", by="k")
    assert isinstance(out["k"].dtype, pd.CategoricalDtype)
    assert list(out["k"]) == ["z", "y", "x"]  # categorical order, as pandas groupby


def test_single_row_and_all_tied():
    conf = prn.confusion(score=[0.3], label=[1])
    assert conf.to_dict("list") == {
        "threshold": [np.inf, 0.3],
        "tp": [0.0, 1.0],
        "fp": [0.0, 0.0],
        "fn": [1.0, 0.0],
        "tn": [0.0, 0.0],
    }
    s = np.full(10, 0.5)
    y = np.r_[np.ones(3), np.zeros(7)]
    assert prn.auc_roc(y, s) == 0.5
    assert prn.auc_pr(y, s, method="ap") == pytest.approx(0.3)
    assert prn.auc_pr(y, s, method="dg") == pytest.approx(0.3)
    assert prn.auc_pr(y, s, method="integral") == pytest.approx(0.3)
    assert len(prn.roc_curve(score=s, label=y)) == 2


@pytest.mark.parametrize("threads", [1, 2])
def test_split_path_columns_in_row_chunks(threads, monkeypatch):
    """Hard labels, curves of >= 4096 rows: the class-split sweep (ties leave room that the
    curves are moved down over), then the derived columns written in row chunks that cut
    through curves (forced small here). Every column equals scikit-learn's / naive.sweep,
    bit for bit whatever the thread count."""
    import numba

    from prroc_numba._core import curve_frames as curves

    monkeypatch.setattr(curves, "MIN_PARALLEL_ROWS", 0)
    rng = np.random.default_rng(11)
    n = 5000
    g = np.repeat(np.arange(4), n)
    y = (rng.random(4 * n) < 0.1).astype(np.int8)
    y[g == 3] = 0  # a curve without positives
    s = np.round(rng.normal(size=4 * n) + y, 2)  # ties
    df = pd.DataFrame({"g": g, "s": s, "y": y})
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        with pytest.warns(prn.UndefinedMetricWarning, match="g=3"):
            roc = prn.roc_curve(df, score="s", label="y", by="g")
        with pytest.warns(prn.UndefinedMetricWarning, match="g=3"):
            pr = prn.pr_curve(df, score="s", label="y", by="g")
        conf = prn.confusion(df, score="s", label="y", by="g")
    finally:
        numba.set_num_threads(before)
    assert list(roc.columns) == ["g", "threshold", "fpr", "tpr", "tp", "fp"]
    assert list(pr.columns) == ["g", "threshold", "recall", "precision", "tp", "fp"]
    assert list(conf.columns) == ["g", "threshold", "tp", "fp", "fn", "tn"]
    for k in range(4):
        part = df[df["g"] == k]
        yk, sk = part["y"].to_numpy(), part["s"].to_numpy()
        thr, tp, fp = naive.sweep(sk, yk.astype(float), 1.0 - yk)
        mine = conf[conf["g"] == k]
        np.testing.assert_array_equal(mine["threshold"], thr)
        np.testing.assert_array_equal(mine["tp"], tp)
        np.testing.assert_array_equal(mine["fp"], fp)
        np.testing.assert_array_equal(mine["fn"], tp[-1] - tp)
        np.testing.assert_array_equal(mine["tn"], fp[-1] - fp)
        mine_roc, mine_pr = roc[roc["g"] == k], pr[pr["g"] == k]
        if k == 3:
            assert mine_roc["tpr"].isna().all() and mine_pr["recall"].isna().all()
            np.testing.assert_array_equal(mine_roc["fpr"], fp / fp[-1])
            np.testing.assert_array_equal(mine_pr["precision"], np.zeros(thr.size))
            continue
        fpr, tpr, sk_thr = sk_roc_curve(yk, sk, drop_intermediate=False)
        np.testing.assert_array_equal(mine_roc["threshold"], sk_thr)
        np.testing.assert_array_equal(mine_roc["fpr"], fpr)
        np.testing.assert_array_equal(mine_roc["tpr"], tpr)
        prec, rec, _ = precision_recall_curve(yk, sk)
        # scikit-learn's points, except the origin: its precision is the flat start
        np.testing.assert_array_equal(mine_pr["precision"].iloc[1:], prec[::-1][1:])
        assert mine_pr["precision"].iloc[0] == naive.flat_start_precision(tp, fp)[0]
        np.testing.assert_array_equal(mine_pr["recall"], rec[::-1])
