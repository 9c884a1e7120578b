"""Batched interpolation of 10,000 curves (~1,000 points each) onto a 1,001-point grid.

Run (from the repository root; benchmarks are outside the default test paths)::

    python -m pytest benchmarks/bench_interpolate.py --benchmark-group-by=group \
        --benchmark-columns=min,median,mean,rounds

Benchmarks: the batch kernel on ragged arrays (allocating its output, and writing into
a preallocated matrix), the same with ``hull=True``, and the public
``interpolate_matrix`` from a tidy frame of 10 million point rows (grouping, checks and
packing included), and the public ``interpolate`` (the same, then the tidy frame of 10
million rows). Peer in the same run: a per-curve numpy loop (``np.interp`` of FP at
each grid TP, then precision ``t / (t + f)``; ``np.interp`` of TPR at each grid FPR for ROC). The
curves have strictly increasing TP and FP, so the peer's plain linear interpolation is
the same curve and the results are compared before timing. Ratios, not absolute times,
are the claim: compare the medians of one run.

One run (2-core machine shared with other jobs, load average ~4, so +-30 % noise;
medians, ms; PR / ROC):

=====================================  ===========  ===========
kernel, into a preallocated matrix       128 / 203
numpy loop, into a preallocated matrix   362 / 338    2.8x / 1.7x slower
kernel (allocates the 80 MB result)      302 / 216
numpy loop (allocates)                   412 / 415    1.4x / 1.9x slower
public ``interpolate_matrix`` (frame)    580 / 764
groupby + np.interp loop (frame)        2382 / 1662   4.1x / 2.2x slower
kernel, ``hull=True``                    451 / 575
=====================================  ===========  ===========

A fresh 80 MB result costs ~0.1-0.4 s of page faults on that machine, which is why the
allocating rows are close; the preallocated rows show the interpolation itself.

(That table predates the one-pass check: the public calls now check and interpolate
each curve in one pass over its rows, on the thread pool. The issue-10 rows of
``python benchmarks/compare.py --only interpolation --match 1,001 --repeats 7
--no-cold-start`` give the same-run ratios against the per-curve ``np.interp`` loop;
single-thread CPU time of the 10,000 x 1,000 case on a loaded 2-core machine went
from 273-313 ms to 167 ms for ``interpolate_matrix``, from 314-449 ms to 198 ms for
``interpolate``.)
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import ragged_counts

import prroc_numba as prn
from prroc_numba._drivers.grid import (
    _interp_batch_into,
    precision_at_recall_batch,
    tpr_at_fpr_batch,
)

N_CURVES = 10_000
N_POINTS = 1_000
GRID = np.linspace(0.0, 1.0, 1001)


@pytest.fixture(scope="module")
def curves():
    """Ragged counts: origin, ~1,000 vertices with strictly increasing TP and FP."""
    return ragged_counts(N_CURVES, N_POINTS)


def numpy_loop(tp, fp, offsets, grid, space, out=None):
    if out is None:
        out = np.empty((offsets.size - 1, grid.size))
    for c in range(offsets.size - 1):
        t = tp[offsets[c] : offsets[c + 1]]
        f = fp[offsets[c] : offsets[c + 1]]
        P, N = t[-1], f[-1]
        if space == "pr":
            tt = grid * P
            ff = np.interp(tt, t, f)
            with np.errstate(invalid="ignore"):
                out[c] = tt / (tt + ff)
            out[c, 0] = t[1] / (t[1] + f[1])  # the flat start at recall 0
        else:
            out[c] = np.interp(grid * N, f, t) / P
    return out


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_results_agree(curves, space):
    tp, fp, offsets, frame = curves
    kern = precision_at_recall_batch if space == "pr" else tpr_at_fpr_batch
    ref = numpy_loop(tp, fp, offsets, GRID, space)
    np.testing.assert_allclose(kern(tp, fp, offsets, GRID, False), ref, rtol=1e-12)
    _, mat = prn.interpolate_matrix(frame, grid=GRID, by="curve", space=space)
    np.testing.assert_allclose(mat, ref, rtol=1e-12)
    first = frame[frame["curve"] < 50]
    np.testing.assert_allclose(numpy_groupby_loop(first, GRID, space), ref[:50], rtol=1e-12)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_kernel(benchmark, curves, space):
    tp, fp, offsets, _ = curves
    benchmark.group = f"interpolate {space}"
    kern = precision_at_recall_batch if space == "pr" else tpr_at_fpr_batch
    kern(tp, fp, offsets, GRID, False)  # warm-up (compile / cache load)
    benchmark(kern, tp, fp, offsets, GRID, False)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_kernel_into_preallocated(benchmark, curves, space):
    # the same kernel writing into an existing matrix: no fresh 80 MB output per call
    # (page faults of a fresh allocation dominate on some machines); peer below
    tp, fp, offsets, _ = curves
    benchmark.group = f"interpolate {space}"
    out = np.empty((offsets.size - 1, GRID.size))
    _interp_batch_into(tp, fp, offsets, GRID, False, space == "roc", out)
    benchmark(_interp_batch_into, tp, fp, offsets, GRID, False, space == "roc", out)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_numpy_loop_into_preallocated(benchmark, curves, space):
    tp, fp, offsets, _ = curves
    benchmark.group = f"interpolate {space}"
    out = np.empty((offsets.size - 1, GRID.size))
    numpy_loop(tp, fp, offsets, GRID, space, out)
    benchmark.pedantic(numpy_loop, args=(tp, fp, offsets, GRID, space, out), rounds=3)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_kernel_hull(benchmark, curves, space):
    tp, fp, offsets, _ = curves
    benchmark.group = f"interpolate {space}"
    kern = precision_at_recall_batch if space == "pr" else tpr_at_fpr_batch
    kern(tp, fp, offsets, GRID, True)
    benchmark(kern, tp, fp, offsets, GRID, True)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_public_interpolate_matrix(benchmark, curves, space):
    _, _, _, frame = curves
    benchmark.group = f"interpolate {space}"
    prn.interpolate_matrix(frame.head(2000), grid=GRID, by="curve", space=space)
    benchmark.pedantic(
        prn.interpolate_matrix,
        args=(frame,),
        kwargs={"grid": GRID, "by": "curve", "space": space},
        rounds=3,
    )


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_public_interpolate(benchmark, curves, space):
    # the tidy frame: 10 million (curve, grid point) rows, keys repeated column-wise
    _, _, _, frame = curves
    benchmark.group = f"interpolate {space}"
    prn.interpolate(frame.head(2000), grid=GRID, by="curve", space=space)
    benchmark.pedantic(
        prn.interpolate,
        args=(frame,),
        kwargs={"grid": GRID, "by": "curve", "space": space},
        rounds=3,
    )


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_numpy_loop_peer(benchmark, curves, space):
    tp, fp, offsets, _ = curves
    benchmark.group = f"interpolate {space}"
    benchmark.pedantic(numpy_loop, args=(tp, fp, offsets, GRID, space), rounds=3)


def numpy_groupby_loop(frame, grid, space):
    """What users write today from a tidy frame: groupby, then np.interp per curve."""
    rows = []
    for _, part in frame.groupby("curve", sort=True):
        t = part["tp"].to_numpy()
        f = part["fp"].to_numpy()
        P, N = t[-1], f[-1]
        if space == "pr":
            tt = grid * P
            ff = np.interp(tt, t, f)
            with np.errstate(invalid="ignore"):
                row = tt / (tt + ff)
            row[0] = t[1] / (t[1] + f[1])
        else:
            row = np.interp(grid * N, f, t) / P
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("space", ["pr", "roc"])
def test_numpy_groupby_loop_peer(benchmark, curves, space):
    # peer of test_public_interpolate_matrix: both start from the tidy frame
    _, _, _, frame = curves
    benchmark.group = f"interpolate {space}"
    benchmark.pedantic(numpy_groupby_loop, args=(frame, GRID, space), rounds=2)
