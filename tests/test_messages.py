"""The mistakes a new user makes get a message naming the argument and the fix: arrays
by position, unknown keywords (with "did you mean"), several classes, a NaN score,
numeric strings; the command line's labels; the scorer's scikit-learn names."""

import inspect

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

import prroc_numba as prn
from prroc_numba import plot
from prroc_numba.cli import main


def _takes_named_options_only(f):
    """Not the plots that hand ``**kwargs`` to matplotlib (its own errors), nor
    :func:`prn.scorer` (its ``**kwargs`` are checked by name, below)."""
    if not inspect.isfunction(f):
        return False
    params = inspect.signature(f).parameters.values()
    return not any(p.kind == p.VAR_KEYWORD for p in params)


FUNCTIONS = [
    f
    for f in [getattr(prn, n) for n in prn.__all__] + [getattr(plot, n) for n in plot.__all__]
    if _takes_named_options_only(f)
]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_unknown_keyword_is_named_for_every_public_function(f):
    with pytest.raises(TypeError, match=rf"{f.__name__}\(\) got an unexpected keyword .*zzz"):
        f(zzz=1)


@pytest.mark.parametrize(
    ("call", "suggestion"),
    [
        (lambda: prn.bootstrap(score=[0.1], label=[1], n_bootstraps=10), "n_boot="),
        (lambda: prn.auc(score=[0.1], label=[1], curv="roc"), "curve="),
        (lambda: prn.auc_pr([1, 0], [0.2, 0.1], sample_weights=[1, 1]), "sample_weight="),
        (lambda: prn.compare(score=["a"], label="y", baselin="a"), "baseline="),
    ],
)
def test_unknown_keyword_did_you_mean(call, suggestion):
    with pytest.raises(TypeError, match=f"did you mean {suggestion}"):
        call()


def test_arrays_by_position_point_to_the_one_number_functions():
    y, s = [0, 1, 1, 0], [0.1, 0.8, 0.3, 0.4]
    with pytest.raises(TypeError, match=r"auc\(\) takes one positional.*prn\.auc_pr\(y, s\)"):
        prn.auc(y, s)
    with pytest.raises(TypeError, match=r"pr_curve\(score=s, label=y\)"):
        prn.pr_curve(y, s)
    # the suggested calls give scikit-learn's numbers
    assert prn.auc_pr(y, s, method="ap") == skm.average_precision_score(y, s)
    assert prn.auc_roc(y, s) == skm.roc_auc_score(y, s)


def test_several_classes_suggest_multiclass():
    with pytest.raises(ValueError, match=r"For 3 classes.*multiclass='ovr'"):
        prn.auc(score=[0.1, 0.5, 0.9, 0.3], label=[0, 1, 2, 1])
    with pytest.raises(ValueError, match=r"For 3 classes.*multiclass='ovr'"):
        prn.auc(score=[0.1, 0.5, 0.9], label=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"multiclass='ovr'"):
        prn.auc(score=[0.1, 0.5, 0.9], label=["a", "b", "c"], pos_label="a")


def test_nan_score_names_its_row():
    df = pd.DataFrame(
        {"s": [0.1, 0.2, 0.3, np.nan, 0.5, np.nan], "y": [0, 1, 0, 1, 0, 1], "g": list("bbaaab")}
    )
    with pytest.raises(ValueError, match=r"2 NaN or infinite values \(first: nan at row 3.*g='a'"):
        prn.auc(df, score="s", label="y", by="g")
    with pytest.raises(ValueError, match=r"first: nan at row 3, counting from 0\)"):
        prn.auc(df, score="s", label="y")
    # zero-weight rows dropped before the check still count in the row number
    with pytest.raises(ValueError, match=r"at row 3"):
        prn.auc(df.assign(w=[0, 1, 1, 1, 1, 1]), score="s", label="y", weight="w")
    S = np.array([[0.2, 0.8], [0.5, 0.5], [np.inf, 0.1]])
    with pytest.raises(ValueError, match=r"first at row 2"):
        prn.auc(score=S, label=[0, 1, 1], multiclass="ovr")


def test_numeric_strings_are_refused_as_scikit_learn_does():
    y = [0, 1, 1, 0]
    s = ["0.1", "0.8", "0.3", "0.4"]
    with pytest.raises(ValueError):
        skm.roc_auc_score(y, s)
    with pytest.raises(TypeError, match=r"score must be numeric, got strings.*to_numeric"):
        prn.auc(score=np.array(s), label=y)
    with pytest.raises(TypeError, match=r"if these are the scores, they are strings"):
        prn.auc(score=s, label=y)
    with pytest.raises(TypeError, match=r"score column 's' must be numeric, got strings"):
        prn.auc(pd.DataFrame({"s": s, "y": y}), score="s", label="y")
    with pytest.raises(TypeError, match=r"weight must be numeric"):
        prn.auc(score=[0.1, 0.8, 0.3, 0.4], label=y, weight=np.array(s, dtype=object))
    # numbers in an object column are still numbers
    obj = np.array([0.1, 0.8, 0.3, 0.4], dtype=object)
    assert prn.auc_roc(y, obj) == skm.roc_auc_score(y, [0.1, 0.8, 0.3, 0.4])


def test_scorer_takes_scikit_learn_names_and_pos_label():
    X, y = make_classification(n_samples=300, weights=[0.8], random_state=0)
    for ours, theirs in [
        ("average_precision", "average_precision"),
        ("ap", "average_precision"),
        ("roc_auc", "roc_auc"),
    ]:
        a = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=prn.scorer(ours))
        b = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=theirs)
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    dg = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=prn.scorer("auc_pr"))
    ap = cross_val_score(
        LogisticRegression(), X, y, cv=3, scoring=prn.scorer("auc_pr", method="ap")
    )
    assert not np.allclose(dg, ap)  # the default is Davis-Goadrich, not average precision
    labels = np.where(y == 1, "yes", "no")
    ref = skm.make_scorer(
        skm.average_precision_score, response_method="predict_proba", pos_label="no"
    )
    a = cross_val_score(
        LogisticRegression(), X, labels, cv=3, scoring=prn.scorer("ap", pos_label="no")
    )
    b = cross_val_score(LogisticRegression(), X, labels, cv=3, scoring=ref)
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"did you mean 'average_precision'"):
        prn.scorer("average_precison")
    with pytest.raises(ValueError, match=r"is average precision; drop method="):
        prn.scorer("ap", method="dg")
    with pytest.raises(TypeError, match=r"did you mean average="):
        prn.scorer("auc_pr", averag="macro")


@pytest.fixture
def preds(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    df = pd.DataFrame({"y": y, "m1": rng.random(200) + 0.5 * y, "m2": rng.random(200)})
    path = tmp_path / "p.csv"
    df.to_csv(path, index=False)
    return str(path)


def test_cli_labels_say_what_the_table_holds(preds, capsys):
    assert main(["operating-points", preds, "--label", "y", "--score", "m1"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("Operating points (max_f1") and "AUC" not in first
    # counts print as integers, not 112.0000
    header, row = out.splitlines()[1:3]
    tp = row.split()[header.split().index("tp")]
    assert tp.isdigit()

    argv = ["auc", preds, "--label", "y", "--score", "m1", "--curve", "roc"]
    assert main(argv + ["--partial", "0", "0.1", "--standardize"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "partial AUC-ROC over FPR 0-0.1 (McClish-standardized):"
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0] == "AUC-ROC:"

    assert main(["auc", preds, "--label", "y", "--score", "m1", "--ci", "logit"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "Boyd et al. logit confidence intervals" in first and "95%" in first

    assert main(["auc", preds, "--label", "m1", "--score", "m2"]) == 2
    err = capsys.readouterr().err
    assert "--pos-label VALUE to name" in err and "--pos-label  " not in err


def test_docs_give_ci_its_value():
    from pathlib import Path

    root = Path(__file__).parents[1]
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    text = "".join(p.read_text() for p in pages)
    assert "`--ci`" not in text and "--ci logit" in text
