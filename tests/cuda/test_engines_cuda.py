"""The CUDA row of the engines table (tests/test_engines.py): ``device="cuda"`` (here
Numba's CUDA simulator, or a GPU) gives the in-memory ``resampling="poisson"``
replicates, intervals and p-values for the same seed (to 1e-12: the device adds the
area terms in its own order), on a smaller frame (the simulator
runs kernels in Python)."""

from __future__ import annotations

import pytest

import prroc_numba as prn
from tests.test_engines import CASES, _frame, same_replicates


@pytest.mark.parametrize("case", list(CASES))
def test_cuda_gives_the_in_memory_replicates(case):
    fn, kw = CASES[case]
    kw = {**kw, "n_boot": 8, "seed": 3, "resampling": "poisson", "stratified": False}
    if fn is prn.bootstrap:
        kw["return_replicates"] = True
    df = _frame(n=200)
    # the same counts; the device sums area terms in its own order: to rounding
    same_replicates(fn(df, **kw, device="cuda"), fn(df, **kw, device="cpu"), atol=1e-12)
