"""Per-call speed of kernels compiled for this host, generic x86-64 and x86-64-v3.

Each target in fresh processes with its own kernel cache (generic x86-64 is what the
wheel ships), alternating; CPU time (all threads), best of 5 calls per process, best
over the passes.

    python benchmarks/portable_speed.py --all            # every row of the docs' table
    python benchmarks/portable_speed.py [passes] [row]   # one bootstrap row

``--all``: every row of the compiled-kernel table in docs/compiled-kernels.md (the rows
``cold_start.py --wheel --speed`` measures, :data:`cold_start.SPEED_ROWS`), for all three
targets in one run, with each target's ratio to host code and whether it is within 1.10
of it; writes ``benchmarks/results/portable_speed.md``. Without ``--all``: the 1-model
bootstrap row of ``compare.py`` (N=1e5, B=1000), or the first bootstrap row whose name
contains ``row`` (e.g. ``"10 models paired"``). The first process of each target
compiles its kernels (before the timed calls: each row is called once first).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cold_start import _SPEED, SPEED_ROWS  # noqa: E402

TARGETS = {"host": None, "generic": "generic", "v3": "x86-64-v3"}
LIMIT = 1.10


def _load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def measure(rows, passes, repeats=5):
    """``{row name: {target: best CPU seconds}}`` over ``passes`` alternating passes."""
    tmp = tempfile.mkdtemp()
    best: dict[str, dict[str, float]] = {}
    for p in range(passes):
        for side, cpu in TARGETS.items():
            env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
            env.update(NUMBA_CACHE_DIR=f"{tmp}/{side}", PYTHONPATH=str(HERE.parent))
            if cpu is not None:
                # the CPU's own features only: without NUMBA_CPU_FEATURES Numba adds
                # the host's (AVX-512 here), which is host code under another name
                env.update(NUMBA_CPU_NAME=cpu, NUMBA_CPU_FEATURES="")
            cmd = [sys.executable, "-c", _SPEED, str(HERE), json.dumps(rows), str(repeats)]
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=HERE.parent)
            if r.returncode:
                print(r.stderr[-3000:])
                sys.exit(1)
            out = json.loads(r.stdout.strip().splitlines()[-1])["rows"]
            for cap, name, t in out:
                d = best.setdefault(f"{cap}: {name}", {})
                d[side] = min(d.get(side, float("inf")), t)
            print(f"pass {p + 1}/{passes} {side}: " + ", ".join(f"{t:.4f}" for *_, t in out))
    return best


def table(best) -> str:
    lines = [
        "| compare.py row (CPU per call) | host code | portable (shipped) | portable/host "
        f"| x86-64-v3 | v3/host | portable within {LIMIT:.2f} |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row, d in best.items():
        h, g, v = d["host"], d["generic"], d["v3"]
        ok = "yes" if g / h <= LIMIT else "NO"
        lines.append(
            f"| {row} | {h * 1e3:.1f} ms | {g * 1e3:.1f} ms | {g / h:.2f} | {v * 1e3:.1f} ms "
            f"| {v / h:.2f} | {ok} |"
        )
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("passes", nargs="?", type=int, default=3, help="alternating passes")
    ap.add_argument("row", nargs="?", default="1 model", help="text of a bootstrap row's name")
    ap.add_argument(
        "--all", action="store_true", help="every row of docs/compiled-kernels.md's table"
    )
    a = ap.parse_args(argv)
    rows = [list(r) for r in SPEED_ROWS] if a.all else [["bootstrap", a.row]]
    load0 = _load()
    best = measure(rows, a.passes)
    text = (
        f"Command: `python benchmarks/portable_speed.py {' '.join(argv or sys.argv[1:])}`  \n"
        f"Run: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {os.cpu_count()} cores; "
        f"load average at start {load0}, at the end {_load()}; {a.passes} alternating "
        "passes, fresh processes, CPU time of all threads, best of 5 calls per process\n\n"
        + table(best)
        + "\n"
    )
    print(text)
    if a.all:
        (HERE / "results" / "portable_speed.md").write_text(text)


if __name__ == "__main__":
    main()
