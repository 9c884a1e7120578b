"""The one place where Numba options are set.

Every kernel in :mod:`prroc_numba._kernels` is compiled through :func:`jit`, so the
options below apply everywhere:

* ``cache=True`` -- compiled machine code is written next to the sources and reused by
  later processes (cold start is part of the user's experience);
* ``nogil=True`` -- kernels release the GIL, so callers may use threads;
* ``error_model="numpy"`` -- division by zero gives inf/NaN instead of raising;
* no ``fastmath``: ties and exact comparisons of scores and counts must stay exact.

Kernels take one dtype path only (float64 values and counts, int64 offsets and
indices), which keeps the number of compiled specialisations small.
"""

from __future__ import annotations

import numba

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def jit(fn=None, *, parallel: bool = False):
    """Compile ``fn`` with the project's Numba options (see module docstring).

    Use as ``@jit`` for serial helpers or ``@jit(parallel=True)`` for batch kernels
    that run ``prange`` over curves or replicates.
    """

    def wrap(f):
        return numba.njit(parallel=parallel, **JIT_OPTIONS)(f)

    if fn is None:
        return wrap
    return wrap(fn)
