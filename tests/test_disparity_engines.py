"""disparity() on Dask (a real LocalCluster) and Spark (a real local SparkSession): the
Poisson bootstrap on the workers equals the in-memory ``resampling="poisson"`` call for
the same seed -- every group's area, every gap, summary and change against a baseline,
exactly (each row's count is keyed by (seed, replicate, row) whatever the grouping)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from tests.test_dask import client as client  # noqa: F401 (the LocalCluster fixture)

KW = {"score": ["m1", "m2"], "label": "y", "group": "g", "by": "site", "n_boot": 40}
KW |= {"seed": 4, "baseline": "m1", "resampling": "poisson", "stratified": False}
EXACT = {"check_dtype": False, "rtol": 0, "atol": 0}


def _frame(n=900, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(np.int64)
    return pd.DataFrame(
        {
            "y": y,
            "g": rng.choice(list("abc"), n),
            "site": rng.choice(["s1", "s2"], n),
            "m1": np.round(y + rng.normal(size=n), 1),  # ties
            "m2": np.round(0.5 * y + rng.normal(size=n), 2),
            "rid": np.arange(n, dtype=np.int64),
        }
    )


@pytest.mark.parametrize("reference", ["overall", "b", "between_groups", "to_overall"])
def test_dask_equals_in_memory(client, reference):  # noqa: F811 (the fixture)
    dd = pytest.importorskip("dask.dataframe")
    df = _frame()
    want = prn.disparity(df, **KW, reference=reference)
    got = prn.disparity(dd.from_pandas(df, npartitions=4), **KW, reference=reference)
    pd.testing.assert_frame_equal(got, want, **EXACT)


def test_dask_score_ranges_equal_in_memory(client):  # noqa: F811 (the fixture)
    """Continuous scores through the score ranges (the path of large frames): every
    range continues the higher ranges' sums in sweep order, so the frame is exact too."""
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(1)
    df = _frame(n=1500, seed=1)
    df["m1"] = df["y"] + rng.normal(size=len(df))  # continuous: one entry per row
    df["m2"] = 0.5 * df["y"] + rng.normal(size=len(df))
    kw = {**KW, "method": "dg", "reference": "between_groups"}
    want = prn.disparity(df, **kw)
    with dask.config.set({"prroc_numba.dask_exact": "ranges", "prroc_numba.dask_ranges": 5}):
        got = prn.disparity(dd.from_pandas(df, npartitions=4), **kw)
    pd.testing.assert_frame_equal(got, want, **EXACT)


def test_dask_errors(client):  # noqa: F811 (the fixture)
    dd = pytest.importorskip("dask.dataframe")
    df = _frame()
    bad = dd.from_pandas(df.assign(g=df.g.where(df.index > 3)), npartitions=3)
    with pytest.raises(ValueError, match="'g' has 4 missing values"):
        prn.disparity(bad, **KW)
    one = dd.from_pandas(df.assign(g="a"), npartitions=3)
    with pytest.raises(ValueError, match="one group only"):
        prn.disparity(one, **KW)
    with pytest.raises(ValueError, match="stratified=True cannot be combined"):
        prn.disparity(dd.from_pandas(df, npartitions=2), **{**KW, "stratified": True})


def test_spark_equals_in_memory(spark):
    df = _frame()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        sdf = spark.createDataFrame(df).repartitionByRange(3, "rid").cache()
    want = prn.disparity(df, **KW)
    got = prn.disparity(sdf, **KW, row_id="rid")
    pd.testing.assert_frame_equal(got, want, **EXACT)
    want = prn.disparity(df, **KW, reference="between_groups")
    got = prn.disparity(sdf, **KW, reference="between_groups", row_id="rid")
    pd.testing.assert_frame_equal(got, want, **EXACT)
