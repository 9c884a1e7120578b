"""The ragged layout's one shared step: offsets from a counting pass."""

from __future__ import annotations

import numpy as np

from .._jit.numba import jit


@jit
def _offsets_from_counts(counts):
    """CSR offsets (int64, length ``counts.size + 1``) from per-curve sizes ``counts``:
    curve ``c``'s slice of a ragged output is ``[offsets[c]:offsets[c + 1]]``.
    """
    n = counts.size
    offsets = np.zeros(n + 1, dtype=np.int64)
    for c in range(n):
        offsets[c + 1] = offsets[c] + counts[c]
    return offsets
