"""The wheel build's compile step: ``python -m prroc_numba._jit.build TARGET``.

Run by ``setup.py`` (in a subprocess, with ``NUMBA_CPU_NAME=generic`` and an empty
``NUMBA_CACHE_DIR``; on x86-64 a second time with ``NUMBA_CPU_NAME=x86-64-v3`` and empty
``NUMBA_CPU_FEATURES`` into ``TARGET/x86-64-v3``, :data:`V3_CALLS` only) on the package as
it goes into the wheel: runs the representative calls
(:data:`prroc_numba._jit.warmup.CALLS`), then copies the compiled kernels to
``TARGET`` (``prroc_numba/_compiled`` in the wheel) with a ``manifest.json`` saying what
they were built for (Numba, Python, platform), how long each kernel took to compile and
which kernels the calls reached.

The calls run in parallel worker processes (one per CPU, at most :data:`MAX_JOBS` or
``PRROC_NUMBA_BUILD_JOBS``), each taking the next call from one queue, all compiling into
the one cache: a kernel saved by one worker is loaded, not compiled again, by the
others, and :func:`prroc_numba._jit.numba.build_lock` serialises the saves. Where the lock
cannot be had (no ``fcntl``: Windows) or with ``PRROC_NUMBA_BUILD_JOBS=1`` they run in
this process, one after another. The compiled code is the same either way: each kernel
signature is compiled by the same Numba for the same portable CPU.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time

#: the most worker processes (default: the number of CPUs, at most :data:`MAX_JOBS`)
JOBS_ENV = "PRROC_NUMBA_BUILD_JOBS"
#: beyond a few workers the calls' shared kernels are compiled twice more often than
#: the extra processes save, and each holds its own Numba and pandas in memory
MAX_JOBS = 4


def _jobs(n_calls: int) -> int:
    """How many worker processes compile the calls (1: this process alone)."""
    try:
        import fcntl  # noqa: F401 (the lock of parallel saves)
    except ImportError:
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    limit = os.environ.get(JOBS_ENV, "")
    jobs = int(limit) if limit.strip().isdigit() else min(cpus or 1, MAX_JOBS)
    return max(1, min(jobs, cpus or 1, n_calls))


#: calls that compile kernels no other call needs first (no sort, no sweep): the
#: second worker starts on them while the first compiles the shared ones
_STARTERS = ("dask partition kernels", "interpolate points")


def _call_names() -> list[str]:
    """Every representative call's name (the command line's last), in the order the
    workers take them: the first call (it compiles the sort, sweep and area kernels
    most others load), :data:`_STARTERS`, then the rest interleaved from the two ends of
    its halves, so that two workers work on different parts of the API.
    """
    from . import warmup as _warmup

    names = [n for n, _ in _warmup.CALLS if _warmup.runnable(n)]
    first = [names[0], *(n for n in _STARTERS if n in names)]
    rest = [n for n in names if n not in first]
    half = (len(rest) + 1) // 2
    order = list(first)
    for i in range(half):
        if half + i < len(rest):
            order.append(rest[half + i])
        order.append(rest[i])
    return order + [n for n, _ in _warmup.CLI_CALLS]


def _cpu() -> str:
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen().magic_tuple()[1]


#: the calls whose kernels the x86-64-v3 set holds: the bootstrap and the paired
#: comparison of curves of 4096 rows or more, with their default options, whose
#: replicate walks ran up to 1.25x slower as portable code than as host code and as fast
#: as x86-64-v3 code (docs/compiled-kernels.md). Every other kernel measured within 1.10
#: as portable code, and the second set leaves it out: all of them would double the
#: build's compile time.
V3_CALLS = ("bootstrap 1e4", "compare 1e4")


def _for_cpu(names: list[str], cpu: str) -> list[str]:
    """The calls that compile the set for ``cpu`` (:data:`V3_CALLS` for x86-64-v3)."""
    from . import numba as _numba

    return names if cpu != _numba.V3_CPU else [n for n in names if n in V3_CALLS]


_STATE: dict = {}


def _reached() -> dict:
    """``{kernel: [signatures]}`` compiled or loaded in this process so far."""
    from . import warmup as _warmup

    if "dispatchers" not in _STATE:
        _STATE["dispatchers"] = _warmup.dispatchers()
    return {k: [str(s) for s in d.signatures] for k, d in _STATE["dispatchers"].items()}


def _work(name: str) -> dict:
    """Run one representative call in this worker; what it compiled and reached."""
    from . import numba as _numba
    from . import warmup as _warmup

    if "inputs" not in _STATE:
        _STATE["inputs"] = _warmup.inputs()
    if name in dict(_warmup.CLI_CALLS):
        from ..cli import main as cli_main

        _warmup.run_cli(cli_main, name)
    else:
        _warmup.run_one(name, _STATE["inputs"])
    return {
        "pid": os.getpid(),
        "compile_seconds": dict(_numba.NOTICE.compile_seconds),
        "kernels": _reached(),
    }


def _run(jobs: int) -> tuple[dict, dict]:
    """Run the calls of the set this build compiles (:func:`_for_cpu`) in ``jobs`` worker
    processes, or one after another in this process when ``jobs`` is 1; (compile
    seconds, kernels reached).
    """
    names = _for_cpu(_call_names(), _cpu())
    if jobs == 1:
        results = [_work(name) for name in names]
    else:
        results = _in_workers(names, jobs)
    seconds: dict = {}
    kernels: dict = {}
    last = {}
    for r in results:  # each process's counts are cumulative: its last answer has all
        last[r["pid"]] = r
    for r in results:
        for k, sigs in r["kernels"].items():
            kernels.setdefault(k, set()).update(sigs)
    for r in last.values():
        for k, v in r["compile_seconds"].items():
            seconds[k] = max(seconds.get(k, 0.0), v)
    return seconds, {k: sorted(v) for k, v in kernels.items()}


def _in_workers(names: list[str], jobs: int) -> list[dict]:
    """:func:`_work` of every call, in ``jobs`` spawned processes sharing the cache."""
    import multiprocessing
    import tempfile

    from . import numba as _numba

    with tempfile.NamedTemporaryFile(prefix="prroc_numba_build_", suffix=".lock") as lock:
        os.environ[_numba.BUILD_LOCK_ENV] = lock.name  # the workers inherit it
        try:
            ctx = multiprocessing.get_context("spawn")  # no Numba state forked
            with ctx.Pool(jobs) as pool:
                return list(pool.imap_unordered(_work, names, chunksize=1))
        finally:
            del os.environ[_numba.BUILD_LOCK_ENV]


def main(target: str) -> int:
    """Compile every kernel for the CPU the build targets (``NUMBA_CPU_NAME``: the
    portable CPU, or x86-64-v3 for the second set) and copy the entries to ``target``.
    """
    from numba.core.registry import cpu_target

    from . import numba as _numba
    from . import warmup as _warmup

    magic = cpu_target.target_context.codegen().magic_tuple()
    if magic[2] != "" or magic[1] not in (_numba.PORTABLE_CPU, _numba.V3_CPU):
        print(f"prroc_numba build: not a shipped set's target {magic}", file=sys.stderr)
        return 1
    if _numba.CACHE_ROOT is None or _numba.SHIPPED_ROOT is not None:
        print("prroc_numba build: needs an empty writable NUMBA_CACHE_DIR", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    jobs = _jobs(len(_warmup.CALLS))
    compile_seconds, kernels = _run(jobs)
    if magic[1] == _numba.PORTABLE_CPU:
        # every kernel gets a row (empty where no call reaches it): the manifest names them
        for name in _warmup.dispatchers():
            kernels.setdefault(name, [])
    else:  # the second set names the kernels it holds
        kernels = {k: v for k, v in kernels.items() if v}
    seconds = time.perf_counter() - t0
    src = os.path.join(_numba.CACHE_ROOT, "prroc_numba")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(
        src, os.path.join(target, "prroc_numba"), ignore=shutil.ignore_patterns("*.tmp.*")
    )
    manifest = {
        **_numba.platform_tag(),
        "cpu": magic[1],
        "seconds": round(seconds, 1),
        "jobs": jobs,
        "compile_seconds": {k: round(v, 2) for k, v in compile_seconds.items()},
        "kernels": kernels,
        "unreached": sorted(k for k, s in kernels.items() if not s),
    }
    with open(os.path.join(target, _numba.MANIFEST), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    n = sum(1 for _, _, files in os.walk(target) for f in files if f.endswith(".nbc"))
    print(
        f"prroc_numba build: {n} compiled kernels for {magic[1]} in {seconds:.0f} s "
        f"({jobs} process{'es' if jobs > 1 else ''})"
        + (f"; not reached: {manifest['unreached']}" if manifest["unreached"] else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
