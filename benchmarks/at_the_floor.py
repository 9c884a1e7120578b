"""The paired bootstrap and batched interpolation against the loops anyone can write.

    python benchmarks/at_the_floor.py                    # bootstrap + interpolation rows
    python benchmarks/at_the_floor.py --only bootstrap --rounds 7
    python benchmarks/at_the_floor.py --scale            # 100 models x 1e6 rows, B = 2000

Same run, same input, **alternating** rounds (ours, then each reference, then ours
again ...), so a shared machine's load falls on both sides alike; each side's minimum
and median over the rounds, wall time and the process's CPU time (all threads). The
ratio columns are reference / ours.

Rows (the references are those of ``_cases.py``, which ``compare.py`` also times):

* **paired bootstrap**, 10 models x 1e5 rows, 5% positives, B = 1000, stratified,
  average precision (``method="ap"``, the estimator both references compute):

  - the *presorted numpy loop*: each model sorted once (``np.argsort``, timed once and
    added unscaled), then per replicate one stratified draw, ``np.bincount`` counts and
    per model the counts in sorted order, two cumulative sums and AP
    (:func:`_cases._numpy_boot`); timed on a few replicates and scaled to B;
  - the *scikit-learn loop*: per replicate a stratified resample and
    ``average_precision_score`` per model (:func:`_cases._sklearn_boot`), scaled to B.

  ``--dg`` adds the same call with the default estimator (Davis & Goadrich);
  ``--before`` the same call with one walk per replicate (the kernel before the block
  walk of eight replicates per pass; the same numbers).
* **interpolate**, 10,000 curves x ~1,000 points onto a 1,001-point recall grid, from
  one ``pr_curve`` frame: ``interpolate_matrix`` against a per-curve ``np.interp`` loop
  into a matrix, and ``interpolate`` (the tidy frame) against the same loop plus the
  same tidy frame (``np.repeat``/``np.tile``); results checked equal first.

BLAS runs on one thread (``threadpoolctl``): the numpy loop's ``np.dot`` would otherwise
wait on a BLAS thread pool, which on a busy machine costs it more than the product.

``--scale``: 100 models x 1e6 rows, 5% positives, B = 2000, paired, stratified, AP, in
a fresh process (peak resident memory from ``getrusage``), against the presorted numpy
loop run on a few replicates in another fresh process and scaled to B. ``--scale-run
200`` runs ours with 200 replicates (after a call with 8, which times the plan) and
scales the replicates to B, for a machine too busy for the full run.

Writes ``benchmarks/results/at_the_floor.md`` (or ``at_the_floor_scale.md``).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import _cases  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import prroc_numba as prn  # noqa: E402

N, M, B = 100_000, 10, 1000
N_NUMPY, N_SKLEARN = 20, 10  # replicates the references are timed on (then scaled)


def _timed(fn):
    """``(wall, cpu)`` seconds of one call (CPU: the whole process, every thread)."""
    gc.collect()
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


class Side:
    """One side of a row: a callable, timed once per round; ``scale`` and ``fixed``
    turn a timing on a few replicates into the full run's (``fixed`` timed once per
    round and added unscaled)."""

    def __init__(self, name, fn, scale=1.0, fixed=None):
        self.name, self.fn, self.scale, self.fixed = name, fn, scale, fixed
        self.wall, self.cpu = [], []

    def once(self):
        w, c = _timed(self.fn)
        w, c = w * self.scale, c * self.scale
        if self.fixed is not None:
            fw, fc = _timed(self.fixed)
            w, c = w + fw, c + fc
        self.wall.append(w)
        self.cpu.append(c)


def alternate(sides, rounds, log):
    for side in sides:  # warm-up: compilation / cache loads, imports, first touches
        side.fn()
    was = gc.isenabled()
    gc.disable()
    try:
        for r in range(rounds):
            for side in sides:
                side.once()
            log(
                f"  round {r + 1}/{rounds}: "
                + ", ".join(f"{s.name} {s.wall[-1]:.3g} s" for s in sides)
            )
    finally:
        if was:
            gc.enable()


def _one_walk(frame, kw):
    """The same call with one walk per replicate (the kernel before the block walk)."""
    from prroc_numba._resampling import run

    run._BLOCK_WALK = False
    try:
        return prn.bootstrap(frame, method="ap", **kw)
    finally:
        run._BLOCK_WALK = True


def _bootstrap_rows(rounds, dg, before, log):
    y, S = _cases.binormal(N, n_models=M)
    cols = [np.ascontiguousarray(S[:, j]) for j in range(M)]
    frame = pd.DataFrame({f"m{j}": c for j, c in enumerate(cols)})
    frame["y"] = y
    score = [f"m{j}" for j in range(M)]
    kw = dict(score=score, label="y", n_boot=B, seed=1, progress=False)
    orders = []

    def sorts():
        orders[:] = [np.argsort(-c, kind="stable") for c in cols]

    sorts()
    sides = [
        Side("ours (ap)", lambda: prn.bootstrap(frame, method="ap", **kw)),
        Side(
            "presorted numpy loop",
            lambda: _cases._numpy_boot(y, cols, N_NUMPY, orders=orders),
            B / N_NUMPY,
            fixed=sorts,
        ),
        Side("scikit-learn loop", lambda: _cases._sklearn_boot(y, cols, N_SKLEARN), B / N_SKLEARN),
    ]
    if dg:
        sides.insert(1, Side("ours (dg)", lambda: prn.bootstrap(frame, method="dg", **kw)))
    if before:
        sides.insert(1, Side("ours, one walk per replicate (ap)", lambda: _one_walk(frame, kw)))
    # the references compute what ours does: the same AP on the data itself
    ours_est = prn.bootstrap(frame, method="ap", **{**kw, "n_boot": 2})["estimate"].to_numpy()
    from sklearn.metrics import average_precision_score

    want = [average_precision_score(y, c) for c in cols]
    np.testing.assert_allclose(ours_est, want, rtol=1e-12)
    log(f"paired bootstrap, {M} models x {N:,} rows, B = {B}")
    alternate(sides, rounds, log)
    what = f"paired bootstrap, {M} models x 1e5 rows, 5% positives, B = {B}, stratified"
    rows = []
    for ours in (s for s in sides if s.name.startswith("ours")):
        for ref, target in [(sides[-2], 10.0), (sides[-1], 150.0)]:
            label = ours.name[5:].strip(", ").replace("(ap)", "AP").replace("(dg)", "DG")
            rows.append(_row(f"{what}, {label}", ours, ref, target))
    return rows


def _interpolate_rows(rounds, log):
    tidy, matrix = _cases._build_interpolate_large()
    tidy.check()
    rows = []
    log("interpolate, 10,000 curves x ~1,000 points onto 1,001 recalls")
    sides = [
        Side("interpolate_matrix", matrix.ours),
        Side("np.interp loop (matrix)", matrix.peer),
        Side("interpolate (tidy)", tidy.ours),
        Side("np.interp loop + tidy frame", tidy.peer),
    ]
    alternate(sides, rounds, log)
    rows.append(_row(matrix.name + " (matrix)", sides[0], sides[1], 4.0))
    rows.append(_row(tidy.name, sides[2], sides[3], 2.0))
    return rows


def _row(case, ours, ref, target):
    def fmt(t):
        return f"{t * 1e3:,.0f} ms" if t < 10 else f"{t:,.1f} s"

    r_min = min(ref.wall) / min(ours.wall)
    r_med = statistics.median(ref.wall) / statistics.median(ours.wall)
    r_cpu = min(ref.cpu) / min(ours.cpu)
    met = "met" if min(r_min, r_med) >= target else "NOT met"
    return {
        "case": case,
        "reference": ref.name,
        "ours min / median": f"{fmt(min(ours.wall))} / {fmt(statistics.median(ours.wall))}",
        "reference min / median": f"{fmt(min(ref.wall))} / {fmt(statistics.median(ref.wall))}",
        "ratio (min)": f"**{r_min:.1f}x**",
        "ratio (median)": f"{r_med:.1f}x",
        "CPU ratio": f"{r_cpu:.1f}x",
        "target": f">= {target:g}x: {met}",
    }


def _load():
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def _table(rows):
    cols = list(rows[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


# ----------------------------------------------------------------- at scale, fresh processes

_SCALE_DATA = r"""
import resource, sys, time
sys.path.insert(0, {root!r}); sys.path.insert(0, {here!r})
import numpy as np
n, M, prev = {n}, {m}, 0.05
rng = np.random.default_rng(1)
y = (rng.random(n) < prev).astype(np.int8)
S = np.empty((n, M))
for j in range(M):  # column by column: no (n, M) temporaries
    S[:, j] = rng.standard_normal(n) + y * (1.0 - 0.5 * j / max(M - 1, 1))
def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
base = peak_mb()
"""

_SCALE_OURS = r"""
import prroc_numba as prn
prn.bootstrap(score=S[:3000, :2], label=y[:3000], n_boot=4, seed=1, method="ap")  # load kernels
base = peak_mb()
t = []
for b in (8, {b_run}):  # the plan and 8 replicates, then the plan and b_run replicates
    w, c = time.perf_counter(), time.process_time()
    res = prn.bootstrap(score=S, label=y, n_boot=b, seed=1, method="ap", progress=False)
    t.append((time.perf_counter() - w, time.process_time() - c))
# B = {b}: the fixed part (plan, estimate) once, the replicates scaled (chunks of
# replicates cost the same each)
per = [(t[1][i] - t[0][i]) / ({b_run} - 8) for i in range(2)]
full = [t[0][i] + per[i] * ({b} - 8) for i in range(2)]
print("RESULT", full[0], full[1], base, peak_mb(), S.nbytes / 2**20, t[1][0], t[1][1])
"""

_SCALE_NUMPY = r"""
import _cases
from threadpoolctl import threadpool_limits
threadpool_limits(1)
cols = [np.ascontiguousarray(S[:, j]) for j in range(M)]
del S
w, c = time.perf_counter(), time.process_time()
orders = [np.argsort(-x, kind="stable") for x in cols]
ws, cs = time.perf_counter() - w, time.process_time() - c
w, c = time.perf_counter(), time.process_time()
_cases._numpy_boot(y, cols, {k}, orders=orders)
wr, cr = time.perf_counter() - w, time.process_time() - c
inp = sum(x.nbytes for x in cols) / 2**20
print("RESULT", ws + wr / {k} * {b}, cs + cr / {k} * {b}, base, peak_mb(), inp)
"""


def _fresh(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("RESULT")][-1]
    return [float(x) for x in line.split()[1:]]


def scale(n=1_000_000, m=100, b=2000, k=3, b_run=2000, log=print):
    fmt = dict(root=str(ROOT), here=str(HERE), n=n, m=m, b=b, k=k, b_run=b_run)
    log(
        f"at scale: {m} models x {n:,} rows, B = {b} (ours run with B = {b_run}; numpy loop "
        f"on {k} replicates; both scaled to B)"
    )
    load0 = _load()
    ow, oc, obase, opeak, inp, rw, rc = _fresh((_SCALE_DATA + _SCALE_OURS).format(**fmt))
    log(f"  ours, B = {b_run}: {rw:.1f} s wall, {rc:.1f} s CPU")
    log(f"  ours: {ow:.1f} s wall, {oc:.1f} s CPU, peak {opeak:,.0f} MB (input {inp:,.0f} MB)")
    nw, nc, nbase, npeak, _ = _fresh((_SCALE_DATA + _SCALE_NUMPY).format(**fmt))
    log(f"  numpy: {nw:.1f} s wall, {nc:.1f} s CPU (scaled), peak {npeak:,.0f} MB")
    rows = [
        {
            "side": f"prroc_numba bootstrap (AP; run with B = {b_run}, scaled to {b})",
            "wall": f"{ow:,.1f} s",
            "CPU (all threads)": f"{oc:,.1f} s",
            "peak RSS": f"{opeak:,.0f} MB",
            "peak over the input": f"{(opeak - obase) / inp:.2f}x",
        },
        {
            "side": f"presorted numpy loop ({k} replicates, scaled to {b})",
            "wall": f"{nw:,.1f} s",
            "CPU (all threads)": f"{nc:,.1f} s",
            "peak RSS": f"{npeak:,.0f} MB",
            "peak over the input": f"{(npeak - nbase) / inp:.2f}x",
        },
    ]
    return rows, f"ratio (wall) {nw / ow:.1f}x, (CPU) {nc / oc:.1f}x", load0


def main(argv=None):
    # the references' one BLAS call (np.dot in the numpy loop) on one thread: a BLAS
    # thread pool on a busy 2-core machine spends more time waiting than computing
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", nargs="*", default=["bootstrap", "interpolation"])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--dg", action="store_true", help="add the bootstrap with method='dg'")
    p.add_argument(
        "--before", action="store_true", help="add the bootstrap with one walk per replicate"
    )
    p.add_argument("--scale", action="store_true", help="the 100 x 1e6, B = 2000 run")
    p.add_argument(
        "--scale-run", type=int, default=2000, help="replicates ours runs at scale (then scaled)"
    )
    args = p.parse_args(argv)
    import numba

    cmd = "python benchmarks/at_the_floor.py " + " ".join(argv or sys.argv[1:])
    head = [
        f"Command: `{cmd.strip()}`  ",
        f"Run: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; Numba threads: "
        f"{numba.get_num_threads()}; {os.cpu_count()} cores; load average at start "
        f"{_load()}",
    ]
    if args.scale:
        rows, ratio, _ = scale(b_run=args.scale_run)
        text = "\n".join(head) + f"; at the end {_load()}\n\n" + _table(rows) + f"\n\n{ratio}\n"
        out = HERE / "results" / "at_the_floor_scale.md"
    else:
        rows = []
        if "bootstrap" in args.only:
            rows += _bootstrap_rows(args.rounds, args.dg, args.before, print)
        if "interpolation" in args.only:
            rows += _interpolate_rows(args.rounds, print)
        text = (
            "\n".join(head)
            + f"; at the end {_load()}; {args.rounds} alternating rounds\n\n"
            + _table(rows)
            + "\n"
        )
        out = HERE / "results" / "at_the_floor.md"
    print(text)
    out.write_text(text)


if __name__ == "__main__":
    main()
