"""prroc_numba.torch against the plain functions, torchmetrics and torcheval.

Four runs, each checked before it is timed (our metric's result equals the plain
function's exactly; the peers' agree to their float32 rounding):

* ``compute`` -- one curve of ``--rows`` (1e6), ``--models`` (100) columns x ``--wide-rows``
  (1e5), a B = ``--n-boot`` (200) bootstrap and a paired comparison of 3 columns at
  ``--wide-rows``: the metric's ``update`` + ``compute`` (``compute_frame(n_boot=...)``,
  ``compare(n_boot=...)``) against the plain function on the same tensors (``prn.auc`` /
  ``prn.bootstrap`` / ``prn.compare`` on their numpy views) and against
  torchmetrics' exact mode (``thresholds=None``) and torcheval (``BinaryAUPRC``, with
  ``num_tasks`` for the columns); ``--bootstrap-peer`` adds torchmetrics' ``BootStrapper``
  (minutes).
* ``stream`` -- ``--batches`` (100) batches of ``--batch-rows`` (1e4) rows, continuous and
  tied scores (rounded to 2 decimals): update per batch, compute at the end, against
  torchmetrics' exact mode and torcheval; the states' memory.
* ``classes`` -- ``--batches`` x ``--batch-rows`` rows of ``--classes`` (10) classes:
  ``MulticlassAveragePrecision(average="macro")`` against torchmetrics' exact mode and
  its binned mode with ``--thresholds`` (100) thresholds (and ours binned); the states'
  bytes; how far the binned value is from the exact one.
* ``ddp`` -- 2 gloo processes with ``--ddp-rows`` (1e6) rows each, tied scores, binary
  and ``--classes`` classes: the bytes each rank hands to the gather of the sync (ours:
  its table; torchmetrics: its rows) and the time of ``compute`` (sync included).

Times are the minimum of ``--repeats`` after one warm-up call (ours and the plain function
timed in turn, so that both see the same load); ratios are ours / theirs (below 1: ours
is faster). The load of the machine (``uptime``) is printed with them::

    python benchmarks/bench_torch.py            # all four, the sizes above
    python benchmarks/bench_torch.py stream     # one of them
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import time
import warnings

import numpy as np


def _timed(fn, repeats):
    fn()  # warm-up (compilation, allocations)
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def _timed_pair(ours, plain, repeats):
    """``(t_ours, v_ours, t_plain, v_plain)``: the two timed in turn (ours, plain, ours,
    ...), so that both see the same load of a shared machine; minimum of each.
    """
    ours(), plain()  # warm-up
    best = [np.inf, np.inf]
    out = [None, None]
    for _ in range(repeats):
        for i, fn in enumerate((ours, plain)):
            t = time.perf_counter()
            out[i] = fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best[0], out[0], best[1], out[1]


def _versions():
    import torch
    import torcheval
    import torchmetrics

    import prroc_numba

    return (
        f"torch {torch.__version__}, torchmetrics {torchmetrics.__version__}, "
        f"torcheval {getattr(torcheval, '__version__', '?')}, prroc_numba {prroc_numba.__version__}"
    )


def _uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _binormal(n, seed=0, decimals=None):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = y + rng.normal(size=n)
    return y, (np.round(s, decimals) if decimals is not None else s)


def _row(name, ours, others):
    cells = [f"{name:<34} ours {ours * 1e3:9.1f} ms"]
    for peer, t in others.items():
        cells.append(f"{peer} {t * 1e3:9.1f} ms ({ours / t:5.2f}x)")
    print(" | ".join(cells), flush=True)


def run_compute(a):
    import torch
    from torchmetrics.classification import (
        BinaryAveragePrecision,
        MultilabelAveragePrecision,
    )

    import prroc_numba as prn
    import prroc_numba.torch as pt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torcheval.metrics import BinaryAUPRC

    # one curve
    y, s = _binormal(int(a.rows))
    ts, ty = torch.from_numpy(s), torch.from_numpy(y)

    def ours():
        m = pt.AveragePrecision()
        m.update(ts, ty)
        return float(m.compute())

    def plain():
        return prn.auc(score=ts.numpy(), label=ty.numpy(), method="ap")["auc"].iloc[0]

    def tm():
        m = BinaryAveragePrecision(thresholds=None)
        m.update(ts, ty)
        return float(m.compute())

    def te():
        m = BinaryAUPRC()
        m.update(ts, ty)
        return float(m.compute())

    t0, v0, t1, v1 = _timed_pair(ours, plain, a.repeats)
    assert v0 == v1, (v0, v1)
    t2, v2 = _timed(tm, a.repeats)
    t3, v3 = _timed(te, a.repeats)
    assert abs(v0 - v2) < 1e-5 and abs(v0 - v3) < 1e-5, (v0, v2, v3)
    _row(f"AP, 1 curve x {int(a.rows):.0e}", t0, {"plain": t1, "torchmetrics": t2, "torcheval": t3})

    # many columns
    M, n = int(a.models), int(a.wide_rows)
    rng = np.random.default_rng(1)
    yw = (rng.random(n) < 0.1).astype(np.int64)
    S = yw[:, None] * rng.random(M) + rng.normal(size=(n, M))
    tS, tyw = torch.from_numpy(S), torch.from_numpy(yw)
    tY = tyw[:, None].expand(n, M).contiguous()

    def ours_w():
        m = pt.AveragePrecision(models=M)
        m.update(tS, tyw)
        return m.compute().numpy()

    def plain_w():
        return prn.auc(score=tS.numpy(), label=tyw.numpy(), method="ap")["auc"].to_numpy()

    def tm_w():
        m = MultilabelAveragePrecision(num_labels=M, average=None, thresholds=None)
        m.update(tS, tY)
        return m.compute().numpy()

    def te_w():
        m = BinaryAUPRC(num_tasks=M)
        m.update(tS.T.contiguous(), tY.T.contiguous())
        return m.compute().numpy()

    t0, v0, t1, v1 = _timed_pair(ours_w, plain_w, a.repeats)
    assert np.array_equal(v0, v1)
    t2, v2 = _timed(tm_w, max(1, a.repeats - 2))
    t3, v3 = _timed(te_w, max(1, a.repeats - 2))
    assert np.abs(v0 - v2).max() < 1e-5 and np.abs(v0 - v3).max() < 1e-5
    _row(f"AP, {M} columns x {n:.0e}", t0, {"plain": t1, "torchmetrics": t2, "torcheval": t3})

    # bootstrap at epoch end
    B = int(a.n_boot)
    yb, sb = yw, S[:, 0].copy()
    tsb, tyb = torch.from_numpy(sb), torch.from_numpy(yb)

    def ours_b():
        m = pt.AveragePrecision()
        m.update(tsb, tyb)
        return m.compute_frame(n_boot=B, seed=0)

    def plain_b():
        return prn.bootstrap(score=tsb.numpy(), label=tyb.numpy(), method="ap", n_boot=B, seed=0)

    t0, v0, t1, v1 = _timed_pair(ours_b, plain_b, a.repeats)
    assert v0.equals(v1)
    peers = {"plain": t1}
    if a.bootstrap_peer:
        from torchmetrics.wrappers import BootStrapper

        def tm_b():
            m = BootStrapper(BinaryAveragePrecision(thresholds=None), num_bootstraps=B)
            m.update(tsb, tyb)
            return m.compute()

        peers["torchmetrics BootStrapper"] = _timed(tm_b, 1)[0]
    _row(f"AP bootstrap B={B}, 1 curve x {n:.0e}", t0, peers)

    # paired comparison of 3 columns at epoch end (the rows kept by the state)
    S3, tS3 = S[:, :3].copy(), torch.from_numpy(S[:, :3].copy())

    def ours_c():
        m = pt.AveragePrecision(models=3)
        m.update(tS3, tyb)
        return m.compare(n_boot=B, seed=0)

    def plain_c():
        return prn.compare(score=S3, label=yb, method="ap", n_boot=B, seed=0)

    t0, v0, t1, v1 = _timed_pair(ours_c, plain_c, a.repeats)
    assert v0.equals(v1)
    _row(f"AP compare B={B}, 3 columns x {n:.0e}", t0, {"plain": t1})


def _streamed(make, key, preds, targets, states):
    """A call that streams the batches into a new metric and computes it (the metric
    kept in ``states[key]``, for its state's size).
    """

    def go():
        m = make()
        for p, t in zip(preds, targets):
            m.update(p, t)
        out = float(m.compute())
        states[key] = m
        return out

    return go


def run_stream(a):
    import torch
    from torchmetrics.classification import BinaryAveragePrecision

    import prroc_numba as prn
    import prroc_numba.torch as pt

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torcheval.metrics import BinaryAUPRC

    nb, br = int(a.batches), int(a.batch_rows)
    for kind, dec in (("continuous", None), ("tied", 2)):
        y, s = _binormal(nb * br, seed=2, decimals=dec)
        ys = [torch.from_numpy(y[i * br : (i + 1) * br]) for i in range(nb)]
        ss = [torch.from_numpy(s[i * br : (i + 1) * br]) for i in range(nb)]
        states: dict = {}

        def stream(make, key, ss=ss, ys=ys, states=states):
            return _streamed(make, key, ss, ys, states)

        t0, v0 = _timed(stream(pt.AveragePrecision, "ours"), a.repeats)
        ref = prn.auc(score=s, label=y, method="ap")["auc"].iloc[0]
        assert v0 == ref
        t1, v1 = _timed(stream(lambda: BinaryAveragePrecision(thresholds=None), "tm"), a.repeats)
        t2, v2 = _timed(stream(BinaryAUPRC, "te"), a.repeats)
        assert abs(v0 - v1) < 1e-5 and abs(v0 - v2) < 1e-5
        names = ("key", "score", "pos", "neg", "rows", "labels")  # every list state
        ours_b = sum(x.nbytes for nm in names for x in getattr(states["ours"], nm))
        tm_b = sum(x.nbytes for x in states["tm"].preds + states["tm"].target)
        n_distinct = np.unique(s).size
        _row(
            f"stream {nb}x{br:.0e} {kind} ({n_distinct:,} distinct)",
            t0,
            {"torchmetrics": t1, "torcheval": t2},
        )
        print(
            f"{'':<34} state: ours {ours_b / 2**20:.2f} MiB, torchmetrics {tm_b / 2**20:.2f} MiB",
            flush=True,
        )


def _class_probs(n, K, seed, decimals=None):
    """``(class ids, softmax probabilities float32 (n, K))``, the true class favoured."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    z = rng.normal(size=(n, K))
    z[np.arange(n), y] += 1.0
    p = np.exp(z)
    p = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
    return y, (np.round(p, decimals) if decimals is not None else p)


def _state_bytes(m, names):
    total = 0
    for nm in names:
        x = getattr(m, nm)
        total += sum(t.nbytes for t in (x if isinstance(x, list) else [x]))
    return total


def run_classes(a):
    """``--batches`` x ``--batch-rows`` rows, ``--classes`` classes, macro AP: ours (exact)
    against torchmetrics' exact mode and its binned mode (``--thresholds``), with each
    state's bytes and the binned value's distance from the exact one.
    """
    import torch
    from torchmetrics.classification import MulticlassAveragePrecision as TM

    import prroc_numba as prn
    import prroc_numba.torch as pt

    nb, br, K, T = int(a.batches), int(a.batch_rows), int(a.classes), int(a.thresholds)
    y, p = _class_probs(nb * br, K, seed=3)
    ys = [torch.from_numpy(y[i * br : (i + 1) * br]) for i in range(nb)]
    ps = [torch.from_numpy(p[i * br : (i + 1) * br]) for i in range(nb)]
    states: dict = {}

    def stream(make, key):
        return _streamed(make, key, ps, ys, states)

    t0, v0 = _timed(stream(lambda: pt.MulticlassAveragePrecision(K), "ours"), a.repeats)
    ref = prn.auc(
        score=p.astype(np.float64), label=y, multiclass="ovr", average="macro", method="ap"
    )["auc"].iloc[0]
    assert abs(v0 - ref) < 1e-14, (v0, ref)
    tm = stream(lambda: TM(num_classes=K, average="macro", thresholds=None), "tm")
    t1, v1 = _timed(tm, a.repeats)
    assert abs(v0 - v1) < 1e-5, (v0, v1)
    binned = stream(lambda: TM(num_classes=K, average="macro", thresholds=T), "tm_binned")
    t2, v2 = _timed(binned, a.repeats)
    ours_binned = stream(lambda: pt.MulticlassAveragePrecision(K, thresholds=T), "ours_binned")
    t3, v3 = _timed(ours_binned, a.repeats)
    assert abs(v2 - v3) < 1e-6, (v2, v3)
    _row(
        f"classes {nb}x{br:.0e}, {K} classes, macro AP",
        t0,
        {"torchmetrics exact": t1, f"torchmetrics thresholds={T}": t2},
    )
    _row(f"{'':<13}ours thresholds={T}", t3, {f"torchmetrics thresholds={T}": t2})
    ours_names = ("key", "score", "pos", "neg", "class_scores", "class_labels")
    sizes = {
        "ours": _state_bytes(states["ours"], ours_names),
        "ours binned": _state_bytes(states["ours_binned"], ours_names),
        "torchmetrics exact": _state_bytes(states["tm"], ("preds", "target")),
        "torchmetrics binned": _state_bytes(states["tm_binned"], ("confmat",)),
    }
    print(
        f"{'':<34} state: " + ", ".join(f"{k} {v / 2**20:.3f} MiB" for k, v in sizes.items()),
        flush=True,
    )
    print(
        f"{'':<34} macro AP exact {v0:.6f}; thresholds={T}: {v2:.6f} (off by {v2 - v0:+.2e})",
        flush=True,
    )
    # what the binned mode costs in accuracy (ours binned: torchmetrics' binned values,
    # checked above and in the tests), macro and per class, for a few thresholds
    for t in (10, 100, 1000):
        for avg in ("macro", None):
            m = pt.MulticlassAveragePrecision(K, average=avg, thresholds=t)
            e = pt.MulticlassAveragePrecision(K, average=avg)
            for q, tt in zip(ps, ys):
                m.update(q, tt)
                e.update(q, tt)
            err = (m.compute() - e.compute()).abs().max().item()
            what = "macro AP" if avg else "per-class AP, worst class"
            print(f"{'':<34} thresholds={t}: {what} off by {err:.2e}", flush=True)


def _ddp_worker(rank, port, rows, classes, out):
    import torch
    import torch.distributed as dist
    from torchmetrics.classification import BinaryAveragePrecision
    from torchmetrics.utilities.distributed import gather_all_tensors

    import prroc_numba.torch as pt

    torch.set_num_threads(1)
    url = f"tcp://127.0.0.1:{port}"
    dist.init_process_group("gloo", init_method=url, rank=rank, world_size=2)
    from torchmetrics.classification import MulticlassAveragePrecision

    y, s = _binormal(rows, seed=10 + rank, decimals=2)
    yc, pc = _class_probs(rows, classes, seed=20 + rank, decimals=2)
    res = {}
    for name, make in (
        ("ours", lambda f: pt.AveragePrecision(dist_sync_fn=f)),
        ("torchmetrics", lambda f: BinaryAveragePrecision(thresholds=None, dist_sync_fn=f)),
        ("ours classes", lambda f: pt.MulticlassAveragePrecision(classes, dist_sync_fn=f)),
        (
            "torchmetrics classes",
            lambda f: MulticlassAveragePrecision(classes, thresholds=None, dist_sync_fn=f),
        ),
    ):
        sent = []

        def counting(x, group=None, sent=sent):
            sent.append(x.numel() * x.element_size())
            return gather_all_tensors(x, group=group)

        m = make(counting)
        if name.endswith("classes"):
            m.update(torch.from_numpy(pc), torch.from_numpy(yc))
        else:
            m.update(torch.from_numpy(s), torch.from_numpy(y))
        dist.barrier()
        t = time.perf_counter()
        v = float(m.compute())
        res[name] = (sum(sent), time.perf_counter() - t, v)
    with open(f"{out}/ddp{rank}.txt", "w") as f:
        f.write(repr(res))
    dist.destroy_process_group()


def run_ddp(a):
    import tempfile

    import torch.multiprocessing as mp

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    with tempfile.TemporaryDirectory() as out:
        args = (port, int(a.ddp_rows), int(a.classes), out)
        mp.spawn(_ddp_worker, args=args, nprocs=2, join=True)
        res = [eval(open(f"{out}/ddp{r}.txt").read()) for r in range(2)]  # noqa: S307
    for name in ("ours", "torchmetrics", "ours classes", "torchmetrics classes"):
        b = [r[name][0] for r in res]
        t = max(r[name][1] for r in res)
        what = f"{int(a.classes)} classes" if name.endswith("classes") else "binary"
        print(
            f"ddp 2 ranks x {int(a.ddp_rows):.0e} tied, {what}: {name:<20} sends {b[0]:>12,} + "
            f"{b[1]:>12,} bytes to the gather; compute (sync included) {t * 1e3:8.1f} ms; "
            f"AP {res[0][name][2]:.12f}",
            flush=True,
        )
    assert abs(res[0]["ours"][2] - res[0]["torchmetrics"][2]) < 1e-5
    assert abs(res[0]["ours classes"][2] - res[0]["torchmetrics classes"][2]) < 1e-5
    for ours, theirs in (("ours", "torchmetrics"), ("ours classes", "torchmetrics classes")):
        ratio = sum(r[theirs][0] for r in res) / sum(r[ours][0] for r in res)
        print(f"{'':<34} {theirs} sends {ratio:,.1f}x the bytes of {ours}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", nargs="*", default=["compute", "stream", "classes", "ddp"])
    p.add_argument("--rows", type=float, default=1e6)
    p.add_argument("--models", type=float, default=100)
    p.add_argument("--wide-rows", type=float, default=1e5)
    p.add_argument("--n-boot", type=float, default=200)
    p.add_argument("--batches", type=float, default=100)
    p.add_argument("--batch-rows", type=float, default=1e4)
    p.add_argument("--ddp-rows", type=float, default=1e6)
    p.add_argument("--classes", type=float, default=10)
    p.add_argument("--thresholds", type=float, default=100)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--bootstrap-peer", action="store_true")
    a = p.parse_args()
    import numba
    import torch

    torch.set_num_threads(a.threads)
    numba.set_num_threads(min(a.threads, numba.config.NUMBA_NUM_THREADS))
    print(_versions(), f"| {a.threads} threads each | cores: {os.cpu_count()}")
    print("load before:", _uptime(), flush=True)
    for what in a.what:
        runs = {"compute": run_compute, "stream": run_stream, "classes": run_classes}
        {**runs, "ddp": run_ddp}[what](a)
    print("load after: ", _uptime())


if __name__ == "__main__":
    main()
