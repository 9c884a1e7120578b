"""The wheel build's compile step: ``python -m prroc_numba._jit.build TARGET``.

Run by ``setup.py`` (in a subprocess, with ``NUMBA_CPU_NAME=generic`` and an empty
``NUMBA_CACHE_DIR``) on the package as it goes into the wheel: runs the representative
calls (:data:`prroc_numba._jit.warmup.CALLS`), then copies the compiled kernels to
``TARGET`` (``prroc_numba/_compiled`` in the wheel) with a ``manifest.json`` saying what
they were built for (Numba, Python, platform), how long each kernel took to compile and
which kernels the calls reached.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time


def main(target: str) -> int:
    """Compile every kernel for the portable CPU and copy the entries to ``target``."""
    from numba.core.registry import cpu_target

    from ..cli import main as cli_main
    from . import numba as _numba
    from . import warmup as _warmup

    magic = cpu_target.target_context.codegen().magic_tuple()
    if magic[1:] != (_numba.PORTABLE_CPU, ""):
        print(f"prroc_numba build: not a portable target {magic[:2]}", file=sys.stderr)
        return 1
    if _numba.CACHE_ROOT is None or _numba.SHIPPED_ROOT is not None:
        print("prroc_numba build: needs an empty writable NUMBA_CACHE_DIR", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    _warmup.run_calls(cli_main=cli_main)
    seconds = time.perf_counter() - t0
    kernels = {name: [str(s) for s in d.signatures] for name, d in _warmup.dispatchers().items()}
    src = os.path.join(_numba.CACHE_ROOT, "prroc_numba")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(
        src, os.path.join(target, "prroc_numba"), ignore=shutil.ignore_patterns("*.tmp.*")
    )
    manifest = {
        **_numba.platform_tag(),
        "cpu": _numba.PORTABLE_CPU,
        "seconds": round(seconds, 1),
        "compile_seconds": {k: round(v, 2) for k, v in _numba.NOTICE.compile_seconds.items()},
        "kernels": kernels,
        "unreached": sorted(k for k, s in kernels.items() if not s),
    }
    with open(os.path.join(target, _numba.MANIFEST), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    n = sum(1 for _, _, files in os.walk(target) for f in files if f.endswith(".nbc"))
    print(
        f"prroc_numba build: {n} compiled kernels for the portable CPU in {seconds:.0f} s"
        + (f"; not reached: {manifest['unreached']}" if manifest["unreached"] else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
