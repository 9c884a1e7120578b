"""Batched interpolation onto shared grids: kernels (issue 4) and the public interpolate."""

from __future__ import annotations

import numpy as np
import pytest

from prroc_numba._kernels.grid import (
    _precision_at_recall,
    _precision_at_recall_batch,
    _tpr_at_fpr,
    _tpr_at_fpr_batch,
)
from prroc_numba._kernels.hull import _hull_indices

import naive

# ----------------------------------------------------------------------------- kernels


def _pr(tp, fp, grid):
    out = np.empty(len(grid))
    _precision_at_recall(np.asarray(tp, float), np.asarray(fp, float),
                         np.asarray(grid, float), out)
    return out


def _roc(tp, fp, grid):
    out = np.empty(len(grid))
    _tpr_at_fpr(np.asarray(tp, float), np.asarray(fp, float), np.asarray(grid, float), out)
    return out


def test_table1_count_interpolation():
    # Davis & Goadrich 2006, Table 1: P = 20, N = 2000, A = (5, 5), B = (10, 30)
    tp = [0, 5, 10, 20]
    fp = [0, 5, 30, 2000]
    got = _pr(tp, fp, np.arange(5, 11) / 20)
    np.testing.assert_allclose(got, [5 / 10, 6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40],
                               rtol=1e-15)
    np.testing.assert_allclose(np.round(got, 3), [0.5, 0.375, 0.318, 0.286, 0.265, 0.25])


def test_recall_zero_is_flat_start_or_zero():
    # leaves the origin: flat at the first vertex's precision
    assert _pr([0, 2, 4], [0, 1, 6], [0.0])[0] == pytest.approx(2 / 3)
    # top block negatives only: starts at precision 0
    assert _pr([0, 0, 2, 4], [0, 3, 4, 6], [0.0])[0] == 0.0
    # and tends to 0 continuously from the right
    assert _pr([0, 0, 2, 4], [0, 3, 4, 6], [1e-9])[0] < 1e-8


def test_same_tp_takes_lowest_fp_and_same_fp_highest_tp():
    tp = [0, 2, 2, 2, 4]
    fp = [0, 1, 3, 5, 6]
    # recall 0.5 = TP 2 reached by three vertices: best precision 2 / 3
    assert _pr(tp, fp, [0.5])[0] == pytest.approx(2 / 3)
    # just above: on the segment (2, 5) -> (4, 6)
    t = 0.5000001 * 4
    assert _pr(tp, fp, [0.5000001])[0] == pytest.approx(t / (t + 5 + (t - 2) * 0.5))
    tp = [0, 1, 3, 4, 4]
    fp = [0, 2, 2, 2, 4]
    # FPR 0.5 = FP 2 reached by three vertices: highest TPR 1.0
    assert _roc(tp, fp, [0.5])[0] == 1.0
    assert _roc(tp, fp, [0.25])[0] == pytest.approx(0.125)
    # FPR 0 with vertices (0,0) only: TPR 0; with several at FP 0: the highest
    assert _roc([0, 2, 3, 4], [0, 0, 1, 2], [0.0])[0] == 0.5


def test_undefined_curves_and_out_of_range_grid_give_nan():
    assert np.isnan(_pr([0, 0], [0, 3], [0.0, 0.5])).all()
    assert np.isnan(_roc([0, 3], [0, 0], [0.0, 0.5])).all()
    assert np.isnan(_roc([0, 0], [0, 3], [0.5])).all()
    got = _pr([0, 1, 2], [0, 1, 2], [-0.1, 0.5, 1.2])
    assert np.isnan(got[0]) and np.isnan(got[2]) and got[1] == 0.5


def _random_sweeps(rng, n_curves, n_max):
    """Sweeps of random scored data with ties, weights (incl. zero) and soft labels."""
    from prroc_numba._kernels.sweep import _sweep_one

    tps, fps = [], []
    for c in range(n_curves):
        n = int(rng.integers(1, n_max + 1))
        s = np.round(rng.normal(size=n), int(rng.integers(0, 2)))
        y = (rng.random(n) < rng.uniform(0.1, 0.8)).astype(float)
        kind = c % 3
        if kind == 0:
            w = np.ones(n)
        elif kind == 1:
            w = rng.choice([0.0, 0.5, 1.0, 3.0], size=n)
        else:
            w = np.ones(n)
            y = np.clip(y * 0.6 + rng.random(n) * 0.4, 0, 1)
        _, tp, fp = _sweep_one(s, w * y, w * (1 - y))
        tps.append(tp)
        fps.append(fp)
    return tps, fps


def _grid_with_vertices(tp, fp, rng, space):
    base = np.linspace(0, 1, 21)
    if space == "pr":
        extra = tp / tp[-1] if tp[-1] > 0 else np.array([])
    else:
        extra = fp / fp[-1] if fp[-1] > 0 else np.array([])
    return np.unique(np.concatenate([base, extra, rng.random(5)]))


@pytest.mark.parametrize("hull", [False, True])
def test_kernels_match_naive_on_random_sweeps(hull):
    rng = np.random.default_rng(4)
    tps, fps = _random_sweeps(rng, 120, 40)
    for tp, fp in zip(tps, fps):
        if hull:
            idx = _hull_indices(tp, fp)
            tp, fp = tp[idx], fp[idx]
        for space, kern, ref in (("pr", _pr, naive.precision_at_recall),
                                 ("roc", _roc, naive.tpr_at_fpr)):
            g = _grid_with_vertices(tp, fp, rng, space)
            np.testing.assert_allclose(kern(tp, fp, g), ref(tp, fp, g), rtol=1e-12,
                                       atol=1e-15, err_msg=f"{space} tp={tp} fp={fp}")


@pytest.mark.parametrize("hull", [False, True])
def test_batch_kernels_equal_single_curve_kernels(hull):
    rng = np.random.default_rng(5)
    tps, fps = _random_sweeps(rng, 60, 30)
    offsets = np.zeros(len(tps) + 1, dtype=np.int64)
    np.cumsum([t.size for t in tps], out=offsets[1:])
    tp = np.concatenate(tps)
    fp = np.concatenate(fps)
    grid = np.linspace(0, 1, 37)
    got_pr = _precision_at_recall_batch(tp, fp, offsets, grid, hull)
    got_roc = _tpr_at_fpr_batch(tp, fp, offsets, grid, hull)
    assert got_pr.shape == got_roc.shape == (len(tps), grid.size)
    for c, (t, f) in enumerate(zip(tps, fps)):
        if hull:
            idx = _hull_indices(t, f)
            t, f = t[idx], f[idx]
        np.testing.assert_array_equal(got_pr[c], _pr(t, f, grid))
        np.testing.assert_array_equal(got_roc[c], _roc(t, f, grid))
