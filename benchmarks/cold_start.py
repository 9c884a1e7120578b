"""Cold start: import time and first-call time of prroc_numba in fresh processes.

Every measurement runs a new Python process with ``NUMBA_CACHE_DIR`` pointing to a
temporary directory:

* **empty cache** -- one fresh, empty cache directory per case, so each case compiles
  every kernel it needs (what a user meets on the very first call): import + first
  ``auc_pr``, import + first ``pr_curve``, import + first ``bootstrap``, import + first
  ``compare``, and the whole ``prroc-numba demo`` (process wall time);
* **warm cache** -- the cache filled by a first run; import + first ``auc`` (best of 3):
  what every later ``python my_script.py`` costs.

Run: ``python benchmarks/cold_start.py [--root CHECKOUT] [--json FILE]`` (``--root``
measures another checkout, e.g. an exported older commit, for before/after ratios).
``measure()`` and ``markdown()`` are also used by ``compare.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# target seconds on a 2-core machine (issue 9)
TARGETS = {"auc_pr": 3.0, "bootstrap": 6.0, "demo": 15.0, "warm_auc": 1.0}

_SETUP = r"""
import json, time
t0 = time.perf_counter()
import prroc_numba as prn
t1 = time.perf_counter()
import numpy as np, pandas as pd
rng = np.random.default_rng(0)
n = 10_000
y = (rng.random(n) < 0.05).astype(np.int8)
s = rng.standard_normal(n) + y
df = pd.DataFrame({"y": y, "m1": s, "m2": s + rng.standard_normal(n)})
t2 = time.perf_counter()
"""

_CALLS = {
    "auc_pr": "prn.auc_pr(y, s)",
    "pr_curve": "prn.pr_curve(score=s, label=y)",
    "bootstrap": "prn.bootstrap(df, score='m1', label='y', n_boot=200, progress=False)",
    "compare": "prn.compare(df, score=['m1', 'm2'], label='y', n_boot=200, progress=False)",
    "auc": "prn.auc(score=s, label=y)",
}

_TAIL = r"""
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_call_s": t3 - t2,
                  "cpu_s": time.process_time()}))
"""

LABELS = {
    "auc_pr": "import + first `auc_pr`",
    "pr_curve": "import + first `pr_curve`",
    "bootstrap": "import + first `bootstrap` (B=200)",
    "compare": "import + first `compare` (2 models, B=200)",
    "demo": "whole `prroc-numba demo` (process)",
    "warm_auc": "import + first `auc` (best of 3)",
}


def _env(cache_dir: str, root: Path) -> dict:
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = cache_dir
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_call(case: str, cache_dir: str, root: Path = ROOT) -> dict:
    """One fresh process: import + first call of ``case``; seconds."""
    code = _SETUP + _CALLS[case] + _TAIL
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=_env(cache_dir, root),
        cwd=str(root),
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - t0
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["total_s"] = res["import_s"] + res["first_call_s"]
    res["process_wall_s"] = wall
    return res


def run_demo(cache_dir: str, root: Path = ROOT) -> dict:
    """The whole ``prroc-numba demo`` in a fresh process (wall time)."""
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "prroc_numba", "demo", "--no-progress"],
        env=_env(cache_dir, root),
        cwd=str(root),
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    return {
        "import_s": float("nan"),
        "first_call_s": float("nan"),
        "total_s": wall,
        "process_wall_s": wall,
        "cpu_s": cpu,
    }


def measure(warm_runs: int = 3, root: Path = ROOT, cases=None) -> dict:
    """``{"empty": {case: {...}}, "warm": {"warm_auc": {...}}, "load": ...}``."""
    cases = cases or ["auc_pr", "pr_curve", "bootstrap", "compare", "demo"]
    load0 = os.getloadavg()[0]
    empty = {}
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="prroc_numba_cache_") as cache:
            empty[case] = run_demo(cache, root) if case == "demo" else run_call(case, cache, root)
    with tempfile.TemporaryDirectory(prefix="prroc_numba_cache_") as cache:
        run_call("auc", cache, root)  # fill the cache
        warm_all = [run_call("auc", cache, root) for _ in range(warm_runs)]
    warm = {k: min(r[k] for r in warm_all) for k in warm_all[0]}
    return {
        "empty": empty,
        "warm": {"warm_auc": warm},
        "load": [load0, os.getloadavg()[0]],
        "cpus": os.cpu_count(),
    }


def markdown(res: dict) -> str:
    rows = [
        (
            "| Numba cache | case | import | first call | **import + first call** | target "
            "| CPU time of the process |"
        ),
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for kind in ("empty", "warm"):
        for case, r in res[kind].items():
            tgt = TARGETS.get(case)
            mark = (
                ""
                if tgt is None
                else (f"<= {tgt:g} s " + ("met" if r["total_s"] <= tgt else "NOT met"))
            )
            imp = "" if r["import_s"] != r["import_s"] else f"{r['import_s']:.2f} s"
            first = "" if r["first_call_s"] != r["first_call_s"] else f"{r['first_call_s']:.2f} s"
            rows.append(
                f"| {kind} | {LABELS[case]} | {imp} | {first} | "
                f"**{r['total_s']:.2f} s** | {mark} | {r.get('cpu_s', float('nan')):.2f} s |"
            )
    load = res.get("load")
    if load:
        rows.append("")
        rows.append(
            f"Load average (1 min) before / after: {load[0]:.2f} / {load[1]:.2f} "
            f"on {res.get('cpus')} cores. On a loaded machine compare the CPU "
            "time column (less sensitive to other processes than wall time)."
        )
    return "\n".join(rows)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--root", type=Path, default=ROOT, help="checkout to measure (default: this one)"
    )
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    ap.add_argument(
        "--cases", nargs="+", default=None, help="subset of: auc_pr pr_curve bootstrap compare demo"
    )
    a = ap.parse_args()
    result = measure(root=a.root.resolve(), cases=a.cases)
    print(markdown(result))
    if a.json:
        a.json.write_text(json.dumps(result, indent=1))
