"""AUC estimators: ``auc`` (PR by Davis-Goadrich + ROC) vs a scikit-learn loop.

* wide: 100 models x 1e5 rows (the DESIGN target), and 1 to 1,000 models x 1e4 rows;
* long: 1 to 10,000 curves (groups) sharing 1e6 rows.

Peer: a loop of ``average_precision_score`` + ``roc_auc_score``, one model/group at a
time, on arrays prepared before timing. Run: ``python -m pytest benchmarks/bench_auc.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import binormal, long_frame, split_groups
from conftest import run
from sklearn.metrics import average_precision_score, roc_auc_score

import prroc_numba as prn

WIDE = [(100, 10**5), (1, 10**4), (10, 10**4), (1000, 10**4)]
LONG = [1, 100, 10_000]  # curves sharing 1e6 rows


@pytest.fixture(scope="module", params=WIDE, ids=lambda p: f"{p[0]}models-N={p[1]:.0e}")
def wide(request):
    m, n = request.param
    y, S = binormal(n, n_models=m)
    return m, n, y, np.ascontiguousarray(S)


@pytest.fixture(scope="module", params=LONG, ids=lambda c: f"{c}curves")
def long(request):
    c = request.param
    df = long_frame(c, 10**6 // c)
    return c, df, split_groups(df)


def test_wide_prroc_numba(benchmark, wide):
    m, n, y, S = wide
    benchmark.group = f"auc wide {m} models x N={n:.0e}"

    def ours():
        prn.auc(score=S, label=y, curve="pr", method="dg")
        prn.auc(score=S, label=y, curve="roc")

    run(benchmark, ours, rounds=5)


def test_wide_sklearn_loop(benchmark, wide):
    m, n, y, S = wide
    benchmark.group = f"auc wide {m} models x N={n:.0e}"
    cols = [np.ascontiguousarray(S[:, j]) for j in range(m)]

    def peer():
        for c in cols:
            average_precision_score(y, c)
            roc_auc_score(y, c)

    run(benchmark, peer, rounds=1 if m * n >= 10**6 else 3)


def test_long_prroc_numba(benchmark, long):
    c, df, _ = long
    benchmark.group = f"auc long {c} curves x 1e6 rows"

    def ours():
        prn.auc(df, score="s", label="y", by="g", curve="pr", method="dg")
        prn.auc(df, score="s", label="y", by="g", curve="roc")

    run(benchmark, ours, rounds=5)


def test_long_sklearn_loop(benchmark, long):
    c, _, parts = long
    benchmark.group = f"auc long {c} curves x 1e6 rows"

    def peer():
        for yy, ss in parts:
            average_precision_score(yy, ss)
            roc_auc_score(yy, ss)

    run(benchmark, peer, rounds=1 if c >= 100 else 3)
