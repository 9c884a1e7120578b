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

``--wheel`` measures what a user of the wheel meets instead (:func:`wheel_setting`): the
wheel built from this checkout (kernels compiled at build time for the portable CPU)
installed into a fresh virtual environment, each process with an empty home and
``NUMBA_CPU_NAME`` naming a CPU other than the build's; every figure is a ratio to
scikit-learn's fresh process (import + first ``average_precision_score`` +
``roc_auc_score`` on the same 1e4 rows) measured in the same run; plus a fresh Dask
``LocalCluster``'s first ``auc`` against its second, the wheel's size, and the per-call
speed of the shipped (portable) code against code compiled here for this CPU on rows of
``compare.py`` (``--speed``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
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


_SKLEARN = r"""
import json, time
t0 = time.perf_counter()
from sklearn.metrics import average_precision_score, roc_auc_score
import numpy as np
rng = np.random.default_rng(0)
n = 10_000
y = (rng.random(n) < 0.05).astype(np.int8)
s = rng.standard_normal(n) + y
average_precision_score(y, s), roc_auc_score(y, s)
print(json.dumps({"total_s": time.perf_counter() - t0}))
"""

_DASK = r"""
import json, time
import numpy as np, pandas as pd
import dask.dataframe as dd
from dask.distributed import Client, LocalCluster
import prroc_numba as prn
if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n = 200_000
    y = (rng.random(n) < 0.05).astype(np.int8)
    df = pd.DataFrame({"y": y, "m1": rng.standard_normal(n) + y, "g": rng.integers(0, 4, n)})
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        ddf = dd.from_pandas(df, npartitions=8)
        t0 = time.perf_counter(); a = prn.auc(ddf, score="m1", label="y", by="g")
        t1 = time.perf_counter(); b = prn.auc(ddf, score="m1", label="y", by="g")
        t2 = time.perf_counter()
    assert a.equals(b)
    print(json.dumps({"first_s": t1 - t0, "second_s": t2 - t1}))
"""

#: the floor Dask itself sets: the same frame, cluster and first-vs-second calls for a
#: per-group reduction with no prroc_numba (workers need only pandas)
_DASK_FLOOR = _DASK.replace("import prroc_numba as prn\n", "").replace(
    'prn.auc(ddf, score="m1", label="y", by="g")', 'ddf.groupby("g").m1.sum().compute()'
)

#: where a fresh process's first Dask task (a worker) or first merge (the client) spends
#: its time before any kernel runs: imports and Numba's one-off set-up
_STARTUP = r"""
import json, time
t0 = time.perf_counter(); import numpy, pandas
t1 = time.perf_counter(); import numba
t2 = time.perf_counter()
try:
    import scipy.linalg.cython_blas  # Numba's BLAS check imports it (where SciPy is)
except ImportError:
    pass
t3 = time.perf_counter()
from numba.core.registry import cpu_target
cpu_target.target_context.refresh(); cpu_target.typing_context.refresh()
t4 = time.perf_counter(); import prroc_numba._dask
t5 = time.perf_counter()
from prroc_numba._core.partitions import input_kw as _input_kw, reduce_partition as _partition
df = pandas.DataFrame({"y": [0, 1, 1, 0], "m1": [0.1, 0.7, 0.4, 0.2], "g": [0, 0, 1, 1]})
_partition(df, _input_kw("m1", "y", "g", None, None, False))
t6 = time.perf_counter()
print(json.dumps({"numpy_pandas": t1 - t0, "numba": t2 - t1, "scipy_linalg": t3 - t2,
                  "numba_setup": t4 - t3, "prroc_numba_dask": t5 - t4, "kernel_loads": t6 - t5}))
"""

#: per-call speed rows (``compare.py``'s cases: capability, text in the case name)
SPEED_ROWS = [
    ("curves", "N=1e6"),
    ("curves", "N=1e4"),
    ("metrics", "1 curve, N=1e6: "),
    ("metrics", "100 models"),
    ("auc", "10,000 curves"),
    ("hull", "1 curve"),
    ("interpolation", "1,000 curves"),
    ("bootstrap", "1 model"),
    ("bootstrap", "10 models paired x N=1e5, B=1000 vs numpy"),
]

_SPEED = r"""
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
import _cases
import prroc_numba
rows = json.loads(sys.argv[2])
out = []
for cap, match in rows:
    for case in _cases.CAPABILITIES[cap](1.0):
        if match not in case.name:
            continue
        case.ours()
        gc.collect(); gc.disable()
        ts = []
        for _ in range(int(sys.argv[3])):
            t0 = time.process_time(); case.ours(); ts.append(time.process_time() - t0)
        gc.enable()
        out.append([cap, case.name, min(ts)])
print(json.dumps({"file": prroc_numba.__file__, "rows": out}))
"""

OTHER_CPU = "nehalem"  # a CPU other than the build's that every x86-64 host here runs


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


#: what pip's isolated build environment lacks (pyproject's [build-system] requires):
#: hidden from a build run in this environment, which has them
NOT_IN_BUILD_ENV = ("dask", "distributed", "pyarrow")


def hidden_from_build(out_dir: Path) -> Path:
    """A folder that, first on ``PYTHONPATH``, hides :data:`NOT_IN_BUILD_ENV` from a
    build run in this environment, as pip's isolated build lacks them."""
    hidden = out_dir / "hidden"
    for name in NOT_IN_BUILD_ENV:
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(
            f"raise ImportError('{name} is not in the build environment')\n"
        )
    return hidden


def build_wheel(out_dir: Path, root: Path = ROOT) -> Path:
    """``pip wheel`` of a copy of ``root``'s sources (the build step compiles the
    kernels; the copy keeps build folders out of the checkout), with
    :data:`NOT_IN_BUILD_ENV` hidden (:func:`hidden_from_build`)."""
    import shutil

    hidden = hidden_from_build(out_dir)
    src = out_dir / "src"
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE", "setup.py"):
        shutil.copy(root / name, src / name)
    shutil.copytree(
        root / "prroc_numba",
        src / "prroc_numba",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "_compiled"),
    )
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-cache-dir",
        ]
        + ["--disable-pip-version-check", "-w", str(out_dir), str(src)],
        capture_output=True,
        text=True,
        env={**_clean_env(), "PYTHONPATH": str(hidden)},
        check=False,
        timeout=900,
    )
    if res.returncode != 0:
        raise RuntimeError(res.stdout[-2000:] + res.stderr[-3000:])
    return next(out_dir.glob("prroc_numba-*.whl"))


def _new_venv(where: Path) -> Path:
    """An empty virtual environment (no pip: this environment's pip installs into it);
    its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    return where / "bin" / "python"


def fresh_venv(
    where: Path, wheel: Path, pip_args: tuple[str, ...] = (), env: dict | None = None
) -> tuple[Path, Path]:
    """A new virtual environment with ``wheel`` (or an sdist, which pip builds with
    ``pip_args`` and ``env``) installed; the dependencies come from this environment (a
    .pth file). Returns its python and its site-packages."""
    import sysconfig

    py = _new_venv(where)
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(subprocess.check_output([str(py), "-c", code], text=True).strip())
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_deps_from_parent.pth").write_text("\n".join(sorted(deps)) + "\n")
    res = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "-q", "install", "--no-deps"]
        + ["--disable-pip-version-check", *pip_args, str(wheel)],
        capture_output=True,
        text=True,
        env={**_clean_env(), **(env or {})},
        check=False,
    )
    if res.returncode != 0:
        raise RuntimeError(res.stderr[-3000:])
    return py, site


def installed_venv(where: Path, wheel: Path) -> tuple[Path, str]:
    """A new virtual environment with ``wheel`` and its dependencies installed the way a
    user installs them (``pip install`` of the wheel with its ``dask`` extra, from the
    package index or pip's cache): only what the package needs, no SciPy. Where that
    cannot be done (offline), :func:`fresh_venv` (the dependencies of this environment
    through a .pth file). Returns its python and how the dependencies came."""
    py = _new_venv(where)
    res = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "-q", "install"]
        + ["--disable-pip-version-check", "--only-binary", ":all:", f"{wheel}[dask]"],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
    )
    if res.returncode == 0:
        return py, "installed (pip install of the wheel and its dependencies)"
    shutil.rmtree(where)
    py, _ = fresh_venv(where, wheel)
    return py, "this environment's (a .pth file; pip install failed: offline?)"


def _clean_env(**extra) -> dict:
    """This environment without the variables that point Python or Numba elsewhere."""
    drop = ("PYTHONPATH", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("NUMBA_")}
    env.update(extra)
    return env


def _user_env(home: Path, **extra) -> dict:
    return _clean_env(HOME=str(home), NUMBA_CPU_NAME=OTHER_CPU, **extra)


def _timed(cmd, env, cwd) -> tuple[float, dict, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    lines = out.stdout.strip().splitlines()
    try:
        res = json.loads(lines[-1]) if lines else {}
    except ValueError:
        res = {}
    return wall, res, out.stderr


def wheel_setting(wheel: Path | None = None, runs: int = 3, speed: bool = False) -> dict:
    """The figures of the wheel setting (see the module docstring); process wall times,
    medians of ``runs`` fresh processes, each with a new empty home."""
    tmp = Path(tempfile.mkdtemp(prefix="prroc_numba_wheel_bench_"))
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    if wheel is None:
        wheel = build_wheel(tmp / "dist")
        build_s = time.perf_counter() - t0
    else:
        build_s = float("nan")
    py, deps = installed_venv(tmp / "venv", wheel)
    homes = iter(range(10_000))

    def home():
        h = tmp / f"home{next(homes)}"
        h.mkdir()
        return h

    def ours(case):
        code = _SETUP + _CALLS[case] + _TAIL
        return _timed([str(py), "-c", code], _user_env(home()), tmp)

    res = {"wheel": wheel.name, "wheel_mb": wheel.stat().st_size / 1e6, "build_s": build_s}
    res["deps"] = deps
    sk, cases, stderr = [], {c: [] for c in ("auc_pr", "bootstrap", "compare", "demo")}, ""
    for _ in range(runs):  # interleaved: the baseline under the same load
        sk.append(_timed([sys.executable, "-c", _SKLEARN], _user_env(home()), tmp)[0])
        for case in ("auc_pr", "bootstrap", "compare"):
            wall, _, err = ours(case)
            cases[case].append(wall)
            stderr += err
        demo = [str(py), "-m", "prroc_numba", "demo", "--no-progress"]
        wall, _, err = _timed(demo, _user_env(home()), tmp)
        cases["demo"].append(wall)
        stderr += err
    # warm: the same home again (its files and the OS's file cache already used)
    h = home()
    code = _SETUP + _CALLS["auc"] + _TAIL
    _timed([str(py), "-c", code], _user_env(h), tmp)
    warm = min(_timed([str(py), "-c", code], _user_env(h), tmp)[0] for _ in range(runs))
    base = _median(sk)
    res["sklearn_s"] = base
    res["cases"] = {c: _median(v) for c, v in cases.items()}
    res["cases"]["warm_auc"] = warm
    res["ratios"] = {c: v / base for c, v in res["cases"].items()}
    res["compile_notice"] = "compiling" in stderr
    res["stderr"] = stderr[-2000:]
    _, dk, _ = _timed([str(py), "-c", _DASK], _user_env(home()), tmp)
    res["dask"] = {**dk, "ratio": dk["first_s"] / dk["second_s"]}
    _, fl, _ = _timed([str(py), "-c", _DASK_FLOOR], _user_env(home()), tmp)
    res["dask_floor"] = {**fl, "ratio": fl["first_s"] / fl["second_s"]}
    starts = [_timed([str(py), "-c", _STARTUP], _user_env(h), tmp)[1] for _ in range(runs)]
    res["startup"] = {k: _median([s[k] for s in starts]) for k in starts[0]}
    if speed:
        # the per-call rows import benchmarks/_cases.py and its peers (scikit-learn):
        # the wheel in an environment that sees this one's packages
        py_speed, _ = fresh_venv(tmp / "venv_speed", wheel)
        res["speed"] = speed_rows(py_speed, tmp)
    res["load"] = [load0, os.getloadavg()[0]]
    res["cpus"] = os.cpu_count()
    return res


def speed_rows(py: Path, tmp: Path, repeats: int = 5) -> list:
    """Per-call CPU time (all threads; less sensitive to other processes on a shared
    machine than wall time) of rows of ``compare.py``, same run: code compiled here for
    this host's CPU (a warm cache) against the wheel's code as this host gets it
    ("shipped": the x86-64-v3 set where the host runs it, else the portable one) and
    the wheel's portable set alone (another CPU named: :data:`OTHER_CPU`)."""
    rows = json.dumps(SPEED_ROWS)
    here = str(ROOT / "benchmarks")
    host_cache = tmp / "host_cache"
    host_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    host_env.update(PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(host_cache))
    cmd = ["-c", _SPEED, here, rows, str(repeats)]
    _timed([sys.executable, *cmd[:-1], "1"], host_env, tmp)  # compile for this CPU
    shipped_home = tmp / "home_shipped"
    shipped_home.mkdir(exist_ok=True)
    out = {}
    for _ in range(3):  # alternate, keep the best of each
        for side, exe, env in (
            ("host", sys.executable, host_env),
            ("shipped", str(py), _clean_env(HOME=str(shipped_home))),
            ("portable", str(py), _user_env(tmp)),
        ):
            _, r, err = _timed([exe, *cmd], env, tmp)
            if side != "host" and "compiling" in err:
                raise RuntimeError(f"the wheel's {side} code compiled a kernel: {err[-2000:]}")
            for cap, name, t in r["rows"]:
                key = f"{cap}: {name}"
                d = out.setdefault(key, {})
                d[side] = min(d.get(side, float("inf")), t)
    return [
        {
            "row": k,
            "host_s": v["host"],
            "shipped_s": v["shipped"],
            "portable_s": v["portable"],
            "ratio": v["shipped"] / v["host"],
            "portable_ratio": v["portable"] / v["host"],
        }
        for k, v in out.items()
    ]


def speed_markdown(speed: list) -> list[str]:
    rows = [
        "| compare.py row (CPU s per call) | host code | shipped, as served here | "
        "shipped/host | portable set alone | portable/host |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in speed:
        rows.append(
            f"| {r['row']} | {r['host_s'] * 1e3:.1f} ms | {r['shipped_s'] * 1e3:.1f} ms "
            f"| **{r['ratio']:.2f}** | {r['portable_s'] * 1e3:.1f} ms "
            f"| {r['portable_ratio']:.2f} |"
        )
    return rows


WHEEL_TARGETS = {"auc_pr": 1.0, "bootstrap": 1.2, "compare": 1.2, "demo": 2.5, "warm_auc": 0.8}
WHEEL_LABELS = {
    "auc_pr": "import + first `auc_pr`",
    "bootstrap": "import + first `bootstrap` (B=200)",
    "compare": "import + first `compare` (2 models, B=200)",
    "demo": "whole `prroc-numba demo`",
    "warm_auc": "warm: import + first `auc` (best of 3)",
}


def wheel_markdown(res: dict) -> str:
    rows = [
        f"scikit-learn's fresh process (import + first `average_precision_score` + "
        f"`roc_auc_score`, 1e4 rows): **{res['sklearn_s']:.2f} s** (median of the run)",
        "",
        "| fresh process, wheel, empty home, other CPU | wall | ratio to scikit-learn | target |",
        "|---|---:|---:|---|",
    ]
    for case, label in WHEEL_LABELS.items():
        r, t = res["ratios"][case], WHEEL_TARGETS[case]
        met = "met" if r <= t else "NOT met"
        rows.append(f"| {label} | {res['cases'][case]:.2f} s | **{r:.2f}x** | <= {t:g}x {met} |")
    dk = res["dask"]
    rows.append(
        f"| fresh Dask `LocalCluster` (2 worker processes), first `auc(dask_df)` vs the "
        f"second | {dk['first_s']:.2f} s vs {dk['second_s']:.2f} s | **{dk['ratio']:.2f}x** "
        f"| <= 1.5x {'met' if dk['ratio'] <= 1.5 else 'NOT met'} |"
    )
    if "dask_floor" in res:
        fl = res["dask_floor"]
        rows.append(
            "| the same cluster and frame, a per-group sum with no prroc_numba (Dask's "
            f"floor), first vs second | {fl['first_s']:.2f} s vs {fl['second_s']:.2f} s "
            f"| **{fl['ratio']:.2f}x** | -- |"
        )
    rows.append("")
    rows.append(
        f"Compile notice printed: {'YES' if res['compile_notice'] else 'no'}. Wheel "
        f"{res['wheel']}: {res['wheel_mb']:.1f} MB (build {res['build_s']:.0f} s). "
        f"Load average (1 min) before / after: {res['load'][0]:.2f} / {res['load'][1]:.2f} "
        f"on {res['cpus']} cores. Dependencies of the fresh environment: "
        f"{res.get('deps', 'this environment')}."
    )
    if "startup" in res:
        st = res["startup"]
        rows.append("")
        rows.append(
            "A fresh process's share before its first kernel runs (median, warm home): "
            + ", ".join(f"{k} {v:.3f} s" for k, v in st.items())
            + "."
        )
    if res.get("speed"):
        rows += [
            "",
            *speed_markdown(res["speed"]),
        ]
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
    ap.add_argument(
        "--wheel", action="store_true", help="the wheel setting (build, fresh venv, empty home)"
    )
    ap.add_argument("--wheel-file", type=Path, default=None, help="use this wheel, no build")
    ap.add_argument(
        "--speed", action="store_true", help="with --wheel: per-call speed, portable vs host"
    )
    ap.add_argument(
        "--speed-only",
        action="store_true",
        help="the per-call speed rows alone (the wheel built or --wheel-file, a fresh venv)",
    )
    a = ap.parse_args()
    if a.speed_only:
        tmp = Path(tempfile.mkdtemp(prefix="prroc_numba_speed_"))
        whl = a.wheel_file or build_wheel(tmp / "dist")
        py_speed, _ = fresh_venv(tmp / "venv_speed", whl)
        load0 = os.getloadavg()
        result = {"speed": speed_rows(py_speed, tmp), "load": [load0, os.getloadavg()]}
        print(f"Load average before / after: {load0} / {result['load'][1]}")
        print("\n".join(speed_markdown(result["speed"])))
    elif a.wheel:
        result = wheel_setting(a.wheel_file, speed=a.speed)
        print(wheel_markdown(result))
    else:
        result = measure(root=a.root.resolve(), cases=a.cases)
        print(markdown(result))
    if a.json:
        a.json.write_text(json.dumps(result, indent=1))
