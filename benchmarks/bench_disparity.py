"""Subgroup gaps: ``disparity`` against fairlearn's bootstrap, and at scale.

Run: ``python benchmarks/bench_disparity.py [peer] [scale] [engines] [options]`` (all
three by default).

* ``peer``: 1e5 rows, 5 groups (prevalences 3-11 %), one model. fairlearn's
  ``MetricFrame(metrics=average_precision_score, sensitive_features=g, n_boot=B_PEER,
  ci_quantiles=[0.025, 0.975])`` and ``difference_ci()`` (per-group AP with intervals
  and the between-groups difference with its interval) against ``disparity(...,
  method="ap", stratified=False, reference="between_groups")`` and the per-group call
  (``reference="overall"``), in the same process, one after the other (ours: the best
  of 3 calls). fairlearn is timed with a small ``B_PEER`` (its cost is linear in B);
  the ratio is per replicate.
* ``scale``: 10 models x 20 groups x 1e6 rows, B = 1000, paired, ``baseline=``: time
  and peak memory (tracemalloc: numpy's allocations are traced).
* ``engines``: the same kind of call with ``resampling="poisson"``, ``stratified=False``
  (``--models`` paired, ``--groups``, ``--rows``, ``--n-boot``; default 2 x 5 x 2e5,
  B = 200) in memory, on a Dask LocalCluster (``--workers`` processes of one thread,
  ``--memory-limit`` and ``--numba-threads`` each, ``--partitions``) and on a local SparkSession
  (``local[--workers]``, ``row_id=``), one after the other: time, peak resident memory
  (sampled: this process, the Spark driver's JVM, the two largest worker processes) and
  whether the frames equal the in-memory one. ``--skip dask`` / ``spark`` leaves one out.
  The issue's scale: ``engines --rows 1e6 --models 10 --groups 20 --n-boot 1000``.

The machine's load (``os.getloadavg``) is printed beside each figure.
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd

import prroc_numba as prn

B_OURS, B_PEER = 1000, 10


def groups_frame(n, n_groups, n_models, seed=0, prevalence=(0.03, 0.11)):
    """``n`` rows in ``n_groups`` groups of prevalence spread over ``prevalence``, and
    ``n_models`` binormal score columns whose separation varies by group."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, n_groups, n)
    prev = np.linspace(*prevalence, n_groups)[g]
    y = (rng.random(n) < prev).astype(np.int8)
    sep = np.linspace(0.8, 1.6, n_groups)[g]
    cols = {f"m{j}": y * sep * (1 + 0.05 * j) + rng.normal(size=n) for j in range(n_models)}
    return pd.DataFrame({"y": y, "g": np.char.add("g", g.astype(str)), **cols})


def _best(call, rounds=3):
    """The best time of ``rounds`` calls (the machine is shared), and the result."""
    best = np.inf
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = call()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _load():
    return f"load {os.getloadavg()[0]:.1f}"


def fairlearn_frame(y, score, group, n_boot, seed):
    """fairlearn's ``MetricFrame`` of average precision by group with ``n_boot``
    bootstrap replicates (95% quantiles)."""
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import average_precision_score

    return MetricFrame(
        metrics=average_precision_score,
        y_true=y,
        y_pred=score,
        sensitive_features=group,
        n_boot=n_boot,
        ci_quantiles=[0.025, 0.975],
        random_state=seed,
    )


def peer(n=100_000, n_groups=5):
    df = groups_frame(n, n_groups, 1)
    kw = {"score": "m0", "label": "y", "group": "g", "method": "ap", "seed": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.PrevalenceWarning)
        prn.disparity(df, **kw, n_boot=20)  # compile outside the timing
        t_groups, ours_groups = _best(
            lambda: prn.disparity(df, **kw, n_boot=B_OURS, stratified=False)
        )
        t_btw, ours_btw = _best(
            lambda: prn.disparity(
                df, **kw, n_boot=B_OURS, stratified=False, reference="between_groups"
            )
        )
    load_ours = _load()
    t0 = time.perf_counter()
    mf = fairlearn_frame(df.y, df.m0, df.g, B_PEER, 0)
    ci = mf.difference_ci()
    t_peer = time.perf_counter() - t0
    print(f"## peer: {n:,} rows, {n_groups} groups, one model ({load_ours}; {_load()})")
    print(f"fairlearn MetricFrame(n_boot={B_PEER}) + difference_ci(): {t_peer:.2f} s")
    print(f"  = {t_peer / B_PEER * 1e3:.1f} ms per replicate; difference CI {ci}")
    for what, t in (("per group (overall)", t_groups), ("between_groups", t_btw)):
        per = t / B_OURS
        print(
            f"disparity {what}, n_boot={B_OURS}, stratified=False: {t:.2f} s = "
            f"{per * 1e3:.3f} ms per replicate; 1/{(t_peer / B_PEER) / per:,.0f} of fairlearn's"
        )
    by = mf.by_group.to_numpy()
    diff = np.abs(ours_groups.estimate.to_numpy() - by).max()
    print(f"largest |ours - fairlearn| per-group AP: {diff:.2e}")
    print(f"between-groups difference: ours {ours_btw.difference.iloc[0]:.6f}, ", end="")
    print(f"fairlearn {mf.difference():.6f}")


def scale(n=1_000_000, n_groups=20, n_models=10, n_boot=B_OURS):
    df = groups_frame(n, n_groups, n_models, seed=1)
    models = [f"m{j}" for j in range(n_models)]
    kw = {"score": models, "label": "y", "group": "g", "baseline": "m0", "seed": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prn.PrevalenceWarning)
        prn.disparity(df.head(20_000), **kw, n_boot=20)  # compile outside the timing
        tracemalloc.start()
        t0 = time.perf_counter()
        res = prn.disparity(df, **kw, n_boot=n_boot)
        t = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    data_mb = df.memory_usage(deep=True).sum() / 2**20
    print(f"## scale: {n_models} models x {n_groups} groups x {n:,} rows, B={n_boot}, paired,")
    print(f"baseline=: {t:.1f} s ({_load()}), {len(res)} rows; peak traced memory")
    print(f"{peak / 2**20:.0f} MiB (the data frame itself: {data_mb:.0f} MiB)")


N_ENGINES = 200_000


def _same(a, b):
    """ "exactly" when the frames are equal value for value (NaN where both are NaN),
    else the largest absolute difference of their numbers."""
    try:
        pd.testing.assert_frame_equal(a, b, check_dtype=False, rtol=0, atol=0)
    except AssertionError:
        x, y = a.select_dtypes("number").to_numpy(float), b.select_dtypes("number").to_numpy(float)
        return f"to {np.nanmax(np.abs(x - y)):.1e}"
    return "exactly"


class _PeakRSS:
    """Peak resident memory of this process, of its ``java`` children (the Spark
    driver's JVM) and of each other process under it (the Dask workers, Spark's Python
    workers), sampled every 50 ms while the block runs. (A worker's own ``ru_maxrss``
    would not do: a process started from this one inherits its high-water mark.)"""

    def __enter__(self):
        import threading

        import psutil

        self.me, self.stop = psutil.Process(), threading.Event()
        self.py, self.jvm, self.others = 0, 0, {}

        def sample():
            while not self.stop.wait(0.05):
                self.py = max(self.py, self.me.memory_info().rss)
                jvm = 0
                for c in self.me.children(recursive=True):
                    try:
                        rss = c.memory_info().rss
                        if c.name() == "java":
                            jvm += rss
                        else:
                            self.others[c.pid] = max(self.others.get(c.pid, 0), rss)
                    except psutil.Error:
                        pass
                self.jvm = max(self.jvm, jvm)

        self.thread = threading.Thread(target=sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def __str__(self):
        jvm = f", driver JVM {self.jvm / 2**30:.2f} GiB" if self.jvm else ""
        top = sorted(self.others.values(), reverse=True)[:2]
        top = [f"{v / 2**30:.2f}" for v in top if v > 2**27]  # the workers, not helpers
        workers = f", the largest workers {' and '.join(top)} GiB" if top else ""
        return f"peak RSS: client {self.py / 2**30:.2f} GiB{jvm}{workers}"


def _timed(call):
    with _PeakRSS() as peak:
        t0 = time.perf_counter()
        out = call()
        t = time.perf_counter() - t0
    return t, out, peak


def engines(a):
    """The same Poisson call in memory, on a Dask LocalCluster and on a local Spark
    session (``row_id=``), one after the other in this process: time, peak memory and
    equality with the in-memory frame (``a``: the command line's options)."""
    import dask.dataframe as dd

    n, n_models, n_groups, n_boot = int(float(a.rows)), a.models, a.groups, a.n_boot
    df = groups_frame(n, n_groups, n_models, seed=2)
    df["rid"] = np.arange(n, dtype=np.int64)
    small = df.head(5000)
    models = [f"m{j}" for j in range(n_models)]
    kw = {"score": models, "label": "y", "group": "g", "baseline": "m0", "seed": 0}
    kw |= {"n_boot": n_boot, "resampling": "poisson", "stratified": False}
    warnings.simplefilter("ignore", prn.PrevalenceWarning)
    print(f"## engines: {n_models} models x {n_groups} groups x {n:,} rows, B={n_boot}, ", end="")
    print(f"poisson, paired, baseline= ({_load()})", flush=True)
    prn.disparity(small, **kw)  # compile outside the timings
    t, want, peak = _timed(lambda: prn.disparity(df, **kw))
    print(f"in memory: {t:.2f} s ({_load()}); {peak}", flush=True)
    if "dask" not in a.skip:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=a.workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=a.memory_limit,
            dashboard_address=":0",
            # one Numba thread per one-thread worker (as Spark's tasks): the workers
            # share the cores, and each one's kernels would otherwise start a thread per core
            env={"NUMBA_NUM_THREADS": str(a.numba_threads)},
        )
        with cluster, Client(cluster):
            prn.disparity(dd.from_pandas(small, npartitions=2), **kw)  # the workers compile
            ddf = dd.from_pandas(df, npartitions=a.partitions).persist()
            t, got, peak = _timed(lambda: prn.disparity(ddf, **kw))
            print(f"Dask LocalCluster ({a.workers} workers of {a.memory_limit}, 1 thread, ", end="")
            print(f"{a.numba_threads} Numba thread(s) each, ", end="")
            print(f"{a.partitions} partitions): {t:.2f} s ({_load()}), ", end="")
            print(f"equal to in memory {_same(got, want)}; {peak}", flush=True)
            del ddf
    if "spark" not in a.skip:
        _spark(a, df, small, kw, want)


def _spark(a, df, small, kw, want):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    spark = SparkSession.builder.master(f"local[{a.workers}]").config("spark.ui.enabled", "false")
    spark = spark.config("spark.sql.shuffle.partitions", str(a.partitions))
    spark = spark.config("spark.ui.showConsoleProgress", "false")
    spark = spark.config("spark.driver.memory", a.driver_memory).getOrCreate()
    try:
        prn.disparity(spark.createDataFrame(small), **kw, row_id="rid")  # the workers compile
        sdf = spark.createDataFrame(df).repartitionByRange(a.partitions, "rid").cache()
        sdf.count()
        t, got, peak = _timed(lambda: prn.disparity(sdf, **kw, row_id="rid"))
        print(f"Spark local[{a.workers}] ({a.partitions} partitions, row_id=): {t:.2f} s ", end="")
        print(f"({_load()}), equal to in memory {_same(got, want)}; {peak}", flush=True)
    finally:
        spark.stop()


def _args(argv):
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("parts", nargs="*", help="peer, scale and/or engines (default: all three)")
    p.add_argument("--rows", default=str(N_ENGINES), help="engines: rows (e.g. 1e6)")
    p.add_argument("--models", type=int, default=2, help="engines: score columns, paired")
    p.add_argument("--groups", type=int, default=5, help="engines: groups")
    p.add_argument("--n-boot", type=int, default=200, help="engines: replicates")
    p.add_argument("--partitions", type=int, default=8, help="engines: Dask/Spark partitions")
    p.add_argument("--workers", type=int, default=2, help="engines: Dask workers, Spark cores")
    p.add_argument("--memory-limit", default="4GiB", help="engines: each Dask worker's limit")
    p.add_argument("--numba-threads", type=int, default=1, help="engines: a Dask worker's")
    p.add_argument("--driver-memory", default="4g", help="engines: spark.driver.memory")
    p.add_argument("--skip", nargs="*", default=[], choices=["dask", "spark"])
    a = p.parse_args(argv)
    if set(a.parts) - {"peer", "scale", "engines"}:
        p.error(f"parts are peer, scale and engines, got {a.parts}")
    return a


if __name__ == "__main__":
    args = _args(sys.argv[1:])
    parts = args.parts or ["peer", "scale", "engines"]
    if "peer" in parts:
        peer()
    if "scale" in parts:
        scale()
    if "engines" in parts:
        engines(args)
