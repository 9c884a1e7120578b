"""Class-split keys-only sorting in numpy, for hard, unweighted labels.

``np.sort`` (SIMD, keys only) is 5-10x faster than any argsort we can write in a kernel
(Numba's own ``np.sort`` is a plain quicksort, ~9x slower than numpy's at 1e6). When
every row is a positive or a negative of unit mass the sweep needs no index payload:
:func:`split_sorted` sorts each curve's positives' and negatives' scores separately, and
:mod:`prroc_numba._kernels.split_sort` merges the two runs. Everything else (weights,
soft labels, many small curves where a numpy call per group costs more than the kernel's
own sort) returns ``None`` and keeps the argsort path.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ._kernels.split_sort import _all_float32, _class_split, _is_hard

# below this many scores per curve on average, numpy calls per curve cost more than the
# kernels' radix sort (measured: ~20 us per curve of Python + numpy overhead)
MIN_MEAN_CURVE_VALUES = 4096


def _sort_runs(buf, offsets, npos):
    """Sort each curve's two runs of ``buf`` in place (ascending), one numpy call each.

    ``np.sort`` releases the GIL: with several curves, a second thread sorts beside the
    first (the machine's cores, as Numba's thread count says)."""
    runs = []
    for c in range(offsets.size - 1):  # a loop over curves (few, large), not samples
        a, b = int(offsets[c]), int(offsets[c + 1])
        m = a + int(npos[c])
        runs += [buf[a:m], buf[m:b]]
    n_threads = min(numba.get_num_threads(), len(runs))
    if n_threads <= 1 or len(runs) <= 2:
        for r in runs:
            r.sort()
        return
    # largest runs first, so that the threads finish together
    runs.sort(key=len, reverse=True)
    with ThreadPoolExecutor(n_threads) as pool:
        list(pool.map(np.ndarray.sort, runs))


def split_sorted(batch):
    """``(svals, npos)`` for :mod:`prroc_numba._kernels.split_sort`, or ``None``.

    ``svals[offsets[c]:offsets[c + 1]]`` is curve ``c``'s positives' scores ascending,
    then its negatives' scores ascending; ``npos[c]`` the number of positives (int64).
    """
    if batch.values.size < MIN_MEAN_CURVE_VALUES * batch.n_curves:
        return None
    if not _is_hard(batch.pos, batch.neg):
        return None
    svals = np.empty_like(batch.values)
    npos = _class_split(batch.values, batch.offsets, batch.pos, batch.label_start, svals)
    if _all_float32(svals):  # model probabilities often are float32: a 2x faster sort
        buf = svals.astype(np.float32)
        _sort_runs(buf, batch.offsets, npos)
        np.copyto(svals, buf)  # exact: every value is a float32
    else:
        _sort_runs(svals, batch.offsets, npos)
    return svals, npos


def sweep_buffers(batch):
    """``(thr, tp, fp)``: scratch for the split kernels, ``n_values + n_curves`` long.

    Allocated here (numpy asks for huge pages) rather than in the kernel: see
    :func:`prroc_numba._kernels.split_sort._class_split`."""
    n = batch.values.size + batch.n_curves
    return np.empty(n), np.empty(n), np.empty(n)
