"""Spark input with float weights: the same bits on every run and partitioning.

On the real local SparkSession of the ``spark`` fixture, each path forced with the conf
``prroc_numba.spark_exact``. The rows hold tied scores (so one (curve, score) entry
takes rows from several partitions) and continuous weights (whose float sums change
with the order they are added in). The reference is the in-memory call on the same
rows (checked against the oracles, scikit-learn and naive.py elsewhere), to 1e-12; the
exact sums themselves are checked against Python's exact fractions.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from test_spark import EXACT, _frame, _mode, _sdf

import prroc_numba as prn
from prroc_numba._core import mass_limbs as ML

CLOSE = {"check_exact": False, "rtol": 1e-12, "atol": 1e-13}
METRICS = ("auc_pr", "auc_pr_integral", "ap", "auc_roc", "auc_roc_hull", "n_pos", "n_neg")


@pytest.fixture(scope="module")
def data(spark):
    rng = np.random.default_rng(44)
    df = _frame(n=1500, seed=44)
    w = np.exp(rng.uniform(np.log(1e-6), np.log(1e4), len(df)))  # every row its own
    df = df.assign(w=np.where(rng.random(len(df)) < 0.05, 0.0, w), c=rng.normal(size=len(df)))
    sdf = _sdf(spark, df, 4)
    return df, [sdf, sdf, sdf.repartition(3, "g"), sdf.coalesce(1), sdf.repartition(5)]


def test_limbs_sum_exactly_in_any_order():
    rng = np.random.default_rng(1)
    x = np.exp(rng.uniform(np.log(1e-6), np.log(1e4), 5000))
    x[::9] = 0.0
    x[1], x[2] = ML.LOW, np.nextafter(ML.HIGH, 0)
    want = sum(map(Fraction, x))
    lm = ML.limbs(x)
    got = []
    for order in (np.arange(x.size), rng.permutation(x.size), np.argsort(x)):
        hi, lo = ML.wire_pair(ML.limb_sums(lm[order], np.array([0])))
        assert Fraction(int(hi[0]) * 2**62 + int(lo[0]), 2**72) == want
        got.append(ML.limb_floats(ML.from_wire(hi, lo))[0])
    assert got[0] == got[1] == got[2]
    assert abs(got[0] - float(want)) <= 2 * np.spacing(float(want))
    # what the limbs do not take: the caller keeps the float sums
    for bad in (1e-7, 2.0**20, -1.0, np.nan, np.inf):
        assert ML.limbs(np.array([1.0, bad])) is None


@pytest.mark.parametrize("mode", ["partitions", "ranges"])
def test_float_weights_give_the_same_bits_on_every_partitioning(spark, data, mode):
    df, frames = data
    kw = {"score": ["a", "c"], "label": "y", "by": "g", "weight": "w"}
    spark.conf.set("prroc_numba.spark_ranges", "4")
    try:
        with _mode(spark, mode), warnings.catch_warnings():
            warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
            got = [prn.metrics(f, **kw, metrics=METRICS) for f in frames]
            areas = [prn.auc(f, **kw) for f in frames]
            want = prn.metrics(df, **kw, metrics=METRICS)
            want_auc = prn.auc(df, **kw)
    finally:
        spark.conf.unset("prroc_numba.spark_ranges")
    assert {g.attrs["spark_path"] for g in got} == {mode}
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], **EXACT)
    for other in areas[1:]:
        pd.testing.assert_frame_equal(other, areas[0], **EXACT)
    pd.testing.assert_frame_equal(got[0], want, **CLOSE)
    pd.testing.assert_frame_equal(areas[0], want_auc, **CLOSE)


def test_a_weight_the_limbs_do_not_take_keeps_the_float_sums(spark, data):
    """A weight below 2**-20 (allowed in memory): the partitions' float sums, as
    before, equal to the in-memory call to rounding."""
    df, _frames = data
    df = df.assign(w=np.where(df["rid"] == 5, 1e-9, df["w"]))
    kw = {"score": "a", "label": "y", "by": "g", "weight": "w", "metrics": METRICS}
    with _mode(spark, "partitions"), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = prn.metrics(_sdf(spark, df, 4), **kw)
        want = prn.metrics(df, **kw)
    pd.testing.assert_frame_equal(got, want, **CLOSE)


@pytest.mark.parametrize("mode", ["partitions", "ranges"])
def test_the_weighted_bootstrap_gives_the_same_bits_on_every_partitioning(spark, data, mode):
    df, frames = data
    kw = {"score": "a", "label": "y", "weight": "w", "n_boot": 20, "seed": 7}
    kw["resampling"] = "poisson"
    spark.conf.set("prroc_numba.spark_ranges", "4")
    try:
        with _mode(spark, mode), warnings.catch_warnings():
            warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
            got = [prn.bootstrap(f, **kw, row_id="rid") for f in frames]
            want = prn.bootstrap(df, **kw)
    finally:
        spark.conf.unset("prroc_numba.spark_ranges")
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], **EXACT)
    pd.testing.assert_frame_equal(got[0], want, **CLOSE)


def test_weighted_continuous_scores_collected_give_the_same_bits_on_every_partitioning(data):
    """``auto`` collects mostly distinct weighted scores to the driver (the table path):
    sorted by value before they are packed, their sums do not depend on the order Spark
    returns the rows in."""
    df, frames = data
    kw = {"score": "c", "label": "y", "by": "g", "weight": "w"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = [prn.metrics(f, **kw, metrics=METRICS) for f in frames]
        want = prn.metrics(df, **kw, metrics=METRICS)
        # the same rows in another order in memory: only the last bit may move there
        shuffled = prn.metrics(df.sample(frac=1.0, random_state=1), **kw, metrics=METRICS)
    assert {g.attrs["spark_path"] for g in got} == {"table"}
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], **EXACT)
    pd.testing.assert_frame_equal(got[0], want, **CLOSE)
    pd.testing.assert_frame_equal(shuffled, want, **CLOSE)


def test_a_bad_weight_in_collected_rows_is_named_in_sparks_row_order(spark, data):
    """The collected weighted rows are sorted before packing; a failed check is raised
    as the in-memory call raises it on the rows in the order Spark returned them (here
    the frame's: one partition), and says so."""
    from prroc_numba._spark.grouped import COLLECTED_ROWS

    df, _frames = data
    bad = df.assign(w=np.where(df["rid"] == 7, -1.0, df["w"]))
    kw = {"score": "c", "label": "y", "by": "g", "weight": "w"}
    with pytest.raises(ValueError) as on_spark:
        prn.auc(_sdf(spark, bad, 1), **kw)
    with pytest.raises(ValueError) as in_memory:
        prn.auc(bad, **kw)
    assert str(on_spark.value) == f"{in_memory.value} {COLLECTED_ROWS}"


@pytest.mark.parametrize("score", ["s", ["s", "t"]])
def test_collected_rows_are_put_in_one_order_whatever_order_they_came_in(score):
    """The order the collected weighted rows are packed in depends on their values only:
    any permutation of the same rows (tied scores, several groups, duplicate rows) gives
    the same frame."""
    from prroc_numba._spark.grouped import _value_order

    rng = np.random.default_rng(5)
    n = 400
    df = pd.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "s": np.round(rng.normal(size=n), 1),  # many ties
            "t": rng.normal(size=n),
            "y": rng.integers(0, 2, n),
            "w": rng.choice([0.1, 0.2, 0.3, 1e-3], n),
        }
    )
    df = pd.concat([df, df.iloc[:50]], ignore_index=True)  # rows equal in every column
    want = _value_order(df, score)
    for seed in range(3):
        shuffled = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
        pd.testing.assert_frame_equal(_value_order(shuffled, score), want, check_exact=True)
    if isinstance(score, str):  # by the score first
        assert (np.diff(want["s"].to_numpy()) >= 0).all()
