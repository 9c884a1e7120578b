"""Compile time is part of the user's experience: every kernel keeps ONE specialisation.

Kernels take one dtype path (float64 values and counts, int64 offsets), whatever the
user passes (int/bool/float labels, float32/int scores, weights, wide/long input,
Series or arrays, frames of points). A second specialisation means some input reached a
kernel with another dtype, layout or read-only flag (pandas copy-on-write hands out
read-only views), and costs a full extra compilation on every cold start. Two checks:

* fast: during a varied, typical session, every call from Python into a kernel is
  recorded; each kernel must see one argument-type tuple, with writable, C-contiguous
  arrays;
* thorough (``slow``): the same session in a fresh process with an EMPTY Numba cache
  (everything compiles, callees included); every dispatcher in ``prroc_numba._kernels``
  must end with at most one signature. (With a warm cache, callees are loaded inside
  their callers and never show their signatures: hence the empty cache.)
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import typeof
from numba.core.registry import CPUDispatcher

import prroc_numba as prn
import prroc_numba._kernels as kernels_pkg

ROOT = Path(__file__).resolve().parents[1]


def _dispatchers():
    out = {}
    for info in pkgutil.iter_modules(kernels_pkg.__path__):
        mod = importlib.import_module(f"{kernels_pkg.__name__}.{info.name}")
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == mod.__name__:
                out[f"{info.name}.{name}"] = obj
    return out


def _points_session(df):
    c = prn.PRCurve(
        pd.DataFrame({"recall": [0.2, 0.5, 0.9], "precision": [0.9, 0.6, 0.3]}), n_pos=50, n_neg=200
    )
    c.to_roc().hull()
    c.precision_at([0.1, 0.4], hull=True)
    c.resample(11)
    c.auc()
    prn.ROCCurve(fpr=[0.1, 0.4], tpr=[0.5, 0.8], pos_neg_ratio=0.25).to_pr().auc("integral")
    pts = prn.pr_curve(df, score="s", label="y", by="g")
    prn.interpolate(pts, grid=11, by="g", hull=True)
    prn.interpolate(prn.roc_curve(df, score="s", label="y", by="g"), grid=11, by="g", space="roc")
    prn.average_curves(pts, grid=11, curve="g")


def _dask_session(df):
    import dask
    import dask.dataframe as dd

    ddf = dd.from_pandas(df, npartitions=3)
    with dask.config.set(scheduler="synchronous"):
        prn.auc(ddf, score="s", label="y", by="g")
        prn.bootstrap(ddf, score=["s", "si"], label="y", n_boot=20, seed=0, resampling="poisson")
        prn.bootstrap_curve(
            ddf, score="s", label="y", n_boot=20, seed=0, resampling="poisson", grid=11
        )
        with dask.config.set({"prroc_numba.dask_exact": "ranges"}):  # the score ranges
            prn.auc(ddf, score="s", label="y", by="g", hull=True)
            prn.auc(ddf, score="s", label="y", by="g")
            prn.bootstrap(
                ddf, score=["s", "si"], label="y", n_boot=20, seed=0, resampling="poisson"
            )
            prn.bootstrap(
                ddf, score="s", label="y", n_boot=20, seed=0, resampling="poisson", hull=True
            )
            prn.bootstrap_curve(
                ddf, score="s", label="y", n_boot=20, seed=0, resampling="poisson", grid=11
            )


def _spark_tasks_session(df):
    """The Spark wing's executor tasks run here on Arrow batches, as Spark hands them
    (read-only buffers): the table, the value rows and the score ranges' passes."""
    import pyarrow as pa

    from prroc_numba._spark import executor as X
    from prroc_numba._spark import range_tasks as RT

    frame = df[["g", "s", "si", "y", "w"]].assign(rid=np.arange(len(df), dtype=np.int64))
    batches = pa.Table.from_pandas(frame, preserve_index=False).to_batches(max_chunksize=100)
    kw = {
        "score": ["s", "si"],
        "label": "y",
        "by": ["g"],
        "weight": "w",
        "pos_label": None,
        "soft_labels": False,
    }
    wire = pa.schema(
        [
            ("g", pa.string()),
            ("model", pa.string()),
            ("score", pa.float64()),
            ("pos", pa.float64()),
            ("neg", pa.float64()),
            ("pos_b", pa.list_(pa.float64())),
            ("neg_b", pa.list_(pa.float64())),
            *[(c, pa.int64()) for c in X.LIMBS],  # weighted: the exact sums
            *[(c, pa.list_(pa.int64())) for c in X.B_LIMBS],
            ("__prn_label", pa.int64()),
            ("__prn_error", pa.string()),
        ]
    )
    cols = ["s", "si", "y", "w", "g", "rid"]
    list(X.reduce_batches(iter(batches), cols, kw, wire))
    out = pa.Table.from_batches(list(X.reduce_batches(iter(batches), cols, kw, wire, "rid", 0, 20)))
    from prroc_numba._spark.bridge import accumulator_from_table

    rows = out.filter(pa.compute.is_null(out["__prn_label"])).drop_columns(
        ["__prn_label", "__prn_error"]
    )
    acc = accumulator_from_table(rows, ["g"], ["s", "si"])
    layout = acc.table()  # the curves' keys
    from prroc_numba._core.reading import layout_of

    lay = layout_of(acc)
    # the entries with their global curve (the curves task), in one range (part 0)
    table = pa.Table.from_pandas(layout, preserve_index=False)
    keyed = pa.Table.from_batches(list(RT.curves_task(table.to_batches(), lay, ["g", "model"])))
    zeros = pa.array(np.zeros(keyed.num_rows, dtype=np.int64))
    ent = keyed.append_column(RT.PART, zeros).to_batches()
    C = lay.n_curves
    z = np.zeros((1, C))
    list(RT.totals_task(iter(ent), lay, ["g", "model"]))
    list(RT.areas_task(iter(ent), lay, ["g", "model"], z, z, [0, 1]))
    list(RT.hulls_task(iter(ent), lay, ["g", "model"], z, z))
    list(RT.bins_task(iter(ent), lay, ["g", "model"], np.zeros(C), np.arange(C + 1)))
    vschema = pa.schema(
        [
            (RT.CURVE, pa.int64()),
            ("score", pa.float64()),
            (RT.ROW, pa.int64()),
            ("pos", pa.float64()),
            ("neg", pa.float64()),
            ("__prn_label", pa.int64()),
            ("__prn_error", pa.string()),
        ]
    )
    vals = pa.Table.from_batches(list(X.value_rows(iter(batches), cols, kw, vschema, lay, "rid")))
    vals = vals.filter(pa.compute.is_null(vals["__prn_label"]))
    vals = vals.append_column(RT.PART, pa.array(np.zeros(vals.num_rows, dtype=np.int64)))
    vb = vals.to_batches()
    list(RT.replicate_totals_task(iter(vb), C, 0, 20))
    z = np.zeros((1, 21, C))
    list(RT.replicate_sums_task(iter(vb), C, 0, z, z, 0))


def _typical_session():
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.2).astype(int)
    df = pd.DataFrame(
        {
            "g": np.repeat(["a", "b", "c"], n // 3),
            "s": rng.normal(size=n) + y,
            "s32": (rng.normal(size=n) + y).astype(np.float32),
            "si": rng.integers(0, 5, size=n),
            "y": y,
            "yb": y.astype(bool),
            "yf": y.astype(float),
            "w": rng.choice([0.5, 1.0, 2.0], size=n),
            "p": np.clip(y * 0.7 + rng.random(n) * 0.3, 0, 1),
        }
    )
    calls = [
        lambda: prn.pr_curve(df, score="s", label="y"),
        lambda: prn.pr_curve(df, score="s32", label="yb", by="g"),
        lambda: prn.roc_curve(df, score=["s", "si"], label="yf"),
        lambda: prn.roc_curve(score=df["s"], label=df["y"], weight=df["w"]),
        lambda: prn.confusion(df, score="si", label="y", by="g"),
        lambda: prn.auc(df, score="s", label="y"),
        lambda: prn.auc(df, score=["s", "s32", "si"], label="y", by="g", method="integral"),
        lambda: prn.auc(df, score="s", label="p", soft_labels=True, method="ap"),
        lambda: prn.auc(df, score="s", label="y", curve="roc", weight="w"),
        lambda: prn.auc(df, score="s", label="y", hull=True),
        lambda: prn.auc_pr(df["y"].to_numpy(), df["s32"].to_numpy()),
        lambda: prn.auc_roc(df["yb"], df["si"]),
        lambda: prn.auc_pr(list(df["y"]), list(df["s"]), method="trapezoid"),
    ]
    calls += [
        lambda: prn.roc_curve(df, score="s", label="y", hull=True),
        lambda: prn.pr_curve(df, score="s", label="y", by="g", hull=True),
        lambda: prn.pr_curve(df, score="si", label="y", interpolate="dg"),
        lambda: prn.interpolate(prn.pr_curve(df, score="s", label="y", by="g"), grid=11, by="g"),
        lambda: prn.bootstrap(df, score=["s", "si"], label="y", n_boot=20, seed=0),
        lambda: prn.compare(df, score=["s", "si"], label="y", n_boot=20, seed=0),
        lambda: prn.bootstrap_curve(df, score="s", label="y", n_boot=20, seed=0, grid=11),
        lambda: prn.bootstrap_curve(
            df, score=["s", "si"], label="y", fold="g", n_boot=20, seed=0, grid=11
        ),
        lambda: prn.bootstrap(df, score="s", label="y", weight="w", fold="g", n_boot=20, seed=0),
        lambda: _points_session(df),
        lambda: prn.operating_points(
            df, score=["s", "si"], label="y", n_boot=20, seed=0, targets=["max_f1", "recall>=0.5"]
        ),
        lambda: prn.operating_points(
            df,
            score="s",
            label="y",
            by="g",
            thresholds=(prn.operating_points(df, score="s", label="y", by="g")),
            n_boot=20,
            seed=0,
        ),
        lambda: prn.auc_ci(df, score="s", label="y", weight="w"),
        lambda: prn.auc(df, score=["s", "si"], label="y", by="g", partial=(0, 0.3)),
        lambda: prn.auc_roc(df["y"], df["s"], partial=(0, 0.1), standardize=True),
        lambda: prn.bootstrap(
            df,
            score="s",
            label="y",
            n_boot=20,
            seed=0,
            partial=(0, 0.5),
            cluster="g",
            stratified=False,
        ),
        lambda: prn.bootstrap(
            df, score=["s", "si"], label="y", weight="w", n_boot=20, seed=0, resampling="poisson"
        ),
        lambda: prn.bootstrap_curve(
            df,
            score="s",
            label="p",
            soft_labels=True,
            n_boot=20,
            seed=0,
            grid=11,
            resampling="poisson",
        ),
        lambda: prn.Accumulator().update(df, score=["s", "si"], label="y", by="g").auc(),
        lambda: _dask_session(df),
        lambda: _spark_tasks_session(df),
    ]
    for call in calls:
        call()


@contextmanager
def _record_kernel_calls():
    """Record the argument types of every call from Python into a kernel."""
    calls = defaultdict(set)
    original = CPUDispatcher.__call__

    def recording(self, *args, **kwargs):
        mod = getattr(self.py_func, "__module__", "")
        if mod.startswith("prroc_numba._kernels."):
            name = f"{mod.rsplit('.', 1)[1]}.{self.py_func.__name__}"
            calls[name].add(tuple(str(typeof(a)) for a in args))
        return original(self, *args, **kwargs)

    CPUDispatcher.__call__ = recording
    try:
        yield calls
    finally:
        del CPUDispatcher.__call__


def test_kernels_are_called_with_one_type_path():
    with _record_kernel_calls() as calls:
        _typical_session()
    assert calls, "no kernel calls recorded"
    many = {k: sorted(v) for k, v in calls.items() if len(v) > 1}
    assert not many, f"kernels called with several argument types from Python: {many}"
    bad = {
        k: sorted(v)
        for k, v in calls.items()
        if any("readonly" in t or ("array" in t and ", C)" not in t) for tup in v for t in tup)
    }
    assert not bad, (
        "kernels handed read-only or non-contiguous arrays (each compiles a separate "
        f"specialisation; copy/np.ascontiguousarray at the boundary): {bad}"
    )


def _signatures_after_session():
    """Run the session and list each dispatcher's signatures (in this process)."""
    _typical_session()
    sigs = {name: [str(x) for x in d.signatures] for name, d in _dispatchers().items()}
    return {"signatures": sigs}


@pytest.mark.slow
def test_every_kernel_has_at_most_one_specialisation():
    # a fresh process with an empty cache: every kernel the session needs compiles, so
    # every dispatcher (callees too) lists what it was compiled for. NUMBA_OPT=0 halves
    # the compile time; typing (hence the signatures) does not depend on it.
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); import test_specialisations as t; "
        "print(json.dumps(t._signatures_after_session()))"
    )
    with tempfile.TemporaryDirectory(prefix="prroc_numba_cache_") as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": cache, "NUMBA_OPT": "0"}
        out = subprocess.run(
            [sys.executable, "-c", code],
            check=False,
            cwd=str(ROOT),
            capture_output=True,
            text=True,
            env=env,
        )
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    sigs = res["signatures"]
    assert sigs, "no Numba dispatchers found in prroc_numba._kernels"
    many = {name: s for name, s in sigs.items() if len(s) > 1}
    assert not many, (
        "kernels compiled more than one specialisation (pass float64 values and int64 "
        f"offsets, C-contiguous and writable): {many}"
    )
    used = [name for name, s in sigs.items() if len(s) == 1]
    for name in ["sweep._sweep_one", "area._areas_batch"]:
        assert name in used
