"""CUDA tests: run under Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, as CI does in
its own pytest invocation, see ``.ci/run``) or on a real GPU. Elsewhere -- the main test
run on a machine without a GPU -- this directory is not collected.

Tests marked ``gpu`` need real hardware and are skipped under the simulator.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))  # tests/naive.py

# ``from conftest import ...`` in this directory finds this file: re-export the helpers of
# tests/conftest.py (loaded under another module name)
_spec = importlib.util.spec_from_file_location(
    "_tests_conftest", Path(__file__).parent.parent / "conftest.py"
)
_main = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_main)
random_batch, load_case, CASE_NAMES = _main.random_batch, _main.load_case, _main.CASE_NAMES

SIMULATOR = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def _real_gpu() -> bool:
    if SIMULATOR:
        return False
    try:
        from numba import cuda
    except ImportError:
        return False
    return bool(cuda.is_available())


RUN = SIMULATOR or os.environ.get("PRROC_GPU_TESTS") == "1" and _real_gpu()
if not RUN:
    collect_ignore_glob = ["test_*.py"]


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.cuda)
            # the simulator evaluates the Poisson stream's uint64 products with numpy
            # scalars, which warn on the (intended) wrap-around
            item.add_marker(
                pytest.mark.filterwarnings("ignore:overflow encountered in scalar:RuntimeWarning")
            )
            if "gpu" in item.keywords and SIMULATOR:
                item.add_marker(pytest.mark.skip(reason="needs a real GPU"))
