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

import numpy as np

from ._kernels.split_sort import _is_hard

# below this many scores per group on average, one numpy call per group costs more
# than the kernels' radix sort (measured: ~20 us per group of Python + numpy overhead)
MIN_MEAN_GROUP_VALUES = 4096


def _sort_rows(block):
    """Ascending sort of each row of a 2-D float64 block; float32 keys when exact."""
    b32 = block.astype(np.float32)
    if np.array_equal(b32, block):  # model probabilities often are float32: 2x faster sort
        b32.sort(axis=1)
        return b32
    block.sort(axis=1)
    return block


def split_sorted(batch):
    """``(svals, npos)`` for :mod:`prroc_numba._kernels.split_sort`, or ``None``.

    ``svals[offsets[c]:offsets[c + 1]]`` is curve ``c``'s positives' scores ascending,
    then its negatives' scores ascending; ``npos[c]`` the number of positives (int64).
    """
    n_groups = batch.group_offsets.size - 1
    if batch.values.size < MIN_MEAN_GROUP_VALUES * n_groups:
        return None
    if not _is_hard(batch.pos, batch.neg):
        return None
    M = batch.n_models
    go = batch.group_offsets
    svals = np.empty_like(batch.values)
    npos = np.empty(batch.n_curves, dtype=np.int64)
    for g in range(n_groups):  # a loop over groups (few, large), not samples
        n = int(go[g + 1] - go[g])
        a = int(batch.offsets[g * M])
        mask = batch.pos[go[g] : go[g + 1]] > 0.0
        k = int(np.count_nonzero(mask))
        scores = batch.values[a : a + n * M].reshape(M, n)
        out = svals[a : a + n * M].reshape(M, n)
        out[:, :k] = _sort_rows(scores[:, mask])
        out[:, k:] = _sort_rows(scores[:, ~mask])
        npos[g * M : (g + 1) * M] = k
    return svals, npos
