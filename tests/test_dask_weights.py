"""Dask frames with float weights: the same bits on every partitioning.

On a real distributed LocalCluster (2 worker processes). The rows hold tied scores (one
(curve, score) entry takes rows from several partitions) and continuous weights (whose
float sums change with the order they are added in); each partition's masses are summed
exactly (integer limbs) and the tree merge adds them exactly. The reference is the
in-memory call on the same rows (checked against the oracles, scikit-learn and naive.py
elsewhere), to 1e-12.
"""

from __future__ import annotations

import warnings

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.engine_fixtures import client as client  # noqa: F401 (the LocalCluster)
from tests.engine_fixtures import edge_frame

#: Dask reads the string key column as its own string dtype
CLOSE = {"check_exact": False, "rtol": 1e-12, "atol": 1e-13, "check_dtype": False}
METRICS = ("auc_pr", "auc_pr_integral", "ap", "auc_roc", "n_pos", "n_neg")


@pytest.fixture(scope="module")
def df():
    rng = np.random.default_rng(44)
    df = edge_frame(1500, 44, "rid")
    w = np.exp(rng.uniform(np.log(1e-6), np.log(1e4), len(df)))  # every row its own
    return df.assign(w=np.where(rng.random(len(df)) < 0.05, 0.0, w), c=rng.normal(size=len(df)))


def _frames(df):
    return [dd.from_pandas(df, npartitions=k) for k in (1, 1, 3, 5, 7)]


@pytest.mark.parametrize("mode", ["table", "auto"])
def test_float_weights_give_the_same_bits_on_every_partitioning(client, df, mode):
    kw = {"score": ["a", "c"], "label": "y", "by": "g", "weight": "w"}
    with dask.config.set({"prroc_numba.dask_exact": mode}), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # group 'w'
        got = [prn.metrics(f, **kw, metrics=METRICS) for f in _frames(df)]
        areas = [prn.auc(f, **kw) for f in _frames(df)]
        want = prn.metrics(df, **kw, metrics=METRICS)
        want_auc = prn.auc(df, **kw)
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], check_exact=True)
    for other in areas[1:]:
        pd.testing.assert_frame_equal(other, areas[0], check_exact=True)
    pd.testing.assert_frame_equal(got[0], want, **CLOSE)
    pd.testing.assert_frame_equal(areas[0], want_auc, **CLOSE)


def test_the_weighted_bootstrap_gives_the_same_bits_on_every_partitioning(client, df):
    kw = {"score": ["a", "c"], "label": "y", "weight": "w", "n_boot": 20, "seed": 7}
    kw["resampling"] = "poisson"
    with dask.config.set({"prroc_numba.dask_exact": "table"}), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = [prn.bootstrap(f, **kw) for f in _frames(df)]
        want = prn.bootstrap(df, **kw)
    for other in got[1:]:
        pd.testing.assert_frame_equal(other, got[0], check_exact=True)
    pd.testing.assert_frame_equal(got[0], want, **CLOSE)


def test_a_weight_the_limbs_do_not_take_keeps_the_float_sums(client, df):
    df = df.assign(w=np.where(df["rid"] == 5, 1e-9, df["w"]))
    kw = {"score": "a", "label": "y", "by": "g", "weight": "w", "metrics": METRICS}
    with dask.config.set({"prroc_numba.dask_exact": "table"}), warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        got = prn.metrics(dd.from_pandas(df, npartitions=4), **kw)
        want = prn.metrics(df, **kw)
    pd.testing.assert_frame_equal(got, want, **CLOSE)
