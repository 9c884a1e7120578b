"""The compile machinery: the Numba options every kernel is compiled with, the
two-level kernel cache and the compile notices (:mod:`.numba`), kernels that keep
working after ``fork`` (:mod:`.fork`), the representative calls that compile every
kernel (:mod:`.warmup`) and the wheel build's compile step (:mod:`.build`).
"""
