"""Every CUDA kernel against the CPU path, to 1e-12: ties, weights, soft labels, one class
missing in a group, empty curves, and chunk boundaries inside long tie runs (tiny chunk
sizes, so that boundaries fall everywhere)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import random_batch

from prroc_numba._core.batch import Batch
from prroc_numba._core.packing import pack
from prroc_numba._drivers import cuda as gpu
from prroc_numba._drivers.sweep import sweep_batch
from prroc_numba._kernels import area
from prroc_numba._kernels.area import _areas_batch
from prroc_numba._kernels.hull import _hull_batch


def _area_batch(values, offsets, pos, neg, label_start, code, hull):
    """One area per curve through the CPU's many-areas kernel (one code, one hull flag)."""
    return _areas_batch(
        values, offsets, pos, neg, label_start, np.array([code], np.int64), np.array([hull])
    )[:, 0]


METHODS = [area.AP, area.PR_TRAPEZOID, area.DG, area.INTEGRAL, area.ROC_TRAPEZOID]
# (rows per chunk, chunks per super-chunk): tiny sizes put chunk and super-chunk
# boundaries everywhere, including inside long tie runs
CHUNKS = [(1, 2), (3, 1), (16, 3), (1024, 256)]


def _batches():
    rng = np.random.default_rng(16)
    out = {}
    df = random_batch(rng, 5, 40, ties=True)
    df["s"] = np.round(df["s"], 0)  # long tie runs: chunk boundaries fall inside them
    out["long_ties"] = pack(df, score="s", label="y", by="g")
    df = random_batch(rng, 4, 30, weights=True)
    out["weights"] = pack(df, score="s", label="y", by="g", weight="w")
    df = random_batch(rng, 4, 30, soft=True)
    out["soft"] = pack(df, score="s", label="p", by="g", soft_labels=True)
    n = 60
    y = (rng.random(n) < 0.3).astype(float)
    x = np.round(rng.normal(size=n) + y, 1)
    g = np.repeat([0, 1, 2], 20)
    y[g == 1] = 0.0  # one class missing in a group
    y[g == 2] = 1.0
    out["wide_one_class"] = pack(score=np.c_[x, -x, np.zeros(n)], label=y, by=g)
    return out


BATCHES = _batches()


def _empty_curve_batch():
    """Kernel level: a ragged batch whose middle curve has no rows."""
    values = np.array([0.9, 0.5, 0.5, 0.1, 0.7, 0.2, 0.2])
    offsets = np.array([0, 4, 4, 7], dtype=np.int64)
    pos = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0])
    return Batch(
        values,
        offsets,
        pos,
        1.0 - pos,
        offsets.copy(),
        np.arange(3, dtype=np.int64),
        pd.DataFrame(index=range(3)),
        1,
    )


def _close(got, want):
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(BATCHES))
@pytest.mark.parametrize("chunk,sup", CHUNKS)
def test_areas_equal_cpu(name, chunk, sup):
    b = BATCHES[name]
    for method in METHODS:
        for hull in (False, True):
            want = _area_batch(b.values, b.offsets, b.pos, b.neg, b.label_start, method, hull)
            got = gpu.area_batch(b, method, hull, chunk=chunk, sup=sup)
            _close(got, want)


@pytest.mark.parametrize("name", sorted(BATCHES))
@pytest.mark.parametrize("chunk,sup", [(1, 3), (7, 2), (1024, 256)])
def test_sweep_and_hull_equal_cpu(name, chunk, sup):
    b = BATCHES[name]
    thr, tp, fp, off = sweep_batch(b.values, b.offsets, b.pos, b.neg, b.label_start)
    gthr, gtp, gfp, goff = gpu.sweep_batch(b, chunk=chunk, sup=sup)
    np.testing.assert_array_equal(goff, off)
    np.testing.assert_array_equal(gthr, thr)
    np.testing.assert_allclose(gtp, tp, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gfp, fp, rtol=1e-12, atol=1e-12)
    idx, hoff = _hull_batch(tp, fp, off)
    gidx, ghoff = gpu.hull_batch(tp, fp, off)
    np.testing.assert_array_equal(ghoff, hoff)
    np.testing.assert_array_equal(gidx, idx)


def test_empty_curve():
    b = _empty_curve_batch()
    for method in METHODS:
        want = _area_batch(b.values, b.offsets, b.pos, b.neg, b.label_start, method, False)
        _close(gpu.area_batch(b, method, False, chunk=2, sup=1), want)
        want = _area_batch(b.values, b.offsets, b.pos, b.neg, b.label_start, method, True)
        _close(gpu.area_batch(b, method, True, chunk=2, sup=1), want)
    thr, tp, fp, off = sweep_batch(b.values, b.offsets, b.pos, b.neg, b.label_start)
    gthr, gtp, gfp, goff = gpu.sweep_batch(b, chunk=2)
    np.testing.assert_array_equal(goff, off)
    np.testing.assert_array_equal(gthr, thr)
    np.testing.assert_array_equal(gtp, tp)
    np.testing.assert_array_equal(gfp, fp)
    assert np.isnan(gpu.area_batch(b, area.DG, False)[1])


def test_all_tied_curve_single_chunk_run():
    """Every row tied: all chunks but the first are empty; the area is the prevalence."""
    y = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])
    b = pack(score=np.full(8, 0.5), label=y)
    got = gpu.area_batch(b, area.AP, False, chunk=2)
    assert got[0] == pytest.approx(3 / 8, abs=1e-15)
    for method in METHODS:
        want = _area_batch(b.values, b.offsets, b.pos, b.neg, b.label_start, method, False)
        _close(gpu.area_batch(b, method, False, chunk=2), want)


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_chunk_layout(chunk):
    """Chunks partition each curve's sorted rows, start on tie-block starts, keep every
    tie block whole; a chunk inside a tie run is empty (its rows go to the run's chunk)."""
    from prroc_numba._drivers.cuda import Sorted

    x = np.array([3.0, 3, 3, 3, 3, 3, 2, 1, 1, 1, 0.5, 5, 5, 5, 5, 4])
    y = np.array([1.0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0])
    b = pack(score=x, label=y, by=np.repeat([0, 1], [11, 5]))
    s = Sorted(b, chunk)
    starts, ends = s.starts.copy_to_host(), s.ends.copy_to_host()
    xs = s.xs.copy_to_host()
    chunk_off = s.chunk_off.copy_to_host()
    for c in range(2):
        a, e = b.offsets[c], b.offsets[c + 1]
        rows = []
        for j in range(chunk_off[c], chunk_off[c + 1]):
            if ends[j] > starts[j]:
                assert starts[j] == a or xs[starts[j]] != xs[starts[j] - 1]
                assert ends[j] == e or xs[ends[j]] != xs[ends[j] - 1]
                rows += range(starts[j], ends[j])
        assert rows == list(range(a, e))


@pytest.mark.gpu
def test_device_sort_equals_host_sort(monkeypatch):
    """On a GPU with CuPy: the device sort (cupy) gives what the host fallback gives."""
    pytest.importorskip("cupy")
    from prroc_numba._drivers import cuda as driver

    b = BATCHES["long_ties"]
    with_cupy = [gpu.area_batch(b, m, False) for m in METHODS]
    sweep = gpu.sweep_batch(b)
    monkeypatch.setattr(driver, "_cupy", lambda: None)
    for m, got in zip(METHODS, with_cupy):
        _close(got, gpu.area_batch(b, m, False))
    for got, want in zip(sweep, gpu.sweep_batch(b)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
