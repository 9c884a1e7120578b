"""Hull, achievable PR curve and DG areas: 100 models x 1e5 rows (wide input).

The peer, in the same run and group, is a scikit-learn loop of
``average_precision_score`` over the models (what users do today); pytest-benchmark's
table prints every row's ratio to the fastest in parentheses. Run with::

    /work/venv/bin/python -m pytest benchmarks/bench_hull.py --benchmark-only

Each benchmark calls its function once before timing (Numba compilation and cache
load are not measured).
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import wide_frame
from sklearn.metrics import average_precision_score

import prroc_numba as prn

N_ROWS = 100_000
N_MODELS = 100


@pytest.fixture(scope="module")
def wide():
    return wide_frame(N_ROWS, N_MODELS)


def _run(benchmark, fn, rounds=3):
    fn()  # warm-up: compile / load the Numba cache
    return benchmark.pedantic(fn, rounds=rounds, iterations=1)


@pytest.mark.benchmark(group="100 models x 1e5 rows")
def test_sklearn_average_precision_loop(benchmark, wide):
    frame, models = wide
    y = frame["y"].to_numpy()

    def loop():
        return [average_precision_score(y, frame[m].to_numpy()) for m in models]

    out = _run(benchmark, loop, rounds=2)
    assert len(out) == N_MODELS


@pytest.mark.benchmark(group="100 models x 1e5 rows")
@pytest.mark.parametrize(
    "method,hull", [("ap", False), ("dg", False), ("dg", True), ("integral", True)]
)
def test_auc_pr(benchmark, wide, method, hull):
    frame, models = wide
    out = _run(benchmark, lambda: prn.auc(frame, score=models, label="y", method=method, hull=hull))
    assert len(out) == N_MODELS
    if method == "ap":  # same numbers as the peer
        y = frame["y"].to_numpy()
        ref = [average_precision_score(y, frame[m].to_numpy()) for m in models[:3]]
        np.testing.assert_allclose(out["auc"].to_numpy()[:3], ref, rtol=1e-12)


@pytest.mark.benchmark(group="100 models x 1e5 rows")
def test_auc_roc_hull(benchmark, wide):
    frame, models = wide
    out = _run(benchmark, lambda: prn.auc(frame, score=models, label="y", curve="roc", hull=True))
    assert len(out) == N_MODELS


@pytest.mark.benchmark(group="100 models x 1e5 rows")
def test_roc_curve_hull(benchmark, wide):
    frame, models = wide
    out = _run(benchmark, lambda: prn.roc_curve(frame, score=models, label="y", hull=True))
    assert out["model"].nunique() == N_MODELS


@pytest.mark.benchmark(group="100 models x 1e5 rows")
def test_pr_curve_hull_dg_points(benchmark, wide):
    frame, models = wide
    out = _run(
        benchmark, lambda: prn.pr_curve(frame, score=models, label="y", hull=True, interpolate="dg")
    )
    assert out["model"].nunique() == N_MODELS
