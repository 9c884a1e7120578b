"""Spark's Python workers on another interpreter than the driver: the first call says
so, with the fix, instead of a worker's traceback in a Java stack trace.

A real local SparkSession in a child process (a process holds one SparkContext) whose
workers run a bare virtual environment of the same Python (no numpy, no numba), as a
session started from a shell whose environment is not activated does.
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
import pandas as pd
import prroc_numba as prn
from pyspark.sql import SparkSession

spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .getOrCreate())
spark.sparkContext.setLogLevel("OFF")
sdf = spark.createDataFrame(pd.DataFrame({"s": [0.1, 0.9, 0.5], "y": [0, 1, 1]}))
try:
    prn.auc(sdf, score="s", label="y")
except RuntimeError as err:
    print("RAISED", err)
finally:
    spark.stop()
"""


def test_workers_on_another_interpreter_are_named_with_the_fix(tmp_path):
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    venv = tmp_path / "bare"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bare = venv / "bin" / "python"
    env = {**os.environ, "PYSPARK_PYTHON": str(bare), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=300
    )
    said = [ln for ln in out.stdout.splitlines() if ln.startswith("RAISED")]
    assert said, out.stdout[-2000:] + out.stderr[-2000:]
    msg = said[0]
    assert f"Spark's Python workers run {bare}" in msg
    assert "No module named 'numpy'" in msg
    assert f"the driver runs {sys.executable}" in msg
    assert f"PYSPARK_PYTHON={sys.executable}" in msg and "spark.pyspark.python" in msg
    assert "Py4J" not in msg and "Traceback" not in msg
