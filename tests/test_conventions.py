"""One column order and naming rule for every result frame, and docstrings that list each
parameter once (docs/guarantees.md, "Result frames").

The order: the key columns (``by`` columns, then ``model`` / ``model_a``, ``model_b``,
``class``, ``fold`` as the call adds them), then the descriptors that say what produced
the numbers, in the order ``curve``, ``method``, ``interval``, ``resampling``,
``n_boot`` (those that apply), then the values. The naming: a frame that reports an
inference about one quantity (a point estimate with its interval) calls the point
``estimate`` (``estimate_a``, ``estimate_b`` for a pair); a frame that computes a
quantity names the column after it (``auc``, ``auc_pr``, ``recall``, ...).
"""

from __future__ import annotations

import re
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba import _schema as S
from prroc_numba.data import load_demo

W = ["gbm", "logreg"]


@pytest.fixture(scope="module")
def df():
    d = load_demo().iloc[:600].copy()
    d["fold"] = np.arange(len(d)) % 3
    d["site"] = np.where(np.arange(len(d)) % 2 == 0, "a", "b")
    d["cls"] = np.arange(len(d)) % 3
    return d


def _pilot(d):
    return d[["y", "gbm"]]


#: (name, call, key columns of its frame); every public function returning frames
CALLS = [
    ("confusion", lambda d: prn.confusion(d, score=W, label="y"), ["model"]),
    ("roc_curve", lambda d: prn.roc_curve(d, score=W, label="y", by="site"), ["site", "model"]),
    ("pr_curve", lambda d: prn.pr_curve(d, score=W, label="y", fold="fold"), ["model", "fold"]),
    ("det_curve", lambda d: prn.det_curve(d, score=W, label="y"), ["model"]),
    ("prg_curve", lambda d: prn.prg_curve(d, score=W, label="y"), ["model"]),
    ("auc", lambda d: prn.auc(d, score=W, label="y", by="site"), ["site", "model"]),
    ("auc fold", lambda d: prn.auc(d, score=W, label="y", fold="fold"), ["model", "fold"]),
    (
        "auc multiclass",
        lambda d: prn.auc(d, score=["gbm", "logreg", "noise"], label="cls", multiclass="ovr"),
        ["class"],
    ),
    ("metrics", lambda d: prn.metrics(d, score=W, label="y", fold="fold"), ["model", "fold"]),
    ("bootstrap", lambda d: prn.bootstrap(d, score=W, label="y", n_boot=30, seed=1), ["model"]),
    (
        "bootstrap fold",
        lambda d: prn.bootstrap(d, score=W, label="y", n_boot=30, seed=1, fold="fold"),
        ["model", "fold"],
    ),
    (
        "compare",
        lambda d: prn.compare(d, score=W, label="y", n_boot=30, seed=1),
        ["model_a", "model_b"],
    ),
    (
        "compare fold",
        lambda d: prn.compare(d, score=W, label="y", n_boot=30, seed=1, fold="fold"),
        ["model_a", "model_b", "fold"],
    ),
    (
        "compare by",
        lambda d: prn.compare(d, score=W, label="y", n_boot=30, seed=1, by="site", combine=True),
        ["site", "model_a", "model_b"],
    ),
    (
        "compare delong",
        lambda d: prn.compare(d, score=W, label="y", curve="roc", test="delong"),
        ["model_a", "model_b"],
    ),
    ("delong", lambda d: prn.delong(d, score=W, label="y"), ["model"]),
    ("auc_ci", lambda d: prn.auc_ci(d, score=W, label="y"), ["model"]),
    (
        "bootstrap_curve",
        lambda d: prn.bootstrap_curve(d, score=W, label="y", n_boot=30, seed=1, grid=5),
        ["model"],
    ),
    (
        "operating_points",
        lambda d: prn.operating_points(d, score=W, label="y", n_boot=30, seed=1),
        ["model"],
    ),
    (
        "average_curves",
        lambda d: prn.average_curves(
            prn.pr_curve(d, score=W, label="y", by="fold"), grid=5, curve="fold", by="model"
        ),
        ["model"],
    ),
    (
        "interpolate",
        lambda d: prn.interpolate(prn.pr_curve(d, score=W, label="y"), grid=5, by="model"),
        ["model"],
    ),
    ("power", lambda d: prn.power(auc=0.7, power=0.9), []),
    (
        "power simulated",
        lambda d: prn.power(_pilot(d), score="gbm", label="y", n=[40], n_sim=4, n_boot=20),
        [],
    ),
]


@pytest.mark.parametrize("name,call,keys", CALLS, ids=[c[0] for c in CALLS])
def test_keys_then_descriptors_then_values(df, name, call, keys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined metrics on small folds are not the point
        frame = call(df)
    cols = list(frame.columns)
    assert cols[: len(keys)] == keys, f"{name}: keys first, got {cols}"
    rest = cols[len(keys) :]
    described = [c for c in rest if c in S.DESCRIPTORS]
    # the descriptors present, contiguous, right after the keys, in the one order
    assert rest[: len(described)] == described, f"{name}: descriptors after the keys: {cols}"
    assert described == [c for c in S.DESCRIPTORS if c in described], f"{name}: {cols}"
    # nothing after them is a key
    assert not set(rest[len(described) :]) & set(keys)


def test_compare_with_and_without_folds_agree_on_the_order(df):
    plain = prn.compare(df, score=W, label="y", n_boot=30, seed=1).columns
    folds = prn.compare(df, score=W, label="y", n_boot=30, seed=1, fold="fold").columns
    assert [c for c in folds if c != S.FOLD] == list(plain)


#: the naming rule's exceptions, and why
POINT_NAMED_BY_QUANTITY = {
    "delong": "the AUC and its DeLong variance (pROC's var(roc)): the frame is about `auc`",
    "bootstrap_curve": "the band is around the curve's own coordinate (`precision`, `tpr`)",
    "operating_points": "several metrics per row: `<metric>` and `<metric>_ci_low` / `_ci_high`",
}


@pytest.mark.parametrize("name,call,keys", CALLS, ids=[c[0] for c in CALLS])
def test_an_inference_calls_its_point_estimate(df, name, call, keys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cols = set(call(df).columns)
    inference = S.CI_LOW in cols  # a point with its interval
    func = name.split()[0]
    if not inference or func in POINT_NAMED_BY_QUANTITY:
        assert S.ESTIMATE not in cols
        return
    assert S.ESTIMATE in cols or {S.ESTIMATE_A, S.ESTIMATE_B} <= cols, (name, cols)
    assert S.AUC not in cols  # one name for the point


def test_power_counts_are_integers_and_say_the_area(df):
    res = prn.power(auc=0.7, power=0.9)
    assert res.n_pos.dtype.kind == "i" and res.n_neg.dtype.kind == "i"
    assert {S.CURVE, S.METHOD} <= set(res.columns)


def _documented(doc):
    names = []
    for m in re.findall(r"^    (\w+(?:, \w+)*) :", doc or "", re.M):
        names += m.split(", ")
    return names


@pytest.mark.parametrize("name", prn.__all__)
def test_docstrings_list_each_parameter_once(name):
    dup = [k for k, v in Counter(_documented(getattr(prn, name).__doc__)).items() if v > 1]
    assert not dup, f"{name}: documented more than once: {dup}"


def test_rank_models_frames_put_keys_first():
    pytest.importorskip("scipy")
    rows = [(m, d, 0.7 + 0.01 * i + 0.001 * d) for i, m in enumerate("abc") for d in range(12)]
    res = prn.rank_models(
        pd.DataFrame(rows, columns=["model", "dataset", "auc"]),
        model="model",
        dataset="dataset",
        value="auc",
    )
    assert list(res.ranks.columns[:1]) == ["model"]
    assert list(res.pairs.columns[:2]) == ["model_a", "model_b"]
