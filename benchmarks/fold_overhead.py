"""What ``fold=`` costs on top of the same call without folds, timed interleaved.

The input of ``compare.py --only bands`` (binormal, 5 models, N = 1e5, 5 folds, B =
200): ``bootstrap_curve`` (PR and ROC bands), ``bootstrap`` and ``compare`` with and
without ``fold=``. Each round times every call once, in turn, so a busy machine slows
both sides of a ratio alike; the minimum over the rounds is kept. The target is at
most 1.5x per replicate.

Run::

    python benchmarks/fold_overhead.py [--repeats 9] [--cpu] [--per-replicate]

``--cpu``: process CPU time instead of wall time (steadier on a shared machine; run
with ``NUMBA_NUM_THREADS=1`` so that it is also the wall time of one thread).
``--per-replicate``: each call also at twice the replicates; the difference over the
extra replicates is the cost per replicate, without the fixed cost of a call (the sort,
the fold layout, the frames), which does not grow with ``n_boot``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _cases import SEED, binormal

import prroc_numba as prn


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=9, help="rounds (the minimum is kept)")
    ap.add_argument("--cpu", action="store_true", help="process CPU time, not wall time")
    ap.add_argument(
        "--per-replicate", action="store_true", help="also time 2 x n_boot: cost per replicate"
    )
    args = ap.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    n, n_models, n_boot = 10**5, 5, 200
    y, S = binormal(n, n_models=n_models)
    frame = pd.DataFrame({f"m{j}": S[:, j] for j in range(n_models)})
    frame["y"] = y
    frame["fold"] = np.random.default_rng(SEED).integers(0, 5, n)
    kw = dict(score=[f"m{j}" for j in range(n_models)], label="y", seed=1, progress=False)
    sizes = (n_boot, 2 * n_boot) if args.per_replicate else (n_boot,)
    calls = {
        "bootstrap_curve PR": lambda **f: prn.bootstrap_curve(frame, **kw, **f),
        "bootstrap_curve ROC": lambda **f: prn.bootstrap_curve(frame, curve="roc", **kw, **f),
        "bootstrap (AP)": lambda **f: prn.bootstrap(frame, **kw, **f),
        "compare (AP)": lambda **f: prn.compare(frame, **kw, **f),
    }
    sides = [(b, extra) for b in sizes for extra in ({}, {"fold": "fold"})]
    best = {}
    for name, call in calls.items():  # warm-up (compiles)
        for b, extra in sides:
            call(n_boot=b, **extra)
        best[name] = [np.inf] * len(sides)
    for _ in range(args.repeats):
        for name, call in calls.items():
            for i, (b, extra) in enumerate(sides):
                t = clock()
                call(n_boot=b, **extra)
                best[name][i] = min(best[name][i], clock() - t)
    what = "CPU" if args.cpu else "wall"
    print(f"min of {args.repeats} interleaved rounds, {what} time, N={n:,}, 5 models, B={n_boot}")
    head = "| call | without fold= | with fold= (5 folds) | ratio |"
    if args.per_replicate:
        head += " per replicate without / with | ratio per replicate |"
    print(head)
    print("|---|" + "---:|" * (head.count("|") - 2))
    for name, t in best.items():
        row = f"| {name} | {t[0] * 1e3:.1f} ms | {t[1] * 1e3:.1f} ms | {t[1] / t[0]:.2f}x |"
        if args.per_replicate:
            plain, folded = (t[2] - t[0]) / n_boot, (t[3] - t[1]) / n_boot
            row += f" {plain * 1e3:.3f} / {folded * 1e3:.3f} ms | {folded / plain:.2f}x |"
        print(row)


if __name__ == "__main__":
    main()
