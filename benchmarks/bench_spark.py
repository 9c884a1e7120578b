"""Spark input: time against Spark's own evaluators on the same cached DataFrame.

Every run starts its own local SparkSession (``--master``, default ``local[2]``) and
builds its rows in Spark (``spark.range`` and random columns, 5% positives), cached and
counted before anything is timed. Each figure is checked: the library's AUC-ROC
against the evaluator's (always exact) and, on continuous scores, its AUC-PR
(``method="dg"``) against the evaluator's with ``numBins=0`` (without tie blocks Spark's
exact PR area is the Davis-Goadrich area).

* ``ratio`` -- ``prn.metrics(sdf, metrics=("auc_pr", "auc_roc"))`` (PR + ROC, one call)
  against ``BinaryClassificationEvaluator`` areaUnderPR + areaUnderROC, with its default
  ``numBins=1000`` and with ``numBins=0`` (exact); ``--kind tied`` rounds the scores to
  2 decimals. Also the Arrow transfer alone: a ``mapInArrow`` that only counts its rows
  (what every Python reduction of these columns pays before it computes anything), and
  each table path forced (``prroc_numba.spark_exact="table"``: Spark's own group-by;
  ``"partitions"``: each partition reduced in a Python worker), "auto" choosing between
  them by the first rows' ties.
* ``groups`` -- ``--groups`` groups (``by=``) against the evaluator looped over the
  groups (``filter``) and ``groupBy().applyInPandas`` with scikit-learn; also
  ``applyInPandas`` with a function that returns at once (its rows' movement alone).
* ``ranges`` -- the score-range path (forced) on ``--rows``: time and the driver
  process's peak resident memory, against the table path's where it runs.
* ``bootstrap`` -- ``prn.bootstrap(..., row_id=)`` (Poisson, B = ``--n-boot``) of AUC-PR
  for ``--models`` models paired: time and the Python workers' peak resident memory.
* ``wide`` -- ``--models`` score columns x ``--groups`` groups against collecting the
  rows (``toArrow().to_pandas()``, and ``toPandas()``) plus the in-memory call; "auto"
  (its path named; its first call on a frame too) and each table path forced.
* ``lake`` -- write a Parquet dataset partitioned by ``seg`` for the command line.
* ``driver`` -- the driver's Python process on the table path: peak memory per entry.
* ``tied`` -- Spark's exact PR area against the Davis-Goadrich area on tied scores.
* ``weighted`` -- continuous float weights (``0.5 + rand``, every row its own) on
  ``--rows`` continuous rows against the same rows unweighted, interleaved: "auto" (its
  path named) and each table path forced; the rows or entries that reach the driver.
* ``collect_first`` -- tied scores (``--kind``) at growing rows x score columns: the
  columns collected (what "auto" does without a probe up to ``COLLECT_FIRST`` rows)
  against Spark's group-by (forced ``"table"``), interleaved; the figures behind
  ``prroc_numba._spark.path.COLLECT_FIRST``.
* ``cold`` -- the first call in a fresh session (cold Python workers) against the
  second (``--kind tied``: the group-by path, which starts no Python worker).

Commands of the figures in docs/spark.md (run with ``nice -n 10``; say the load)::

    python benchmarks/bench_spark.py ratio --rows 1e6 --kind continuous
    python benchmarks/bench_spark.py ratio --rows 1e6 --kind tied
    python benchmarks/bench_spark.py ratio --rows 1e7 --kind continuous
    python benchmarks/bench_spark.py ratio --rows 1e7 --kind tied
    python benchmarks/bench_spark.py groups --groups 100 --rows 1e6 --loop-groups 10
    python benchmarks/bench_spark.py ranges --rows 1e8
    python benchmarks/bench_spark.py bootstrap --models 10 --rows 1e7 --n-boot 1000
    python benchmarks/bench_spark.py cold --rows 1e6
    python benchmarks/bench_spark.py cold --rows 1e6 --kind tied
    python benchmarks/bench_spark.py wide --rows 1e6 --models 3 --groups 20
    python benchmarks/bench_spark.py tied --rows 2e4
    python benchmarks/bench_spark.py driver --rows 1e6
    python benchmarks/bench_spark.py driver --rows 1e7
    python benchmarks/bench_spark.py driver --rows 1e7 --table-max 2e7
    python benchmarks/bench_spark.py weighted --rows 1e6 --groups 0
    python benchmarks/bench_spark.py collect_first --kind tied --repeat 7
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _session(master, driver_memory="4g"):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), path) if p)
    warnings.filterwarnings("ignore", "PySpark does not yet fully support", FutureWarning)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.driver.memory", driver_memory)
        .config("spark.executorEnv.PYTHONPATH", os.environ["PYTHONPATH"])
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _frame(spark, n, kind, partitions, models=1, groups=0, seed=0):
    """Cached rows: ``label`` (5% positives), ``score`` (or ``m0..``), ``rid``, ``g``."""
    from pyspark.sql import functions as F

    df = spark.range(0, int(n), numPartitions=partitions).withColumnRenamed("id", "rid")
    df = df.withColumn("label", (F.rand(seed) < 0.05).cast("int"))
    names = ["score"] if models == 1 else [f"m{k}" for k in range(models)]
    for k, name in enumerate(names):
        s = F.col("label") * (0.5 + 0.1 * k) + F.randn(seed + 1 + k)
        if kind == "tied":
            s = F.round(F.col("label") * 0.5 + F.rand(seed + 1 + k), 2)
        df = df.withColumn(name, s.cast("double"))
    if groups:
        df = df.withColumn("g", (F.col("rid") % groups).cast("int"))
    df = df.cache()
    df.count()
    return df, names


def _best(fn, repeat, what=""):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    # each figure as soon as it is measured (a long run cut short keeps what it had)
    print(
        json.dumps({"partial": what, "s": statistics.median(times), "load_1min": _load()}),
        flush=True,
    )
    return statistics.median(times), out


def _evaluator(sdf, score, bins):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    ev = BinaryClassificationEvaluator(rawPredictionCol=score, labelCol="label", numBins=bins)
    return (
        ev.setMetricName("areaUnderPR").evaluate(sdf),
        ev.setMetricName("areaUnderROC").evaluate(sdf),
    )


def _ours(sdf, score, by=None):
    import prroc_numba as prn

    return prn.metrics(sdf, score=score, label="label", by=by, metrics=("auc_pr", "auc_roc"))


def _path(spark, mode, fn):
    """``fn()`` with the session conf ``prroc_numba.spark_exact`` set to ``mode``."""
    spark.conf.set("prroc_numba.spark_exact", mode)
    try:
        return fn()
    finally:
        spark.conf.unset("prroc_numba.spark_exact")


def _paths(spark, call, ours, repeat):
    """The time of ``call`` on each forced table path (Spark's group-by, the Python
    workers' partitions), each checked against ``ours`` (the "auto" result; to rounding,
    1e-12, as "auto" takes the score ranges above ``spark_table_max``, which sum each
    range's area terms in another order)."""
    import pandas as pd

    out = {}
    for mode in ("table", "partitions"):
        t, got = _best(lambda m=mode: _path(spark, m, call), repeat, f"{mode} path")
        pd.testing.assert_frame_equal(got, ours, check_exact=False, rtol=0, atol=1e-12)
        out[f"{mode}_path_s"] = t
    return out


def _arrow_transfer(sdf, cols):
    import pyarrow as pa

    def count(batches):
        n = sum(b.num_rows for b in batches)
        yield pa.RecordBatch.from_pydict({"n": [n]})

    return sdf.select(*cols).mapInArrow(count, "n long").toArrow()["n"].to_numpy().sum()


def _load():
    return os.getloadavg()[0]


def _interleaved(fns, repeat, times=None):
    """``{name: (median seconds, last result)}`` of each ``fn`` after one warm-up call
    each, the calls taken in turn (ours, then each evaluator, ``repeat`` rounds), so that
    every side meets the same moments of the machine's load; ``times``, a dict given,
    receives each name's seconds round by round."""
    out = {name: None for name in fns}
    times = {} if times is None else times
    times.update({name: [] for name in fns})
    for name, fn in fns.items():
        out[name] = fn()
    for _ in range(repeat):
        for name, fn in fns.items():
            t = time.perf_counter()
            out[name] = fn()
            times[name].append(time.perf_counter() - t)
    for name in fns:
        med = statistics.median(times[name])
        print(json.dumps({"partial": name, "s": med, "all_s": times[name]}), flush=True)
    return {name: (statistics.median(times[name]), out[name]) for name in fns}


def ratio(a):
    spark = _session(a.master, a.driver_memory)
    sdf, (score,) = _frame(spark, a.rows, a.kind, a.partitions)
    got = _interleaved(
        {
            "prroc_numba": lambda: _ours(sdf, score),
            "evaluator default bins": lambda: _evaluator(sdf, score, 1000),
            "evaluator numBins=0": lambda: _evaluator(sdf, score, 0),
        },
        a.repeat,
    )
    (ours_t, ours), (ev_t, ev), (ev0_t, ev0) = got.values()
    paths = _paths(spark, lambda: _ours(sdf, score), ours, a.repeat)
    arrow_t, n = _best(lambda: _arrow_transfer(sdf, [score, "label"]), a.repeat, "arrow")
    assert n == int(a.rows)
    roc = float(ours["auc_roc"].iloc[0])
    assert abs(roc - ev0[1]) < 1e-9, (roc, ev0)  # ROC: exact on both sides
    if a.kind == "continuous":  # no tie block: Spark's exact PR area is the DG area
        assert abs(float(ours["auc_pr"].iloc[0]) - ev0[0]) < 1e-9, (ours, ev0)
    return {
        "case": f"{a.kind} {a.rows:.0e} rows",
        "prroc_numba_s": ours_t,
        "evaluator_default_bins_s": ev_t,
        "evaluator_numBins0_s": ev0_t,
        "ratio_default_bins": ours_t / ev_t,
        "ratio_numBins0": ours_t / ev0_t,
        **paths,
        "arrow_transfer_s": arrow_t,
        "auc_pr_dg": float(ours["auc_pr"].iloc[0]),
        "spark_auc_pr_numBins0": ev0[0],
        "spark_auc_pr_default_bins": ev[0],
        "auc_roc": roc,
        "load_1min": _load(),
    }


def groups(a):
    from pyspark.sql import functions as F

    spark = _session(a.master, a.driver_memory)
    sdf, (score,) = _frame(spark, a.rows, "continuous", a.partitions, groups=a.groups)

    # the evaluator over the first --loop-groups groups (all by default), its time
    # scaled to all groups when fewer ran (said in the output)
    n_loop = min(a.groups, a.loop_groups or a.groups)

    def loop():
        return [_evaluator(sdf.where(F.col("g") == g), score, 1000) for g in range(n_loop)]

    t = time.perf_counter()
    loop_out = loop()
    loop_t = (time.perf_counter() - t) * a.groups / n_loop
    print(json.dumps({"partial": "evaluator loop (scaled)", "s": loop_t}), flush=True)

    def sk(pdf):
        import pandas as pd
        from sklearn.metrics import average_precision_score, roc_auc_score

        return pd.DataFrame(
            {
                "g": [pdf["g"].iloc[0]],
                "ap": [average_precision_score(pdf["label"], pdf[score])],
                "roc": [roc_auc_score(pdf["label"], pdf[score])],
            }
        )

    def first_row(pdf):  # the rows shipped to the Python workers, nothing computed
        import pandas as pd

        return pd.DataFrame({"g": [pdf["g"].iloc[0]], "ap": [0.0], "roc": [0.0]})

    def apply(fn=sk):
        return (
            sdf.select("g", "label", score)
            .groupBy("g")
            .applyInPandas(fn, "g int, ap double, roc double")
            .toPandas()
        )

    got = _interleaved(
        {
            "prroc_numba": lambda: _ours(sdf, score, by="g"),
            "apply": apply,
            "apply_moved": lambda: apply(first_row),
        },
        a.repeat,
    )
    (ours_t, ours), (apply_t, app), (moved_t, _m) = got.values()
    paths = _paths(spark, lambda: _ours(sdf, score, by="g"), ours, a.repeat)
    app = app.sort_values("g").reset_index(drop=True)
    assert np.allclose(app["roc"], ours["auc_roc"], rtol=0, atol=1e-12)
    # the evaluator's default 1000 bins move its areas slightly (see docs/spark.md)
    assert np.allclose([x[1] for x in loop_out], ours["auc_roc"][:n_loop], rtol=0, atol=1e-3)
    return {
        "case": f"{a.groups} groups x {a.rows:.0e} rows",
        "evaluator_groups_run": n_loop,
        "prroc_numba_s": ours_t,
        "evaluator_loop_s": loop_t,
        "applyInPandas_sklearn_s": apply_t,
        "ratio_evaluator_loop": ours_t / loop_t,
        "ratio_applyInPandas": ours_t / apply_t,
        # applyInPandas with a function that returns at once: its rows' movement alone
        "applyInPandas_rows_moved_s": moved_t,
        "rows_moved_over_applyInPandas": moved_t / apply_t,
        **paths,
        "load_1min": _load(),
    }


def _peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ranges(a):
    spark = _session(a.master, a.driver_memory)
    sdf, (score,) = _frame(spark, a.rows, "continuous", a.partitions)
    before = _peak_rss_mib()
    spark.conf.set("prroc_numba.spark_exact", "ranges")
    t = time.perf_counter()
    out = _ours(sdf, score)
    took = time.perf_counter() - t
    spark.conf.unset("prroc_numba.spark_exact")
    roc = float(out["auc_roc"].iloc[0])
    res = {
        "case": f"range path, continuous {a.rows:.0e} rows, {a.partitions} partitions",
        "prroc_numba_s": took,
        "driver_python_peak_rss_mib_before": before,
        "driver_python_peak_rss_mib_after": _peak_rss_mib(),
        "auc_roc": roc,
        "load_1min": _load(),
    }
    print(json.dumps({"partial": res}), flush=True)
    # the rows are binormal (shift 0.5, unit variances): AUC-ROC = Phi(0.5 / sqrt(2)),
    # within a few standard errors (about 1e-4 at 1e8 rows)
    from statistics import NormalDist

    expected = NormalDist().cdf(0.5 / 2**0.5)
    se = (expected * (1 - expected) / (0.05 * a.rows)) ** 0.5
    assert abs(roc - expected) < 6 * se + 1e-4, (roc, expected)
    if a.check_evaluator:  # the evaluator's exact ROC: slow above 1e7 rows (an RDD sort)
        ev0 = _evaluator(sdf, score, 0)
        assert abs(roc - ev0[1]) < 1e-9, (roc, ev0)
        res["spark_auc_roc_numBins0"] = ev0[1]
    return res


def driver(a):
    """The driver's Python process on the table path ("auto"; continuous scores: the
    columns collected): its peak resident memory before and after one call on
    ``--rows`` rows, per entry, and the call's time (after a warm-up call on 1e4 rows
    that imports and compiles everything). With ``--evaluator``, Spark's evaluator
    (areaUnderPR + areaUnderROC, default bins and ``numBins=0``) timed once each on the
    same cached rows right after, and the ratios."""
    spark = _session(a.master, a.driver_memory)
    small, (score,) = _frame(spark, 1e4, "continuous", 2, seed=9)
    _ours(small, score)
    sdf, (score,) = _frame(spark, a.rows, a.kind, a.partitions)
    if a.table_max:
        spark.conf.set("prroc_numba.spark_table_max", str(a.table_max))
    if a.exact:  # a path forced: its memory per entry
        spark.conf.set("prroc_numba.spark_exact", a.exact)
    before = _peak_rss_mib()
    t = time.perf_counter()
    out = _ours(sdf, score)
    took = time.perf_counter() - t
    after = _peak_rss_mib()
    res = {
        "case": f"{a.kind} {a.rows:.0e} rows, {a.partitions} partitions",
        "path": out.attrs["spark_path"],
        "prroc_numba_s": took,
        "driver_python_peak_rss_mib_before": before,
        "driver_python_peak_rss_mib_after": after,
        "bytes_per_entry": (after - before) * 2**20 / a.rows,
        "auc_roc": float(out["auc_roc"].iloc[0]),
        "load_1min": _load(),
    }
    print(json.dumps({"partial": res}), flush=True)
    if a.evaluator:
        for bins in (1000, 0):
            t = time.perf_counter()
            ev = _evaluator(sdf, score, bins)
            ev_t = time.perf_counter() - t
            print(json.dumps({"partial": f"evaluator numBins={bins}", "s": ev_t}), flush=True)
            res[f"evaluator_numBins{bins}_s"] = ev_t
            res[f"ratio_numBins{bins}"] = took / ev_t
            assert abs(res["auc_roc"] - ev[1]) < (1e-9 if bins == 0 else 1e-3), (res, ev)
            if bins == 0 and a.kind == "continuous":  # no tie block: the DG area
                assert abs(float(out["auc_pr"].iloc[0]) - ev[0]) < 1e-9, (out, ev)
        res["load_1min_end"] = _load()
    spark.stop()
    return res


def lake(a):
    """Write the command line's input: ``--rows`` rows (``y``: 5% positives; ``s``
    continuous, ``t`` 2 decimals) as a Parquet dataset partitioned by ``seg`` (20
    ``seg=`` folders) under ``--out``. Then, e.g.::

        /usr/bin/time -v python -m prroc_numba metrics DIR --label y --score t --by seg \
            --engine spark --out results.parquet
    """
    import pyarrow as pa
    import pyarrow.dataset as pds

    n, rng = int(a.rows), np.random.default_rng(0)
    y = (rng.random(n) < 0.05).astype(np.int8)
    table = pa.table(
        {
            "seg": rng.integers(0, 20, n).astype(np.int32),
            "y": y,
            "s": y * 0.5 + rng.normal(size=n),
            "t": np.round(y * 0.5 + rng.random(n), 2),
        }
    )
    pds.write_dataset(
        table, a.out, format="parquet", partitioning=["seg"], partitioning_flavor="hive"
    )
    return {"rows": n, "out": a.out}


def _worker_peaks_mib():
    """Peak resident memory (VmHWM) of every live pyspark Python worker process."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"pyspark.daemon" not in cmd and b"pyspark.worker" not in cmd:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM"):
                    out.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return out


def bootstrap(a):
    import prroc_numba as prn

    spark = _session(a.master, a.driver_memory)
    sdf, names = _frame(spark, a.rows, "continuous", a.partitions, models=a.models)
    t = time.perf_counter()
    out = prn.bootstrap(
        sdf,
        score=names,
        label="label",
        n_boot=a.n_boot,
        seed=0,
        resampling="poisson",
        row_id="rid",
    )
    took = time.perf_counter() - t
    assert (out["ci_low"] <= out["estimate"]).all() and (out["estimate"] <= out["ci_high"]).all()
    return {
        "case": f"Poisson bootstrap B={a.n_boot}, {a.models} models x {a.rows:.0e} rows",
        "prroc_numba_s": took,
        "python_workers_peak_rss_mib": _worker_peaks_mib(),
        "load_1min": _load(),
    }


def cold(a):
    import prroc_numba as prn

    t0 = time.perf_counter()
    spark = _session(a.master, a.driver_memory)
    sdf, (score,) = _frame(spark, a.rows, a.kind, a.partitions)
    ready = time.perf_counter() - t0
    times = []
    for _ in range(2):
        t = time.perf_counter()
        prn.auc(sdf, score=score, label="label")
        times.append(time.perf_counter() - t)
    return {
        "case": f"first call in a fresh session, {a.kind} {a.rows:.0e} rows",
        "session_and_data_s": ready,
        "first_call_s": times[0],
        "second_call_s": times[1],
        "load_1min": _load(),
    }


def _long(sdf, names):
    """The wide frame's (model, score) entries in one score column, cached: one row per
    row and model, ``model`` the score column's name."""
    long = sdf.select("g", "label", *names).unpivot(["g", "label"], names, "model", "score")
    long = long.cache()
    long.count()
    return long


def wide(a):
    """``--models`` score columns x ``--groups`` groups (``by=``) on ``--rows`` cached
    rows: ``prn.auc`` ("auto", and each path forced unless ``--no-forced``) against
    collecting the rows (``toArrow().to_pandas()``, and ``toPandas()``) plus the
    in-memory call, interleaved; with ``--long``, also "auto" on the same (model, score)
    entries in one score column (``by=["g", "model"]``); the path "auto" named
    (``attrs["spark_path"]``); every result checked against the in-memory one."""
    import pandas as pd

    import prroc_numba as prn

    spark = _session(a.master, a.driver_memory)
    sdf, names = _frame(spark, a.rows, a.kind, a.partitions, models=a.models, groups=a.groups)
    kw = {"score": names, "label": "label", "by": "g"}

    def collect():
        return prn.auc(sdf.select("g", "label", *names).toArrow().to_pandas(), **kw)

    def to_pandas():  # the peer as a user writes it (Arrow-backed by default on Spark 4)
        return prn.auc(sdf.select("g", "label", *names).toPandas(), **kw)

    calls = {"collect_and_memory": collect, "auto": lambda: prn.auc(sdf, **kw)}
    calls["topandas_and_memory"] = to_pandas
    # a new frame object of the same cached rows each round, made before the clock
    # starts: "auto"'s first call on a frame (the count from the cache's statistics; the
    # probe above COLLECT_FIRST rows; the selection planned afresh)
    fresh = iter([sdf.alias(f"first{k}") for k in range(a.repeat + 1)])
    calls["auto_first_call"] = lambda: prn.auc(next(fresh), **kw)
    if a.long:
        long = _long(sdf, names)
        calls["one_column"] = lambda: prn.auc(long, score="score", label="label", by=["g", "model"])
    if not a.no_forced:
        for mode in ("table", "partitions"):
            calls[mode] = lambda m=mode: _path(spark, m, lambda: prn.auc(sdf, **kw))
    rounds = {}
    got = _interleaved(calls, a.repeat, rounds)
    want = got["collect_and_memory"][1]
    for name, (_t, frame) in got.items():
        if name == "one_column":  # the model as a key column: the same areas, in order
            assert np.array_equal(frame["auc"].to_numpy(), want["auc"].to_numpy()), name
            continue
        pd.testing.assert_frame_equal(frame, want, check_exact=True)
    floor = got["collect_and_memory"][0]
    out = {f"{n}_s": t for n, (t, _f) in got.items()}
    out.update({f"{n}_ratio": t / floor for n, (t, _f) in got.items()})
    for n in ("auto", "auto_first_call"):  # against the toPandas() peer
        out[f"{n}_over_topandas"] = got[n][0] / got["topandas_and_memory"][0]
        # each round's ratio to the peers of the same round (the load's drift cancels)
        for peer in ("collect_and_memory", "topandas_and_memory"):
            paired = np.divide(rounds[n], rounds[peer])
            out[f"{n}_over_{peer}_per_round"] = [float(np.median(paired)), float(paired.max())]
    if a.long:
        out["auto_over_one_column"] = got["auto"][0] / got["one_column"][0]
        out["one_column_path"] = got["one_column"][1].attrs["spark_path"]
    out["auto_path"] = got["auto"][1].attrs["spark_path"]
    out["curves"] = len(want)
    out["driver_python_peak_rss_mib"] = _peak_rss_mib()
    out["load_1min"] = _load()
    spark.stop()
    return out


def _collected_and_group_by(spark, sdf, kw, repeat):
    """:func:`_interleaved` of ``prn.auc`` with the columns collected (``COLLECT_FIRST``
    raised above the rows) and with Spark's group-by (forced ``"table"``)."""
    import prroc_numba as prn
    from prroc_numba._spark import path as P

    def collected():
        saved, P.COLLECT_FIRST = P.COLLECT_FIRST, 10**12
        try:
            return prn.auc(sdf, **kw)
        finally:
            P.COLLECT_FIRST = saved

    def group_by():
        return _path(spark, "table", lambda: prn.auc(sdf, **kw))

    return _interleaved({"collected": collected, "group_by": group_by}, repeat)


def collect_first(a):
    """Tied (or ``--kind``) rows at growing rows x score columns, cached: ``prn.auc``
    with the columns collected (``COLLECT_FIRST`` raised above the rows) against
    Spark's group-by (forced ``"table"``), interleaved, each checked against the other
    to the bit; ``{"rows x models x groups": {...}}``."""
    import pandas as pd

    spark = _session(a.master, a.driver_memory)
    out = {}
    for rows, models, groups in [
        (1e6, 1, 0), (2e6, 1, 0), (4e6, 1, 0), (8e6, 1, 0),
        (1e6, 3, 20), (2e6, 3, 20), (4e6, 3, 20),
    ]:  # fmt: skip
        sdf, names = _frame(spark, rows, a.kind, a.partitions, models=models, groups=groups)
        kw = {"score": names if models > 1 else "score", "label": "label"}
        if groups:
            kw["by"] = "g"
        got = _collected_and_group_by(spark, sdf, kw, a.repeat)
        pd.testing.assert_frame_equal(got["collected"][1], got["group_by"][1], check_exact=True)
        c, g = got["collected"][0], got["group_by"][0]
        key = f"{rows:.0e} rows x {models} models x {groups} groups"
        out[key] = {"entries": int(rows) * models, "collected_s": c, "group_by_s": g,
                    "collected_over_group_by": c / g, "load_1min": _load()}  # fmt: skip
        print(json.dumps({key: out[key]}), flush=True)
        sdf.unpersist()
    spark.stop()
    return out


def _tied_cases(n):
    """Tied scores whose precision falls across each tie block, rises across one, and
    a score of five grades: ``{name: (score, label)}`` (seed 0)."""
    r = np.random.default_rng(0)
    y1 = r.binomial(1, 0.1, n)
    y3 = r.binomial(1, 0.2, n)
    half = n // 2
    return {
        "good model, 1 decimal": (np.round(y1 * 1.5 + r.normal(size=n), 1), y1),
        "a top block below the next": (
            np.r_[np.full(half, 2.0), np.full(n - half, 1.0)],
            np.r_[r.binomial(1, 0.05, half), r.binomial(1, 0.5, n - half)],
        ),
        "five grades": (np.clip(np.round(y3 + r.normal(size=n)), -2, 2), y3),
    }


def tied(a):
    """Spark's exact PR area (``numBins=0``) against the Davis-Goadrich area on tied
    scores (``--rows`` rows per case): Spark's straight line across a tie block lies
    above the interpolated curve where precision falls across the block, below it
    where precision rises."""
    import pandas as pd
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    import prroc_numba as prn

    spark = _session(a.master, a.driver_memory)
    ev = BinaryClassificationEvaluator(
        rawPredictionCol="s", labelCol="y", metricName="areaUnderPR", numBins=0
    )
    out = {}
    for name, (s, y) in _tied_cases(int(a.rows)).items():
        df = pd.DataFrame({"s": s.astype(float), "y": y.astype(float)})
        dg = float(prn.auc(df, score="s", label="y", method="dg")["auc"].iloc[0])
        sp = ev.evaluate(spark.createDataFrame(df))
        out[name] = {"spark": sp, "dg": dg, "spark_minus_dg": sp - dg}
    spark.stop()
    return out


def _reaching_driver(spark, call, rows):
    """``call()`` once with the rows or entries that reach the driver's Python counted:
    the partitions' tables (``partitions``), Spark's grouped rows (the group-by), or the
    rows themselves (columns collected)."""
    import prroc_numba._spark as S

    G = S.G
    seen = []
    real = (S.accumulator_from_table, G.fetch, G.collected)

    def merged(table, *args):
        seen.append(("partition table entries", table.num_rows))
        return real[0](table, *args)

    def fetch(*args, **kw):
        t = real[1](*args, **kw)
        seen.append(("grouped rows", getattr(t, "num_rows", None)))
        return t

    def collected(*args):
        seen.append(("rows collected", rows))
        return real[2](*args)

    S.accumulator_from_table, G.fetch, G.collected = merged, fetch, collected
    try:
        out = call()
    finally:
        S.accumulator_from_table, G.fetch, G.collected = real
    return out, seen


def weighted(a):
    """Float weights (every row its own) against the same rows unweighted, interleaved:
    ``prn.metrics`` with "auto" (its path named) and each table path forced; each
    weighted result checked against the in-memory call (1e-12), and the rows or entries
    that reach the driver's Python counted once per case."""
    import pandas as pd
    from pyspark.sql import functions as F

    import prroc_numba as prn

    spark = _session(a.master, a.driver_memory)
    sdf, (score,) = _frame(spark, a.rows, a.kind, a.partitions, groups=a.groups)
    sdf = sdf.withColumn("w", 0.5 + F.rand(99)).cache()
    sdf.count()
    by = "g" if a.groups else None
    kw = {"score": score, "label": "label", "by": by, "metrics": ("auc_pr", "auc_roc")}
    cases = {}
    for mode in ("auto", "table", "partitions"):
        for weight in (None, "w"):
            name = f"{mode}_{'weighted' if weight else 'unweighted'}"

            def call(m=mode, w=weight):
                return _path(spark, m, lambda: prn.metrics(sdf, **kw, weight=w))

            cases[name] = call
    got = _interleaved(cases, a.repeat)
    cols = ["label", score, "w"] + (["g"] if by else [])
    pdf = sdf.select(*cols).toArrow().to_pandas()
    want = {w: prn.metrics(pdf, **kw, weight=w) for w in (None, "w")}
    out = {}
    for name, (t, frame) in got.items():
        w = "w" if name.endswith("_weighted") else None
        pd.testing.assert_frame_equal(frame, want[w], check_exact=False, rtol=1e-12, atol=0)
        _f, seen = _reaching_driver(spark, cases[name], int(a.rows))
        out[name] = {"s": t, "path": frame.attrs["spark_path"], "reaching_driver": seen}
    for mode in ("auto", "table", "partitions"):
        out[f"{mode}_weighted_over_unweighted"] = (
            out[f"{mode}_weighted"]["s"] / out[f"{mode}_unweighted"]["s"]
        )
    out["case"] = f"{a.kind} {a.rows:.0e} rows, {a.partitions} partitions, groups={a.groups}"
    out["load_1min"] = _load()
    spark.stop()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "what",
        choices=[
            "ratio",
            "groups",
            "ranges",
            "bootstrap",
            "cold",
            "wide",
            "tied",
            "driver",
            "lake",
            "weighted",
            "collect_first",
        ],
    )
    p.add_argument("--rows", type=float, default=1e6)
    p.add_argument("--kind", choices=["continuous", "tied"], default="continuous")
    p.add_argument("--groups", type=int, default=100)
    p.add_argument("--loop-groups", type=int, default=0, help="groups the evaluator loops over")
    p.add_argument("--models", type=int, default=10)
    p.add_argument("--n-boot", type=int, default=1000)
    p.add_argument("--partitions", type=int, default=8)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--table-max", type=float, default=None, help="driver: spark_table_max")
    p.add_argument("--out", default="lake", help="lake: the dataset's directory")
    p.add_argument("--evaluator", action="store_true", help="driver: time the evaluator too")
    p.add_argument("--exact", default=None, help="driver: prroc_numba.spark_exact (a path)")
    p.add_argument("--no-forced", action="store_true", help="wide: skip the forced paths")
    p.add_argument("--long", action="store_true", help="wide: the entries in one column too")
    p.add_argument("--driver-memory", default="4g", help="the local JVM's (it holds the cache)")
    p.add_argument(
        "--check-evaluator",
        action="store_true",
        help="ranges: also check against the evaluator's exact ROC (slow above 1e7 rows)",
    )
    a = p.parse_args(argv)
    out = globals()[a.what](a)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
