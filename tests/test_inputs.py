"""Every kind of bad input gets a clear error naming the argument, the group and the fix;
undefined metrics give NaN with a warning naming the curve."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

ALL = [prn.confusion, prn.roc_curve, prn.pr_curve, prn.auc]


@pytest.fixture
def df():
    return pd.DataFrame(
        {
            "s": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
            "t": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
            "y": [1, 0, 1, 0, 1, 0],
            "g": ["a", "a", "a", "b", "b", "b"],
            "w": [1.0, 2.0, 1.0, 1.0, 1.0, 1.0],
        }
    )


@pytest.mark.parametrize("fn", ALL)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_score_names_group(fn, df, bad):
    df.loc[4, "s"] = bad
    with pytest.raises(ValueError, match=r"score has 1 NaN or infinite.*g='b'.*drop or impute"):
        fn(df, score="s", label="y", by="g")


def test_nonfinite_score_names_model(df):
    df.loc[0, "t"] = np.nan
    with pytest.raises(ValueError, match=r"model='t'"):
        prn.auc(df, score=["s", "t"], label="y")


def test_labels_outside_set(df):
    df.loc[0, "y"] = 2
    with pytest.raises(ValueError, match=r"label has values \{0, 1, 2\}.*pos_label="):
        prn.auc(df, score="s", label="y")


def test_string_labels_need_pos_label(df):
    df["c"] = np.where(df["y"] == 1, "case", "control")
    with pytest.raises(ValueError, match=r"'case', 'control'.*pos_label="):
        prn.auc(df, score="s", label="c")
    out = prn.auc(df, score="s", label="c", pos_label="case")
    assert out["auc"].iloc[0] == prn.auc(df, score="s", label="y")["auc"].iloc[0]


def test_three_values_with_pos_label(df):
    df["c"] = ["a", "b", "c", "a", "b", "c"]
    with pytest.raises(ValueError, match=r"3 distinct values.*binary"):
        prn.auc(df, score="s", label="c", pos_label="a")


def test_missing_labels(df):
    df["c"] = df["y"].astype(float)
    df.loc[1, "c"] = np.nan
    with pytest.raises(ValueError, match=r"label has missing"):
        prn.auc(df, score="s", label="c")
    with pytest.raises(ValueError, match=r"label has missing"):
        prn.auc(
            df, score="s", label=df["c"].astype(object).where(df["c"].notna(), None), pos_label=1.0
        )


def test_fractional_labels_need_soft_labels(df):
    df["p"] = [0.9, 0.1, 0.7, 0.2, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"fractional.*soft_labels=True"):
        prn.auc(df, score="s", label="p")
    assert np.isfinite(prn.auc(df, score="s", label="p", soft_labels=True)["auc"].iloc[0])


def test_soft_labels_outside_unit_interval(df):
    df["p"] = [0.9, 1.2, 0.7, 0.2, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"soft labels outside \[0, 1\]"):
        prn.auc(df, score="s", label="p", soft_labels=True)
    with pytest.raises(ValueError, match=r"pos_label= has no meaning"):
        prn.auc(df, score="s", label="y", soft_labels=True, pos_label=1)


@pytest.mark.parametrize("bad", [-1.0, np.nan, np.inf])
def test_bad_weights(df, bad):
    df.loc[2, "w"] = bad
    with pytest.raises(ValueError, match=r"weight has 1 negative, NaN or infinite.*>= 0"):
        prn.auc(df, score="s", label="y", weight="w")


def test_length_mismatch():
    with pytest.raises(ValueError, match=r"label has 3 rows but score has 4"):
        prn.auc(score=[0.1, 0.2, 0.3, 0.4], label=[0, 1, 0])
    with pytest.raises(ValueError, match=r"weight has 2 rows but score has 4"):
        prn.auc(score=[0.1, 0.2, 0.3, 0.4], label=[0, 1, 0, 1], weight=[1, 2])
    with pytest.raises(ValueError, match=r"by has 5 rows but score has 4"):
        prn.auc(score=[0.1, 0.2, 0.3, 0.4], label=[0, 1, 0, 1], by=[1, 1, 2, 2, 2])


@pytest.mark.parametrize("arg", ["score", "label", "by", "weight"])
def test_unknown_column(df, arg):
    kw = {"score": "s", "label": "y", arg: "nope"}
    with pytest.raises(ValueError, match=rf"{arg}='nope' is not a column of data; available"):
        prn.auc(df, **kw)


def test_unknown_column_in_wide_list(df):
    with pytest.raises(ValueError, match=r"score='m9' is not a column"):
        prn.auc(df, score=["s", "m9"], label="y")
    with pytest.raises(ValueError, match=r"lists a column twice"):
        prn.auc(df, score=["s", "s"], label="y")


def test_empty_input(df):
    with pytest.raises(ValueError, match=r"empty input"):
        prn.auc(df.iloc[:0], score="s", label="y")
    with pytest.raises(ValueError, match=r"empty input"):
        prn.auc(score=[], label=[])
    with pytest.raises(ValueError, match=r"no model"):
        prn.auc(score=np.empty((5, 0)), label=[0, 1, 0, 1, 0])


def test_empty_group(df):
    df.loc[df["g"] == "b", "w"] = 0.0
    with pytest.raises(ValueError, match=r"g='b' has total weight 0 \(empty group\)"):
        prn.auc(df, score="s", label="y", by="g", weight="w")
    with pytest.raises(ValueError, match=r"weight is 0 for every row"):
        prn.auc(df, score="s", label="y", weight=np.zeros(len(df)))


def test_missing_group_keys(df):
    df.loc[0, "g"] = None
    with pytest.raises(ValueError, match=r"by column 'g' has 1 missing.*fillna"):
        prn.auc(df, score="s", label="y", by="g")


def test_names_without_data():
    with pytest.raises(TypeError, match=r"names column\(s\) but data is None"):
        prn.auc(score="s", label=[0, 1])
    with pytest.raises(TypeError, match=r"label='y' names a column but data is None"):
        prn.auc(score=[0.1, 0.2], label="y")


def test_data_must_be_frame():
    with pytest.raises(TypeError, match=r"data must be a pandas DataFrame"):
        prn.auc({"s": [0.1]}, score="s", label="y")


def test_non_numeric_score(df):
    df["z"] = ["a", "b", "c", "d", "e", "f"]
    with pytest.raises(TypeError, match=r"score column 'z' must be numeric"):
        prn.auc(df, score="z", label="y")
    with pytest.raises(TypeError, match=r"score must be"):
        prn.auc(score=3.0, label=[1])
    with pytest.raises(ValueError, match=r"score must be 1-D or 2-D"):
        prn.auc(score=np.zeros((2, 2, 2)), label=[1, 0])


def test_unknown_curve_and_method(df):
    with pytest.raises(ValueError, match=r"curve='det' is not known; use 'pr' or 'roc'"):
        prn.auc(df, score="s", label="y", curve="det")
    with pytest.raises(ValueError, match=r"method='simpson'.*'ap', 'dg', 'integral', 'trapezoid'"):
        prn.auc(df, score="s", label="y", method="simpson")
    with pytest.raises(ValueError, match=r"method='dg' is not an AUC method for curve='roc'"):
        prn.auc(df, score="s", label="y", curve="roc", method="dg")


def test_auc_pr_wants_one_curve():
    with pytest.raises(ValueError, match=r"y_score must be 1-D.*use auc\("):
        prn.auc_pr([0, 1], np.zeros((2, 2)))


# ------------------------------------------------------------------ undefined metrics


def test_single_class_curve_warns_and_gives_nan(df):
    df.loc[df["g"] == "b", "y"] = 0  # group b: no positives
    with pytest.warns(prn.UndefinedMetricWarning, match=r"AUC-PR.*g='b'"):
        out = prn.auc(df, score="s", label="y", by="g")
    assert np.isfinite(out["auc"].iloc[0]) and np.isnan(out["auc"].iloc[1])
    with pytest.warns(prn.UndefinedMetricWarning, match=r"AUC-ROC.*g='b'"):
        out = prn.auc(df, score="s", label="y", by="g", curve="roc")
    assert np.isnan(out["auc"].iloc[1])
    with pytest.warns(prn.UndefinedMetricWarning, match=r"recall is NaN for g='b'"):
        pr = prn.pr_curve(df, score="s", label="y", by="g")
    assert pr.loc[pr["g"] == "b", "recall"].isna().all()
    with pytest.warns(prn.UndefinedMetricWarning, match=r"tpr or fpr is NaN for g='b'"):
        roc = prn.roc_curve(df, score="s", label="y", by="g")
    assert roc.loc[roc["g"] == "b", "tpr"].isna().all()
    assert roc.loc[roc["g"] == "b", "fpr"].notna().all()


def test_no_negatives(df):
    df["y"] = 1
    with pytest.warns(prn.UndefinedMetricWarning, match=r"AUC-ROC"):
        assert np.isnan(prn.auc(df, score="s", label="y", curve="roc")["auc"].iloc[0])
    # PR needs positives only: with no negatives precision is 1 everywhere
    for m in ["ap", "dg", "integral", "trapezoid"]:
        assert prn.auc(df, score="s", label="y", method=m)["auc"].iloc[0] == pytest.approx(1.0)


def test_warning_names_at_most_five(df):
    rng = np.random.default_rng(0)
    big = pd.DataFrame({"s": rng.normal(size=80), "y": 0, "g": np.repeat(np.arange(8), 10)})
    with pytest.warns(prn.UndefinedMetricWarning, match=r"g=4 and 3 more"):
        prn.auc(big, score="s", label="y", by="g")


@pytest.mark.parametrize("n_groups", [3, 300, 70_000])
def test_rows_are_grouped_in_a_stable_order_whatever_the_number_of_groups(n_groups):
    """pack's grouping sorts the group codes as 8- or 16-bit integers where they fit
    (numpy's radix sort): the order must be the stable order of the codes."""
    from prroc_numba._core.packing import group_order

    codes = np.random.default_rng(n_groups).integers(0, n_groups, 200_000)
    codes[:n_groups] = np.arange(n_groups)  # every group present
    keys = pd.DataFrame({"g": codes})  # each row's key
    order, offsets, group_keys = group_order(codes, keys, None, codes.size)
    np.testing.assert_array_equal(order, np.argsort(codes, kind="mergesort"))
    np.testing.assert_array_equal(np.diff(offsets), np.bincount(codes))
    np.testing.assert_array_equal(group_keys["g"], np.arange(n_groups))


def test_numbered_columns_are_names_and_lengths_must_match_data():
    """A frame whose columns are numbered (``pd.DataFrame(array)``): ``score=[0, 1]``
    names two columns (compared with scikit-learn per column), never two scores; an
    array of another length than data is refused, naming both lengths."""
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(5)
    n = 300
    df = pd.DataFrame({0: rng.random(n), 1: rng.random(n), "y": rng.random(n) < 0.3})
    res = prn.auc(df, score=[0, 1], label="y", method="ap")
    assert res["model"].tolist() == [0, 1]
    for m in (0, 1):
        want = average_precision_score(df["y"], df[m])
        assert res["auc"].iloc[m] == pytest.approx(want, abs=1e-12)
    cmp = prn.compare(df, score=[0, 1], label="y", method="ap", n_boot=20, seed=0)
    assert cmp["diff"].iloc[0] == pytest.approx(res["auc"].iloc[0] - res["auc"].iloc[1])
    with pytest.raises(ValueError, match="score has 2 rows but data has 300"):
        prn.auc(df, score=[0.5, 0.2], label="y")
