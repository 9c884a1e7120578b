"""Class-split keys-only sorting in numpy, for hard, unweighted labels.

``np.sort`` (SIMD, keys only) is 5-10x faster than any argsort we can write in a kernel
(Numba's own ``np.sort`` is a plain quicksort, ~9x slower than numpy's at 1e6). When
every row is a positive or a negative of unit mass the sweep needs no index payload:
:func:`split_sorted` sorts each curve's positives' and negatives' scores separately, and
:mod:`prroc_numba._kernels.split_sort` merges the two runs. Everything else (weights,
soft labels, many small curves where a numpy call per group costs more than the kernel's
own sort) returns ``None`` and keeps the argsort path. A batch of few large curves
is sorted in value parts, one per thread, so one curve uses every core (the same
sorted runs whatever the thread count).
"""

from __future__ import annotations

import numba
import numpy as np

from .._drivers import all_float32, class_count, class_scatter, hull_areas_range, split_areas_range
from .._drivers.threads import chunk_bounds, get_pool, run_curves

# below this many scores per curve on average, numpy calls per curve cost more than the
# kernels' radix sort (measured: ~20 us per curve of Python + numpy overhead)
MIN_MEAN_CURVE_VALUES = 4096
#: curves of at least this many rows are cut into one value part per thread when the
#: batch has fewer than PART_CURVES_PER_THREAD curves per thread, so that one large
#: curve is written and sorted on every core (np.sort releases the GIL)
PART_MIN_ROWS = 1 << 16
PART_CURVES_PER_THREAD = 4
#: sample size for the pivots of a curve's parts
PIVOT_SAMPLE = 255


def _n_parts(n_curves, threads):
    """Value parts per curve: one per thread for few curves, else one."""
    return threads if 1 < threads and n_curves < PART_CURVES_PER_THREAD * threads else 1


def _pivots(batch, n_parts):
    """``(n_curves, n_parts - 1)`` ascending pivots cutting each curve of at least
    ``PART_MIN_ROWS`` rows into ``n_parts`` value parts (quantiles of a strided sample;
    balance only: any pivots give the same sorted runs); ``+inf`` (one part) for the
    others. A loop over the few curves that are cut (fewer than
    ``PART_CURVES_PER_THREAD`` per thread), numpy inside.
    """
    pivots = np.full((batch.n_curves, n_parts - 1), np.inf)
    if n_parts == 1:
        return pivots
    for c in range(batch.n_curves):
        a, b = int(batch.offsets[c]), int(batch.offsets[c + 1])
        n = b - a
        if n < max(PART_MIN_ROWS, 1):
            continue
        m = min(n, PIVOT_SAMPLE)
        sample = np.sort(batch.values[a + (np.arange(m) * n) // m])
        pivots[c] = sample[(np.arange(1, n_parts) * m) // n_parts]
    return pivots


def _sort(seg, f32):
    """Sort ``seg`` in place; ``f32``: every value is exactly a float32 (model
    probabilities often are), and sorting float32 keys is 2x faster (and exact back).
    """
    if f32:
        s32 = seg.astype(np.float32)
        s32.sort()
        seg[...] = s32
    else:
        seg.sort()


def _write_and_sort(batch, pivots, edges, part, svals, c0, c1, f32):
    """One thread's job: scatter value part ``part`` of curves ``c0 .. c1 - 1``, then
    sort the segments it wrote.
    """
    class_scatter(
        batch.values,
        batch.offsets,
        batch.pos,
        batch.label_start,
        pivots,
        edges,
        part,
        svals,
        c0,
        c1,
    )
    n_parts = pivots.shape[1] + 1
    cols = (part, n_parts + part)
    for c in range(c0, c1):  # loops over curves and parts, not samples
        for r in cols:
            a, b = int(edges[c, r]), int(edges[c, r + 1])
            if b - a > 1:
                _sort(svals[a:b], f32)


def split_sorted(batch):
    """``(svals, npos)`` for :mod:`prroc_numba._kernels.split_sort`, or ``None``.

    ``svals[offsets[c]:offsets[c + 1]]`` is curve ``c``'s positives' scores ascending,
    then its negatives' scores ascending; ``npos[c]`` the number of positives (int64).
    Few large curves are written and sorted in one value part per thread, many curves
    in chunks of curves per thread: the same sorted runs whatever the thread count.
    """
    if batch.split_npos is not None:  # built sorted (an Accumulator's counts)
        return batch.values, batch.split_npos
    n_curves = batch.n_curves
    if batch.values.size < MIN_MEAN_CURVE_VALUES * n_curves:
        return None
    threads = numba.get_num_threads()
    n_parts = _n_parts(n_curves, threads)
    counts = np.empty((n_curves, 2 * n_parts), dtype=np.int64)
    pivots = _pivots(batch, n_parts)
    run_curves(
        class_count,
        batch.offsets,
        batch.values,
        batch.offsets,
        batch.pos,
        batch.neg,
        batch.label_start,
        pivots,
        counts,
    )
    if (counts[:, 0] < 0).any():  # weights or soft labels: the argsort path
        return None
    edges = batch.offsets[:-1, None] + np.concatenate(
        [np.zeros((n_curves, 1), dtype=np.int64), np.cumsum(counts, axis=1)], axis=1
    )
    npos = counts[:, :n_parts].sum(axis=1)
    n = batch.values.size
    svals = np.empty(n + n_parts)  # n_parts scratch slots past the end (class_scatter)
    f32 = bool(all_float32(batch.values))
    if n_parts > 1:
        jobs = [(r, 0, n_curves) for r in range(n_parts)]
    else:
        b = chunk_bounds(batch.offsets, min(n_curves, 4 * threads))
        jobs = [(0, int(b[i]), int(b[i + 1])) for i in range(b.size - 1)]
    if threads <= 1 or len(jobs) == 1:
        for part, c0, c1 in jobs:
            _write_and_sort(batch, pivots, edges, part, svals, c0, c1, f32)
    else:
        pool = get_pool(threads)
        futures = [
            pool.submit(_write_and_sort, batch, pivots, edges, part, svals, c0, c1, f32)
            for part, c0, c1 in jobs
        ]
        for f in futures:
            f.result()
    return svals[:n], npos


def sweep_buffers(batch):
    """``(thr, tp, fp)``: scratch for the split kernels, ``n_values + n_curves`` long.

    Allocated here (numpy asks for huge pages) rather than in the kernel: see
    :func:`prroc_numba._kernels.split_sort._class_split`.
    """
    n = batch.values.size + batch.n_curves
    return np.empty(n), np.empty(n), np.empty(n)


def area_slots(batch, npos):
    """``(slots, thr, tp, fp)``: each curve's room in the scratch of :func:`split_areas`,
    for its collapsed sweep (at most ``2 * n_pos + 2`` vertices, and at most ``n + 1``).
    """
    room = np.minimum(np.diff(batch.offsets) + 1, 2 * npos + 2)
    slots = np.concatenate([[0], np.cumsum(room)]).astype(np.int64)
    n = int(slots[-1])
    return slots, np.empty(n), np.empty(n), np.empty(n)


def split_areas(batch, svals, npos, codes, hulls):
    """Every requested area of every curve of a class-split sorted batch (see
    :func:`split_sorted`): float64 ``(n_curves, len(codes))``, curves in chunks on the
    thread pool. The collapsed sweeps and the areas not on the hull
    (:func:`prroc_numba._kernels.split_sort._split_areas_range`), then, only where a
    hull is asked for, the hull areas over the same sweeps
    (:func:`prroc_numba._kernels.area._hull_areas_range`, compiled on first use).
    """
    slots, thr, tp, fp = area_slots(batch, npos)
    nv = np.empty(batch.n_curves, dtype=np.int64)
    out = np.empty((batch.n_curves, codes.size))
    args = (codes, hulls, slots, thr, tp, fp, nv, out)
    run_curves(split_areas_range, batch.offsets, svals, batch.offsets, npos, *args)
    if hulls.any():
        run_curves(hull_areas_range, batch.offsets, tp, fp, slots, nv, codes, hulls, out)
    return out
