"""What docs/spark.md says about pandas and pyspark, checked on both sides.

* With the pandas installed here (3.x): pyspark's own ``createDataFrame(pandas)`` and
  ``toPandas()`` warn and
  ``import pyspark.pandas`` fails, while the library's Spark calls run with every warning
  an error (the rest of the Spark tests).
* With pandas 2 (``pip install "pandas<3"``, the docs' advice for code that uses
  ``pyspark.pandas``): a child process on pandas 2 imports ``pyspark.pandas``, runs the
  library in memory and on a real local SparkSession (areas, ``output="spark"``, the
  Poisson bootstrap) with every warning an error, and gets the numbers the pandas 3
  process gets here, which scikit-learn's ``average_precision_score`` checks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import prroc_numba as prn

ROOT = Path(__file__).resolve().parents[1]
PANDAS_3 = int(pd.__version__.split(".")[0]) >= 3

_CHILD = r"""
import json, sys, warnings
warnings.simplefilter("error")
import numpy as np
import pandas as pd
import prroc_numba as prn
import pyspark.pandas  # noqa: F401  (imports with pandas 2)
from pyspark.sql import SparkSession

df = pd.DataFrame(json.loads(sys.argv[1]))
kw = {"score": "s", "label": "y", "method": "ap"}
boot = {**kw, "n_boot": 50, "seed": 1, "resampling": "poisson"}
mem = prn.auc(df, by="g", **kw)
mem_boot = prn.bootstrap(df, **boot)
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .getOrCreate())
spark.sparkContext.setLogLevel("OFF")
try:
    sdf = spark.createDataFrame(df)
    rows = len(sdf.toPandas())
    on_spark = prn.auc(sdf, by="g", **kw)
    written = prn.auc(sdf, by="g", **kw, output="spark").toPandas().sort_values("g")
    spark_boot = prn.bootstrap(sdf, **boot, row_id="rid")
finally:
    spark.stop()
print("RESULT", json.dumps({
    "pandas": pd.__version__, "rows": rows,
    "mem": mem["auc"].tolist(), "spark": on_spark["auc"].tolist(),
    "written": written["auc"].tolist(),
    "mem_boot": mem_boot[["ci_low", "ci_high"]].iloc[0].tolist(),
    "spark_boot": spark_boot[["ci_low", "ci_high"]].iloc[0].tolist(),
}))
"""


def _rows():
    rng = np.random.default_rng(3)
    y = (rng.random(3000) < 0.2).astype(int)
    s = np.round(rng.normal(size=3000) + y, 2)  # tied scores
    return pd.DataFrame({"s": s, "y": y, "g": rng.integers(0, 3, 3000), "rid": np.arange(3000)})


def _need_java():
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")


@pytest.mark.skipif(not PANDAS_3, reason="the pandas 3 statements")
def test_with_pandas_3_pyspark_pandas_fails_and_to_pandas_warns_as_the_docs_say(spark):
    code = "import warnings; warnings.simplefilter('ignore'); import pyspark.pandas"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert "cannot import name 'DateOffset'" in out.stderr
    for step in ("createDataFrame", "toPandas"):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            if step == "createDataFrame":
                sdf = spark.createDataFrame(_rows())
            else:
                sdf.toPandas()
        said = [str(w.message) for w in seen if issubclass(w.category, FutureWarning)]
        assert any("does not yet fully support pandas >= 3" in m for m in said), (step, said)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the library's own Spark calls do not warn
        got = prn.auc(sdf, score="s", label="y", by="g", method="ap")
    want = prn.auc(_rows(), score="s", label="y", by="g", method="ap")
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.mark.skipif(not PANDAS_3, reason="here pandas is already below 3")
def test_with_pandas_2_the_library_and_pyspark_pandas_run(tmp_path):
    """The docs' advice for ``pyspark.pandas`` users: pandas 2, in a child process."""
    _need_java()
    target = tmp_path / "pandas2"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
    got = subprocess.run(
        [*pip, str(target), "pandas>=2.0,<3", "pytz"], capture_output=True, text=True
    )
    if got.returncode != 0:
        pytest.skip(f"pandas 2 could not be installed here: {got.stderr[-300:]}")
    df = _rows()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)]),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
    }
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps({c: df[c].tolist() for c in df.columns})],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT ")]
    assert out.returncode == 0 and said, out.stdout[-2000:] + out.stderr[-3000:]
    res = json.loads(said[0][len("RESULT ") :])
    assert res["pandas"].startswith("2.") and res["rows"] == len(df)
    from sklearn.metrics import average_precision_score

    by_group = df.groupby("g")
    want = [average_precision_score(part["y"], part["s"]) for _, part in by_group]
    here = prn.auc(df, score="s", label="y", by="g", method="ap")["auc"].tolist()
    np.testing.assert_allclose(here, want, rtol=0, atol=1e-12)
    for key in ("mem", "spark", "written"):
        assert res[key] == here, key  # the same bits as under pandas 3
    boot = prn.bootstrap(
        df, score="s", label="y", method="ap", n_boot=50, seed=1, resampling="poisson"
    )
    assert res["mem_boot"] == boot[["ci_low", "ci_high"]].iloc[0].tolist()
    np.testing.assert_allclose(res["spark_boot"], res["mem_boot"], rtol=0, atol=1e-12)
