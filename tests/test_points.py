"""Curves given as points (issue 4): PRCurve, ROCCurve, and pr2roc's job done right.

pr2roc (/work/shared/papers/pr2roc_readme.txt) is the seed: its README example must give
the same points; each of its failures has a test below that shows our behaviour.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import load_case

import prroc_numba as prn

RATIO = 0.25
README_RECALL = [0.25, 0.4, 0.5]
README_PRECISION = [0.5, 0.3, 0.25]


def _readme_curve():
    return prn.PRCurve(zip(README_RECALL, README_PRECISION), pos_neg_ratio=RATIO)


# ------------------------------------------------------------------ pr2roc's README


def test_readme_example_gives_pr2roc_roc_points():
    roc = _readme_curve().to_roc()
    # pr2roc: FPR = recall * (P / N) * (1 / precision - 1); written out by hand
    expected = [(0.0, 0.0), (0.0625, 0.25), (0.1 * 7 / 3, 0.4), (0.375, 0.5), (1.0, 1.0)]
    np.testing.assert_allclose(roc.points(), expected, rtol=1e-15, atol=0)
    np.testing.assert_allclose(roc.points()[1:4, 0].round(4), [0.0625, 0.2333, 0.375])


def test_readme_round_trip_is_exact():
    pr = _readme_curve()
    # the given points come back exactly, with the origin and end added
    np.testing.assert_array_equal(pr.recall, [0.0] + README_RECALL + [1.0])
    np.testing.assert_array_equal(
        pr.precision, README_PRECISION[:1] + README_PRECISION + [0.2]
    )  # the origin shows the flat start
    back = pr.to_roc().to_pr()
    np.testing.assert_array_equal(back.points(), pr.points())
    # a fresh ROCCurve built from the printed ROC points converts back to the input
    r = pr.to_roc()
    fresh = prn.ROCCurve(fpr=r.fpr, tpr=r.tpr, pos_neg_ratio=RATIO).to_pr()
    np.testing.assert_allclose(fresh.points(), pr.points(), rtol=1e-14, atol=0)


def test_readme_resampling_equals_pr2roc_method_on_its_range():
    # pr2roc resamples ROC linearly at equally spaced FPR between its first and last
    # point, then converts each point to PR. Reference: np.interp + the conversion.
    pr = _readme_curve()
    fpr_pts = np.array([r * RATIO * (1 / p - 1) for r, p in zip(README_RECALL, README_PRECISION)])
    tpr_pts = np.array(README_RECALL)
    fgrid = np.linspace(fpr_pts[0], fpr_pts[-1], 100)
    tref = np.interp(fgrid, fpr_pts, tpr_pts)
    np.testing.assert_allclose(pr.to_roc().tpr_at(fgrid), tref, rtol=1e-13)
    np.testing.assert_allclose(pr.to_roc().resample(fpr=fgrid).tpr[1:-1], tref, rtol=1e-13)
    prec_ref = tref * RATIO / (tref * RATIO + fgrid * 1.0)
    np.testing.assert_allclose(pr.precision_at(tref), prec_ref, rtol=1e-12)
    # our PR resampling at equally spaced recall is the same curve
    res = pr.resample(100)
    assert res.recall.size == 100
    np.testing.assert_allclose(
        res.precision[1:], pr.precision_at(np.linspace(0, 1, 100))[1:], rtol=1e-15
    )


# ---------------------------------------------------------------- the paper's Table 1


def test_table1_from_resample():
    c = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
    exact = [5 / 10, 6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40]
    table = [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]
    res = c.resample(recall=np.arange(5, 11) / 20)
    np.testing.assert_allclose(res.precision[1:-1], exact, rtol=1e-14)
    np.testing.assert_allclose(res.precision[1:-1].round(3), table)
    np.testing.assert_allclose(res.tp[1:-1], np.arange(5, 11), rtol=1e-14)
    np.testing.assert_allclose(res.fp[1:-1], [5, 10, 15, 20, 25, 30], rtol=1e-13)
    np.testing.assert_allclose(c.resample(21).precision[5:11].round(3), table)


def test_table1_areas_match_prroc_and_jar_oracle():
    ref = load_case("c15_dg_table1").ref
    c = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
    hard = ref["prroc"]["hard"]["score"]
    assert c.auc() == pytest.approx(hard["pr_auc_davis_goadrich"], abs=1e-12)
    assert c.auc("dg") == pytest.approx(ref["auccalculator_jar"]["auc_pr"], abs=1e-12)
    assert c.auc("integral") == pytest.approx(hard["pr_auc_integral"], abs=1e-12)
    assert c.auc("ap") == pytest.approx(ref["sklearn"]["score"]["average_precision"], abs=1e-12)
    assert c.to_roc().auc() == pytest.approx(hard["roc_auc"], abs=1e-12)
    h = ref["hull_reference"]["score"]
    assert c.auc("integral", hull=True) == pytest.approx(h["pr_hull_auc_integral"], abs=1e-12)
    assert c.to_roc().auc(hull=True) == pytest.approx(h["roc_hull_auc"], abs=1e-12)
    assert len(c.hull()) == h["n_hull_vertices"]


def test_figure6_single_point():
    # 9 of 433 positives on top at precision 1, 56,164 negatives: the jar gives 0.0303,
    # the paper 0.031 (correct) vs 0.50 (straight line in PR space)
    c = prn.PRCurve([(9 / 433, 1.0)], n_pos=433, n_neg=56164)
    assert c.auc("dg") == pytest.approx(0.0303, abs=5e-5)
    assert c.auc("trapezoid") == pytest.approx(0.51, abs=0.01)
    # the end point (1, P / (P + N)) was added, as the paper does
    assert c.points()[-1] == pytest.approx([1.0, 433 / (433 + 56164)])


# ----------------------------------------------------- point curves = score curves


ORACLE_CASES = [
    "c01_n20_r1",
    "c02_n200_r1_ties",
    "c03_n200_r20",
    "c04_n5000_r1",
    "c15_dg_table1",
    "edge_all_tied",
    "edge_perfect",
    "edge_reversed",
    "edge_tie_mixed_top",
    "edge_single_positive_middle",
]


@pytest.mark.parametrize("name", ORACLE_CASES + ["edge_top_group_negative"])
def test_counts_from_pr_curve_reproduce_oracles(name):
    case = load_case(name)
    col = case.scores[0]
    pts = prn.pr_curve(case.frame, score=col, label="label")
    c = prn.PRCurve.from_counts(pts["tp"], pts["fp"])
    hard = case.ref["prroc"]["hard"][col]
    assert c.auc("dg") == pytest.approx(hard["pr_auc_davis_goadrich"], abs=1e-12)
    assert c.auc("integral") == pytest.approx(hard["pr_auc_integral"], abs=1e-12)
    assert c.to_roc().auc() == pytest.approx(hard["roc_auc"], abs=1e-12)
    assert c.auc("ap") == pytest.approx(case.ref["sklearn"][col]["average_precision"], abs=1e-12)
    h = case.ref["hull_reference"][col]
    assert c.hull().auc("integral") == pytest.approx(h["pr_hull_auc_integral"], abs=1e-12)
    assert c.to_roc().auc(hull=True) == pytest.approx(h["roc_hull_auc"], abs=1e-12)
    # (vertex counts may differ: the reference keeps exactly collinear vertices)
    assert len(c.hull()) <= h["n_hull_vertices"]


TOP_BLOCK_NEGATIVE = {"edge_reversed", "edge_single_positive_middle"}


@pytest.mark.parametrize("name", [n for n in ORACLE_CASES if n not in TOP_BLOCK_NEGATIVE])
def test_rates_from_pr_curve_reproduce_oracles(name):
    # the same through recall/precision (as a PR table would give them) plus counts;
    # valid whenever the top block holds a positive (recall-0 points are the origin)
    case = load_case(name)
    col = case.scores[0]
    pts = prn.pr_curve(case.frame, score=col, label="label")
    P, N = pts["tp"].iloc[-1], pts["fp"].iloc[-1]
    c = prn.PRCurve(pts[["recall", "precision"]], n_pos=P, n_neg=N)
    hard = case.ref["prroc"]["hard"][col]
    assert c.auc("integral") == pytest.approx(hard["pr_auc_integral"], abs=1e-9)
    assert c.auc("dg") == pytest.approx(hard["pr_auc_davis_goadrich"], abs=1e-9)
    r = prn.roc_curve(case.frame, score=col, label="label")
    assert prn.ROCCurve(r[["fpr", "tpr"]]).auc() == pytest.approx(hard["roc_auc"], abs=1e-12)


def test_top_block_of_negatives_needs_counts():
    # from rates, a (recall 0, precision 0) point cannot carry its FP count: it is read
    # as the origin (documented), so the PRROC start at precision 0 needs counts
    case = load_case("edge_top_group_negative")
    assert case.ref["auccalculator_jar"]["top_block_has_positive"] is False
    pts = prn.pr_curve(case.frame, score="score", label="label")
    assert pts["fp"].iloc[1] > 0 and pts["tp"].iloc[1] == 0
    from_rates = prn.PRCurve(
        pts[["recall", "precision"]], n_pos=pts["tp"].iloc[-1], n_neg=pts["fp"].iloc[-1]
    )
    from_counts = prn.PRCurve.from_counts(pts["tp"], pts["fp"])
    assert from_counts.precision_at([0.0])[0] == 0.0
    assert from_rates.precision_at([0.0])[0] > 0.0
    assert len(from_rates) == len(from_counts) - 1


# ---------------------------------------------------------------- pr2roc's failures


def test_pr2roc_failure_start_point_0_1_is_the_origin():
    # pr2roc: "Precision cannot be > 0 if recall is 0"; here (0, 1) is the ROC origin
    with_start = prn.PRCurve([(0.0, 1.0), (0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
    without = prn.PRCurve([(0.25, 0.5), (0.5, 0.25)], n_pos=20, n_neg=2000)
    np.testing.assert_array_equal(with_start.points(), without.points())
    np.testing.assert_array_equal(with_start.to_roc().points()[0], [0.0, 0.0])


def test_pr2roc_failure_point_0_0_is_the_origin_not_roc_1_0():
    # pr2roc maps PR (0, 0) to ROC (1, 0) (a FloatingPointError caught as FPR 1), which
    # after sorting by FPR ends the ROC curve at TPR 0. Here it is the origin.
    c = prn.PRCurve([(0.0, 0.0), (0.25, 0.5), (0.4, 0.3), (0.5, 0.25)], pos_neg_ratio=RATIO)
    roc = c.to_roc().points()
    assert not ((roc[:, 0] == 1.0) & (roc[:, 1] == 0.0)).any()
    np.testing.assert_array_equal(roc[0], [0.0, 0.0])
    np.testing.assert_array_equal(roc[-1], [1.0, 1.0])
    np.testing.assert_array_equal(roc, _readme_curve().to_roc().points())


def test_pr2roc_failure_same_fpr_no_division_by_zero():
    # pr2roc's resample divides by (next_x - prev_x) = 0 at a repeated FPR
    r = prn.ROCCurve(fpr=[0.2, 0.2, 0.6], tpr=[0.3, 0.5, 0.8], n_pos=10, n_neg=10)
    grid = np.array([0.0, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0])
    # at FPR 0.2 the highest TPR (0.5); linear from (0.2, 0.5) on, and (0, 0) -> (0.2, 0.3)
    np.testing.assert_allclose(
        r.tpr_at(grid), [0, 0.15, 0.5, 0.65, 0.8, 0.9, 1.0], rtol=1e-14, atol=1e-15
    )
    res = r.resample(fpr=grid)
    assert np.isfinite(res.tpr).all()
    # the same in PR space: two points at one recall; the best precision counts there
    c = r.to_pr()
    assert c.precision_at([0.3])[0] == pytest.approx(3 / 5)
    assert c.precision_at([0.5])[0] == pytest.approx(5 / 7)


def test_pr2roc_failure_unsorted_input_is_sorted():
    shuffled = prn.PRCurve(recall=[0.5, 0.25, 0.4], precision=[0.25, 0.5, 0.3], pos_neg_ratio=RATIO)
    np.testing.assert_array_equal(shuffled.points(), _readme_curve().points())
    r = prn.ROCCurve([(0.375, 0.5), (0.0625, 0.25)])
    np.testing.assert_array_equal(r.fpr, [0, 0.0625, 0.375, 1])


def test_pr2roc_failure_non_monotone_input_is_a_clear_error():
    # recall up, FP down: not one ranking (pr2roc silently builds a curve from it)
    with pytest.raises(ValueError, match=r"not one curve.*point 1 \(recall=0.5, precision=0.9"):
        prn.PRCurve(recall=[0.25, 0.5], precision=[0.5, 0.9], n_pos=20, n_neg=2000)
    with pytest.raises(ValueError, match=r"not one curve.*ROCCurve.achievable"):
        prn.ROCCurve(fpr=[0.5, 0.2], tpr=[0.3, 0.6])
    # rounding in a printed table (FP down by < 1e-9 N) is absorbed
    c = prn.PRCurve(recall=[0.25, 0.3], precision=[0.5, 6 / 11 * (1 + 1e-13)], n_pos=20, n_neg=2000)
    assert len(c) == 4


def test_achievable_curve_of_operating_points_equals_brute_force_hull():
    import naive

    rng = np.random.default_rng(2)
    for _ in range(30):
        k = int(rng.integers(1, 9))
        fpr, tpr = rng.random(k).round(2), rng.random(k).round(2)
        r = prn.ROCCurve.achievable(fpr=fpr, tpr=tpr, n_pos=10, n_neg=30)
        # brute force on origin + points + end (any order of the middle points)
        tp = np.concatenate([[0.0], tpr * 10, [10.0]])
        fp = np.concatenate([[0.0], fpr * 30, [30.0]])
        idx = naive.upper_hull(tp, fp)
        ref = sorted(set(zip(fp[idx], tp[idx])))
        got = sorted(zip(r.fp, r.tp))
        np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
        assert r.auc() >= prn.ROCCurve(fpr=[0.0], tpr=[0.0]).auc() - 1e-12
    # PR: non-monotone operating points; the dominated one is dropped
    c = prn.PRCurve.achievable(
        recall=[0.2, 0.4, 0.5], precision=[0.8, 0.9, 0.4], n_pos=10, n_neg=20
    )
    np.testing.assert_allclose(c.tp, [0, 4, 10])  # (2, 0.5) and (5, 7.5) lie under
    assert (
        c.auc("integral") >= prn.PRCurve([(0.4, 0.9)], n_pos=10, n_neg=20).auc("integral") - 1e-12
    )


def test_pr2roc_failure_precision_zero_at_positive_recall_names_the_point():
    with pytest.raises(ValueError, match=r"point 1 \(recall=0.5, precision=0\).*impossible"):
        prn.PRCurve(recall=[0.25, 0.5], precision=[0.5, 0.0], n_pos=20, n_neg=2000)


def test_pr2roc_failure_numpy_error_settings_untouched():
    # pr2roc calls np.seterr(all='raise') at import; we never change them and never
    # trip them: the whole workflow runs under errstate(all='raise')
    before = np.geterr()
    with np.errstate(all="raise"):
        for pts in ([(0.0, 0.0), (0.25, 0.5), (0.5, 0.25)], [(1.0, 0.2)], [(0.0, 1.0)]):
            c = prn.PRCurve(pts, n_pos=20, n_neg=80)
            r = c.to_roc()
            r.to_pr().resample(11)
            c.resample(11, hull=True)
            r.resample(11)
            c.auc(), c.auc("integral"), c.auc("ap"), c.auc("trapezoid"), r.auc()
            c.hull().to_frame(), r.hull().to_frame()
        prn.ROCCurve(fpr=[0.2, 0.2], tpr=[0.0, 0.5], pos_neg_ratio=1).to_pr().points()
    assert np.geterr() == before


def test_precision_below_prevalence_is_a_clear_error():
    # FP = TP (1 - p) / p may not exceed the negatives
    with pytest.raises(ValueError, match=r"point 0 \(recall=1, precision=0.01\).*FP = 1980"):
        prn.PRCurve([(1.0, 0.01)], n_pos=20, n_neg=100)
    with pytest.raises(ValueError, match="N = 1 in units of pos_neg_ratio"):
        prn.PRCurve([(1.0, 0.01)], pos_neg_ratio=0.2)


# ------------------------------------------------------------------- other behaviour


def test_hull_is_the_achievable_curve():
    c = prn.PRCurve(recall=[0.2, 0.4, 0.6], precision=[0.8, 0.4, 0.5], n_pos=10, n_neg=20)
    h = c.hull()
    # (0.4, 0.4) = (TP 4, FP 6) lies under the chord (2, 0.5) -> (6, 6): dropped
    np.testing.assert_allclose(h.tp, [0, 2, 6, 10])
    np.testing.assert_allclose(h.fp, [0, 0.5, 6, 20])
    assert isinstance(h, prn.PRCurve) and isinstance(c.to_roc().hull(), prn.ROCCurve)
    assert c.auc("integral", hull=True) == pytest.approx(h.auc("integral"))
    assert c.auc("integral", hull=True) > c.auc("integral")
    np.testing.assert_allclose(c.precision_at([0.4], hull=True), h.precision_at([0.4]))
    grid = np.linspace(0.05, 0.95, 19)
    np.testing.assert_allclose(
        c.resample(recall=grid, hull=True).precision[1:-1], h.precision_at(grid), rtol=1e-15
    )
    np.testing.assert_allclose(
        c.to_roc().resample(fpr=grid, hull=True).tpr[1:-1], h.to_roc().tpr_at(grid), rtol=1e-15
    )


def test_auc_methods_and_ratio_only():
    c = prn.PRCurve(zip(README_RECALL, README_PRECISION), pos_neg_ratio=RATIO)
    assert c.auc() == c.auc("integral")  # default without counts
    with pytest.raises(ValueError, match="method='dg'.*needs class counts"):
        c.auc("dg")
    with pytest.raises(ValueError, match="not an AUC method"):
        c.auc("nope")
    # rates are scale free: counts with the same ratio give the same integral area
    c2 = prn.PRCurve(zip(README_RECALL, README_PRECISION), n_pos=25, n_neg=100)
    assert c2.auc("integral") == pytest.approx(c.auc("integral"), rel=1e-13)
    assert c2.to_roc().auc() == pytest.approx(c.to_roc().auc(), rel=1e-13)


def test_to_frame_has_the_columns_of_pr_curve_and_roc_curve():
    c = _readme_curve()
    pr_cols = list(prn.pr_curve(score=[0.9, 0.1], label=[1, 0]).columns)
    roc_cols = list(prn.roc_curve(score=[0.9, 0.1], label=[1, 0]).columns)
    f = c.to_frame()
    assert list(f.columns) == pr_cols
    assert list(c.to_roc().to_frame().columns) == roc_cols
    assert f["threshold"].isna().all()
    np.testing.assert_array_equal(f["recall"], c.recall)
    # a frame of points is accepted back
    np.testing.assert_array_equal(prn.PRCurve(f, pos_neg_ratio=RATIO).points(), c.points())


def test_roc_without_balance_and_conversions():
    r = prn.ROCCurve([(0.5, 0.8)])
    assert r.auc() == pytest.approx(0.65)
    with pytest.raises(ValueError, match="to_pr needs the class balance"):
        r.to_pr()
    r2 = prn.ROCCurve([(0.5, 0.8)], n_pos=10, n_neg=20)
    c = r2.to_pr()
    np.testing.assert_allclose(c.points()[1], [0.8, 8 / 18])
    assert c.n_pos == 10 and c.n_neg == 20 and c.pos_neg_ratio == 0.5
    # a ROC point with TPR 0 and FPR > 0 (top negatives) is precision 0 at recall 0
    r3 = prn.ROCCurve([(0.25, 0.0), (0.5, 0.5)], n_pos=4, n_neg=4)
    assert r3.to_pr().precision[1] == 0.0
    assert r3.to_pr().precision_at([0.0])[0] == 0.0
    assert "ROCCurve(fpr=" in repr(r2) and "PRCurve(recall=" in repr(c)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(recall=[0.5], precision=[0.5]), ValueError, "needs the class balance"),
        (dict(recall=[0.5], precision=[0.5], n_pos=5), ValueError, "n_neg= is missing"),
        (
            dict(recall=[0.5], precision=[0.5], n_pos=5, n_neg=5, pos_neg_ratio=1),
            ValueError,
            "not both",
        ),
        (dict(recall=[0.5], precision=[0.5], pos_neg_ratio=-1), ValueError, "pos_neg_ratio"),
        (dict(recall=[0.5], precision=[0.5], pos_neg_ratio="a"), TypeError, "pos_neg_ratio"),
        (
            dict(recall=[0.5, 1.2], precision=[0.5, 0.5], pos_neg_ratio=1),
            ValueError,
            r"recall must be finite and in \[0, 1\]; point 1",
        ),
        (dict(recall=[0.5], precision=[np.nan], pos_neg_ratio=1), ValueError, "precision must"),
        (dict(recall=[0.5, 0.6], precision=[0.5], pos_neg_ratio=1), ValueError, "2 values"),
        (dict(recall=[], precision=[], pos_neg_ratio=1), ValueError, "no points"),
        (dict(recall=["a"], precision=[0.5], pos_neg_ratio=1), TypeError, "numeric"),
        (dict(recall=[0.5], pos_neg_ratio=1), TypeError, "needs points or both"),
    ],
)
def test_prcurve_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        prn.PRCurve(**kwargs)


def test_points_argument_errors():
    with pytest.raises(ValueError, match=r"\(recall, precision\) pairs"):
        prn.PRCurve([(0.1, 0.2, 0.3)], pos_neg_ratio=1)
    with pytest.raises(ValueError, match="not both"):
        prn.PRCurve([(0.1, 0.2)], recall=[0.1], precision=[0.2], pos_neg_ratio=1)
    with pytest.raises(ValueError, match="no column"):
        prn.PRCurve(pd.DataFrame({"x": [0.1]}), pos_neg_ratio=1)
    with pytest.raises(ValueError, match="more true positives than n_pos"):
        prn.PRCurve.from_counts([1, 30], [1, 2], n_pos=20, n_neg=10)
    with pytest.raises(ValueError, match=">= 0"):
        prn.PRCurve.from_counts([1, -1], [1, 2])
    with pytest.raises(ValueError, match=r"grid must be ascending"):
        _readme_curve().precision_at([0.5, 0.2])
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        _readme_curve().precision_at([0.5, 1.5])
    with pytest.raises(TypeError, match="num_points"):
        _readme_curve().resample(2.5)
    with pytest.raises(ValueError, match="num_points"):
        _readme_curve().resample(1)


def test_no_warnings_and_copies():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = _readme_curve()
        rec = c.recall
        rec[:] = 7
        assert c.recall[1] == 0.25  # properties are copies


def test_docstring_examples_run():
    import doctest

    import prroc_numba.point_curves as mod

    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20 and result.failed == 0
