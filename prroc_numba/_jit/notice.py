"""What the user sees while kernels compile: one line saying what is compiled and
where it is cached, an estimate per kernel, and progress during a long compile.
"""

from __future__ import annotations

import json
import os
import sys

from numba.core import event


def _estimates(files) -> dict:
    """Measured compile seconds per kernel (``module.name``): from the first of
    ``files`` that reads (the shipped manifest, measured by the wheel build, then the
    package's table).
    """
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            return dict(data.get("compile_seconds", data))
        except (OSError, ValueError, TypeError, AttributeError):
            continue
    return {}


class CompileNotice(event.Listener):
    """Say on stderr what is compiled, with an estimate, and show progress.

    Numba fires ``numba:compile`` only when it really compiles (a cache hit loads
    without the event), so cache hits stay silent. The first compile in a process
    prints where compiled kernels are kept; each compile of a kernel called from Python
    (not its callees, compiled inside it) prints one line with the kernel's name and its
    compile time measured when the package was built; one that runs over a second
    shows a progress line. Also records per-kernel compile seconds
    (``compile_seconds``) for ``prroc-numba warmup``, the build and the benchmarks.
    ``PRROC_NUMBA_QUIET=1`` silences the lines.
    """

    #: seconds before a running compile shows progress, then between progress lines
    PROGRESS_AFTER = 1.0
    PROGRESS_EVERY = 2.0

    def __init__(self, cache_root=None, estimate_files=(), tried=str):
        """``cache_root``: where kernels are cached (None: nowhere writable; then
        ``tried()`` says what was tried); ``estimate_files``: the compile-seconds tables.
        """
        self.cache_root = cache_root
        self.tried = tried
        self.estimate_files = tuple(estimate_files)
        self.said = False
        self.compile_seconds = {}
        self._t0 = {}
        self._depth = 0
        self._timer = None
        self._gen = 0  # which top-level compile is running (its progress lines)
        self._estimates = None

    @staticmethod
    def _ours(ev):
        disp = ev.data.get("dispatcher") if ev.data else None
        mod = getattr(getattr(disp, "py_func", None), "__module__", "") or ""
        return disp if mod.startswith("prroc_numba.") else None

    @staticmethod
    def _name(disp):
        return f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"

    def estimate(self, name: str) -> float:
        """Measured compile seconds of kernel ``name`` (the median kernel's if unknown)."""
        if self._estimates is None:
            self._estimates = _estimates(self.estimate_files)
        if name in self._estimates:
            return float(self._estimates[name])
        known = sorted(self._estimates.values())
        return float(known[len(known) // 2]) if known else 1.0

    def _header(self) -> str:
        if self.cache_root is None:
            return (
                f"prroc_numba: no writable cache directory ({self.tried()}), so kernels "
                "compile in memory in every process; set NUMBA_CACHE_DIR to a writable "
                "directory to compile them once"
            )
        return (
            f"prroc_numba: compiling kernels once, into {self.cache_root}; later runs load "
            "them instantly"
        )

    def _progress(self, gen, label, t0, est):
        import threading
        import time

        if gen != self._gen:  # that compile has ended
            return
        secs = time.perf_counter() - t0
        print(
            f"prroc_numba:   still compiling {label}: {secs:.0f} s of ~{est:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        self._timer = threading.Timer(self.PROGRESS_EVERY, self._progress, (gen, label, t0, est))
        self._timer.daemon = True
        self._timer.start()

    def on_start(self, ev):
        import threading
        import time

        disp = self._ours(ev)
        if disp is None:
            return
        t0 = time.perf_counter()
        self._t0[id(disp)] = t0
        self._depth += 1
        if self._depth > 1 or os.environ.get("PRROC_NUMBA_QUIET"):
            return
        if not self.said:
            self.said = True
            print(self._header(), file=sys.stderr, flush=True)
        name = self._name(disp)
        label = name.removeprefix("prroc_numba._kernels.")
        est = self.estimate(name)
        print(f"prroc_numba: compiling {label} (~{est:.1f} s)", file=sys.stderr, flush=True)
        self._gen += 1
        args = (self._gen, label, t0, est)
        self._timer = threading.Timer(self.PROGRESS_AFTER, self._progress, args)
        self._timer.daemon = True
        self._timer.start()

    def on_end(self, ev):
        import time

        disp = self._ours(ev)
        if disp is None or id(disp) not in self._t0:
            return
        self._depth -= 1
        if self._depth == 0:
            self._gen += 1
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        name = self._name(disp)
        # nested compiles (callees) are included in their caller's time
        self.compile_seconds[name] = self.compile_seconds.get(name, 0.0) + (
            time.perf_counter() - self._t0.pop(id(disp))
        )
