"""Every CUDA kernel compiles for a real GPU -- type inference and lowering to NVVM IR,
device functions included -- which the CUDA simulator (it runs the kernels as Python)
cannot check. Needs numba-cuda, not a GPU nor the CUDA toolkit (device functions are
compiled for a stated compute capability instead of asking a driver; the last step to
PTX needs NVRTC and is left to a GPU machine); runs in a subprocess so that this process never
imports numba.cuda (tests/test_device.py checks that)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
from numba import types as t
import numba.cuda.dispatcher as D


class _NoGPU:  # device functions compile for "the current device": name one (no driver)
    compute_capability = (8, 0)


D.get_current_device = lambda: _NoGPU()
from prroc_numba._kernels.cuda import kernels as K

f1, i1, u1 = t.float64[::1], t.int64[::1], t.uint8[::1]
f2, i2 = t.float64[:, ::1], t.int64[:, ::1]
i, u = t.int64, t.uint64
rows = (f1, f1, i1, i1, u1, i1, i1, i1, i1)  # sp, sn, rid, row_ids, last, ends, curve, off, starts
sigs = {
    "chunk_starts": (f1, i1, i1, i1, i, i1),
    "chunk_ends": (i1, i1, i1, i, i1, i1),
    "gather": (i1, f1, i1, i1, i1, f1, f1, i1, i1, i1, f1, f1, i1, u1),
    "chunk_sums": rows + (i, u, i, f2, f2, i2),
    "super_scan": (i1, i1, i1, i, f2, f2, i2, f2, f2, i2, f2, f2, i2),
    "chunk_scan": (i1, f2, f2, i2, f2, f2, i2, f2, f2, i2),
    "chunk_area": rows + (i, u, i, i, i1, i, f2, f2, f2, f2, f2),
    "super_sum": (i1, i1, i1, i, f2, f2),
    "curve_area": (i1, f2, f2, f2, i, f2),
    "sweep_vertices": (f1, f1, f1, u1, i1, i1, i1, i1, i1, i, f2, f2, i2, f2, f2, i2, i1,
                       f1, f1, f1),
    "origins": (i1, f1, f1, f1),
    "hull_counts": (f1, f1, i1, i1, i1),
    "hull_area": (f1, f1, i1, i1, i1, i, f1),
}
kernels = {n for n, v in vars(K).items() if hasattr(v, "py_func") and hasattr(v, "configure")
           and getattr(v, "targetoptions", {}).get("device") is not True
           and v.py_func.__module__ == K.__name__}
missing = kernels - set(sigs)
assert not missing, f"kernels without a signature here: {sorted(missing)}"
from numba.cuda.compiler import compile_cuda

for name, sig in sigs.items():
    # type inference and lowering to NVVM IR: what the simulator never does (the last
    # step, NVVM IR -> PTX, needs NVRTC from the CUDA toolkit; see the module docstring)
    cres = compile_cuda(getattr(K, name).py_func, t.void, sig, cc=(8, 0))
    assert name in cres.library.get_llvm_str(), name
print("OK", len(sigs))
"""


@pytest.mark.slow
def test_every_cuda_kernel_compiles_for_the_gpu_target():
    pytest.importorskip("numba.cuda")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run(
        [sys.executable, "-c", _CHILD],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
        check=False,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().startswith("OK"), r.stdout
