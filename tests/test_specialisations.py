"""Compile time is part of the user's experience: every kernel keeps ONE specialisation.

Kernels take one dtype path (float64 values and counts, int64 offsets), whatever the
user passes (int/bool/float labels, float32/int scores, weights, wide/long input,
Series or arrays, frames of points). A second specialisation means some input reached a
kernel with another dtype, layout or read-only flag (pandas copy-on-write hands out
read-only views), and costs a full extra compilation on every cold start. Two checks:

* fast: during a varied, typical session, every call from Python into a kernel is
  recorded; each kernel must see one argument-type tuple, with writable, C-contiguous
  arrays;
* thorough (``slow``): the same session in a fresh process with an EMPTY Numba cache
  (everything compiles, callees included); every dispatcher in ``prroc_numba._kernels``
  must end with at most one signature. (With a warm cache, callees are loaded inside
  their callers and never show their signatures: hence the empty cache.)
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import pytest
from numba import typeof
from numba.core.registry import CPUDispatcher

import prroc_numba._kernels as kernels_pkg
from prroc_numba import _warmup

ROOT = Path(__file__).resolve().parents[1]


def _dispatchers():
    out = {}
    for info in pkgutil.iter_modules(kernels_pkg.__path__):
        mod = importlib.import_module(f"{kernels_pkg.__name__}.{info.name}")
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == mod.__name__:
                out[f"{info.name}.{name}"] = obj
    return out


def _typical_session():
    """The representative calls (what the wheel build compiles): every kernel path."""
    _warmup.run_calls()


@contextmanager
def _record_kernel_calls():
    """Record the argument types of every call from Python into a kernel."""
    calls = defaultdict(set)
    original = CPUDispatcher.__call__

    def recording(self, *args, **kwargs):
        mod = getattr(self.py_func, "__module__", "")
        if mod.startswith("prroc_numba._kernels."):
            name = f"{mod.rsplit('.', 1)[1]}.{self.py_func.__name__}"
            calls[name].add(tuple(str(typeof(a)) for a in args))
        return original(self, *args, **kwargs)

    CPUDispatcher.__call__ = recording
    try:
        yield calls
    finally:
        del CPUDispatcher.__call__


def test_kernels_are_called_with_one_type_path():
    with _record_kernel_calls() as calls:
        _typical_session()
    assert calls, "no kernel calls recorded"
    many = {k: sorted(v) for k, v in calls.items() if len(v) > 1}
    assert not many, f"kernels called with several argument types from Python: {many}"
    bad = {
        k: sorted(v)
        for k, v in calls.items()
        if any("readonly" in t or ("array" in t and ", C)" not in t) for tup in v for t in tup)
    }
    assert not bad, (
        "kernels handed read-only or non-contiguous arrays (each compiles a separate "
        f"specialisation; copy/np.ascontiguousarray at the boundary): {bad}"
    )


def _signatures_after_session():
    """Run the session and list each dispatcher's signatures (in this process)."""
    _typical_session()
    sigs = {name: [str(x) for x in d.signatures] for name, d in _dispatchers().items()}
    return {"signatures": sigs}


@pytest.mark.slow
def test_every_kernel_has_at_most_one_specialisation():
    # a fresh process with an empty cache: every kernel the session needs compiles, so
    # every dispatcher (callees too) lists what it was compiled for. NUMBA_OPT=0 halves
    # the compile time; typing (hence the signatures) does not depend on it.
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); import test_specialisations as t; "
        "print(json.dumps(t._signatures_after_session()))"
    )
    with tempfile.TemporaryDirectory(prefix="prroc_numba_cache_") as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": cache, "NUMBA_OPT": "0"}
        out = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            cwd=str(ROOT),
            capture_output=True,
            text=True,
            env=env,
        )
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    sigs = res["signatures"]
    assert sigs, "no Numba dispatchers found in prroc_numba._kernels"
    many = {name: s for name, s in sigs.items() if len(s) > 1}
    assert not many, (
        "kernels compiled more than one specialisation (pass float64 values and int64 "
        f"offsets, C-contiguous and writable): {many}"
    )
    used = [name for name, s in sigs.items() if len(s) == 1]
    for name in ["sweep._sweep_one", "area._areas_batch"]:
        assert name in used
