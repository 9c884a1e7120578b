"""Dask input: overhead, out-of-core exactness and the Poisson bootstrap at scale.

Three runs, each on a ``distributed.LocalCluster`` started here (worker processes, one
thread each), each checked against an independent figure before it is timed:

* ``overhead`` -- N rows in memory vs the same rows as a Dask frame on the cluster
  (``prn.auc`` PR (DG) + ROC): the ratio Dask / in memory, and the two results' largest
  difference.
* ``outofcore`` -- N rows written as Parquet (in files of ``--file-rows``), read by
  workers with ``--memory-limit`` each: AUC-PR (DG), AUC-ROC and the ROC hull, exactly
  (checked against an in-memory run of the merged table's rows: with scores of
  ``--decimals`` decimals the table has at most 10**decimals entries, whatever N). Time
  and each worker's peak resident memory.
* ``poisson`` -- the Poisson bootstrap (B = ``--n-boot``) of ``--models`` models paired on
  N rows as a Dask frame (``--decimals -1``: continuous scores, through the score
  ranges); with ``--check`` (small N) also the same call in memory
  (``resampling="poisson"``) and the largest replicate and interval differences.

Sizes are arguments. The full runs the issue asks for::

    python benchmarks/bench_dask.py overhead --rows 1e7
    python benchmarks/bench_dask.py outofcore --rows 2e8 --memory-limit 2GiB
    python benchmarks/bench_dask.py outofcore --rows 2e8 --memory-limit 2GiB --decimals -1
    python benchmarks/bench_dask.py poisson --rows 1e8 --models 3 --n-boot 200 --partitions 100

(``--partitions 100``: 1e6 rows per partition; a partition's reduction peaks at about
400 bytes per row of three models, so 16 partitions of 6e6 rows would pass a 2 GiB
worker's limit.) Medium sizes that check the same per-task memory (same rows per file
or partition) in minutes::

    python benchmarks/bench_dask.py overhead --rows 1e7
    python benchmarks/bench_dask.py outofcore --rows 2e7 --memory-limit 2GiB --decimals -1
    python benchmarks/bench_dask.py poisson --rows 1e7 --models 3 --n-boot 50 --partitions 10

Small smoke sizes (what the development machine ran)::

    python benchmarks/bench_dask.py overhead --rows 1e6
    python benchmarks/bench_dask.py outofcore --rows 4e6 --file-rows 5e5
    python benchmarks/bench_dask.py outofcore --rows 4e6 --file-rows 5e5 --decimals -1
    python benchmarks/bench_dask.py poisson --rows 2e5 --n-boot 50 --check
    python benchmarks/bench_dask.py poisson --rows 2e5 --n-boot 50 --check --decimals -1

Continuous scores through the score ranges (the Poisson bootstrap without the merged
replicate table), medium size::

    python benchmarks/bench_dask.py poisson --rows 1e7 --models 3 --n-boot 50 \
        --partitions 10 --decimals -1
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _cases import logistic_frame  # noqa: E402

import prroc_numba as prn  # noqa: E402 (after the checkout is put on the path)


def _cluster(workers, memory_limit):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        memory_limit=memory_limit,
        dashboard_address=":0",
    )
    return cluster, Client(cluster)


def _peak_rss(client):
    """Each worker's peak resident memory (bytes), from the kernel's own counter."""

    def peak():
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    return client.run(peak)


def _spilled(client):
    """Bytes each worker has written to disk in all (Dask's spilling), or None."""

    def spilled(dask_worker):
        total = getattr(dask_worker.data, "spilled_total", None)
        return None if total is None else total.disk

    try:
        return client.run(spilled)
    except Exception:  # an older distributed without the counter
        return None


def _progress(client, what, times, result):
    """One line as each call ends (a long run's figures survive its end)."""
    peaks = _peak_rss(client)
    print(
        f"  [{what}: {times[what]:.1f} s, load {os.getloadavg()[0]:.1f}, workers' peak RSS "
        + ", ".join(f"{v / 2**30:.2f} GiB" for v in peaks.values())
        + f"] {result}",
        flush=True,
    )


def _best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def overhead(args):
    import dask.dataframe as dd

    n = int(float(args.rows))
    df = logistic_frame(n, 1, args.decimals, 0)
    cluster, client = _cluster(args.workers, args.memory_limit)
    try:
        ddf = dd.from_pandas(df, npartitions=args.partitions).persist()

        def mem():
            return (
                prn.auc(df, score="m0", label="y"),
                prn.auc(df, score="m0", label="y", curve="roc"),
            )

        def dsk():
            return (
                prn.auc(ddf, score="m0", label="y"),
                prn.auc(ddf, score="m0", label="y", curve="roc"),
            )

        mem(), dsk()  # warm-up (compilation, workers' imports)
        t_mem, a = _best(mem, args.repeat)
        t_dsk, b = _best(dsk, args.repeat)
        diff = max(abs(float(x["auc"].iloc[0]) - float(y["auc"].iloc[0])) for x, y in zip(a, b))
        print(f"overhead: {n:.0e} rows, {args.partitions} partitions, {args.workers} workers")
        print(
            f"  in memory {t_mem:.2f} s, dask {t_dsk:.2f} s, ratio {t_dsk / t_mem:.2f}x; "
            f"AUC-PR {float(a[0]['auc'].iloc[0]):.6f}, AUC-ROC "
            f"{float(a[1]['auc'].iloc[0]):.6f}, max |dask - memory| = {diff:.1e}"
        )
    finally:
        client.close()
        cluster.close()


def outofcore(args):
    if args.decimals < 0:
        return outofcore_ranges(args)
    import dask.dataframe as dd

    n = int(float(args.rows))
    per = int(float(args.file_rows))
    path = Path(args.path or tempfile.mkdtemp(prefix="prn_parquet_"))
    path.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    # exact reference, built file by file on the client: the (score, label) counts
    counts = None
    for k, start in enumerate(range(0, n, per)):
        part = logistic_frame(min(per, n - start), 1, args.decimals, 1, start)
        part.to_parquet(path / f"part-{k:05d}.parquet", index=False)
        c = part.groupby(["m0", "y"]).size()
        counts = c if counts is None else counts.add(c, fill_value=0)
    t_write = time.perf_counter() - t
    counts = counts.unstack(fill_value=0)
    ref = pd.DataFrame(
        {
            "s": np.repeat(counts.index.to_numpy(), 2),
            "y": np.tile([1, 0], len(counts)),
            "w": np.column_stack([counts[1], counts[0]]).ravel().astype(float),
        }
    )
    want_pr = prn.auc(ref, score="s", label="y", weight="w")["auc"].iloc[0]
    want_roc = prn.auc(ref, score="s", label="y", weight="w", curve="roc")["auc"].iloc[0]
    want_hull = prn.roc_curve(ref, score="s", label="y", weight="w", hull=True)
    cluster, client = _cluster(args.workers, args.memory_limit)
    try:
        ddf = dd.read_parquet(str(path))
        small = dd.from_pandas(logistic_frame(1000, 1, args.decimals, 9), npartitions=2)
        for curve in ("pr", "roc"):  # warm-up: workers import and load the kernels
            prn.auc(small, score="m0", label="y", curve=curve)
        prn.roc_curve(small, score="m0", label="y", hull=True)
        t = time.perf_counter()
        pr = prn.auc(ddf, score="m0", label="y")["auc"].iloc[0]
        roc = prn.auc(ddf, score="m0", label="y", curve="roc")["auc"].iloc[0]
        hull = prn.roc_curve(ddf, score="m0", label="y", hull=True)
        t_all = time.perf_counter() - t
        peaks = _peak_rss(client)
        print(
            f"outofcore: {n:.0e} rows in {ddf.npartitions} Parquet files "
            f"({sum(f.stat().st_size for f in path.iterdir()) / 2**30:.2f} GiB, written in "
            f"{t_write:.0f} s), {args.workers} workers of {args.memory_limit}"
        )
        hull_diff = np.abs(hull[["tp", "fp"]].to_numpy() - want_hull[["tp", "fp"]].to_numpy()).max()
        print(
            f"  AUC-PR (DG) {pr:.10f} (reference {want_pr:.10f}), AUC-ROC {roc:.10f} "
            f"(reference {want_roc:.10f}), hull {len(hull)} vertices (reference "
            f"{len(want_hull)}, max |diff| {hull_diff:.1e})"
        )
        print(
            f"  three calls {t_all:.1f} s; workers' peak RSS "
            + ", ".join(f"{v / 2**30:.2f} GiB" for v in peaks.values())
        )
    finally:
        client.close()
        cluster.close()
        if not args.path and not args.keep:
            shutil.rmtree(path, ignore_errors=True)


def outofcore_ranges(args):
    """Continuous (unrounded) scores: the merged table is as large as the data, so the
    range-partitioned path runs (forced: ``prroc_numba.dask_exact = "ranges"``). The
    reference is the in-memory call on all rows (only for N <= ``--max-check``).
    """
    import dask
    import dask.dataframe as dd

    n = int(float(args.rows))
    per = int(float(args.file_rows))
    path = Path(args.path or tempfile.mkdtemp(prefix="prn_parquet_"))
    path.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    for k, start in enumerate(range(0, n, per)):
        file = path / f"part-{k:05d}.parquet"
        if args.reuse and file.exists():  # the same rows: the files of an earlier run
            continue
        part = logistic_frame(min(per, n - start), 1, None, 1, start)
        part.to_parquet(file, index=False)
    t_write = time.perf_counter() - t
    calls = [("pr", False), ("roc", False), ("roc", True)]
    names = ("auc_pr", "ap", "auc_roc", "auc_roc_hull", "auc_pr_hull", "n_pos", "prevalence")
    every = args.calls == "all"
    kw = {"score": "m0", "label": "y"}
    want = None
    if n <= float(args.max_check):
        ref = pd.read_parquet(str(path))
        want = [prn.auc(ref, **kw, curve=c, hull=h)["auc"].iloc[0] for c, h in calls]
        want_metrics = prn.metrics(ref, **kw, metrics=names)
        want_hull = prn.roc_curve(ref, **kw, hull=True)
        want_thr = prn.confusion(ref, **kw, thresholds=want_hull)
        del ref
    cluster, client = _cluster(args.workers, args.memory_limit)
    try:
        ddf = dd.read_parquet(str(path))
        small = dd.from_pandas(logistic_frame(1000, 1, None, 9), npartitions=2)
        config = {"prroc_numba.dask_exact": "ranges"}
        if args.range_rows:
            config["prroc_numba.dask_range_rows"] = int(float(args.range_rows))
        with dask.config.set(config):
            # warm-up: workers import and compile the kernels
            for c, h in calls:
                prn.auc(small, **kw, curve=c, hull=h)
            prn.metrics(small, **kw, metrics=names)
            prn.confusion(small, **kw, thresholds=prn.roc_curve(small, **kw, hull=True))
            times = {}
            if every:
                t = time.perf_counter()
                got = [prn.auc(ddf, **kw, curve=c, hull=h)["auc"].iloc[0] for c, h in calls]
                times["three auc calls"] = time.perf_counter() - t
                _progress(client, "three auc calls", times, got)
            t = time.perf_counter()
            got_metrics = prn.metrics(ddf, **kw, metrics=names)
            times["metrics"] = time.perf_counter() - t
            _progress(client, "metrics", times, got_metrics.iloc[0].to_dict())
            if not every:  # the same three areas, from the one metrics call
                got = [got_metrics[k].iloc[0] for k in ("auc_pr", "auc_roc", "auc_roc_hull")]
            t = time.perf_counter()
            hull = prn.roc_curve(ddf, **kw, hull=True)
            times["hull"] = time.perf_counter() - t
            _progress(client, "hull", times, f"{len(hull)} vertices")
            if every:
                t = time.perf_counter()
                thr = prn.confusion(ddf, **kw, thresholds=hull)
                times["thresholds"] = time.perf_counter() - t
        peaks = _peak_rss(client)
        spilled = _spilled(client)
        print(
            f"outofcore (continuous scores, range path): {n:.0e} rows in {ddf.npartitions} "
            f"Parquet files ({sum(f.stat().st_size for f in path.iterdir()) / 2**30:.2f} GiB, "
            f"written in {t_write:.0f} s), {args.workers} workers of {args.memory_limit}"
        )
        for (c, h), g, w in zip(calls, got, want or [None] * 3):
            ref = "" if w is None else f" (in memory {w:.12f}, |diff| {abs(g - w):.1e})"
            print(f"  AUC-{c.upper()}{' hull' if h else ''} {g:.12f}{ref}")
        print(got_metrics.to_string(index=False))
        print(f"  roc_curve(hull=True): {len(hull)} vertices")
        if every:
            print(f"  confusion at the hull's thresholds: {len(thr)} rows")
        if want is not None:

            def diff(a, b):
                a, b = a.select_dtypes("number"), b.select_dtypes("number")
                return np.nanmax(np.abs(a.to_numpy() - b.to_numpy()) / np.maximum(1, np.abs(b)))

            print(
                "  max relative |diff| vs in memory: metrics "
                f"{diff(got_metrics, want_metrics):.1e}, hull {diff(hull, want_hull):.1e}"
                + (f", counts at the hull's thresholds {diff(thr, want_thr):.1e}" if every else "")
            )
        print(
            "  "
            + ", ".join(f"{k} {v:.1f} s" for k, v in times.items())
            + " (each call re-shuffles into ranges); workers' peak RSS "
            + ", ".join(f"{v / 2**30:.2f} GiB" for v in peaks.values())
            + (
                ""
                if spilled is None
                else "; spilled to disk "
                + ", ".join(f"{(v or 0) / 2**30:.2f} GiB" for v in spilled.values())
            )
        )
        print(f"  load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        client.close()
        cluster.close()
        if not args.path and not args.keep:
            shutil.rmtree(path, ignore_errors=True)


def poisson(args):
    """The Poisson bootstrap of a Dask frame. Scores rounded to ``--decimals`` run
    through the merged replicate table; continuous scores (``--decimals -1``) through
    the score ranges (forced: ``prroc_numba.dask_exact = "ranges"``, which "auto" picks
    anyway once the table would pass ``prroc_numba.dask_table_max`` entries).
    """
    import dask
    import dask.dataframe as dd

    n = int(float(args.rows))
    decimals = None if args.decimals < 0 else args.decimals
    models = [f"m{m}" for m in range(args.models)]
    # each partition is generated on a worker (the client never holds the N rows)
    bounds = np.linspace(0, n, args.partitions + 1).astype(np.int64)
    sizes = [(int(a), int(b - a)) for a, b in zip(bounds[:-1], bounds[1:])]
    meta = logistic_frame(0, args.models, decimals, 2)
    path = "ranges" if decimals is None else "table"
    cluster, client = _cluster(args.workers, args.memory_limit)
    try:
        ddf = dd.from_map(
            lambda ab: logistic_frame(ab[1], args.models, decimals, 2, ab[0]), sizes, meta=meta
        )
        kw = {
            "score": models,
            "label": "y",
            "n_boot": args.n_boot,
            "seed": 0,
            "resampling": "poisson",
        }
        small = dd.from_pandas(logistic_frame(1000, args.models, decimals, 9), npartitions=2)
        with dask.config.set({"prroc_numba.dask_exact": path}):
            prn.compare(small, **{**kw, "n_boot": 2})  # warm-up: the workers compile
            t = time.perf_counter()
            res, reps = prn.bootstrap(ddf, **kw, return_replicates=True)
            t_dsk = time.perf_counter() - t
        peaks = _peak_rss(client)
        print(
            f"poisson ({path} path): {n:.0e} rows, {args.models} models paired, "
            f"B = {args.n_boot}, {args.partitions} partitions, {args.workers} workers of "
            f"{args.memory_limit}: {t_dsk:.1f} s; workers' peak RSS "
            + ", ".join(f"{v / 2**30:.2f} GiB" for v in peaks.values())
        )
        print(res.round(4).to_string(index=False))
        if args.check:
            t = time.perf_counter()
            df = ddf.compute().reset_index(drop=True)
            want, mem = prn.bootstrap(df, **kw, return_replicates=True)
            t_mem = time.perf_counter() - t
            d = np.max(np.abs(mem["estimate"].to_numpy() - reps["estimate"].to_numpy()))
            cols = ["estimate", "ci_low", "ci_high"]
            di = np.max(np.abs(want[cols].to_numpy() - res[cols].to_numpy()))
            print(
                f"  in memory (resampling='poisson') {t_mem:.1f} s; max |replicate "
                f"difference| = {d:.1e}, max |interval difference| = {di:.1e}"
            )
    finally:
        client.close()
        cluster.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("run", choices=["overhead", "outofcore", "poisson"])
    p.add_argument("--rows", default="1e6")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--memory-limit", default="2GiB")
    p.add_argument("--partitions", type=int, default=16)
    p.add_argument(
        "--decimals",
        type=int,
        default=4,
        help="scores rounded to this many decimals (bounds the merged table); "
        "-1: continuous scores, the range-partitioned path",
    )
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--max-check", default="2e7", help="largest N checked in memory")
    p.add_argument("--file-rows", default="2e6")
    p.add_argument("--path", default=None, help="Parquet folder (default: a temporary one)")
    p.add_argument("--keep", action="store_true", help="keep the temporary Parquet files")
    p.add_argument(
        "--reuse",
        action="store_true",
        help="outofcore --decimals -1: keep the files already in --path (same rows, "
        "same --rows and --file-rows)",
    )
    p.add_argument(
        "--calls",
        choices=["all", "issue"],
        default="all",
        help="outofcore --decimals -1: 'all' (three auc calls, metrics, the hull curve, "
        "thresholds=), 'issue' (one metrics call for AUC-PR (DG), AUC-ROC and the hull's "
        "area, and the hull curve: two shuffles)",
    )
    p.add_argument(
        "--range-rows",
        default=None,
        help="outofcore --decimals -1: the dask config prroc_numba.dask_range_rows",
    )
    p.add_argument("--models", type=int, default=3)
    p.add_argument("--n-boot", type=int, default=200)
    p.add_argument("--check", action="store_true", help="also run in memory and compare")
    args = p.parse_args(argv)
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    {"overhead": overhead, "outofcore": outofcore, "poisson": poisson}[args.run](args)


if __name__ == "__main__":
    main()
