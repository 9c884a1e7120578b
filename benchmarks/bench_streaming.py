"""Streaming: 100 batches of 1e4 rows fed one at a time, then average precision.

The :class:`~prroc_numba.Accumulator` (``update`` per batch, ``auc(method="ap")`` at the
end) against torchmetrics' ``BinaryAveragePrecision(thresholds=None)`` (its exact mode)
and torcheval's ``BinaryAUPRC`` on the same float64 batches, in one run (torch threads
= 2). Two score kinds: continuous (nearly every row a distinct score) and tied (scores
rounded to about 1e4 distinct values). Each figure is the best of ``--repeat`` runs
(the order of the three alternates), in wall time and in CPU time of all the process's
threads (the steadier figure on a shared machine); state memory is the bytes the object holds after
the last update (the Accumulator: ``sys.getsizeof``, its arrays included; the torch
metrics: their state tensors). Every value is checked against scikit-learn's
``average_precision_score`` on all rows first.

    nice -n 10 python benchmarks/bench_streaming.py
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import prroc_numba as prn  # noqa: E402 (after the checkout is put on the path)


def _batches(kind, n_batches, rows, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_batches):
        y = (rng.random(rows) < 0.3).astype(np.int64)
        s = rng.normal(size=rows) + y
        if kind == "tied":
            s = np.round(s, 3)  # about 1e4 distinct values over all rows
        out.append((s.astype(np.float64), y))
    return out


def _tensor_bytes(obj):
    import torch

    total = 0
    for v in vars(obj).values():
        items = v if isinstance(v, (list, tuple)) else [v]
        for t in items:
            if isinstance(t, torch.Tensor):
                total += t.element_size() * t.nelement()
    return total


def run_accumulator(batches):
    acc = prn.Accumulator()
    for s, y in batches:
        acc.update(score=s, label=y)
    value = acc.auc(method="ap")["auc"].iloc[0]
    return value, sys.getsizeof(acc)


def run_torchmetrics(batches):
    import torch
    from torchmetrics.classification import BinaryAveragePrecision

    m = BinaryAveragePrecision(thresholds=None)
    for s, y in batches:
        m.update(torch.from_numpy(s), torch.from_numpy(y))
    mem = _tensor_bytes(m)
    return float(m.compute()), mem


def run_torcheval(batches):
    import torch
    from torcheval.metrics import BinaryAUPRC

    m = BinaryAUPRC()
    for s, y in batches:
        m.update(torch.from_numpy(s), torch.from_numpy(y))
    mem = _tensor_bytes(m)
    return float(m.compute()), mem


RUNNERS = {
    "Accumulator": run_accumulator,
    "torchmetrics exact": run_torchmetrics,
    "torcheval": run_torcheval,
}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--batches", type=int, default=100)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    import sklearn
    import torch
    import torcheval
    import torchmetrics
    from sklearn.metrics import average_precision_score

    torch.set_num_threads(2)
    print(
        f"prroc_numba {prn.__version__}, torch {torch.__version__}, torchmetrics "
        f"{torchmetrics.__version__}, torcheval {getattr(torcheval, '__version__', '?')}, "
        f"scikit-learn {sklearn.__version__}; torch threads {torch.get_num_threads()}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    warm = _batches("tied", 3, 1000, seed=9)
    for fn in RUNNERS.values():
        fn(warm)
    print(
        f"| scores | {args.batches} x {args.rows:.0e} rows | distinct | "
        + " | ".join(RUNNERS)
        + " | Accumulator / torchmetrics | Accumulator / torcheval |"
    )
    print("|---|---|---|" + "---|" * (len(RUNNERS) + 2))
    for kind in ("continuous", "tied"):
        batches = _batches(kind, args.batches, args.rows)
        s = np.concatenate([b[0] for b in batches])
        y = np.concatenate([b[1] for b in batches])
        want = average_precision_score(y, s)
        best = {name: np.inf for name in RUNNERS}
        cpu = {name: np.inf for name in RUNNERS}
        mem = {}
        for r in range(args.repeat):
            names = list(RUNNERS)
            for name in names[r % 3 :] + names[: r % 3]:
                t, c = time.perf_counter(), time.process_time()
                value, mem[name] = RUNNERS[name](batches)
                best[name] = min(best[name], time.perf_counter() - t)
                cpu[name] = min(cpu[name], time.process_time() - c)
                tol = 1e-12 if name == "Accumulator" else 1e-6  # torch: float32 results
                assert abs(value - want) < tol, (name, value, want)
        a = best["Accumulator"]
        print(
            f"| {kind} | time | {np.unique(s).size:,} | "
            + " | ".join(f"{best[n]:.2f} s" for n in RUNNERS)
            + f" | {a / best['torchmetrics exact']:.2f}x | {a / best['torcheval']:.2f}x |"
        )
        a = cpu["Accumulator"]
        print(
            f"| {kind} | CPU time (all threads) | | "
            + " | ".join(f"{cpu[n]:.2f} s" for n in RUNNERS)
            + f" | {a / cpu['torchmetrics exact']:.2f}x | {a / cpu['torcheval']:.2f}x |"
        )
        am = mem["Accumulator"]
        print(
            f"| {kind} | state memory | | "
            + " | ".join(f"{mem[n] / 2**20:.2f} MiB" for n in RUNNERS)
            + f" | {am / mem['torchmetrics exact']:.2f}x | {am / mem['torcheval']:.2f}x |"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
