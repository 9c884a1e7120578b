"""Spark Connect: the same calls on a DataFrame of a Spark Connect session.

The wing uses the DataFrame API only, so a ``pyspark.sql.connect`` DataFrame (a client
of a Spark Connect server) takes the same paths as a classic one. A real local server is
started (``SparkSession.builder.remote("local[2]")``) in a child process: a process
holds one SparkContext, and the classic session of the other Spark tests has no Connect
service. Every function is compared with the in-memory call on the same rows, on each
path (Spark's group-by, the partitions' tables, the score ranges), and the Poisson
bootstrap with ``row_id=`` with the in-memory ``resampling="poisson"`` replicates.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import os, sys, warnings
warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
sys.path.insert(0, sys.argv[1])  # tests/: the frame and the calls of test_spark
import pandas as pd
import prroc_numba as prn
import test_spark as T
from pyspark.sql import SparkSession

spark = (
    SparkSession.builder.remote("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "4")
    .config("spark.local.dir", sys.argv[2])
    .config("spark.executorEnv.PYTHONPATH", os.environ["PYTHONPATH"])
    .getOrCreate()
)
from pyspark.sql.connect.dataframe import DataFrame as ConnectFrame

df = T._frame(n=600)
sdf = T._sdf(spark, df)
assert isinstance(sdf, ConnectFrame), type(sdf)
for mode in ("auto", "partitions", "ranges"):
    spark.conf.set("prroc_numba.spark_exact", mode)
    tol = T.ROUNDED if mode == "ranges" else T.EXACT
    for kw in (T.LONG, T.WIDE):
        for fn, extra in T.CALLS:
            small = extra.get("hull") or "thresholds" in extra or fn in (prn.auc, prn.metrics)
            if mode == "ranges" and not small:
                continue  # every vertex in one place: refused above the size (test_spark)
            T._same(fn, df, sdf, tol, **kw, **extra)
        print(mode, "every function", flush=True)
spark.conf.unset("prroc_numba.spark_exact")
boot = {"n_boot": 30, "seed": 4, "resampling": "poisson", "return_replicates": True}
with warnings.catch_warnings():
    warnings.simplefilter("ignore", prn.UndefinedMetricWarning)  # the group without positives
    want = prn.bootstrap(df, **T.WIDE, **boot)
    got = prn.bootstrap(sdf.repartition(3, "g"), **T.WIDE, **boot, row_id="rid")
for a, b in zip(got, want):
    pd.testing.assert_frame_equal(a, b, check_exact=True)
ckw = {"score": ["a", "b"], "label": "y", "n_boot": 30, "seed": 2, "resampling": "poisson"}
pd.testing.assert_frame_equal(
    prn.compare(sdf, **ckw, row_id="rid"), prn.compare(df, **ckw), check_exact=True
)
print("bootstrap and compare", flush=True)
spark.stop()
print("ok")
"""


@pytest.mark.slow
def test_every_function_on_a_spark_connect_session(tmp_path):
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    pytest.importorskip("grpc", reason="Spark Connect's client needs pyspark[connect]")
    env = {
        **os.environ,
        "PYSPARK_PYTHON": sys.executable,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
    }
    env.pop("SPARK_REMOTE", None)
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, str(ROOT / "tests"), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=900,
        check=False,
    )
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-4000:]
    assert res.stdout.splitlines()[-1] == "ok", res.stdout
