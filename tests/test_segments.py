"""The per-segment area formulas (shared by the CPU and CUDA engines) reproduce the CPU
area kernels: summed over a curve's vertices, on every reference case and mode, with and
without the hull, and on random curves with ties, weights and soft labels."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import CASE_NAMES, load_case, random_batch

from prroc_numba._kernels import area
from prroc_numba._kernels.hull import _hull_indices
from prroc_numba._kernels.segments import finish_area_cpu, segment_area_cpu
from prroc_numba._kernels.sweep import _sweep_one

METHODS = [area.AP, area.PR_TRAPEZOID, area.DG, area.INTEGRAL, area.ROC_TRAPEZOID]


def _by_segments(tp, fp, method):
    s = 0.0
    for i in range(1, tp.size):
        s += segment_area_cpu(method, tp[i - 1], fp[i - 1], tp[i], fp[i])
    return finish_area_cpu(method, s, tp[-1], fp[-1])


def _check(x, pos, neg):
    _, tp, fp = _sweep_one(x, pos, neg)
    idx = _hull_indices(tp, fp)
    for method in METHODS:
        for t, f in ((tp, fp), (tp[idx], fp[idx])):
            want = area._area(t, f, method)
            got = _by_segments(t, f, method)
            if np.isnan(want):
                assert np.isnan(got)
            else:
                assert got == pytest.approx(want, abs=1e-12, rel=1e-12), method


@pytest.mark.parametrize("name", CASE_NAMES)
def test_segments_equal_area_kernels_on_oracle_cases(name):
    case = load_case(name)
    for _, _, pos, neg in case.modes():
        keep = pos + neg > 0
        for col in case.scores:
            x = case.frame[col].to_numpy(float)[keep]
            _check(x, pos[keep].copy(), neg[keep].copy())


def test_segments_match_published_values():
    """Independent of area.py: the sums give PRROC's and scikit-learn's printed values."""
    case = load_case(CASE_NAMES[1])
    y = case.frame["label"].to_numpy(float)
    for col in case.scores:
        _, tp, fp = _sweep_one(case.frame[col].to_numpy(float), y, 1 - y)
        ref = case.ref["prroc"]["hard"][col]
        assert _by_segments(tp, fp, area.DG) == pytest.approx(
            ref["pr_auc_davis_goadrich"], abs=1e-9
        )
        assert _by_segments(tp, fp, area.INTEGRAL) == pytest.approx(
            ref["pr_auc_integral"], abs=1e-9
        )
        sk = case.ref["sklearn"][col]
        assert _by_segments(tp, fp, area.AP) == pytest.approx(sk["average_precision"], abs=1e-12)
        assert _by_segments(tp, fp, area.ROC_TRAPEZOID) == pytest.approx(sk["roc_auc"], abs=1e-12)


@pytest.mark.parametrize("kind", ["plain", "weights", "soft"])
def test_segments_equal_area_kernels_random(kind):
    rng = np.random.default_rng(5)
    df = random_batch(rng, 12, 60, weights=kind == "weights", soft=kind == "soft")
    for _, d in df.groupby("g"):
        y = (d["p"] if kind == "soft" else d["y"]).to_numpy(float)
        w = d["w"].to_numpy(float) if kind == "weights" else np.ones(len(d))
        keep = w > 0
        _check(d["s"].to_numpy(float)[keep], (w * y)[keep], (w * (1 - y))[keep])


def test_single_class_is_nan():
    _, tp, fp = _sweep_one(np.array([0.3, 0.2]), np.zeros(2), np.ones(2))
    for method in METHODS:
        assert np.isnan(_by_segments(tp, fp, method))
