"""prn.scorer in scikit-learn's model selection, against direct calls on the same folds."""

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.svm import LinearSVC

import prroc_numba as prn

CV = StratifiedKFold(3, shuffle=True, random_state=0)


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(n_samples=240, weights=[0.8], random_state=0)
    return X, np.where(y == 1, "yes", "no")  # string classes: positive is classes_[1]


@pytest.fixture(scope="module")
def three():
    X, y = make_classification(n_samples=240, n_classes=3, n_informative=4, random_state=1)
    return X, np.array(["a", "b", "c"])[y]


def _direct(model, X, y, score):
    out = []
    for tr, te in CV.split(X, y):
        m = clone(model).fit(X[tr], y[tr])
        out.append(score(m, X[te], y[te]))
    return np.array(out)


def test_binary_cross_val_score_matches_direct(binary):
    X, y = binary
    model = LogisticRegression()
    got = cross_val_score(model, X, y, cv=CV, scoring=prn.scorer("auc_pr", method="ap"))
    ref = _direct(
        model,
        X,
        y,
        lambda m, X_, y_: prn.auc_pr(y_ == "yes", m.predict_proba(X_)[:, 1], method="ap"),
    )
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    # no predict_proba: the decision function, never hard predictions
    svc = LinearSVC()
    got = cross_val_score(svc, X, y, cv=CV, scoring=prn.scorer("auc_roc"))
    ref = _direct(svc, X, y, lambda m, X_, y_: roc_auc_score(y_ == "yes", m.decision_function(X_)))
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


def test_multiclass_cross_val_score_matches_direct(three):
    X, y = three
    model = LogisticRegression()
    for kw in (
        {"multiclass": "ovr", "average": "macro"},
        {"multiclass": "ovr", "average": "micro", "method": "integral"},
        {"multiclass": "ovo", "average": "weighted"},
    ):
        metric = "auc_roc" if kw["multiclass"] == "ovo" else "auc_pr"
        got = cross_val_score(model, X, y, cv=CV, scoring=prn.scorer(metric, **kw))
        curve = "roc" if metric == "auc_roc" else "pr"
        ref = _direct(
            model,
            X,
            y,
            lambda m, X_, y_, kw=kw, curve=curve: prn.auc(
                score=m.predict_proba(X_), label=y_, classes=list(m.classes_), curve=curve, **kw
            ).auc.iloc[0],
        )
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    got = cross_val_score(
        model, X, y, cv=CV, scoring=prn.scorer("auc_roc", multiclass="ovo", average="macro")
    )
    ref = _direct(
        model, X, y, lambda m, X_, y_: roc_auc_score(y_, m.predict_proba(X_), multi_class="ovo")
    )
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


@pytest.mark.parametrize("problem", ["binary", "three"])
def test_grid_search_matches_direct(problem, request):
    X, y = request.getfixturevalue(problem)
    kw = {"multiclass": "ovr"} if problem == "three" else {}
    sc = prn.scorer("auc_pr", **kw)
    grid = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=CV, scoring=sc)
    grid.fit(X, y)
    for i, C in enumerate([0.01, 1.0]):
        ref = _direct(LogisticRegression(C=C), X, y, sc)
        got = np.array([grid.cv_results_[f"split{k}_test_score"][i] for k in range(3)])
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    assert grid.best_score_ == pytest.approx(max(grid.cv_results_["mean_test_score"]), abs=1e-15)


def test_tuned_threshold_and_pickle(binary):
    from sklearn.model_selection import TunedThresholdClassifierCV

    X, y = binary
    sc = prn.scorer("auc_pr")
    assert "auc_pr" in repr(sc)
    sc2 = pickle.loads(pickle.dumps(sc))
    m = LogisticRegression().fit(X, y)
    assert sc2(m, X, y) == sc(m, X, y)
    # the tuner scores hard predictions, which no area can rank: a clear error
    with pytest.raises(TypeError, match="class labels .* not scores"):
        TunedThresholdClassifierCV(LogisticRegression(), scoring=sc, cv=3).fit(X, y)


def test_scorer_errors(three):
    X, y = three
    m = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="metric='f1' is not known"):
        prn.scorer("f1")
    with pytest.raises(TypeError, match="unexpected arguments"):
        prn.scorer("auc_pr", bogus=1)
    with pytest.raises(ValueError, match="pass scorer\\(..., multiclass='ovr'\\)"):
        prn.scorer("auc_pr")(m, X, y)
    with pytest.raises(ValueError, match="one number"):
        prn.scorer("auc_pr", multiclass="ovr", average=None)
