"""Plain-Python drivers of the compiled kernels: the thread pool, chunked dispatch over
curves or items, and the host side of the CUDA backend. Everything here calls
:mod:`prroc_numba._kernels` (compiled code only) and nothing above it.

* :mod:`.threads` -- runs serial ``nogil`` kernels over chunks of curves (or items) on
  a thread pool (cheaper to compile than ``prange``; results independent of the thread
  count);
* :mod:`.sweep` -- the confusion sweep of a whole ragged batch;
* :mod:`.grid` -- curves onto shared grids, and the check of curves given as points;
* :mod:`.resample` -- the bootstrap's one sort per curve and its segments; replicates
  from merged entry masses;
* :mod:`.cuda` -- the host side of the CUDA backend (sort, chunk layout, launches).
"""
