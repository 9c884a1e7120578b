"""Bootstrap speed and memory against a scikit-learn loop (DESIGN.md targets).

Targets (2-core machine, ratios from one run): 1e5 rows, 5% positives, B = 1000 --
one model >= 100x faster than a scikit-learn loop; 10 models paired >= 100x; peak
memory never O(B x N).

The scikit-learn peer is the loop users write: per replicate, draw stratified row
indices with numpy and call ``average_precision_score`` (or ``roc_auc_score``) on the
resampled rows, once per model. It is timed on 20 replicates and **scaled to B = 1000
per replicate** (its cost is linear in B); prroc_numba runs the full B = 1000.

Run as a script for a table of ratios and peak memory::

    python benchmarks/bench_bootstrap.py

or for the paired bootstrap's scaling with N (issue 10: the cost per row visit at 1e6
rows within 1.5x of 1e5, peak memory <= 3x the input; each size in a fresh process)::

    python benchmarks/bench_bootstrap.py --scaling

or for where that peak comes from (1e6 rows x 10 models: peak resident memory after
packing, after the plan -- one sort of every curve, the estimate, the slots -- and after
the replicates, each over the input)::

    python benchmarks/bench_bootstrap.py --stages

What the plan holds at 1e6 x 10 models (77 MB of input): the packed scores (76 MB, a
copy of the 10 score columns) and the labels' masses (15 MB), the slot of every row
(8 MB), the slot of every sorted row (int32, 38 MB: the sort's order buffer, turned into
slots in place) and the segments (~22 MB); while sorting, each thread's radix sort and
sweep temporaries (~40 MB per 1e6-row curve).

or with pytest-benchmark::

    python -m pytest benchmarks/bench_bootstrap.py --benchmark-only
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _cases import models_frame  # noqa: E402

import prroc_numba as prn  # noqa: E402

N, PREV, B, M = 100_000, 0.05, 1000, 10
B_SKLEARN = 20


def make_data(n=N, n_models=M, seed=0):
    return models_frame(n, n_models, prevalence=PREV, seed=seed)


def sklearn_loop(df, models, n_boot, seed=0, curve="pr"):
    """Stratified bootstrap the way it is usually written with scikit-learn."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    metric = average_precision_score if curve == "pr" else roc_auc_score
    rng = np.random.default_rng(seed)
    y = df["y"].to_numpy()
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    scores = {m: df[m].to_numpy() for m in models}
    out = np.empty((len(models), n_boot))
    for b in range(n_boot):
        idx = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        yb = y[idx]
        for k, m in enumerate(models):
            out[k, b] = metric(yb, scores[m][idx])
    return out


def ours(df, models, n_boot, method="ap", curve="pr"):
    score = models[0] if len(models) == 1 else models
    return prn.bootstrap(
        df,
        score=score,
        label="y",
        curve=curve,
        method=method,
        n_boot=n_boot,
        seed=0,
        progress=False,
    )


def _time(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _peak_rss_mb(code):
    """Peak resident memory (MB) of a fresh interpreter running ``code``."""
    prog = (
        (
            f"import resource, sys; sys.path.insert(0, {str(ROOT)!r}); "
            f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
        )
        + code
        + ("\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    )
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


_SETUP = (
    "import numpy as np, prroc_numba as prn\n"
    "from benchmarks.bench_bootstrap import make_data\n"
    "df = make_data()\n"
    "prn.bootstrap(df, score=[f'm{i}' for i in range(10)], label='y', n_boot=2, seed=0, "
    "progress=False)\n"
)


def peak_memory():
    base = _peak_rss_mb(_SETUP)
    run = _peak_rss_mb(
        _SETUP + "prn.bootstrap(df, score=[f'm{i}' for i in range(10)], "
        "label='y', n_boot=1000, seed=0, progress=False)\n"
    )
    return base, run


def report():
    df = make_data()
    models = [f"m{i}" for i in range(M)]
    rows = []
    for label, mods, method, curve in [
        ("1 model, AUC-PR (ap)", models[:1], "ap", "pr"),
        ("1 model, AUC-PR (dg)", models[:1], "dg", "pr"),
        ("1 model, AUC-ROC", models[:1], "trapezoid", "roc"),
        ("10 models paired, AUC-PR (ap)", models, "ap", "pr"),
        ("10 models paired, AUC-ROC", models, "trapezoid", "roc"),
    ]:
        ours(df, mods, 4, method, curve)  # warm-ups (compile / cache load, imports)
        sklearn_loop(df, mods[:1], 2, curve=curve)
        # interleaved rounds, best of each: the machine is shared, so both sides see
        # the same background load
        t_ours = t_sk = np.inf
        for _ in range(3):
            t_ours = min(
                t_ours, _time(lambda m=mods, k=method, c=curve: ours(df, m, B, k, c), repeat=1)
            )
            t_sk = min(
                t_sk,
                _time(lambda m=mods, c=curve: sklearn_loop(df, m, B_SKLEARN, curve=c), repeat=1),
            )
        t_sk_full = t_sk / B_SKLEARN * B
        rows.append(
            {
                "case": label,
                "prroc_numba_s": t_ours,
                "sklearn_s_scaled_to_B": t_sk_full,
                "ratio": t_sk_full / t_ours,
            }
        )
    base, run = peak_memory()
    table = pd.DataFrame(rows)
    print(
        f"N = {N:,}, prevalence {PREV:.0%}, B = {B} (sklearn timed on {B_SKLEARN} "
        f"replicates, scaled per replicate)"
    )
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    bxn = B * N * 8 / 2**20
    print(
        f"peak RSS: {base:.0f} MB after warm-up, {run:.0f} MB after 10 models x B = {B} "
        f"(+{run - base:.0f} MB; one B x N float64 array would be {bxn:.0f} MB)"
    )
    return table, (base, run)


# one process's set-up for the memory probes: a wide frame of M models, kernels loaded,
# the input size and the RSS before the measured call
_WIDE_SETUP = r"""
import resource, sys
sys.path.insert(0, {root!r})
import numpy as np, pandas as pd
import prroc_numba as prn
from prroc_numba._core.packing import pack
from prroc_numba._resampling import plan as R
from prroc_numba._resampling.run import _seed
n, M = {n}, {m}
rng = np.random.default_rng(0)
y = rng.random(n) < {prev}
df = pd.DataFrame({{f"m{{j}}": y * rng.uniform(0.5, 1.5) + rng.normal(size=n) for j in range(M)}})
df["y"] = y
cols = list(df.columns[:M])
prn.bootstrap(df.iloc[:3000], score=cols, label="y", n_boot=4, seed=1)  # compile / load
inp = df.memory_usage(deep=True).sum() / 2**20
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

_SCALING = (
    _WIDE_SETUP
    + r"""
import time
B = {b}
prn.bootstrap(df, score=cols, label="y", n_boot=B, seed=1, progress=False)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
plan = R.Plan(pack(df, score=cols, label="y"), True)
plan.run(_seed(1), 2, False, False, "x", code=0)  # this size's count type compiled
t = np.inf
for _ in range(2):
    t0 = time.perf_counter()
    plan.run(_seed(1), B, False, False, "x", code=0)
    t = min(t, time.perf_counter() - t0)
print(t / (n * M * B) * 1e9, inp, peak - base)
"""
)


_STAGES = (
    _WIDE_SETUP
    + r"""
def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - base
b = pack(df, score=cols, label="y")
print("pack", peak() / inp)
plan = R.Plan(b, True, estimate=(0, False))
print("plan", peak() / inp)
plan.run(_seed(1), 20, False, False, "x", code=0)
print("replicates", peak() / inp)
"""
)


def stages(n=1_000_000, n_models=M):
    """Peak resident memory over the input's size after each stage of one paired
    bootstrap (``n`` rows x ``n_models`` models, a fresh process).
    """
    code = _STAGES.format(root=str(ROOT), n=n, m=n_models, prev=PREV)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    print(f"{n:,} rows x {n_models} models paired: peak memory over the input after")
    for line in out.stdout.splitlines():
        name, ratio = line.split()
        print(f"  {name:10s} {float(ratio):.2f}x")


def scaling(sizes=((100_000, 200), (1_000_000, 20)), n_models=M):
    """Paired bootstrap of ``n_models`` models at each ``(N, B)``: replicate cost per
    row visit (the replicates only, best of 2) and peak memory of one ``bootstrap``
    call over the input's size; each size in a fresh process.
    """
    rows = []
    for n, b in sizes:
        code = _SCALING.format(root=str(ROOT), n=n, m=n_models, b=b, prev=PREV)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(out.stderr)
        ns, inp, extra = map(float, out.stdout.split()[-3:])
        rows.append(
            {
                "N": n,
                "B": b,
                "ns_per_row_visit": ns,
                "input_mb": inp,
                "peak_extra_mb": extra,
                "peak_over_input": extra / inp,
            }
        )
    table = pd.DataFrame(rows)
    table["cost_vs_first"] = table.ns_per_row_visit / table.ns_per_row_visit.iloc[0]
    print(f"{n_models} models paired, prevalence {PREV:.0%}")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    return table


# ------------------------------------------------------------- pytest-benchmark grid


@pytest.fixture(scope="module")
def data():
    df = make_data()
    ours(df, ["m0"], 4)  # warm-ups: compile / load caches, import scikit-learn
    ours(df, [f"m{i}" for i in range(M)], 4)
    sklearn_loop(df, ["m0"], 2)
    return df


@pytest.mark.parametrize("n_models", [1, M])
def test_prroc_numba(benchmark, data, n_models):
    models = [f"m{i}" for i in range(n_models)]
    benchmark.group = f"bootstrap {n_models} model(s), N=1e5, per 1000 replicates"
    benchmark.pedantic(ours, args=(data, models, B), rounds=3, iterations=1)


@pytest.mark.parametrize("n_models", [1, M])
def test_sklearn_loop(benchmark, data, n_models):
    """Timed on B_SKLEARN replicates; extra_info holds the time scaled to B = 1000."""
    models = [f"m{i}" for i in range(n_models)]
    benchmark.group = f"bootstrap {n_models} model(s), N=1e5, per 1000 replicates"
    benchmark.pedantic(sklearn_loop, args=(data, models, B_SKLEARN), rounds=1, iterations=1)
    benchmark.extra_info["scaled_to_B_1000_s"] = benchmark.stats.stats.min / B_SKLEARN * B


def test_peak_memory_not_b_times_n(benchmark):
    base, run = benchmark.pedantic(peak_memory, rounds=1, iterations=1)
    benchmark.extra_info.update(base_mb=base, run_mb=run)
    assert run - base < B * N * 8 / 2**20 / 4


if __name__ == "__main__":
    if "--scaling" in sys.argv[1:]:
        scaling()
    elif "--stages" in sys.argv[1:]:
        stages()
    else:
        report()
