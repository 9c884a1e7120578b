"""The one place where Numba options are set.

Every kernel in :mod:`prroc_numba._kernels` is compiled through :func:`jit`, so the
options below apply everywhere:

* a disk cache of the compiled machine code, in a per-user directory for this package
  and version (see :func:`cache_root`), never inside the installed package; where no
  directory is writable the kernels compile in memory and one line on stderr says how
  to make later runs fast;
* ``nogil=True`` -- kernels release the GIL, so callers may use threads;
* ``error_model="numpy"`` -- division by zero gives inf/NaN instead of raising;
* no ``fastmath``: ties and exact comparisons of scores and counts must stay exact.

Kernels take one dtype path only (float64 values and counts, int64 offsets and
indices), which keeps the number of compiled specialisations small. The first compile
in a process prints one line on stderr (cache hits print nothing).
"""

from __future__ import annotations

import os
import sys
import tempfile

from ._version import __version__

# Numba's OpenMP threading layer spins idle threads by default; on a machine whose cores
# are shared (CI runners, notebooks beside other work) each small parallel call then
# costs ~60 ms instead of ~1 ms. Passive waiting costs nothing measurable on our kernels.
# Set before Numba starts its thread pool; a user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba
from numba.core import caching, config, event

JIT_OPTIONS = {"nogil": True, "error_model": "numpy"}

# rough compile time of a first call on an empty cache (2 cores), for the stderr line
COMPILE_ESTIMATE_S = 10


def _user_cache_base() -> str | None:
    """The platform's per-user cache directory (None when there is no home)."""
    try:
        if sys.platform == "win32":
            base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
        elif sys.platform == "darwin":
            base = os.path.expanduser("~/Library/Caches")
        else:
            xdg = os.environ.get("XDG_CACHE_HOME", "")
            base = xdg if os.path.isabs(xdg) else os.path.expanduser("~/.cache")
    except (KeyError, RuntimeError):  # no HOME and no passwd entry
        return None
    return base if os.path.isabs(base) else None


def cache_root() -> str | None:
    """Where compiled kernels go: ``NUMBA_CACHE_DIR`` (``numba.config.CACHE_DIR``) when
    set, else ``<user cache dir>/prroc_numba/<version>``; None when it cannot be written.
    """
    root = config.CACHE_DIR
    if not root:
        base = _user_cache_base()
        if base is None:
            return None
        root = os.path.join(base, "prroc_numba", __version__)
    try:
        os.makedirs(root, exist_ok=True)
        tempfile.TemporaryFile(dir=root).close()
    except OSError:
        return None
    return root


def _tried() -> str:
    if config.CACHE_DIR:
        return str(config.CACHE_DIR)
    base = _user_cache_base()
    return os.path.join(base, "prroc_numba", __version__) if base else "a user cache dir"


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for our kernels: ``CACHE_ROOT/<source dir>_<hash>/``."""

    root: str | None = None

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(self.root, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not cls.root:
            return None
        return super().from_function(py_func, py_file)


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = (_Locator,)


class _FunctionCache(caching.FunctionCache):
    _impl_class = _CacheImpl


CACHE_ROOT = cache_root()
_Locator.root = CACHE_ROOT


class _CompileNotice(event.Listener):
    """Say once per process, on stderr, that kernels are being compiled.

    Numba fires ``numba:compile`` only when it really compiles (a disk-cache hit loads
    without the event), so cache hits stay silent. Also records per-kernel compile
    seconds (``compile_seconds``) for ``prroc-numba warmup`` and the benchmarks.
    """

    def __init__(self):
        self.said = False
        self.compile_seconds = {}
        self._t0 = {}

    @staticmethod
    def _ours(ev):
        disp = ev.data.get("dispatcher") if ev.data else None
        mod = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
        return disp if mod.startswith("prroc_numba.") else None

    def on_start(self, ev):
        import time

        disp = self._ours(ev)
        if disp is None:
            return
        self._t0[id(disp)] = time.perf_counter()
        if self.said or os.environ.get("PRROC_NUMBA_QUIET"):
            return
        self.said = True
        if CACHE_ROOT is None:
            msg = (
                f"prroc_numba: no writable cache directory ({_tried()}), so kernels "
                f"compile in memory in every process (~{COMPILE_ESTIMATE_S} s); set "
                "NUMBA_CACHE_DIR to a writable directory to compile them once"
            )
        else:
            msg = (
                f"prroc_numba: compiling kernels once, ~{COMPILE_ESTIMATE_S} s; later "
                "runs start instantly"
            )
        print(msg, file=sys.stderr, flush=True)

    def on_end(self, ev):
        import time

        disp = self._ours(ev)
        if disp is None or id(disp) not in self._t0:
            return
        name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
        # nested compiles (callees) are included in their caller's time
        self.compile_seconds[name] = self.compile_seconds.get(name, 0.0) + (
            time.perf_counter() - self._t0.pop(id(disp))
        )


NOTICE = _CompileNotice()
event.register("numba:compile", NOTICE)


def jit(fn=None, *, parallel: bool = False, inline: str = "never"):
    """Compile ``fn`` with the project's Numba options (see module docstring).

    Use as ``@jit`` for serial helpers or ``@jit(parallel=True)`` for batch kernels
    that run ``prange`` over curves or replicates. ``inline="always"``: a small helper
    shared by several kernels whose body is typed inside each caller instead of being
    compiled on its own (a separate compile of a helper that returns arrays costs more
    first-call time than the copy it replaces).
    """

    def wrap(f):
        disp = numba.njit(parallel=parallel, inline=inline, **JIT_OPTIONS)(f)
        if CACHE_ROOT is not None and hasattr(disp, "_cache"):  # not under NUMBA_DISABLE_JIT
            try:
                disp._cache = _FunctionCache(disp.py_func)
            except RuntimeError:  # the directory went away: compile in memory
                pass
        return disp

    if fn is None:
        return wrap
    return wrap(fn)
