"""CUDA kernels (numba.cuda): the sweep, every AUC estimator, the ROC hull and the
fused Poisson bootstrap on the same ragged batch as the CPU kernels.

Imported only when ``device="cuda"`` is used (``import prroc_numba`` never imports
``numba.cuda``). Under Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) the same code
runs on the CPU in Python threads, which is how CI tests it.

* :mod:`.kernels` -- the kernels (one thread per (chunk, replicate) or per curve);
* the host side (sorting, chunk layout, launches; entry points ``area_batch``,
  ``sweep_batch``, ``hull_batch``, ``poisson_replicates``) is
  :mod:`prroc_numba._drivers.cuda`.
"""
