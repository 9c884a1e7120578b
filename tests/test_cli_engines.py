"""The command line as a nightly job: a Parquet dataset directory (hive partitions read
as columns) or a glob as input, ``--engine spark`` / ``--engine dask`` running the same
command there, ``--out results.parquet``.

Each result is compared with the in-memory library call on the original rows (itself
checked against the oracles, scikit-learn and naive.py elsewhere). Spark: the real
local session of the ``spark`` fixture (the command uses the running session and
leaves it running). Dask: the command starts a real ``LocalCluster`` and closes it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn
from prroc_numba.cli import main


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    """A Parquet dataset partitioned by ``seg`` (key=value folders), and its rows."""
    rng = np.random.default_rng(5)
    n = 3000
    y = rng.integers(0, 2, n)
    df = pd.DataFrame(
        {
            "seg": rng.integers(0, 3, n),
            "y": y,
            "s": np.round(y + rng.normal(size=n), 3),
            "t": rng.integers(0, 8, n) / 8.0,
            "rid": np.arange(n, dtype=np.int64),
        }
    )
    root = tmp_path_factory.mktemp("lake") / "preds"
    df.to_parquet(root, partition_cols=["seg"])
    return df, root


def _cli(args, out):
    assert main([*args, "--out", str(out)]) == 0
    return pd.read_parquet(out)


def _want(fn, df, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.UndefinedMetricWarning)
        return fn(df, **kw)


def _same(got, want):
    pd.testing.assert_frame_equal(
        got.reset_index(drop=True), want.reset_index(drop=True), check_dtype=False, rtol=1e-12
    )


METRICS = ["metrics", "--label", "y", "--score", "s", "t", "--by", "seg"]


def test_a_dataset_directory_and_a_glob_in_memory(lake, tmp_path, capsys):
    df, root = lake
    want = _want(prn.metrics, df, score=["s", "t"], label="y", by="seg")
    _same(_cli([METRICS[0], str(root), *METRICS[1:]], tmp_path / "a.parquet"), want)
    glob = str(root / "*" / "*.parquet")
    _same(_cli([METRICS[0], glob, *METRICS[1:]], tmp_path / "b.parquet"), want)
    assert main([METRICS[0], str(root / "nope*.parquet"), *METRICS[1:]]) == 2
    assert "no file matches" in capsys.readouterr().err


def test_engine_spark_runs_the_same_command(spark, lake, tmp_path):
    df, root = lake
    want = _want(prn.metrics, df, score=["s", "t"], label="y", by="seg")
    got = _cli([METRICS[0], str(root), *METRICS[1:], "--engine", "spark"], tmp_path / "m.parquet")
    _same(got, want)
    assert spark.sparkContext._jsc is not None  # the running session was left running
    boot = ["bootstrap", str(root), "--label", "y", "--score", "s", "--by", "seg"]
    boot += ["--n-boot", "50", "--seed", "3", "--resampling", "poisson", "--no-progress"]
    got = _cli([*boot, "--engine", "spark", "--row-id", "rid"], tmp_path / "b.parquet")
    kw = {"score": "s", "label": "y", "by": "seg", "n_boot": 50, "seed": 3}
    want = _want(prn.bootstrap, df, **kw, resampling="poisson", progress=False)
    _same(got, want)


def test_engine_dask_runs_the_same_command(lake, tmp_path):
    pytest.importorskip("distributed")
    df, root = lake
    want = _want(prn.auc, df, score=["s", "t"], label="y", by="seg", curve="roc")
    args = ["auc", str(root), "--label", "y", "--score", "s", "t", "--by", "seg"]
    got = _cli([*args, "--curve", "roc", "--engine", "dask"], tmp_path / "d.parquet")
    _same(got, want)


def test_master_needs_an_engine(lake, capsys):
    _df, root = lake
    assert main([METRICS[0], str(root), *METRICS[1:], "--master", "local[1]"]) == 2
    assert "--master applies to --engine spark or dask" in capsys.readouterr().err


def test_the_engines_readers_name_a_missing_column(spark, lake):
    """Both engines' readers refuse a column the dataset lacks, naming it and the
    columns it has, before any task runs."""
    from prroc_numba._spark.command_input import read as spark_read

    pytest.importorskip("dask.dataframe")
    from prroc_numba._dask.command_input import read as dask_read

    _df, root = lake
    for read, session in ((dask_read, None), (spark_read, spark)):
        with pytest.raises(ValueError, match=r"'nope' is not a column of .*available columns: .*y"):
            read(session, str(root), "parquet", ["y", "nope"])
        assert list(read(session, str(root), "parquet", ["y", "s"]).columns) == ["y", "s"]
