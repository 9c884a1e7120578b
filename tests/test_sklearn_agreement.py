"""Random multilabel and multiclass arrays against scikit-learn: every ``average``, sample
weights, ties, ``max_fpr``, one-vs-rest and one-vs-one, absent classes; the DET curve
against ``sklearn.metrics.det_curve`` and its equal error rate against a brute-force
reference (:func:`tests.naive.rocch_eer`).
"""

import warnings

import naive
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import prroc_numba as prn

TOL = 1e-9
AVERAGES = [None, "macro", "weighted", "micro", "samples"]


def _multilabel(seed, n, K, ties, weighted):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, K)) < rng.uniform(0.2, 0.8, K)).astype(int)
    P = rng.random((n, K)) + 0.5 * Y
    if ties:
        P = np.round(P, 1)
    w = rng.integers(1, 5, n).astype(float) if weighted else None
    return Y, P, w


def _defined(Y, average, roc):
    """scikit-learn's NaN / 0 conventions for undefined curves differ from ours (NaN with
    a warning): compare where every averaged curve is defined."""
    if average == "samples":
        rows = Y.sum(axis=1)
        return bool((rows > 0).all() and (not roc or (rows < Y.shape[1]).all()))
    cols = Y.sum(axis=0)
    return bool((cols > 0).all() and (not roc or (cols < Y.shape[0]).all()))


MULTILABEL = {
    "seed": st.integers(0, 2**32 - 1),
    "n": st.integers(6, 60),
    "K": st.integers(2, 5),
    "ties": st.booleans(),
    "weighted": st.booleans(),
    "average": st.sampled_from(AVERAGES),
}


@settings(max_examples=40, deadline=None)
@given(**MULTILABEL, max_fpr=st.sampled_from([None, 0.3, 0.8]))
def test_multilabel_roc_matches_sklearn(seed, n, K, ties, weighted, average, max_fpr):
    Y, P, w = _multilabel(seed, n, K, ties, weighted)
    assume(_defined(Y, average, roc=True))
    kw = {} if max_fpr is None else {"partial": (0, max_fpr), "standardize": True}
    got = prn.auc(score=P, label=Y, weight=w, curve="roc", average=average, **kw)
    ref = skm.roc_auc_score(Y, P, average=average, sample_weight=w, max_fpr=max_fpr)
    np.testing.assert_allclose(got["auc"].to_numpy(), np.atleast_1d(ref), rtol=0, atol=TOL)


@settings(max_examples=40, deadline=None)
@given(**MULTILABEL)
def test_multilabel_average_precision_matches_sklearn(seed, n, K, ties, weighted, average):
    Y, P, w = _multilabel(seed, n, K, ties, weighted)
    assume(_defined(Y, average, roc=False))
    got = prn.auc(score=P, label=Y, weight=w, method="ap", average=average)
    ref = skm.average_precision_score(Y, P, average=average, sample_weight=w)
    np.testing.assert_allclose(got["auc"].to_numpy(), np.atleast_1d(ref), rtol=0, atol=TOL)
    # metrics() reduces the same way
    m = prn.metrics(score=P, label=Y, weight=w, metrics=["ap"], average=average)
    np.testing.assert_allclose(m["ap"].to_numpy(), np.atleast_1d(ref), rtol=0, atol=TOL)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(8, 60),
    K=st.integers(3, 5),
    absent=st.integers(0, 2),
    weighted=st.booleans(),
    multi_class=st.sampled_from(["ovr", "ovo"]),
    average=st.sampled_from([None, "macro", "weighted", "micro"]),
)
def test_multiclass_roc_matches_sklearn(seed, n, K, absent, weighted, multi_class, average):
    """Class labels with up to two classes of ``classes=`` absent from the labels."""
    assume(not (multi_class == "ovo" and average in (None, "micro")))
    assume(not (multi_class == "ovo" and weighted))  # scikit-learn: no weights with ovo
    rng = np.random.default_rng(seed)
    present = np.arange(absent, K)  # classes 0 .. absent-1 never occur
    y = present[rng.integers(0, present.size, n)]
    assume(np.unique(y).size >= 2)
    S = rng.integers(1, 4, (n, K)) + 2.0 * (y[:, None] == np.arange(K))  # ties
    S = S / S.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    assume(not (multi_class == "ovr" and absent and average in (None, "macro")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn about the absent classes (ovr)
        ref = skm.roc_auc_score(
            y,
            S,
            multi_class=multi_class,
            average=average,
            labels=list(range(K)),
            sample_weight=w,
        )
        got = prn.auc(
            score=S,
            label=y,
            weight=w,
            curve="roc",
            multiclass=multi_class,
            average=average,
            classes=list(range(K)),
        )
    np.testing.assert_allclose(got["auc"].to_numpy(), np.atleast_1d(ref), rtol=0, atol=TOL)


def test_two_column_multilabel_summing_to_one_is_not_refused():
    Y = np.array([[1, 0], [0, 1], [0, 1], [1, 1]])
    P = np.array([[0.9, 0.1], [0.1, 0.9], [0.8, 0.2], [0.2, 0.8]])
    got = prn.auc(score=P, label=Y, curve="roc")
    np.testing.assert_allclose(got["auc"], skm.roc_auc_score(Y, P, average=None))
    assert prn.auc(score=P, label=Y, curve="roc", average="macro")["auc"].iloc[0] == 0.875
    # two classes, one-vs-rest: one row per class, as the same data as columns
    y = np.array([0, 1, 1, 0])
    two = prn.auc(score=P, label=y, curve="roc", multiclass="ovr")
    assert two["auc"].tolist() == [0.75, 0.75]
    # binary wide input still refuses predict_proba output (the guard's purpose)
    with pytest.raises(ValueError, match=r"proba\[:, 1\]"):
        prn.auc(score=P, label=y)


def test_ovo_weighted_with_an_absent_class_gives_weight_zero():
    S = np.array([[0.2, 0, 0.8], [0.6, 0, 0.4], [0.55, 0, 0.45], [0.4, 0, 0.6]])
    y = np.array([0, 2, 0, 2])
    for average in ("macro", "weighted"):
        ref = skm.roc_auc_score(y, S, multi_class="ovo", average=average, labels=[0, 1, 2])
        got = prn.auc(
            score=S, label=y, curve="roc", multiclass="ovo", average=average, classes=[0, 1, 2]
        )
        assert ref == 0.25 and got["auc"].iloc[0] == pytest.approx(0.25, abs=1e-15)


def test_samples_average_by_group_and_errors():
    Y, P, w = _multilabel(3, 40, 3, True, True)
    Y[:, 0] = 1  # every row has a positive
    Y[:, 1] = 0  # and a negative
    g = np.arange(40) % 2
    got = prn.auc(score=P, label=Y, weight=w, by=g, average="samples", method="ap")
    for k in (0, 1):
        ref = skm.average_precision_score(
            Y[g == k], P[g == k], average="samples", sample_weight=w[g == k]
        )
        assert got["auc"].iloc[k] == pytest.approx(ref, abs=TOL)
    # a row without positives has no area: NaN and the row is named
    Y[5] = 0
    with pytest.warns(prn.UndefinedMetricWarning, match="row=5"):
        bad = prn.auc(score=P, label=Y, average="samples", method="ap")
    assert np.isnan(bad["auc"].iloc[0])
    with pytest.raises(ValueError, match="average='samples' averages one curve per row"):
        prn.auc(score=P, label=np.arange(40) % 3, average="samples")
    with pytest.raises(ValueError, match="no one-vs-one form"):
        prn.auc(score=P, label=np.arange(40) % 3, multiclass="ovo", average="samples")
    with pytest.raises(ValueError, match="average='samples' has no bootstrap"):
        prn.bootstrap(score=P, label=Y, average="samples", n_boot=10)
    with pytest.raises(ValueError, match="curves are one-vs-rest"):
        prn.pr_curve(score=P, label=Y, average="samples")


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(6, 60),
    K=st.integers(3, 5),  # two classes are binary labels to scikit-learn
    ties=st.booleans(),
    weighted=st.booleans(),
    method=st.sampled_from(["ap", "roc"]),
)
def test_samples_average_of_class_labels_matches_sklearn(seed, n, K, ties, weighted, method):
    # scikit-learn binarizes class labels (each row: one positive label) and averages
    # the per-row areas: average_precision_score(y_multiclass, proba, average="samples")
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    assume(np.unique(y).size == K)  # scikit-learn binarizes over the classes present
    P = rng.random((n, K)) + 0.3 * (y[:, None] == np.arange(K))
    if ties:
        P = np.round(P, 1)
    w = rng.integers(1, 5, n).astype(float) if weighted else None
    if method == "ap":
        got = prn.auc(score=P, label=y, weight=w, multiclass="ovr", average="samples", method="ap")
        ref = skm.average_precision_score(y, P, average="samples", sample_weight=w)
    else:
        got = prn.auc(score=P, label=y, weight=w, multiclass="ovr", average="samples", curve="roc")
        Y = (y[:, None] == np.arange(K)).astype(int)  # roc_auc_score takes the indicator
        ref = skm.roc_auc_score(Y, P, average="samples", sample_weight=w)
    assert got["auc"].iloc[0] == pytest.approx(ref, abs=TOL)


def _binary(seed, n, levels, weighted):
    """Random binary labels (both classes), scores on ``levels`` values (ties), weights."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    assume(0 < y.sum() < n)
    s = rng.integers(0, levels, n) / levels
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, s, w


BINARY = {
    "seed": st.integers(0, 2**32 - 1),
    "n": st.integers(2, 40),
    "levels": st.integers(2, 12),
    "weighted": st.booleans(),
}


@settings(max_examples=60, deadline=None)
@given(**BINARY)
def test_det_curve_matches_sklearn(seed, n, levels, weighted):
    y, s, w = _binary(seed, n, levels, weighted)
    got = prn.det_curve(score=s, label=y, weight=w)
    fpr, fnr, thr = skm.det_curve(y, s, sample_weight=w)
    assert list(got.columns) == ["threshold", "fpr", "fnr"]
    np.testing.assert_allclose(got["threshold"], thr[::-1])
    np.testing.assert_allclose(got["fpr"], fpr[::-1], atol=1e-12)
    np.testing.assert_allclose(got["fnr"], fnr[::-1], atol=1e-12)


def test_det_curve_several_models_and_groups():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    S = rng.random((60, 3))
    g = np.repeat([0, 1], 30)
    got = prn.det_curve(score=S, label=y, by=g)
    assert list(got.columns) == ["group", "model", "threshold", "fpr", "fnr"]
    for (k, m), part in got.groupby(["group", "model"]):
        fpr, fnr, thr = skm.det_curve(y[g == k], S[g == k, m])
        np.testing.assert_allclose(part["fpr"], fpr[::-1])
        np.testing.assert_allclose(part["fnr"], fnr[::-1])


@settings(max_examples=60, deadline=None)
@given(**BINARY)
def test_eer_is_where_the_roc_hull_crosses_fpr_equals_fnr(seed, n, levels, weighted):
    y, s, w = _binary(seed, n, levels, weighted)
    w = np.ones(n) if w is None else w
    got = prn.metrics(score=s, label=y, weight=w, metrics=["eer"])["eer"].iloc[0]
    _, tp, fp = naive.sweep(s, w * y, w * (1 - y))
    assert got == pytest.approx(naive.rocch_eer(tp, fp), abs=1e-12)


def test_eer_known_values():
    # perfect separation: 0; reversed: 0.5 (the hull is the chance diagonal); the
    # example in det_curve's docstring: the hull through (0, .5) and (.5, 1) crosses
    # fpr = fnr at fpr 0.25 (tpr 0.75)
    assert prn.metrics(score=[0.9, 0.1], label=[1, 0], metrics="eer")["eer"].iloc[0] == 0.0
    assert prn.metrics(score=[0.1, 0.9], label=[1, 0], metrics="eer")["eer"].iloc[0] == 0.5
    got = prn.metrics(score=[0.1, 0.4, 0.35, 0.8], label=[0, 0, 1, 1], metrics="eer")
    assert got["eer"].iloc[0] == pytest.approx(0.25)
    with pytest.warns(prn.UndefinedMetricWarning, match="EER is undefined"):
        one = prn.metrics(score=[0.1, 0.4], label=[1, 1], metrics="eer")
    assert np.isnan(one["eer"].iloc[0])
