"""The long Dask run: N = 2e8 rows of continuous scores, out of core, on this machine.

Rows (label ``y`` with 10% positives, one model ``m0``: a logistic of a binormal score,
not rounded, so nearly every row is its own distinct score) are written as Parquet files
of ``--file-rows`` rows, then read by a ``distributed.LocalCluster`` of ``--workers``
worker processes (one thread each, ``--memory-limit`` each). Phases, each printed as it
ends (time, load average, every worker's peak resident memory), so that a run stopped
early still reports what it reached:

* ``state``: every file's exact state (an :class:`~prroc_numba.Accumulator`) saved to
  disk in the library's state format (``--state-format``: ``npz`` or ``arrow``), its
  size on disk summed; one file is loaded back and checked against the in-memory
  ``prn.auc`` of that file's rows;
* ``auc``: the exact AUC-PR (Davis-Goadrich) of all rows (the score ranges path: the
  merged table would be as large as the data);
* ``bootstrap``: a Poisson bootstrap interval (``resampling="poisson"``, B = ``--n-boot``,
  seed 0) of the same area.

Reference: with N <= ``--max-check`` the AUC and the interval are also computed in
memory on all rows (the same seed gives the same replicates) and the differences shown.

The long run (about 1.6 GiB of Parquet; 2 workers of 6 GiB: with 2 GiB ones the
shuffle of 2e8 entries spills everything and the workers pause, see docs/dask.md;
``--trace`` times every pass and samples the workers' memory and spilling)::

    nice -n 10 python benchmarks/dask_continuous_2e8.py --rows 2e8 --n-boot 50 --trace

A trial of a tenth of the size::

    nice -n 10 python benchmarks/dask_continuous_2e8.py --rows 2e7 --n-boot 50
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from _cases import logistic_frame  # noqa: E402
from bench_dask import _cluster, _peak_rss, _spilled  # noqa: E402

import prroc_numba as prn  # noqa: E402 (after the checkout is put on the path)


def _line(client, what, seconds, result):
    peaks = _peak_rss(client)
    print(
        f"[{what}: {seconds:.1f} s, load {os.getloadavg()[0]:.1f}, workers' peak RSS "
        + ", ".join(f"{v / 2**30:.2f} GiB" for v in peaks.values())
        + f"] {result}",
        flush=True,
    )


class _Trace:
    """``--trace``: every ``dask.compute`` / ``dask.persist`` call of the library timed
    (with the calling function), and the workers' memory sampled every few seconds
    (process memory, Dask's managed bytes in memory and spilled to disk), so a phase's
    time can be split into its passes and spilling seen as it happens.
    """

    def __init__(self, client, every=5.0):
        import threading

        import dask

        self.client, self.every = client, every
        self.peak = {"rss": 0, "managed": 0, "disk": 0}
        self._stop = threading.Event()
        self._orig = {name: getattr(dask, name) for name in ("compute", "persist")}
        for name, fn in self._orig.items():
            setattr(dask, name, self._timed(name, fn))
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _timed(self, name, fn):
        def call(*args, **kw):
            caller = sys._getframe(1).f_code.co_qualname
            t = time.perf_counter()
            out = fn(*args, **kw)
            print(
                f"    {caller}: dask.{name} {time.perf_counter() - t:.1f} s"
                f" (load {os.getloadavg()[0]:.1f}; {self.now()})",
                flush=True,
            )
            return out

        return call

    def now(self):
        ws = self.client.scheduler_info(n_workers=-1)["workers"].values()
        rss = [w["metrics"]["memory"] for w in ws]
        managed = [w["metrics"].get("managed_bytes", 0) for w in ws]
        disk = [w["metrics"].get("spilled_bytes", {}).get("disk", 0) for w in ws]
        for k, v in (("rss", max(rss)), ("managed", sum(managed)), ("disk", sum(disk))):
            self.peak[k] = max(self.peak[k], v)
        g = 2**30
        return (
            "workers' RSS " + "/".join(f"{v / g:.2f}" for v in rss) + " GiB, managed "
            f"{sum(managed) / g:.2f} GiB, spilled {sum(disk) / g:.2f} GiB"
        )

    def _sample(self):
        while not self._stop.wait(self.every):
            try:
                self.now()
            except Exception:  # the cluster is closing
                return

    def close(self):
        import dask

        self._stop.set()
        for name, fn in self._orig.items():
            setattr(dask, name, fn)
        g = 2**30
        p = self.peak
        print(
            f"sampled peaks: a worker's RSS {p['rss'] / g:.2f} GiB, managed in all "
            f"{p['managed'] / g:.2f} GiB, on disk in all {p['disk'] / g:.2f} GiB",
            flush=True,
        )


def _write(path, n, per, reuse):
    t = time.perf_counter()
    for k, start in enumerate(range(0, n, per)):
        file = path / f"part-{k:05d}.parquet"
        if reuse and file.exists():
            continue
        logistic_frame(min(per, n - start), 1, None, 1, start).to_parquet(file, index=False)
    size = sum(f.stat().st_size for f in path.glob("*.parquet"))
    print(
        f"wrote {n:.0e} rows in {len(list(path.glob('*.parquet')))} Parquet files "
        f"({size / 2**30:.2f} GiB) in {time.perf_counter() - t:.0f} s",
        flush=True,
    )


def _save_state(file, out, fmt):
    """One file's exact state saved in the library's format; its size on disk."""
    df = pd.read_parquet(file)
    acc = prn.Accumulator().update(df, score="m0", label="y")
    target = Path(out) / (Path(file).stem + (".npz" if fmt == "npz" else ".arrow"))
    acc.save(target)
    return target.stat().st_size, acc.n_entries


def _states(client, files, out, fmt):
    futures = client.map(_save_state, [str(f) for f in files], out=str(out), fmt=fmt)
    sizes = client.gather(futures)
    back = prn.Accumulator.load(sorted(Path(out).iterdir())[0])
    want = prn.auc(pd.read_parquet(files[0]), score="m0", label="y")["auc"].iloc[0]
    got = back.auc()["auc"].iloc[0]
    return sum(s for s, _ in sizes), sum(e for _, e in sizes), got - want


def _state_phase(client, path, state_dir, fmt):
    t = time.perf_counter()
    files = sorted(path.glob("*.parquet"))
    size, n_entries, d = _states(client, files, state_dir, fmt)
    _line(
        client,
        f"states saved ({fmt})",
        time.perf_counter() - t,
        f"{len(files)} files, {n_entries:,} entries, {size / 2**30:.2f} GiB on disk "
        f"({size / max(n_entries, 1):.1f} bytes per entry); one loaded back: "
        f"AUC difference to the in-memory call {d:.1e}",
    )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rows", default="2e8")
    p.add_argument("--file-rows", default="2e6")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--memory-limit", default="6GiB")
    p.add_argument("--n-boot", type=int, default=50)
    p.add_argument("--phases", default="state,auc,bootstrap")
    p.add_argument("--state-format", choices=["npz", "arrow"], default="npz")
    p.add_argument("--max-check", default="2e7")
    p.add_argument("--path", default=None, help="Parquet folder (default: a temporary one)")
    p.add_argument("--reuse", action="store_true", help="keep files already in --path")
    p.add_argument("--trace", action="store_true", help="time each pass; sample memory")
    args = p.parse_args(argv)
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    import dask
    import dask.dataframe as dd

    n, per = int(float(args.rows)), int(float(args.file_rows))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    path = Path(args.path or tempfile.mkdtemp(prefix="prn_cont_"))
    path.mkdir(parents=True, exist_ok=True)
    state_dir = Path(tempfile.mkdtemp(prefix="prn_state_"))
    _write(path, n, per, args.reuse)
    phases = args.phases.split(",")
    kw = {"score": "m0", "label": "y"}
    boot = {"n_boot": args.n_boot, "seed": 0, "resampling": "poisson", "stratified": False}
    cluster, client = _cluster(args.workers, args.memory_limit)
    trace = _Trace(client) if args.trace else None
    try:
        ddf = dd.read_parquet(str(path))
        small = dd.from_pandas(logistic_frame(1000, 1, None, 9), npartitions=2)
        if "state" in phases:
            _state_phase(client, path, state_dir, args.state_format)
        with dask.config.set({"prroc_numba.dask_exact": "ranges"}):
            prn.auc(small, **kw)  # warm-up: the workers import and compile
            prn.bootstrap(small, **kw, **{**boot, "n_boot": 2})
            got = {}
            if "auc" in phases:
                t = time.perf_counter()
                got["auc"] = prn.auc(ddf, **kw)["auc"].iloc[0]
                _line(client, "exact AUC-PR (DG)", time.perf_counter() - t, f"{got['auc']:.12f}")
            if "bootstrap" in phases:
                t = time.perf_counter()
                res = prn.bootstrap(ddf, **kw, **boot)
                got["boot"] = res
                _line(
                    client,
                    f"Poisson bootstrap B={args.n_boot}",
                    time.perf_counter() - t,
                    res[["estimate", "se", "ci_low", "ci_high"]].iloc[0].round(8).to_dict(),
                )
        if n <= float(args.max_check) and ("auc" in got or "boot" in got):
            ref = pd.read_parquet(str(path))
            if "auc" in got:
                w = prn.auc(ref, **kw)["auc"].iloc[0]
                print(f"  in memory AUC-PR {w:.12f}, |diff| {abs(w - got['auc']):.1e}")
            if "boot" in got:
                w = prn.bootstrap(ref, **kw, **boot)
                cols = ["estimate", "se", "ci_low", "ci_high"]
                di = np.max(np.abs(w[cols].to_numpy() - got["boot"][cols].to_numpy()))
                print(f"  in memory bootstrap: max |interval difference| {di:.1e}")
        print(f"load average at the end {os.getloadavg()[0]:.1f}", flush=True)
        print(f"written to disk by Dask's spilling, per worker: {_spilled(client)}", flush=True)
    finally:
        if trace is not None:
            trace.close()
        client.close()
        cluster.close()
        shutil.rmtree(state_dir, ignore_errors=True)
        if not args.path:
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
