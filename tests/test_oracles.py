"""Every reference case in tests/data against the published tools' printed values.

PRROC 1.4 (DG, integral, ROC AUC; hard, soft and sample-weight modes), scikit-learn 1.9
(average precision, ROC AUC), pROC 1.18 (AUC), Davis & Goadrich's AUCCalculator jar.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import CASE_NAMES, load_case

import prroc_numba as prn

TOL = 1e-9
PRROC_FIELDS = {
    "pr_auc_integral": ("pr", "integral"),
    "pr_auc_davis_goadrich": ("pr", "dg"),
    "roc_auc": ("roc", "trapezoid"),
}


def _auc(case, kwargs, curve, method):
    """auc() of every score column at once (wide input), as {column: value}."""
    frame = prn.auc(case.frame, score=case.scores, curve=curve, method=method, **kwargs)
    return dict(zip(frame["model"], frame["auc"]))


@pytest.mark.parametrize("name", CASE_NAMES)
def test_prroc(name):
    case = load_case(name)
    checked = 0
    for mode, kwargs, _, _ in case.modes():
        refs = case.ref["prroc"][mode]
        for field, (curve, method) in PRROC_FIELDS.items():
            got = _auc(case, kwargs, curve, method)
            for col in case.scores:
                want = refs[col][field]
                if want is None:  # PRROC computes DG only for hard labels
                    continue
                assert got[col] == pytest.approx(want, abs=TOL), (mode, col, field)
                checked += 1
    assert checked >= 3


@pytest.mark.parametrize("name", CASE_NAMES)
def test_sklearn(name):
    case = load_case(name)
    ap = _auc(case, {"label": "label"}, "pr", "ap")
    roc = _auc(case, {"label": "label"}, "roc", None)
    for col in case.scores:
        ref = case.ref["sklearn"][col]
        assert ap[col] == pytest.approx(ref["average_precision"], abs=1e-12)
        assert roc[col] == pytest.approx(ref["roc_auc"], abs=1e-12)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_proc_auc(name):
    case = load_case(name)
    if "proc" not in case.ref:
        # only the soft-label and sample-weight cases were not run through pROC
        assert "weight" in case.frame or "sample_weight" in case.frame
        return
    roc = _auc(case, {"label": "label"}, "roc", None)
    for col in case.scores:
        assert roc[col] == pytest.approx(case.ref["proc"]["roc"][col]["auc"], abs=TOL)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_auccalculator_jar(name):
    """The jar equals our DG when the top block holds a positive; otherwise it drops the
    leading TP=0 points, and we follow PRROC (documented), so we must differ."""
    case = load_case(name)
    jar = case.ref.get("auccalculator_jar")
    if jar is None:
        assert len(case.scores) > 1  # only multi-model cases lack a jar value
        return
    s = case.frame[case.scores[0]].to_numpy()
    y = case.frame["label"].to_numpy()
    dg = prn.auc_pr(y, s, method="dg")
    if jar["top_block_has_positive"]:
        assert dg == pytest.approx(jar["auc_pr"], abs=TOL)
        assert prn.auc_roc(y, s) == pytest.approx(jar["auc_roc"], abs=TOL)
    else:
        assert dg == pytest.approx(
            case.ref["prroc"]["hard"][case.scores[0]]["pr_auc_davis_goadrich"], abs=TOL
        )
        assert abs(dg - jar["auc_pr"]) > 1e-6


@pytest.mark.parametrize("name", CASE_NAMES)
def test_curves_equal_sklearn(name):
    """roc_curve / pr_curve points equal scikit-learn's, with and without weights."""
    from sklearn.metrics import precision_recall_curve, roc_curve

    case = load_case(name)
    df = case.frame
    y = df["label"].to_numpy()
    w = df["sample_weight"].to_numpy(float) if "sample_weight" in df else None
    for col in case.scores:
        s = df[col].to_numpy()
        ours = prn.roc_curve(score=s, label=y, weight=w)
        fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        np.testing.assert_allclose(ours["fpr"], fpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours["tpr"], tpr, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(ours["threshold"], thr)
        ours = prn.pr_curve(score=s, label=y, weight=w)
        prec, rec, thr = precision_recall_curve(y, s, sample_weight=w)
        # scikit-learn's points; the origin (tp = fp = 0) holds the flat start, the
        # precision of the next point, where scikit-learn puts 1
        want = prec[::-1].copy()
        want[0] = want[1]
        np.testing.assert_allclose(ours["precision"], want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours["recall"], rec[::-1], rtol=0, atol=1e-12)
        np.testing.assert_array_equal(ours["threshold"].to_numpy()[1:], thr[::-1])


def test_alltied_case_is_prevalence():
    case = load_case("c09_n200_r20_alltied")
    y = case.frame["label"].to_numpy()
    for col in case.scores:
        s = case.frame[col].to_numpy()
        assert prn.auc_roc(y, s) == pytest.approx(0.5)
        assert prn.auc_pr(y, s, method="ap") == pytest.approx(y.mean())
