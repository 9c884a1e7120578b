"""The sweep of a whole ragged batch: the kernels of :mod:`prroc_numba._kernels.sweep`
run over chunks of curves on the thread pool (:func:`.threads.run_curves`).
"""

from __future__ import annotations

import numpy as np

from .._kernels.layout import _offsets_from_counts
from .._kernels.sweep import _fill_range, _sort_range, _sweep_one
from .threads import run_curves


def sweep_batch(values, offsets, pos, neg, label_start):
    """Sweep every curve of a ragged batch (serial kernels over chunks of curves on
    threads, :func:`.threads.run_curves`).

    Returns ``(thr, tp, fp, out_offsets)``: curve ``c``'s vertices are
    ``[out_offsets[c]:out_offsets[c + 1]]``, origin first, thresholds descending.
    """
    n_curves = offsets.size - 1
    if n_curves == 1:  # one curve: no batch-wide copies of the order and sorted scores
        ls = label_start[0]
        thr, tp, fp = _sweep_one(values, pos[ls : ls + values.size], neg[ls : ls + values.size])
        return thr, tp, fp, np.array([0, thr.size], dtype=np.int64)
    order = np.empty(values.size, dtype=np.int64)
    sorted_values = np.empty(values.size)
    counts = np.empty(n_curves, dtype=np.int64)
    run_curves(_sort_range, offsets, values, offsets, order, sorted_values, counts)
    out_offsets = _offsets_from_counts(counts)
    total = int(out_offsets[n_curves])
    thr = np.empty(total)
    tp = np.empty(total)
    fp = np.empty(total)
    run_curves(
        _fill_range,
        offsets,
        sorted_values,
        offsets,
        pos,
        neg,
        label_start,
        order,
        out_offsets,
        thr,
        tp,
        fp,
    )
    return thr, tp, fp, out_offsets
