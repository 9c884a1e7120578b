"""Paired comparison of models: ``compare`` vs a scikit-learn bootstrap loop.

``compare`` resamples rows B = 1000 times (stratified, paired: every model sees the same
rows), computes every model's AUC-PR on each replicate and the differences of all
pairs. The peer is the loop users write: per replicate, stratified row indices with
numpy, ``average_precision_score`` per model, then the differences. The peer is timed on
``B_PEER`` = 20 replicates (its cost is linear in B; ``extra_info["scale_to_B"]`` says by
how much to multiply its time); ours runs the full B. ``benchmarks/compare.py`` prints
the scaled ratio. Run: ``python -m pytest benchmarks/bench_compare.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from _cases import _sklearn_boot, binormal
from conftest import run

import prroc_numba as prn

B, B_PEER = 1000, 20
GRID = [(2, 10**4), (10, 10**4), (10, 10**5)]


@pytest.fixture(scope="module", params=GRID, ids=lambda p: f"{p[0]}models-N={p[1]:.0e}")
def data(request):
    m, n = request.param
    y, S = binormal(n, n_models=m)
    frame = pd.DataFrame({f"m{j}": np.ascontiguousarray(S[:, j]) for j in range(m)})
    frame["y"] = y
    return m, n, frame


def test_compare_prroc_numba(benchmark, data):
    m, n, frame = data
    benchmark.group = f"compare {m} models x N={n:.0e}, B={B}"
    models = [f"m{j}" for j in range(m)]
    run(benchmark, lambda: prn.compare(frame, score=models, label="y", n_boot=B, seed=0), rounds=3)


def test_compare_sklearn_loop(benchmark, data):
    m, n, frame = data
    benchmark.group = f"compare {m} models x N={n:.0e}, B={B}"
    benchmark.extra_info["scale_to_B"] = B / B_PEER
    y = frame["y"].to_numpy()
    cols = [frame[f"m{j}"].to_numpy() for j in range(m)]

    def peer():
        reps = _sklearn_boot(y, cols, B_PEER)
        return [reps[:, a] - reps[:, b] for a, b in itertools.combinations(range(m), 2)]

    run(benchmark, peer, rounds=3)
