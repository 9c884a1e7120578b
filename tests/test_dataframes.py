"""polars and pyarrow frames as data: the same results as pandas; output='polars'."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import prroc_numba as prn

KINDS = ["polars", "lazy", "arrow"]


def _native(df, kind):
    if kind == "arrow":
        return pa.Table.from_pandas(df, preserve_index=False)
    frame = pl.from_pandas(df)
    return frame.lazy() if kind == "lazy" else frame


@pytest.fixture(scope="module")
def df():
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    cls = np.array(["a", "b", "c"])[rng.integers(0, 3, n)]
    return pd.DataFrame(
        {
            "m1": np.round(y + rng.normal(size=n), 1),
            "m2": rng.normal(size=n),
            "y": y,
            "g": rng.choice(["x", "z"], n),
            "w": rng.integers(1, 3, n).astype(float),
            "cls": cls,
            "a": rng.random(n),
            "b": rng.random(n),
            "c": rng.random(n),
            "unused": ["text"] * n,
        }
    )


CALLS = {
    "confusion": lambda d: prn.confusion(d, score="m1", label="y", by="g", weight="w"),
    "roc_curve": lambda d: prn.roc_curve(d, score=["m1", "m2"], label="y", hull=True),
    "pr_curve": lambda d: prn.pr_curve(d, score="m1", label="y", by="g", interpolate="dg"),
    "auc": lambda d: prn.auc(d, score=["m1", "m2"], label="y", by="g", weight="w"),
    "bootstrap": lambda d: prn.bootstrap(d, score=["m1", "m2"], label="y", n_boot=50, seed=1),
    "bootstrap_curve": lambda d: prn.bootstrap_curve(
        d, score="m1", label="y", grid=5, n_boot=50, seed=1
    ),
    "compare": lambda d: prn.compare(d, score=["m1", "m2"], label="y", n_boot=50, seed=1),
    "delong": lambda d: prn.delong(d, score=["m1", "m2"], label="y"),
    "multiclass": lambda d: prn.auc(
        d, score=["a", "b", "c"], label="cls", multiclass="ovr", average=None
    ),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("call", sorted(CALLS))
def test_same_results_as_pandas(df, kind, call):
    ref = CALLS[call](df)
    nat = _native(df, kind)
    got = CALLS[call](nat)
    pd.testing.assert_frame_equal(got, ref)


@pytest.mark.parametrize("kind", KINDS)
def test_frames_of_points_and_thresholds(df, kind):
    tuning = prn.roc_curve(df, score="m1", label="y", by="g", hull=True)
    ref = prn.confusion(df, score="m1", label="y", by="g", thresholds=tuning)
    got = prn.confusion(
        _native(df, kind), score="m1", label="y", by="g", thresholds=_native(tuning, kind)
    )
    pd.testing.assert_frame_equal(got, ref)
    pts = prn.pr_curve(df, score="m1", label="y", by="g")
    pd.testing.assert_frame_equal(
        prn.interpolate(_native(pts, kind), grid=5, by="g"), prn.interpolate(pts, grid=5, by="g")
    )


def test_inputs_never_modified(df):
    before = df.copy()
    pl_df = pl.from_pandas(df)
    pl_before = pl_df.clone()
    tab = pa.Table.from_pandas(df, preserve_index=False)
    for d in (df, pl_df, tab):
        prn.bootstrap(d, score=["m1", "m2"], label="y", weight="w", by="g", n_boot=20, seed=0)
        prn.auc(d, score=["a", "b", "c"], label="cls", multiclass="ovr", average="micro")
    pd.testing.assert_frame_equal(df, before)
    assert pl_df.equals(pl_before)
    assert tab.equals(pa.Table.from_pandas(before, preserve_index=False))


def test_lazy_frame_reads_only_the_named_columns():
    lazy = pl.LazyFrame(
        {"s": [0.9, 0.2, 0.4, 0.1], "y": [1, 0, 1, 0], "junk": ["1", "2", "x", "4"]}
    )
    # "junk" fails if it is ever evaluated; projection keeps it out
    lazy = lazy.with_columns(bad=pl.col("junk").str.to_integer())
    with pytest.raises(pl.exceptions.PolarsError):
        lazy.collect()
    got = prn.auc(lazy, score="s", label="y", curve="roc")
    assert got.auc.iloc[0] == 1.0  # both positives (0.9, 0.4) above both negatives


def test_unknown_column_and_output_option(df):
    with pytest.raises(ValueError, match="'nope' is not a column of data; available columns"):
        prn.auc(pl.from_pandas(df), score="nope", label="y")
    out = prn.auc(df, score=["m1", "m2"], label="y", by="g", output="polars")
    assert isinstance(out, pl.DataFrame)
    assert out.equals(pl.from_pandas(prn.auc(df, score=["m1", "m2"], label="y", by="g")))
    res, reps = prn.bootstrap(
        df, score="m1", label="y", n_boot=10, seed=0, return_replicates=True, output="polars"
    )
    assert isinstance(res, pl.DataFrame) and isinstance(reps, pl.DataFrame)
    with pytest.raises(ValueError, match="output='numpy' is not known"):
        prn.roc_curve(df, score="m1", label="y", output="numpy")
