"""Shared fixtures: the reference cases in tests/data (copied from shared/oracles)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

DATA = Path(__file__).parent / "data"
CASE_NAMES = sorted(p.stem for p in DATA.glob("*.json"))


class Case:
    """One reference case: ``frame`` (the CSV), ``ref`` (the JSON), score columns."""

    def __init__(self, name: str):
        self.name = name
        self.frame = pd.read_csv(DATA / f"{name}.csv")
        self.ref = json.loads((DATA / f"{name}.json").read_text())
        self.scores = [c for c in self.frame.columns if c.startswith("score")]

    def modes(self):
        """(mode name, kwargs for the public API, pos mass, neg mass) per PRROC mode."""
        df = self.frame
        y = df["label"].to_numpy(float)
        out = [("hard", {"label": "label"}, y, 1 - y)]
        if "weight" in df:
            w = df["weight"].to_numpy(float)
            out.append(("soft", {"label": "weight", "soft_labels": True}, w, 1 - w))
        if "sample_weight" in df:
            w = df["sample_weight"].to_numpy(float)
            out.append(
                ("sample_weight", {"label": "label", "weight": "sample_weight"}, w * y, w * (1 - y))
            )
        return out


_CACHE: dict = {}


def load_case(name: str) -> Case:
    if name not in _CACHE:
        _CACHE[name] = Case(name)
    return _CACHE[name]


@pytest.fixture(params=CASE_NAMES)
def case(request) -> Case:
    return load_case(request.param)


def random_batch(rng, n_curves, n_max, *, ties=True, weights=False, soft=False):
    """A long frame of ``n_curves`` random curves (column ``g``) with ties and weights."""
    sizes = rng.integers(1, n_max + 1, size=n_curves)
    g = np.repeat(np.arange(n_curves), sizes)
    n = g.size
    y = (rng.random(n) < rng.uniform(0.05, 0.7, size=n_curves)[g]).astype(float)
    s = rng.normal(size=n) + y * rng.uniform(0, 2, size=n_curves)[g]
    if ties:
        s = np.round(s, int(rng.integers(0, 2)))
    df = pd.DataFrame({"g": g, "s": s, "y": y})
    if weights:
        w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)
        w[np.r_[0, np.cumsum(sizes)[:-1]]] = 1.0  # no group is all zero weight
        df["w"] = w
    if soft:
        df["p"] = np.clip(y * 0.7 + rng.random(n) * 0.3, 0, 1)
    return df


@pytest.fixture(scope="session")
def spark(tmp_path_factory):
    """One real local SparkSession for every Spark test (2 cores, tasks retried up to 3
    times, no UI, few shuffle partitions); its Python workers run this interpreter and
    see this checkout. Skipped only where no Java runtime is installed.
    """
    import os
    import shutil
    import sys
    import warnings

    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    root = str(Path(__file__).resolve().parents[1])
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    path = os.environ.get("PYTHONPATH", "")
    if root not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join([root, path]) if path else root
    with warnings.catch_warnings():
        # pyspark 4.3 warns once that it "does not yet fully support pandas >= 3.0.0"
        warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
        from pyspark.sql import SparkSession

        session = (
            SparkSession.builder.master("local[2,3]")
            .appName("prroc_numba tests")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.default.parallelism", "4")
            .config("spark.local.dir", str(tmp_path_factory.mktemp("spark-local")))
            .config("spark.executorEnv.PYTHONPATH", os.environ["PYTHONPATH"])
            .config("spark.sql.session.timeZone", "UTC")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
