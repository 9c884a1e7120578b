"""Forked children: kernels keep working after ``fork``.

Two pieces of process-wide state do not survive ``fork`` (``multiprocessing``'s
default start method on Linux before Python 3.14, joblib's multiprocessing backend,
PyTorch ``DataLoader`` workers):

* the thread pool of :mod:`prroc_numba._drivers.threads`, whose threads the child does
  not have; that module resets it in the child (``os.register_at_fork``);
* Numba's threading layer. Under the GNU OpenMP layer (``omp`` with ``libgomp``, what
  Numba picks on Linux when TBB is not installed) a child of a process that started
  the layer is terminated (SIGTERM, "fork() called from a process already using GNU
  OpenMP, this is unsafe") by its first ``parallel=True`` kernel. :func:`_after_fork`
  turns every such kernel of this package serial in that child: the next call compiles
  it again without ``parallel`` (in memory, a few seconds per kernel, once per child).
  Each ``prange`` iteration writes its own slice, so the serial kernel gives the same
  bits. TBB, Intel OpenMP and ``workqueue`` are fork-safe and are left alone.

CUDA cannot be used in a child forked after the parent used the GPU (numba-cuda says
"CUDA initialized before forking"); use the ``spawn`` or ``forkserver`` start method.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

#: set in a forked child whose parallel kernels were turned serial
SERIAL_AFTER_FORK = False


def _parent_used_gnu_openmp() -> bool:
    """True when this process inherited a started GNU OpenMP threading layer."""
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is None or not getattr(parallel, "_is_initialized", False):
        return False
    try:
        if parallel.threading_layer() != "omp":
            return False
        from numba.np.ufunc import omppool  # type: ignore[attr-defined]
    except (ImportError, ValueError):
        return False
    return getattr(omppool, "openmp_vendor", "GNU") == "GNU"


def parallel_kernels() -> list:
    """The package's ``parallel=True`` CPU dispatchers (every kernel module is
    imported first, so that one first imported later cannot bring a parallel one).
    """
    from .. import _kernels

    for info in pkgutil.iter_modules(_kernels.__path__, _kernels.__name__ + "."):
        if not info.ispkg:  # the cuda subpackage holds no CPU kernels
            importlib.import_module(info.name)
    found = {}
    for name, mod in list(sys.modules.items()):
        if not name.startswith("prroc_numba.") or mod is None:
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, CPUDispatcher) and obj.targetoptions.get("parallel"):
                found[id(obj)] = obj
    return list(found.values())


def make_serial(disp) -> None:
    """Recompile ``disp`` without ``parallel`` on its next call, in memory only (a
    serial build must not overwrite the parallel one in the disk cache, whose index
    does not tell them apart).
    """
    disp.targetoptions["parallel"] = False
    disp._cache = NullCache()
    disp._make_finalizer()()
    disp._reset_overloads()


def _after_fork() -> None:
    global SERIAL_AFTER_FORK
    if SERIAL_AFTER_FORK or not _parent_used_gnu_openmp():
        return
    for disp in parallel_kernels():
        make_serial(disp)
    SERIAL_AFTER_FORK = True


if hasattr(os, "register_at_fork"):  # not on Windows (no fork there)
    os.register_at_fork(after_in_child=_after_fork)
