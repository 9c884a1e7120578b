"""device= without a GPU: ``import prroc_numba`` never imports numba.cuda, clear errors
for a missing extra or a missing GPU, and the device recorded in the frames' attrs.
(The CUDA kernels themselves are tested in tests/cuda under the simulator.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import prroc_numba as prn

ROOT = Path(__file__).parent.parent


def _run(code, **env):
    e = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    e.update(env)
    e["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=e,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def test_import_does_not_import_numba_cuda():
    r = _run(
        "import sys, prroc_numba as prn\n"
        "prn.auc(score=[0.3, 0.2, 0.1], label=[1, 0, 1])\n"
        "print('numba.cuda' in sys.modules)"
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_cuda_without_the_extra_says_what_to_install():
    r = _run(
        "import sys\nsys.modules['numba.cuda'] = None\nimport prroc_numba as prn\n"
        "prn.auc(score=[0.3, 0.2, 0.1], label=[1, 0, 1], device='cuda')"
    )
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "prroc-numba[cuda]" in r.stderr


def test_cuda_without_a_gpu_is_a_clear_error():
    r = _run(
        "from numba import cuda\nimport prroc_numba as prn\n"
        "if cuda.is_available():\n    print('GPU')\nelse:\n"
        "    prn.auc(score=[0.3, 0.2, 0.1], label=[1, 0, 1], device='cuda')"
    )
    if r.stdout.strip() == "GPU":
        pytest.skip("a GPU is present")
    assert r.returncode != 0
    assert "no usable CUDA GPU" in r.stderr and "NUMBA_ENABLE_CUDASIM=1" in r.stderr


def test_unknown_device():
    with pytest.raises(ValueError, match="device='tpu'"):
        prn.auc(score=[0.3, 0.2], label=[1, 0], device="tpu")


def test_cpu_is_recorded():
    assert prn.auc(score=[0.3, 0.2], label=[1, 0]).attrs["device"] == "cpu"
    assert prn.roc_curve(score=[0.3, 0.2], label=[1, 0]).attrs["device"] == "cpu"
