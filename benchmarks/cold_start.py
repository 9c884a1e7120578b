"""Cold start: import time and first-call time of prroc_numba in fresh processes.

Each measurement runs a new Python process. ``NUMBA_CACHE_DIR`` points to a fresh
temporary directory, so the first run compiles every kernel it needs (empty cache) and
the following runs load the machine code from that directory (warm cache) -- what a
user sees on the first and on every later ``python my_script.py``.

Run: ``python benchmarks/cold_start.py`` (prints a small table; used by compare.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, time
t0 = time.perf_counter()
import prroc_numba as prn
t1 = time.perf_counter()
import numpy as np
rng = np.random.default_rng(0)
y = (rng.random(10_000) < 0.05).astype(np.int8)
s = rng.standard_normal(10_000) + y
prn.auc(score=s, label=y)
t2 = time.perf_counter()
prn.auc(score=s, label=y, curve="roc")
t3 = time.perf_counter()
import importlib, pkgutil
from numba.core.registry import CPUDispatcher
import prroc_numba._kernels as K
sigs = []
for info in pkgutil.iter_modules(K.__path__):
    mod = importlib.import_module(K.__name__ + "." + info.name)
    sigs += [len(d.signatures) for d in vars(mod).values() if isinstance(d, CPUDispatcher)
             and d.__module__ == mod.__name__ and d.signatures]
print(json.dumps({"import_s": t1 - t0, "first_auc_s": t2 - t1, "second_curve_s": t3 - t2,
                  "kernels_compiled": len(sigs), "specialisations": sum(sigs)}))
"""


def run_once(cache_dir: str) -> dict:
    """One fresh process; returns import / first auc / process wall times in seconds."""
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = cache_dir
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _CHILD],
        env=env,
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - t0
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_wall_s"] = wall
    res["import_plus_first_auc_s"] = res["import_s"] + res["first_auc_s"]
    return res


def measure(warm_runs: int = 3) -> dict:
    """``{"empty": {...}, "warm": {...}}``: the empty-cache run, then the best of
    ``warm_runs`` warm-cache runs (each field minimised separately)."""
    with tempfile.TemporaryDirectory(prefix="prroc_numba_cache_") as cache:
        empty = run_once(cache)
        warm_all = [run_once(cache) for _ in range(warm_runs)]
    warm = {k: min(r[k] for r in warm_all) for k in warm_all[0]}
    return {"empty": empty, "warm": warm}


def markdown(res: dict) -> str:
    rows = [
        (
            "| Numba cache | import prroc_numba | first `auc()` | import + first `auc()` "
            "| whole process (incl. Python start-up) |"
        ),
        "|---|---:|---:|---:|---:|",
    ]
    for name, label in [("empty", "empty (first run ever)"), ("warm", "warm (every later run)")]:
        r = res[name]
        rows.append(
            f"| {label} | {r['import_s']:.2f} s | {r['first_auc_s']:.2f} s | "
            f"**{r['import_plus_first_auc_s']:.2f} s** | {r['process_wall_s']:.2f} s |"
        )
    e = res["empty"]
    target = res["warm"]["import_plus_first_auc_s"]
    rows.append("")
    rows.append(
        f"DESIGN target (warm cache, import + first `auc()` < 1 s): "
        f"{'met' if target < 1.0 else 'NOT met'} ({target:.3f} s)."
    )
    rows.append(
        f"Kernels compiled by `auc()` (PR and ROC): {e['kernels_compiled']}, with "
        f"{e['specialisations']} specialisations in all (one dtype path)."
    )
    return "\n".join(rows)


if __name__ == "__main__":
    result = measure()
    print(markdown(result))
    target = result["warm"]["import_plus_first_auc_s"]
    print(
        f"\ntarget (warm cache, import + first auc < 1 s): "
        f"{'met' if target < 1.0 else 'NOT met'} ({target:.3f} s)"
    )
