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
indices), which keeps the number of compiled specialisations small. Each compile prints
what it compiles on stderr, with a measured estimate (cache hits print nothing).

Wheels arrive with every kernel compiled for a portable CPU (``setup.py``,
:mod:`prroc_numba._jit.build`) and, on x86-64, a second set for x86-64-v3 (AVX2, FMA,
BMI2: x86-64 CPUs since about 2015), used where the host has every feature of it and
Numba targets the host (no ``NUMBA_CPU_NAME``): :class:`_FunctionCache` loads the user
cache first (entries keyed by the host CPU), then the x86-64-v3 entries where they are
chosen, then the portable ones, and saves new compiles to the user cache only. Both
sets are compiled without fast-math, so they give the same bits. A damaged cache file
is reported once (:class:`KernelCacheWarning`), removed and its kernel recompiled.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import warnings

from .._version import __version__
from .._warnings import KernelCacheWarning
from .notice import CompileNotice

# Numba's OpenMP threading layer spins idle threads by default; on a machine whose cores
# are shared (CI runners, notebooks beside other work) each small parallel call then
# costs ~60 ms instead of ~1 ms. Passive waiting costs nothing measurable on our kernels.
# Set before Numba starts its thread pool; a user's own setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba
from numba.core import caching, config, event

JIT_OPTIONS = {"nogil": True, "error_model": "numpy"}


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
    root = config.CACHE_DIR  # type: ignore[attr-defined]
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
    if config.CACHE_DIR:  # type: ignore[attr-defined]
        return str(config.CACHE_DIR)  # type: ignore[attr-defined]
    base = _user_cache_base()
    return os.path.join(base, "prroc_numba", __version__) if base else "a user cache dir"


#: the CPU part of the key of the entries compiled into the wheel (LLVM's baseline of
#: the architecture, which every CPU of it runs; see :func:`_shipped_magic`)
PORTABLE_CPU = "generic"
#: the installed package's folder (this module lives in its ``_jit`` folder)
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: where the wheel's compiled kernels live, inside the installed package (read only)
SHIPPED_DIR = os.path.join(PACKAGE_DIR, "_compiled")
MANIFEST = "manifest.json"


def platform_tag() -> dict:
    """What compiled code must match to be loaded here (written into the manifest)."""
    import llvmlite.binding as ll

    abi = getattr(sys, "abiflags", "")
    return {
        "prroc_numba": __version__,
        "numba": numba.__version__,
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}{abi}",
        "triple": ll.get_process_triple(),
    }


#: the second shipped set's CPU (LLVM's name of the x86-64 psABI level 3) and its folder
V3_CPU = "x86-64-v3"
V3_DIR = os.path.join(SHIPPED_DIR, V3_CPU)
#: what a host needs to run x86-64-v3 code (LLVM's feature names of levels 2 and 3)
V3_FEATURES = (
    *("cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3"),
    *("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"),
)


def runs_v3() -> bool:
    """Whether the x86-64-v3 set may serve this process: Numba targets the host (no
    ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``: a CPU named there gets the portable set,
    which every x86-64 CPU runs) and the host has every feature in :data:`V3_FEATURES`.
    """
    import llvmlite.binding as ll

    if config.CPU_NAME is not None or config.CPU_FEATURES is not None:  # type: ignore[attr-defined]
        return False
    if not ll.get_process_triple().startswith("x86_64"):
        return False
    try:
        host = ll.get_host_cpu_features()
    except RuntimeError:  # LLVM cannot tell: the portable set is always safe
        return False
    return all(host.get(f, False) for f in V3_FEATURES)


def _shipped_root(folder: str = SHIPPED_DIR, say: bool = True) -> str | None:
    """The wheel's compiled kernels in ``folder``, when they can run here; else None
    and (``say``) one line why.

    A source or editable install has none and says nothing (kernels compile on first
    use, see the compile notice).
    """
    if os.environ.get("PRROC_NUMBA_NO_SHIPPED"):
        return None
    path = os.path.join(folder, MANIFEST)
    try:
        with open(path, encoding="utf-8") as f:
            built = json.load(f)
        built_for = {k: built[k] for k in platform_tag()}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        if not say:
            return None
        print(
            f"prroc_numba: the compiled kernels shipped with this install cannot be read "
            f"({path}: {exc!r}); kernels compile on first use instead",
            file=sys.stderr,
            flush=True,
        )
        return None
    here = platform_tag()
    if built_for != here:
        if not say:
            return None
        diff = ", ".join(f"{k} {built_for[k]}" for k in here if built_for[k] != here[k])
        now = ", ".join(f"{k} {here[k]}" for k in here if built_for[k] != here[k])
        print(
            f"prroc_numba: the compiled kernels shipped with this install were built for "
            f"{diff} (this is {now}); kernels compile on first use instead, once, into "
            f"{_tried()}",
            file=sys.stderr,
            flush=True,
        )
        return None
    return folder


def _subpath(py_file: str) -> str:
    """The cache subdirectory of a source file: its folder relative to the folder that
    holds the package (``prroc_numba/_kernels``), whatever the install location; files
    outside the package (test kernels) keep Numba's path-hash naming.
    """
    here = os.path.dirname(os.path.abspath(py_file))
    top = os.path.dirname(PACKAGE_DIR)
    try:
        rel = os.path.relpath(here, top)
    except ValueError:  # another drive (Windows)
        rel = os.pardir
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or not rel.startswith("prroc_numba"):
        return caching._CacheLocator.get_suitable_cache_subpath(py_file)
    return rel


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for our kernels: ``CACHE_ROOT/prroc_numba/<subpackage>/``.

    The source stamp is Numba's hash of the file's contents, so a reinstalled or moved
    package still matches its entries.
    """

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self.subpath = _subpath(py_file)

    def get_cache_path(self):
        return os.path.join(CACHE_ROOT, self.subpath) if CACHE_ROOT else ""

    @classmethod
    def from_function(cls, py_func, py_file):
        return cls(py_func, py_file) if os.path.exists(py_file) else None


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = (_Locator,)  # type: ignore[assignment]


_DAMAGE_SAID = False


def _say_damaged(path: str, exc: BaseException, shipped: bool) -> None:
    """Warn once per process that a cache file was damaged (every later one is repaired
    the same way, silently).
    """
    global _DAMAGE_SAID
    if _DAMAGE_SAID:
        return
    _DAMAGE_SAID = True
    if shipped:
        done = "compiled this kernel instead (kept in the user cache; the file is left as is)"
    else:
        done = "removed it; the kernel is compiled again and its entry rewritten"
    warnings.warn(
        f"prroc_numba: a cached compiled kernel could not be read: {path} "
        f"({type(exc).__name__}: {exc}); {done}. Any other damaged cache file is "
        "repaired the same way without another warning.",
        KernelCacheWarning,
        stacklevel=2,
    )


#: set by the wheel build (:mod:`prroc_numba._jit.build`) when several processes compile into
#: one cache: the path of the lock file that serialises their saves
BUILD_LOCK_ENV = "PRROC_NUMBA_BUILD_LOCK"


@contextlib.contextmanager
def build_lock():
    """Hold the build's inter-process lock (``$PRROC_NUMBA_BUILD_LOCK``) while a cache
    entry is saved: Numba reads the index, adds the entry and writes it back, so two
    processes saving entries of one kernel at once would lose one (or give two entries
    one data file). Outside the build (the variable unset) it does nothing.
    """
    path = os.environ.get(BUILD_LOCK_ENV)
    if not path:
        yield
        return
    import fcntl  # the parallel build runs only where fcntl exists (POSIX)

    with open(path, "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class _CacheFile(caching.IndexDataCacheFile):
    """Numba's index + data files, where any failure to read one is repaired: warned
    about once, the damaged file removed (user cache) and the kernel compiled again
    (Numba writes index and data files to a temporary name and renames them).
    """

    def __init__(self, cache_path, filename_base, source_stamp, shipped=False):
        super().__init__(cache_path, filename_base, source_stamp)
        self.shipped = shipped

    def damaged(self, path, exc):
        if not self.shipped:
            try:
                os.remove(path)
            except OSError:
                pass
        _say_damaged(path, exc, self.shipped)

    def save(self, key, data):
        """Numba's save (read the index, add ``key``, write index and data), under the
        build's lock when several build processes share one cache (:func:`build_lock`).
        """
        with build_lock():
            super().save(key, data)

    def _load_index(self):
        try:
            return super()._load_index()
        except Exception as exc:  # noqa: BLE001 (any damage: empty, cut, garbage)
            self.damaged(self._index_path, exc)
            return {}

    def load_rebuilt(self, key, impl, target_context):
        """The compile result stored under ``key``, or None (missing or damaged)."""
        name = self._load_index().get(key)
        if name is None:
            return None
        path = self._data_path(name)
        try:
            data = self._load_data(name)
        except FileNotFoundError:
            return None
        except Exception as exc:  # noqa: BLE001
            self.damaged(path, exc)
            return None
        try:
            return impl.rebuild(target_context, data)
        except Exception as exc:  # noqa: BLE001 (object code that does not load)
            self.damaged(path, exc)
            return None


_FINGERPRINT: str | None = None


def kernel_sources_fingerprint() -> str:
    """A hash of the contents of every source file of ``prroc_numba/_kernels`` (read
    once per process). Numba checks a cached entry against its own file only, while the
    entry also holds the compiled code of the functions it calls from other files.
    """
    global _FINGERPRINT
    if _FINGERPRINT is None:
        import hashlib

        top = os.path.join(PACKAGE_DIR, "_kernels")
        h = hashlib.sha256()
        for folder, dirs, files in os.walk(top):
            dirs.sort()
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                h.update(os.path.relpath(path, top).replace(os.sep, "/").encode())
                with open(path, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
        _FINGERPRINT = h.hexdigest()[:16]
    return _FINGERPRINT


def _shipped_magic(codegen, cpu: str) -> tuple:
    """The codegen part of the key of a shipped set's entries: this architecture's
    triple, the set's CPU and no extra features (what the build's ``NUMBA_CPU_NAME``
    and empty ``NUMBA_CPU_FEATURES`` give).
    """
    return (codegen.magic_tuple()[0], cpu, "")


class _FunctionCache(caching._Cache):
    """Layered cache of one kernel: the user cache first (entries keyed by this host's
    CPU, as Numba keys them), then the sets shipped in the wheel (read only, each keyed
    by its CPU): x86-64-v3 where :func:`runs_v3`, then the portable set. New compiles are
    saved to the user cache only, under the host's key: host-compiled code never goes
    under a shipped set's key.
    """

    def __init__(self, py_func):
        self._name = repr(py_func)
        self._py_func = py_func
        self._impl = _CacheImpl(py_func)
        loc = self._impl.locator
        stamp = loc.get_source_stamp()
        base = self._impl.filename_base
        self._user = _CacheFile(loc.get_cache_path(), base, stamp) if CACHE_ROOT else None
        subpath = getattr(loc, "subpath", None)  # None: NUMBA_CACHE_LOCATOR_CLASSES is set
        self._shipped = [
            (cpu, _CacheFile(os.path.join(root, subpath), base, stamp, shipped=True))
            for cpu, root in SHIPPED_SETS
            if subpath
        ]
        self._enabled = True

    def __repr__(self):
        return f"<{type(self).__name__} py_func={self._name}>"

    @property
    def cache_path(self):
        for f in (self._user, *(f for _, f in self._shipped)):
            if f is not None:
                return f._cache_path
        return ""

    def enable(self):
        self._enabled = True

    def disable(self):
        self._enabled = False

    def flush(self):
        if self._user is not None:
            self._user.flush()

    def _index_key(self, sig, codegen):
        """Numba's key (signature, codegen, this function's bytecode) plus the
        fingerprint of every kernel source file: an entry holds its callees' machine code
        too, so a change in any kernel module must retire the entries of every other.
        """
        sig_key, magic, code = caching.Cache._index_key(self, sig, codegen)
        return sig_key, magic, (*code, kernel_sources_fingerprint())

    def load_overload(self, sig, target_context):
        if not self._enabled:
            return None
        target_context.refresh()
        codegen = target_context.codegen()
        key = self._index_key(sig, codegen)
        if self._user is not None:
            cres = self._user.load_rebuilt(key, self._impl, target_context)
            if cres is not None:
                return cres
        for cpu, shipped in self._shipped:
            built = (key[0], _shipped_magic(codegen, cpu), key[2])
            cres = shipped.load_rebuilt(built, self._impl, target_context)
            if cres is not None:
                SERVED[self._py_func.__qualname__] = cpu
                return cres
        return None

    def save_overload(self, sig, data):
        if not self._enabled or self._user is None or not self._impl.check_cachable(data):
            return
        try:
            self._impl.locator.ensure_cache_path()
            self._user.save(self._index_key(sig, data.codegen), self._impl.reduce(data))
        except OSError:  # the directory went away or filled up: stays compiled in memory
            pass


CACHE_ROOT = cache_root()
#: the portable set (None: no usable compiled kernels shipped, e.g. a source install)
SHIPPED_ROOT = _shipped_root()
#: ``{kernel: cpu}``: which shipped set served each kernel loaded from one so far
SERVED: dict[str, str] = {}
#: ``[(cpu, folder)]``: the shipped sets the kernels load from, in order
SHIPPED_SETS = [
    *(
        [(V3_CPU, V3_DIR)]
        if SHIPPED_ROOT and runs_v3() and _shipped_root(V3_DIR, say=False)
        else []
    ),
    *([(PORTABLE_CPU, SHIPPED_ROOT)] if SHIPPED_ROOT else []),
]


#: says on stderr what is compiled, with an estimate (:mod:`.notice`)
_TABLES = (
    os.path.join(SHIPPED_DIR, MANIFEST),
    os.path.join(PACKAGE_DIR, "data", "compile_seconds.json"),
)
NOTICE = CompileNotice(CACHE_ROOT, _TABLES, _tried)
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
        cached = CACHE_ROOT is not None or bool(SHIPPED_SETS)
        if cached and hasattr(disp, "_cache"):  # not under NUMBA_DISABLE_JIT
            try:
                disp._cache = _FunctionCache(disp.py_func)
            except RuntimeError:  # no source file: compile in memory
                pass
        return disp

    if fn is None:
        return wrap
    return wrap(fn)


# after a fork: reset what a child cannot inherit (registered before any kernel runs)
from . import fork as _fork  # noqa: E402


def _quiet_after_fork() -> None:
    """A child whose kernels turned serial compiles them in memory: "compiling once ...
    later runs start instantly" is not so there (runs after the hook of :mod:`.fork`).
    """
    if _fork.SERIAL_AFTER_FORK:
        NOTICE.said = True


if hasattr(os, "register_at_fork"):  # not on Windows (no fork there)
    os.register_at_fork(after_in_child=_quiet_after_fork)
