"""Curves: ``pr_curve`` + ``roc_curve`` vs scikit-learn, and the sorting floor.

One curve of N rows (binormal scores, 5% positives), N from 1e3 to 1e6. In each group:
prroc_numba (both curves), scikit-learn's ``precision_recall_curve`` +
``roc_curve(drop_intermediate=False)`` on the same arrays, and ``np.argsort`` of the
scores (the floor for one call). Run: ``python -m pytest benchmarks/bench_curves.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import binormal
from conftest import run
from sklearn.metrics import precision_recall_curve, roc_curve

import prroc_numba as prn

SIZES = [10**3, 10**4, 10**5, 10**6]


@pytest.fixture(scope="module", params=SIZES, ids=lambda n: f"N={n:.0e}")
def data(request):
    y, S = binormal(request.param)
    return request.param, y, np.ascontiguousarray(S[:, 0])


def _rounds(n):
    return 20 if n <= 10**4 else 5


def test_prroc_numba(benchmark, data):
    n, y, s = data
    benchmark.group = f"curves N={n:.0e}"

    def ours():
        prn.pr_curve(score=s, label=y)
        prn.roc_curve(score=s, label=y)

    run(benchmark, ours, rounds=_rounds(n))


def test_prroc_numba_one_call(benchmark, data):
    n, y, s = data
    benchmark.group = f"curves N={n:.0e}"
    run(benchmark, lambda: prn.pr_curve(score=s, label=y), rounds=_rounds(n))


def test_sklearn(benchmark, data):
    n, y, s = data
    benchmark.group = f"curves N={n:.0e}"

    def peer():
        precision_recall_curve(y, s)
        roc_curve(y, s, drop_intermediate=False)

    run(benchmark, peer, rounds=_rounds(n))


def test_argsort_floor(benchmark, data):
    n, _, s = data
    benchmark.group = f"curves N={n:.0e}"
    run(benchmark, lambda: np.argsort(s), rounds=_rounds(n))
