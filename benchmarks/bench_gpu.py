"""GPU benchmark (issue 16): this library's CUDA backend beside its peers, one run.

Run on a machine with a CUDA GPU and ``pip install -e ".[cuda]" cupy-cuda12x torch
torchmetrics`` (CuPy is the sort floor and our device sort; torch/torchmetrics are peers;
each missing peer is reported as such)::

    python benchmarks/bench_gpu.py            # the issue's sizes (needs ~40 GB of GPU memory)
    python benchmarks/bench_gpu.py --quick    # 100x smaller smoke run

Writes ``benchmarks/results/gpu_<device>.md`` (and prints it). Every figure is the
minimum of ``--repeat`` timed runs after one warm-up, results copied to the host (so the
device is synchronised). Rows:

* floor: ``cupy.sort`` / ``cupy.argsort`` of float32 and float64 scores;
* one curve, AUC-PR (DG) and AUC-ROC at 1e8 rows: ours (device kernels on a packed
  batch: sort + sweep + area, twice) vs torchmetrics' exact ``binary_average_precision``
  + ``binary_auroc``; and the public ``prn.auc(..., device="cuda")`` call, which adds the
  host-side validation and packing and the copy to the device;
* many curves: 100 x 1e6 and 1,000 x 1e5 (wide: models on shared labels) vs
  torchmetrics' ``multilabel_average_precision`` (exact);
* Poisson bootstrap of AUC-PR (AP and DG), B = 1000 at 1e6 and 1e7, B = 10,000 at 1e6,
  10 paired models B = 1000 at 1e6 (``compare``'s work) vs the vectorised torch bootstrap
  (a B x N Poisson weight matrix) and this library's CPU ``bootstrap`` / ``compare``;
* cold start: the first ``prn.auc(device="cuda")`` of a fresh process with a warm kernel
  cache (import time separate).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _cases import float_scores  # noqa: E402

import prroc_numba as prn  # noqa: E402
from prroc_numba._core.packing import pack  # noqa: E402
from prroc_numba._kernels import area  # noqa: E402


def _opt(name):
    try:
        return __import__(name)
    except ImportError:
        return None


def best(fn, repeat):
    fn()  # warm-up (compilation, allocations)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return min(ts)


def fmt(t):
    return "n/a" if t is None else f"{t * 1e3:,.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="100x smaller sizes")
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="tiny sizes and replicate counts: checks the script end to end, "
        "e.g. under NUMBA_ENABLE_CUDASIM=1 (figures meaningless)",
    )
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    k = 10**5 if args.smoke else 100 if args.quick else 1
    kb = 100 if args.smoke else 1  # replicate counts divided by kb

    from numba import cuda

    from prroc_numba._drivers import cuda as driver

    dev = cuda.get_current_device()
    name = getattr(dev, "name", "CUDA simulator")
    name = name.decode() if isinstance(name, bytes) else str(name)
    cp, torch = _opt("cupy"), _opt("torch")
    tm = None
    if torch is not None:
        try:
            import torchmetrics.functional.classification as tm
        except ImportError:
            tm = None
    rows = []

    def row(work, ours, peer=None, peer_name="", note=""):
        ratio = "" if ours is None or peer is None else f"{peer / ours:,.1f}x"
        rows.append(
            f"| {work} | {fmt(ours)} | {peer_name} {fmt(peer) if peer_name else ''} "
            f"| {ratio} | {note} |"
        )
        print(rows[-1], flush=True)

    R = args.repeat
    # ---------------------------------------------------------------- the sort floor
    for n in (10**6 // k, 10**7 // k, 10**8 // k):
        if cp is None:
            row(f"cupy.sort float32 {n:.0e}", None, note="CuPy not installed")
            continue
        x32 = cp.random.standard_normal(n, dtype=cp.float32)
        x64 = x32.astype(cp.float64)
        t_sort = best(lambda x32=x32: (cp.sort(x32), cp.cuda.Device().synchronize()), R)
        t_arg = best(lambda x32=x32: (cp.argsort(x32), cp.cuda.Device().synchronize()), R)
        t_arg64 = best(lambda x64=x64: (cp.argsort(x64), cp.cuda.Device().synchronize()), R)
        row(
            f"floor: cupy.sort / argsort f32 / argsort f64, {n:.0e}",
            t_sort,
            note=f"argsort f32 {fmt(t_arg)}, f64 {fmt(t_arg64)}",
        )

    # ------------------------------------------------------ one curve, PR (DG) + ROC
    n = 10**8 // k
    s, y = float_scores(n)
    b = pack(score=s[:, 0], label=y)
    t_ours = best(
        lambda: (
            driver.area_batch(b, area.DG, False),
            driver.area_batch(b, area.ROC_TRAPEZOID, False),
        ),
        R,
    )
    t_peer = None
    if tm is not None:
        ts, ty = torch.as_tensor(s[:, 0], device="cuda"), torch.as_tensor(y, device="cuda")
        ty = ty.long()

        def peer():
            tm.binary_average_precision(ts, ty, thresholds=None).item()
            tm.binary_auroc(ts, ty, thresholds=None).item()

        t_peer = best(peer, R)
    row(
        f"one curve AUC-PR (DG) + AUC-ROC, {n:.0e} (kernels)",
        t_ours,
        t_peer,
        "torchmetrics exact AP + AUROC",
        "target <= 2.5x cupy.sort, >= 3x torchmetrics",
    )
    t_pub = best(
        lambda: (
            prn.auc(score=s[:, 0], label=y, device="cuda"),
            prn.auc(score=s[:, 0], label=y, curve="roc", device="cuda"),
        ),
        2,
    )
    row(
        f"same through prn.auc(device='cuda'), host arrays, {n:.0e}",
        t_pub,
        note="adds host validation + packing + host-to-device copy",
    )

    # ------------------------------------------------------------------ many curves
    for m, n in ((100, 10**6 // k), (1000, 10**5 // k)):
        s, y = float_scores(n, m)
        b = pack(score=s, label=y)
        t_ours = best(lambda b=b: driver.area_batch(b, area.AP, False), R)
        t_peer = None
        if tm is not None:
            ts = torch.as_tensor(s, device="cuda", dtype=torch.float32)
            ty = torch.as_tensor(np.repeat(y[:, None], m, axis=1), device="cuda").long()
            t_peer = best(
                lambda ts=ts, ty=ty, m=m: tm.multilabel_average_precision(
                    ts, ty, num_labels=m, average=None, thresholds=None
                ).cpu(),
                R,
            )
        row(
            f"many curves AP, {m} x {n:.0e}",
            t_ours,
            t_peer,
            "torchmetrics multilabel AP",
            "targets >= 7x (100 x 1e6), >= 50x (1000 x 1e5)",
        )

    # ------------------------------------------------------------ Poisson bootstrap
    def torch_boot(sv, yv, B):
        ts = torch.as_tensor(sv, device="cuda")
        order = torch.argsort(ts, descending=True)
        xs = ts[order]
        ys = torch.as_tensor(yv, device="cuda")[order].float()
        ends = torch.ones_like(xs, dtype=torch.bool)
        ends[:-1] = xs[1:] != xs[:-1]
        idx = torch.nonzero(ends).squeeze(1)

        def run():
            W = torch.poisson(torch.ones(B, xs.numel(), device="cuda"))
            tp = torch.cumsum(W * ys, 1)[:, idx]
            fp = torch.cumsum(W * (1 - ys), 1)[:, idx]
            d = torch.diff(tp, dim=1, prepend=torch.zeros(B, 1, device="cuda"))
            prec = torch.nan_to_num(tp / (tp + fp))
            return ((d * prec).sum(1) / tp[:, -1]).cpu()

        return run

    for n, B, M in (
        (10**6 // k, 1000 // kb, 1),
        (10**7 // k, 1000 // kb, 1),
        (10**6 // k, 10000 // kb, 1),
        (10**6 // k, 1000 // kb, 10),
    ):
        s, y = float_scores(n, M)
        b = pack(score=s if M > 1 else s[:, 0], label=y)
        t_ap = best(lambda b=b, B=B: driver.poisson_replicates(b, area.AP, 1, B), max(2, R // 2))
        t_dg = best(lambda b=b, B=B: driver.poisson_replicates(b, area.DG, 1, B), max(2, R // 2))
        t_peer, peer_name = None, ""
        if torch is not None and M == 1 and n * B <= 2 * 10**9:
            torch.cuda.reset_peak_memory_stats()
            t_peer = best(torch_boot(s[:, 0], y, B), 2)
            peak = torch.cuda.max_memory_allocated() / 2**30
            peer_name = f"torch vectorised ({peak:.0f} GiB peak)"
        row(
            f"Poisson bootstrap AP, {M} model(s), B={B}, {n:.0e}",
            t_ap,
            t_peer,
            peer_name,
            f"DG {fmt(t_dg)}; memory O(N + B N/1024)",
        )
        if n == 10**6 // k and B == 1000 // kb:
            t0 = time.perf_counter()
            if M == 1:
                prn.bootstrap(score=s[:, 0], label=y, method="ap", n_boot=B, seed=1)
            else:
                prn.compare(score=s, label=y, method="ap", n_boot=B, seed=1)
            t_cpu = time.perf_counter() - t0
            row(
                f"  vs this library's CPU {'compare' if M > 1 else 'bootstrap'} "
                f"({os.cpu_count()} cores)",
                t_ap,
                t_cpu,
                "CPU",
                "target >= 200x for compare",
            )

    # ------------------------------------------------------------------- cold start
    child = (
        "import time; t0 = time.perf_counter(); import prroc_numba as prn; "
        "t1 = time.perf_counter(); prn.auc(score=[0.9, 0.4, 0.3, 0.1], "
        "label=[1, 0, 1, 0], device='cuda'); t2 = time.perf_counter(); "
        "print(t1 - t0, t2 - t1)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    outs = [
        subprocess.run(
            [sys.executable, "-c", child], capture_output=True, text=True, env=env, check=True
        ).stdout.split()
        for _ in range(2)
    ]
    imp, first = (float(v) for v in outs[1])
    row(
        "cold start: first prn.auc(device='cuda'), warm kernel cache",
        first,
        note=f"import prroc_numba {imp:.2f} s; target <= 3 s",
    )

    flags = (" --quick" if args.quick else "") + (" --smoke" if args.smoke else "")
    head = [
        f"# GPU benchmark: {name}",
        "",
        (
            f"`python benchmarks/bench_gpu.py{flags}`, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, CuPy "
            f"{getattr(cp, '__version__', 'absent')}, torch "
            f"{getattr(torch, '__version__', 'absent')}; minimum of {R} runs after a "
            "warm-up."
        ),
        "",
        "| work | ours | peer | peer / ours | note |",
        "|---|---|---|---|---|",
    ]
    safe = "".join(ch if ch.isalnum() else "_" for ch in name).strip("_").lower()
    tag = "_smoke" if args.smoke else "_quick" if args.quick else ""
    out = ROOT / "benchmarks" / "results" / f"gpu_{safe}{tag}.md"
    out.write_text("\n".join(head + rows) + "\n")
    print(f"\nwritten: {out}")


if __name__ == "__main__":
    main()
