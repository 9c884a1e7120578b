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

import os

# Numba's OpenMP threading layer spins idle threads by default; on a machine whose cores
# are shared (CI runners, notebooks beside other work) each small parallel call then
# costs ~60 ms instead of ~1 ms. Passive waiting costs nothing measurable on our kernels.
# Set before Numba starts its thread pool; a user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402

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
