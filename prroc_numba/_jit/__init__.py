"""The compile machinery: the Numba options every kernel is compiled with, the
two-level kernel cache and the compile notices (:mod:`.numba`), kernels that keep
working after ``fork`` (:mod:`.fork`), the representative calls that compile every
kernel (:mod:`.warmup`) and the wheel build's compile step (:mod:`.build`).

The kernels take :func:`jit` from here. :mod:`.warmup` and :mod:`.build` run the
public functions, so they are imported as modules where they are needed (the command
line's ``warmup``, ``python -m prroc_numba._jit.build``), never from this file.
"""

from .numba import jit

__all__ = ["jit"]
